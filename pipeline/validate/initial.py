"""The initial ratings' columns a rule set declares as its own starting state
(RuleSet.initial_columns: Glicko-2's deviation and volatility), kept in the row's `extra`
as the file gave them: each typed as declared and checked by the rule set's own Pandera
model (RuleSet.InitialColumns); a row whose value does not parse or fails a check is
rejected with the column, the rule set and the file's text."""
from __future__ import annotations

import duckdb

from pipeline import systems
from pipeline.formats.cells import CONTROL_RE2
from pipeline.warehouse import extra_text, sql_name, sql_text


# The SQL types an initial column may declare, in words.
KINDS = {"integer": "a whole number", "bigint": "a whole number", "double": "a number", "date": "a date",
         "varchar": "a text", "boolean": "true or false"}


def declared_initial_columns() -> list[tuple[str, str, str, type | None]]:
    """(rule set, column, SQL type, its model) for each initial column a registered rule set
    declares. A rule set that cannot be loaded (its package failing to import, or its class
    refused: pipeline/ruleset/contracts.py) declares none: the others' columns are judged all
    the same, and its own are kept as the file gave them (the row's `extra`)."""
    found = []
    for name in systems.names():
        try:
            cls = systems.rule_set_class(name)
        except systems.UnknownRuleSet:  # said where its lists are rated or read, not here
            continue
        found += [(name, column, kind, cls.InitialColumns) for column, kind in cls.initial_columns.items()]
    return found


def initial_column_reasons(con: duckdb.DuckDBPyConnection) -> list[tuple[int, str]]:
    """(row_number, reason) of the rows of `typed_rows` (a ratings part) whose declared
    initial columns do not parse or fail their rule set's checks."""
    reasons: list[tuple[int, str]] = []
    keys = {k for (k,) in con.execute("select distinct unnest(json_keys(extra)) from typed_rows "
                                      "where extra is not null").fetchall()}
    if not keys:  # no column beyond the kind's own: no rule set's to check
        return []
    by_rule_set: dict[str, list[tuple[str, str, type | None]]] = {}
    for name, column, kind, model in declared_initial_columns():
        if column in keys:
            by_rule_set.setdefault(name, []).append((column, kind, model))
    if not by_rule_set:
        return []
    # why: a rule set's own Pandera model checks a frame: loaded only for such columns (a games file loads neither)
    import pandas as pd
    import pandera.pandas as pa

    for name, wanted in by_rule_set.items():
        # The text as the reasons quote it: control characters replaced, as every reason's value is.
        typed = ", ".join(f"try_cast({extra_text(c)} as {k}) as {sql_name(c)}, "
                          f"regexp_replace({extra_text(c)}, {sql_text(CONTROL_RE2)}, '\ufffd', 'g') "
                          f"as {sql_name(c + '__text')}" for c, k, _ in wanted)
        frame = con.sql(f"select row_number, {typed} from typed_rows").df().set_index("row_number")
        for column, kind, _ in wanted:
            bad = frame[frame[column].isna() & frame[column + "__text"].notna()]
            reasons += [(int(r), f"{column}: not {KINDS.get(kind.lower(), 'a ' + kind)} for the {name} rules ('{t}')")
                        for r, t in bad[column + "__text"].items()]
        model = wanted[0][2]
        if model is None:
            continue
        checked = frame[[c for c, _, _ in wanted]]
        try:
            model.validate(checked, lazy=True)
        except pa.errors.SchemaErrors as err:
            fc = err.failure_cases.dropna(subset=["index"])
            for r, column, check in zip(fc["index"], fc["column"], fc["check"]):
                text = frame.at[r, f"{column}__text"] if f"{column}__text" in frame else None
                if pd.isna(frame.at[r, column]) and pd.notna(text):
                    continue  # the parse's reason already says it
                reasons.append((int(r), f"{column}: {check} for the {name} rules ('{text}')"))
    return reasons
