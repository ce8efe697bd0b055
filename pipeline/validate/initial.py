"""The initial ratings' columns a rule set declares as its own starting state
(RuleSet.initial_columns: the national Elo's archives, FIDE's games to date and peak,
Glicko-2's deviation and volatility), kept in the row's `extra` as the file gave them,
each checked by the rule set's own Pandera model (RuleSet.InitialColumns):

- a model whose every check is declared as SQL (schemas.check, row_check: the national
  Elo's, FIDE's) runs compiled (checks.json), its columns read from `extra` and typed as
  its fields declare, beside the shared model's (`with_initial_columns`): its reasons are
  those of the shared columns ("archive_games: archived games must be ... (got '9')");
- any other (Glicko-2's Python checks, an installed rule set's) runs in Pandera on the
  values typed as declared (`initial_column_reasons`): a row whose value does not parse or
  fails a check is rejected with the column, the rule set and the file's text.

A compiled model judges a ratings part that gives one of its columns, and every ratings
part validated for a run that rates its lists (pipeline/rate/initial.py: rule_sets_of_run):
its rules about the whole row ("neither a rating nor archives") are its own, never another
rule set's reason to refuse an input (ruling R14: each rule set checks the initial ratings
it reads). One run in Pandera judges the columns a part gives."""
from __future__ import annotations

from dataclasses import replace

import duckdb

from pipeline import systems
from pipeline.formats.cells import CONTROL_RE2
from pipeline.validate.model_checks import Derived, Model, initial_models
from pipeline.warehouse import extra_text, sql_name, sql_text


# The SQL types an initial column may declare, in words.
KINDS = {"integer": "a whole number", "bigint": "a whole number", "double": "a number", "date": "a date",
         "varchar": "a text", "boolean": "true or false"}


def part_columns(con: duckdb.DuckDBPyConnection, staged: str, file_id: int) -> set[str]:
    """The columns a staged ratings part gives beyond the shared ones (its rows' `extra` keys)."""
    return {k for (k,) in con.execute(f"select distinct unnest(json_keys(extra)) from {staged} "
                                      "where file_id = ? and extra is not null", [file_id]).fetchall()}


def with_initial_columns(model: Model, given: set[str], rated: set[str], game: str | None) -> Model:
    """The ratings model `model` with the compiled initial columns of each rule set (of the
    warehouse's `game`) that judges the part: one whose columns it gives (`given`), or one
    the run rates (`rated`). Their columns are read from the row's `extra`, as the file gave them."""
    parts = [own for name, (of, own) in sorted(initial_models().items())
             if name not in systems.ORIGINS and (game is None or of == game)
             and (name in rated or given & set(own.columns))]
    if not parts:
        return model
    return replace(
        model, columns=(*model.columns, *(c for own in parts for c in own.columns)),
        not_null=(*model.not_null, *(c for own in parts for c in own.not_null)),
        parses={**model.parses, **{c: p for own in parts for c, p in own.parses.items()}},
        derived={**model.derived, **{c: Derived(extra_text(c)) for own in parts for c in own.columns}},
        checks=(*model.checks, *(c for own in parts for c in own.checks)),
        row_checks=(*model.row_checks, *(c for own in parts for c in own.row_checks)))


def declared_initial_columns() -> list[tuple[str, str, str, type]]:
    """(rule set, column, SQL type, its class) for each initial column a registered rule set
    declares whose model runs in Pandera (its model is read, and Pandera loaded, only for
    a file that gives one of its columns). A rule set that cannot be loaded (its package failing to import, or its class
    refused: pipeline/ruleset/contracts.py) declares none: the others' columns are judged all
    the same, and its own are kept as the file gave them (the row's `extra`)."""
    found = []
    for name in systems.names():
        if name in initial_models() and name not in systems.ORIGINS:  # judged compiled (with_initial_columns)
            continue
        try:
            cls = systems.rule_set_class(name)
        except systems.UnknownRuleSet:  # said where its lists are rated or read, not here
            continue
        found += [(name, column, kind, cls) for column, kind in cls.initial_columns.items()]
    return found


def initial_column_reasons(con: duckdb.DuckDBPyConnection) -> list[tuple[int, str]]:
    """(row_number, reason) of the rows of `typed_rows` (a ratings part) whose declared
    initial columns do not parse or fail their rule set's checks."""
    reasons: list[tuple[int, str]] = []
    keys = {k for (k,) in con.execute("select distinct unnest(json_keys(extra)) from typed_rows "
                                      "where extra is not null").fetchall()}
    if not keys:  # no column beyond the kind's own: no rule set's to check
        return []
    by_rule_set: dict[str, list[tuple[str, str, type]]] = {}
    for name, column, kind, cls in declared_initial_columns():
        if column in keys:
            by_rule_set.setdefault(name, []).append((column, kind, cls))
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
        model = wanted[0][2].InitialColumns
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
