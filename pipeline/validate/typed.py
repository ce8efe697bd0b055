"""A staged part's rows typed once, in DuckDB, as its input model declares them
(pipeline/validate/schemas.py, compiled: pipeline/validate/model_checks.py), and the
reasons its rows are rejected for.

The typed rows (`typed_rows`, a temporary table) are what everything after reads: the
model's checks (SQL over them, or the writers' Arrow checks on the columns they read),
the relational checks of sql/validate/ and the insert into the warehouse. Each row's
`unparsed` holds a bit for each column whose text did not parse (bit k: the k-th column
of its kind). Pandera is not loaded, nor pandas, but for a registry's titles (split into
FIDE's title columns as the writers split them: pipeline/formats/fide_layout.py).
"""
from __future__ import annotations

import duckdb
import pyarrow
import pyarrow.compute as pc

from pipeline.formats.cells import CONTROL_RE2
from pipeline.input_layout import columns
from pipeline.ruleset.forms import ARROW_CHECKS
from pipeline.validate.model_checks import ColumnCheck, Model
from pipeline.warehouse import sql_name, sql_text


def _read_and_parsed(model: Model) -> tuple[str, ...]:
    """The model's columns read from the staged row and parsed as a kind's own are: a rule
    set's initial columns, kept in `extra` (pipeline/validate/initial.py)."""
    return tuple(c for c in model.derived if c in model.parses)


def _bits(kind: str, model: Model) -> dict[str, int]:
    return {c: 1 << k for k, c in enumerate((*columns(kind), *_read_and_parsed(model))) if c in model.parses}


def typed_rows_sql(kind: str, model: Model, rows: str) -> str:
    """A select of `rows` (staged rows of `kind`) typed: each parsed column its value,
    every other column its text, and the bits of the columns that did not parse."""
    parse = model.parses
    own = _read_and_parsed(model)
    texts = "".join(f", {model.derived[c].sql} as {sql_name(c)}" for c in own)
    typed = "".join(f", {p.sql.format(c=sql_name(c))} as {sql_name(c + '__typed')}" for c, p in parse.items())
    kept = ", ".join(f"{sql_name(c + '__typed')} as {sql_name(c)}" if c in parse else sql_name(c)
                     for c in (*columns(kind), *own))
    unparsed = " + ".join(f"(case when {sql_name(c)} is not null and {sql_name(c + '__typed')} is null "
                          f"then {bit} else 0 end)" for c, bit in _bits(kind, model).items()) or "0"
    extra = ", extra" if kind in ("players", "ratings") else ""
    read = "".join(f", {d.sql} as {sql_name(c)}" for c, d in model.derived.items() if c not in own)
    return (f"select file_id, row_number, fixes_file, fixes_row{extra}, {kept}{read}, {unparsed} as unparsed "
            f"from (select *{typed} from (select *{texts} from ({rows})))")


def type_and_check(con: duckdb.DuckDBPyConnection, kind: str, model: Model, staged: str, file_id: int,
                   missing: set[str], only: str = "") -> None:
    """The part's staged rows (those of `only`, a condition, if given) typed into the
    temporary table `typed_rows`, checked by the model, and each failing row with its
    reasons in the temporary table `schema_rejects` (row_number, reason)."""
    con.execute(f"""create or replace temp table typed_rows as
        {typed_rows_sql(kind, model, f"select * from {staged} where file_id = {file_id} {only}")}""")
    create_schema_failures(con, model)
    con.execute(f"create or replace temp table schema_rejects as {reasons_sql(kind, model, staged, file_id, missing)}")
    con.execute("drop table schema_failures")


def create_schema_failures(con: duckdb.DuckDBPyConnection, model: Model) -> None:
    """The temporary table `schema_failures`: every check of the model every row of
    `typed_rows` fails (failures_sql, then the Arrow checks')."""
    con.execute(f"create or replace temp table schema_failures as {failures_sql(model)}")
    for check in model.checks:
        if check.arrow is not None:
            con.register("arrow_failures", pyarrow.table({"row_number": arrow_failures(con, check)}))
            con.execute("""insert into schema_failures
                           select row_number, ?, ?, false, []::varchar[] from arrow_failures""",
                        [check.column, check.name])
            con.unregister("arrow_failures")


