"""Validate: move each staged file's rows into the warehouse or the rejects table.

Row checks are the Pandera models of `pipeline.schemas`, run lazily so every
problem of every row is reported at once; checks against the warehouse are the
SQL of sql/validate/. Rows read = rows accepted + rows rejected, per file.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import duckdb
import pandas as pd

from pipeline.config import KINDS
from pipeline.schemas import columns, rejection_reasons
from pipeline.systems import stored_system
from pipeline.warehouse import row, scalar, stage_sql, transaction

CHUNK_ROWS = 1_000_000

CLEAN_TABLE = {"players": "players", "ratings": "initial_ratings", "calendar": "calendar", "games": "games",
               "events": "go_events", "go_games": "go_games"}
WITH_PROBLEMS = ("games", "go_games")  # staged from tournament files, with the problems found reading them


@dataclass(frozen=True)
class Validated:
    file_id: int
    kind: str
    path: str
    rows_read: int
    rows_accepted: int
    rows_rejected: int


def validate_file(con: duckdb.DuckDBPyConnection, file_id: int, kind: str, staging: str = "main") -> Validated:
    """Check one staged file; accepted rows go to their table, the others to rejects."""
    path, rows_read, message = row(con,
        "select path, rows_read, message from source_files where file_id = ?", [file_id])
    missing = set(message.removeprefix("missing column(s): ").split(", ")) if message else set()
    system = stored_system(con)
    schema_rejects = pd.concat([rejection_reasons(kind, frame, missing, system)
                                for frame in _frames(con, f"{staging}.staged_{kind}", file_id, rows_read, kind)],
                               ignore_index=True)
    with transaction(con):
        con.register("schema_rejects", schema_rejects)
        # Views, not copies of the file: the SQL checks read every staged row (with
        # try_cast), the insert reads the accepted ones.
        # Rows with a problem found while reading (a bad TRF line) are rejected with it
        # and take no part in the other checks.
        read_problem = "problem is null" if kind in WITH_PROBLEMS else "true"
        con.execute(f"""create or replace temp view candidates as
            select * from {staging}.staged_{kind} where file_id = {file_id} and {read_problem}""")
        problems = (f"union all select row_number, problem from {staging}.staged_{kind} "
                    f"where file_id = {file_id} and problem is not null" if kind in WITH_PROBLEMS else "")
        con.execute(f"""create or replace temp table file_rejects as
            select row_number, string_agg(reason, '; ' order by reason) as reason from (
                select * from schema_rejects union all select * from ({stage_sql(f"validate/{kind}")})
                {problems}
            ) group by row_number""")
        record = ", ".join(f"'{c}': s.\"{c}\"" for c in columns(kind))
        con.execute(f"""insert into rejects
            select s.file_id, s.row_number, r.reason, to_json({{{record}}})
            from {staging}.staged_{kind} s join file_rejects r using (row_number)
            where s.file_id = {file_id}""")
        con.execute("""create or replace temp view accepted as
            select * from candidates c
            where not exists (select 1 from file_rejects r where r.row_number = c.row_number)""")
        if kind == "calendar":  # a calendar file replaces the nominal windows (R1)
            con.execute("delete from calendar where file_id is null")
        verb = "insert or replace" if kind == "players" else "insert"  # a registry update replaces the row
        con.execute(f"{verb} into {CLEAN_TABLE[kind]} {stage_sql(f'clean/{kind}')}")
        rejected = scalar(con, "select count(*) from file_rejects")
        accepted = rows_read - rejected
        con.execute(f"delete from {staging}.staged_{kind} where file_id = {file_id}")
        con.execute("""update source_files set rows_accepted = ?, rows_rejected = ?, status = 'validated'
                       where file_id = ?""", [accepted, rejected, file_id])
        con.execute("drop view accepted")
        con.execute("drop view candidates")
        con.execute("drop table file_rejects")
        con.unregister("schema_rejects")
    return Validated(file_id, kind, path, rows_read, accepted, rejected)


def _frames(con: duckdb.DuckDBPyConnection, table: str, file_id: int, rows: int, kind: str) -> Iterator[pd.DataFrame]:
    """The staged rows as pandas frames of at most CHUNK_ROWS rows, indexed by row
    number: the Pandera pass holds one chunk in memory, whatever the file's size."""
    names = ", ".join(f'"{c}"' for c in columns(kind))
    read_problem = "and problem is null" if kind in WITH_PROBLEMS else ""
    for first in range(0, max(rows, 1), CHUNK_ROWS):
        frame = con.sql(f"""select row_number, {names} from {table} where file_id = {file_id} {read_problem}
                            and row_number > {first} and row_number <= {first + CHUNK_ROWS}""")
        yield frame.to_arrow_table().to_pandas().set_index("row_number")


def validate_staged(con: duckdb.DuckDBPyConnection, staging: str = "main") -> list[Validated]:
    """Validate every staged file: registry, ratings and calendar before games."""
    pending = con.sql("select file_id, kind from source_files where status = 'staged' order by file_id").fetchall()
    order = {kind: i for i, kind in enumerate(KINDS)}
    pending.sort(key=lambda row: (order[row[1]], row[0]))
    return [validate_file(con, file_id, kind, staging) for file_id, kind in pending]


def rejects_of(con: duckdb.DuckDBPyConnection, file_id: int, limit: int) -> list[tuple[int, str]]:
    """The first rejected rows of a file (row number, reason), for the run's summary."""
    return con.execute("select row_number, reason from rejects where file_id = ? order by row_number limit ?",
                       [file_id, limit]).fetchall()


