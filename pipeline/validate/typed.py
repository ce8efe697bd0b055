"""A staged part's rows typed once, in DuckDB, as its Pandera model declares them
(pipeline/validate/schemas.py), and the reasons its rows are rejected for.

The typed rows (`typed_rows`, a temporary table) are what everything after reads: the
Pandera checks (only the columns they check, as Arrow-backed frames), the relational
checks of sql/validate/ and the insert into the warehouse. Each row's `unparsed` holds
a bit for each column whose text did not parse (bit k: the k-th column of its kind).
"""
from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pandas as pd
import pandera.pandas as pa
import pyarrow

from pipeline.formats.cells import CONTROL_RE2
from pipeline.input_layout import columns
from pipeline.validate.schemas import ROW_CHECK_DETAILS, ROW_CHECK_READS, Derived, Parse
from pipeline.warehouse import scalar, sql_name, sql_text


def parses(model: type[pa.DataFrameModel]) -> dict[str, Parse]:
    """The model's parsed columns (by their names in the file) and their parses."""
    return {name: column.metadata["parse"] for name, column in model.to_schema().columns.items()
            if column.metadata and "parse" in column.metadata}


def derived(model: type[pa.DataFrameModel]) -> dict[str, Derived]:
    """The model's columns read from the staged row (not input columns of its kind)."""
    return {name: column.metadata["derived"] for name, column in model.to_schema().columns.items()
            if column.metadata and "derived" in column.metadata}


def _bits(kind: str, model: type[pa.DataFrameModel]) -> dict[str, int]:
    return {c: 1 << k for k, c in enumerate(columns(kind)) if c in parses(model)}


def typed_rows_sql(kind: str, model: type[pa.DataFrameModel], rows: str) -> str:
    """A select of `rows` (staged rows of `kind`) typed: each parsed column its value,
    every other column its text, and the bits of the columns that did not parse."""
    parse = parses(model)
    typed = "".join(f", {p.sql.format(c=sql_name(c))} as {sql_name(c + '__typed')}" for c, p in parse.items())
    kept = ", ".join(f"{sql_name(c + '__typed')} as {sql_name(c)}" if c in parse else sql_name(c)
                     for c in columns(kind))
    unparsed = " + ".join(f"(case when {sql_name(c)} is not null and {sql_name(c + '__typed')} is null "
                          f"then {bit} else 0 end)" for c, bit in _bits(kind, model).items()) or "0"
    extra = ", extra" if kind in ("players", "ratings") else ""
    read = "".join(f", {d.sql} as {sql_name(c)}" for c, d in derived(model).items())
    return (f"select file_id, row_number, fixes_file, fixes_row{extra}, {kept}{read}, {unparsed} as unparsed "
            f"from (select *{typed} from ({rows}))")


def type_and_check(con: duckdb.DuckDBPyConnection, kind: str, model: type[pa.DataFrameModel], staged: str,
                   file_id: int, missing: set[str], chunk_rows: int, only: str = "") -> None:
    """The part's staged rows (those of `only`, a condition, if given) typed into the
    temporary table `typed_rows`, checked by the model, and each failing row with its
    reasons in the temporary table `schema_rejects` (row_number, reason)."""
    con.execute(f"""create or replace temp table typed_rows as
        {typed_rows_sql(kind, model, f"select * from {staged} where file_id = {file_id} {only}")}""")
    con.register("schema_failures", pyarrow.concat_tables(
        [FAILURES.empty_table(), *(failures(model, frame) for frame in frames(con, model, chunk_rows))]))
    con.execute(f"create or replace temp table schema_rejects as {reasons_sql(kind, model, staged, file_id, missing)}")
    con.unregister("schema_failures")


def checked_columns(model: type[pa.DataFrameModel]) -> list[str]:
    """The columns handed to Pandera: all but those the model makes optional and leaves
    unchecked (the games' game_id, event and round: a million texts not copied for nothing)."""
    schema = model.to_schema()
    read = {c for check in schema.checks for c in ROW_CHECK_READS.get(check.name, ())}
    return [name for name, column in schema.columns.items() if column.required or column.checks or name in read]


