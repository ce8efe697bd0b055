"""Validate: move each staged part's rows into the warehouse or the rejects table.

Each staged row is typed once in DuckDB, as the Pandera models of
`pipeline.validate.schemas` declare (pipeline/validate/typed.py); the models' checks,
compiled to SQL and the writers' Arrow checks (pipeline/validate/model_checks.py), judge
the typed values, every problem of every row reported at once; checks
against the warehouse are the SQL of sql/validate/. Every row of a part is stored,
rejected, or later withdrawn (sql/audits/rows_accounted.sql checks each row, not only
the counts).

A part staged again from the same content holds only its rows still rejected:
those taken in now close their reject (`taken in`). A row of a fix file (written
by `ratings rejects`) names the reject it fixes: taken in, it closes it (`fixed`);
rejected again, its own reject replaces the old one (`superseded`).
"""
from __future__ import annotations

import duckdb

# The validation itself is pipeline/validate/parts.py; this package's own module holds what
# the commands' summaries read and nothing that loads more than DuckDB (console.py imports it).


def rejects_of(con: duckdb.DuckDBPyConnection, file_id: int, limit: int) -> list[tuple[int, str]]:
    """The first open rejects of a file (row number, reason), for the run's summary."""
    return con.execute("""select row_number, reason from rejects where file_id = ? and status = 'open'
                          order by row_number limit ?""", [file_id, limit]).fetchall()
