"""The rejected rows, written out to be fixed.

`ratings rejects --out F.csv` writes the open rejects in their input layout (the
columns of their kind, as read), with `reason`, `submission`, `file` and `row`
after them. Ingesting the fixed file takes the rows in, and `file` and `row` tell
validation which reject each one fixes (pipeline/validate/).
"""
from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow.csv as pacsv

from pipeline.input_layout import columns
from pipeline.publish import replace_atomically

OPEN_REJECTS = """select f.submission_id, r.file_id, f.kind, r.row_number, r.reason, r.record
                  from rejects r join source_files f using (file_id)
                  where r.status = 'open' and ($submission is null or f.submission_id = $submission)"""


def export(con: duckdb.DuckDBPyConnection, out: Path, submission_id: int | None = None) -> dict[str, tuple[Path, int]]:
    """Write the open rejects to `out`, one file per kind when they are of several
    (`<name>-<kind>.csv`); returns kind → (file, rows)."""
    out = Path(out)
    params = {"submission": submission_id}
    kinds = [k for (k,) in con.execute(f"select distinct kind from ({OPEN_REJECTS}) order by kind", params).fetchall()]
    written = {}
    for kind in kinds:
        path = out if len(kinds) == 1 else out.with_name(f"{out.stem}-{kind}{out.suffix or '.csv'}")
        values = ", ".join(f"record->>'{c}' as \"{c}\"" for c in columns(kind))
        table = con.sql(f"""select {values}, reason, submission_id as submission, file_id as file, row_number as row
                            from ({OPEN_REJECTS}) where kind = $kind order by file_id, row_number""",
                        params=params | {"kind": kind}).to_arrow_table()
        # a plain CSV, not a public list: values go back in as they came (no spreadsheet escaping)
        replace_atomically(path, lambda tmp: pacsv.write_csv(table, tmp))
        written[kind] = (path, table.num_rows)
    return written