def frames(con: duckdb.DuckDBPyConnection, model: type[pa.DataFrameModel], chunk_rows: int) -> Iterator[pd.DataFrame]:
    """The typed rows' checked columns as Arrow-backed frames of at most `chunk_rows`
    rows, indexed by row number: the Pandera pass holds one chunk in memory."""
    names = ", ".join(sql_name(c) for c in checked_columns(model))
    last = scalar(con, "select coalesce(max(row_number), 0) from typed_rows")
    for first in range(0, max(last, 1), chunk_rows):
        table = con.sql(f"""select row_number, {names} from typed_rows
                            where row_number > {first} and row_number <= {first + chunk_rows}""").to_arrow_table()
        yield table.to_pandas(types_mapper=pd.ArrowDtype).set_index("row_number")


FAILURES = pyarrow.schema([("row_number", pyarrow.int64()), ("column", pyarrow.string()), ("check", pyarrow.string()),
                           ("whole_row", pyarrow.bool_()), ("reads", pyarrow.list_(pyarrow.string()))])


def failures(model: type[pa.DataFrameModel], frame: pd.DataFrame) -> pyarrow.Table:
    """Every check every row of `frame` fails (lazy validation): row_number, column,
    check, whole_row (a row check: its name is the reason), reads (the columns it reads)."""
    try:
        model.validate(frame, lazy=True)
    except pa.errors.SchemaErrors as err:
        fc = err.failure_cases
    else:
        return FAILURES.empty_table()
    if fc["index"].isna().any():  # a column or type missing from the frame: this code's error, not the file's
        raise RuntimeError(f"the typed rows do not fit {model.__name__}: {fc[fc['index'].isna()].to_dict('records')}")
    check = fc["check"].astype("str").str.replace(r"^isin\(\[.*\]\)$", "unknown code", regex=True).tolist()
    whole_row = (fc["schema_context"].astype("str") == "DataFrameSchema").tolist()
    return pyarrow.table({
        "row_number": fc["index"].astype("int64").to_numpy(),
        "column": fc["column"].astype("str").tolist(),
        "check": check,
        "whole_row": whole_row,
        "reads": [list(ROW_CHECK_READS.get(c, ())) if w else [] for c, w in zip(check, whole_row)],
    }, schema=FAILURES)


def reasons_sql(kind: str, model: type[pa.DataFrameModel], staged: str, file_id: int, missing: set[str]) -> str:
    """The reasons of the rows that fail the model: `schema_failures` (Pandera's, from
    `failures`) and the texts that did not parse, each with the text as the file gives it.

    A failure on a value that did not parse is the parse's alone: Pandera sees NULL
    there (a not-null check fails), and a row check that reads it does not judge the row."""
    bits = _bits(kind, model)
    parse = parses(model)
    unparsed = " union all ".join(
        f"select row_number, {sql_text(c)} as \"column\", {sql_text(parse[c].reason)} as \"check\" "
        f"from typed_rows where unparsed & {bit} <> 0" for c, bit in bits.items()) or \
        "select null::bigint as row_number, null::varchar as \"column\", null::varchar as \"check\" where false"
    given = [f"when {sql_text(c)} then s.{sql_name(c)}" for c in columns(kind)]
    given += [f"when {sql_text(c)} then {d.sql}" for c, d in derived(model).items()]  # `extra` is the staged row's
    raw = f"case f.\"column\" {' '.join(given)} end"
    # A value is shown with its control characters replaced: a reason is a line of the
    # run's summary and of `ratings rejects`, which the value must not break.
    text = f"regexp_replace({raw}, {sql_text(CONTROL_RE2)}, '\ufffd', 'g')"
    gone = "[" + ", ".join(sql_text(c) for c in sorted(missing)) + "]::varchar[]"
    wrong_values = "".join(
        f"when not f.whole_row and f.\"check\" = {sql_text(p.reason)} "
        f"and regexp_full_match({raw}, {sql_text(p.layout)}) then f.\"column\" || ': ' || {sql_text(p.wrong_value)} || ' (' || {text} || ')' "
        for p in {(p.reason, p.layout): p for p in parse.values() if p.layout}.values())
    said = {name: detail for name, detail in ROW_CHECK_DETAILS.items()
            if set(ROW_CHECK_READS[name]) <= set(model.to_schema().columns)}
    read = sorted({c for name in said for c in ROW_CHECK_READS[name]})
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
