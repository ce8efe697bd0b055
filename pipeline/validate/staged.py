"""Where a staged part's rows are: in the warehouse's staging tables, or, in a run, in
this connection's memory (a table of the part's own, or the in-memory staging tables).
Below the validation of a part (pipeline/validate/parts.py) and the holds of a
corrected file (pipeline/validate/holds.py), which both read them."""
from __future__ import annotations

import duckdb

from pipeline.ingest.tables import PART_TABLE, WITH_READING_PROBLEMS
from pipeline.warehouse import staged


def staged_rows(con: duckdb.DuckDBPyConnection, staging: str, kind: str, file_id: int) -> tuple[str, str | None]:
    """Where a part's staged rows are, as a relation with the staging table's columns, and
    the table of the part's own, when it has one (a run's file, ingest_file: numbered by
    their places in it, in the file's order, DuckDB's rowid), else None."""
    if staging == "temp" and con.execute("select 1 from temp.part_tables where file_id = ?", [file_id]).fetchall():
        own = f"temp.{PART_TABLE.format(file_id=file_id)}"
        problem = ", null::varchar as problem" if kind in WITH_READING_PROBLEMS else ""
        # rowids count from where the table's storage starts (in an open transaction, far
        # from 0): a row's number is its distance from the first
        number = f"rowid - (select min(rowid) from {own}) + 1"
        return f"(select {file_id} as file_id, {number} as row_number, *{problem} from {own})", own
    return staged(con, staging, kind), None