def failures_sql(model: Model) -> str:
    """Every check every typed row fails, as Pandera's lazy validation lists them: row_number,
    column, check, whole_row (a row check: its name is the reason), reads (the columns it
    reads). A column check judges the values that are there; a row check that cannot
    judge a row (NULL) passes it."""
    parts = [f"select row_number, {sql_text(c)} as \"column\", 'not_nullable' as \"check\", false as whole_row, "
             f"[]::varchar[] as reads from typed_rows where {sql_name(c)} is null" for c in model.not_null]
    parts += [f"select row_number, {sql_text(check.column)}, {sql_text(check.name)}, false, []::varchar[] "
              f"from typed_rows where {sql_name(check.column)} is not null "
              f"and not coalesce(({check.sql.format(c=sql_name(check.column))}), true)"
              for check in model.checks if check.sql is not None]
    # As Pandera's: a row check does not judge a row whose model columns are all empty.
    empty = " and ".join(f"{sql_name(c)} is null" for c in model.columns)
    parts += [f"select row_number, null, {sql_text(check.name)}, true, "
              f"[{', '.join(sql_text(c) for c in check.reads)}]::varchar[] from typed_rows "
              f"where not coalesce(({check.sql.format(**{c: sql_name(c) for c in check.reads})}), true) "
              f"and not ({empty})" for check in model.row_checks]
    return " union all ".join(parts) or ("select null::bigint as row_number, null::varchar as \"column\", "
                                         "null::varchar as \"check\", null::boolean as whole_row, "
                                         "null::varchar[] as reads where false")


def arrow_failures(con: duckdb.DuckDBPyConnection, check: ColumnCheck) -> pyarrow.Array:
    """The row numbers of the typed rows whose value in the check's column fails one of
    the writers' Arrow checks (ARROW_CHECKS)."""
    values = con.sql(f"select row_number, {sql_name(check.column)} as v from typed_rows "
                     f"where {sql_name(check.column)} is not null").to_arrow_table()
    return values["row_number"].filter(pc.invert(ARROW_CHECKS[check.arrow](values["v"])))


def reasons_sql(kind: str, model: Model, staged: str, file_id: int, missing: set[str]) -> str:
    """The reasons of the rows that fail the model: `schema_failures` (`failures_sql`,
    `arrow_failures`) and the texts that did not parse, each with the text as the file gives it.

    A failure on a value that did not parse is the parse's alone: the check sees NULL
    there (a not-null check fails), and a row check that reads it does not judge the row."""
    bits = _bits(kind, model)
    parse = model.parses
    unparsed = " union all ".join(
        f"select row_number, {sql_text(c)} as \"column\", {sql_text(parse[c].reason)} as \"check\" "
        f"from typed_rows where unparsed & {bit} <> 0" for c, bit in bits.items()) or \
        "select null::bigint as row_number, null::varchar as \"column\", null::varchar as \"check\" where false"
    given = [f"when {sql_text(c)} then s.{sql_name(c)}" for c in columns(kind)]
    given += [f"when {sql_text(c)} then {d.sql}" for c, d in model.derived.items()]  # `extra` is the staged row's
    raw = f"case f.\"column\" {' '.join(given)} end"
    # A value is shown with its control characters replaced: a reason is a line of the
    # run's summary and of `ratings rejects`, which the value must not break.
    text = f"regexp_replace({raw}, {sql_text(CONTROL_RE2)}, '\ufffd', 'g')"
    gone = "[" + ", ".join(sql_text(c) for c in sorted(missing)) + "]::varchar[]"
    wrong_values = "".join(
        f"when not f.whole_row and f.\"check\" = {sql_text(p.reason)} "
        f"and regexp_full_match({raw}, {sql_text(p.layout)}) then f.\"column\" || ': ' || {sql_text(p.wrong_value)} || ' (' || {text} || ')' "
        for p in {(p.reason, p.layout): p for p in parse.values() if p.layout}.values())
    said = {check.name: check.detail for check in model.row_checks if check.detail is not None}
    read = sorted({c for check in model.row_checks if check.detail is not None for c in check.reads})
    details = "".join(
        f"when f.whole_row and f.\"check\" = {sql_text(name)} then f.\"check\" || ' (' || "
        f"({detail.format(**{c: f't.{sql_name(c)}' for c in read})}) || ')' " for name, detail in said.items())
    typed = (f"left join (select row_number, {', '.join(sql_name(c) for c in read)} from typed_rows) t "
             "on t.row_number = f.row_number") if read else ""
    return f"""
        with unparsed as ({unparsed}),
        checked as (
            select row_number, "column", "check", whole_row from schema_failures f
            where not exists (select 1 from unparsed u where u.row_number = f.row_number
                              and (not f.whole_row and u."column" = f."column"
                                   or f.whole_row and list_contains(f.reads, u."column")))
        ),
        failed as (
            select row_number, "column", "check", whole_row from checked
            union all select row_number, "column", "check", false from unparsed
        )
        select distinct f.row_number,
               case {details}when f.whole_row then f."check"
                    when f."check" = 'not_nullable' and list_contains({gone}, f."column")
                        then f."column" || ': column missing from the file'
                    when f."check" = 'not_nullable' then f."column" || ': missing value'
                    {wrong_values}
                    else f."column" || ': ' || f."check" || ' (got ''' || {text} || ''')'
               end as reason
        from failed f join {staged} s on s.file_id = {file_id} and s.row_number = f.row_number
        {typed}"""
