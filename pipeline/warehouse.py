"""The DuckDB warehouse: connect, migrate, run sql/ stages, record runs."""
from __future__ import annotations

import contextlib
import datetime as dt
import glob
import hashlib
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb

from pipeline.config import KINDS, SQL_DIR


class WarehouseError(Exception):
    """The warehouse cannot be used; the message says why."""


class WarehouseBusy(WarehouseError):
    """Another process holds the warehouse (DuckDB allows one writer process)."""


class WarehouseLayout(WarehouseError):
    """The warehouse was made by another version of the pipeline."""


class WarehouseMissing(WarehouseError):
    """A command that reads the warehouse was given a path where there is none."""


WAREHOUSE_VERSION = 14  # the layout of sql/schema.sql and sql/migrations/; 2: lists have revisions; 3: the FIDE
# rule set; 4: submissions, withdrawn rows, registry versions, corrections with a trail; 5: series (several rule
# sets); 6: events for chess too (rated_in, games_scheduled), lists in their rating order (position);
# 7: published_files (what each list's publication wrote); 8: reject_closures and duplicate_decisions (the
# officer's decisions on rejects no fix can take in and on possible duplicate games); 9: each rule set's
# own columns in tables of its own (RuleSet.extensions), none added to the shared tables; 10: parameter
# studies (`ratings tune`: studies, study_trials, study_calibration); 11: corrections set aside where their list
# no longer rates their player, or would not be made (rated_at_entry, set_aside, set_aside_run); 12: the games
# a series does not rate (excluded_games: a history bound is a rule set's) and a tournament file's own dates
# (file_dates, ruling D1); 13: what a study's trials are scored by (studies.score: the rule set's own
# forecast or the yardstick) and the yardstick's figures beside (study_trials.yardstick_*); 14: the national
# Elo's and FIDE's initial columns in the initial ratings' `extra`, their rule sets' own (RuleSet.initial_columns)
# sql/schema.sql is the current layout, all a new warehouse runs; sql/migrations/<n>.sql brings layout n - 1 to n.
# A warehouse of layout 6 or later is brought up to date at its first writable connection; an older one is refused
# (rebuild it).
MIGRATED_FROM = 6


def connect(path: Path | str, read_only: bool = False, wait: float = 0.0) -> duckdb.DuckDBPyConnection:
    """Open the warehouse, creating it when writable and absent.

    A new warehouse is made whole under a temporary name and renamed into place,
    so that a run killed at any moment leaves either no warehouse or a complete
    one. Every connection checks the layout version, the read-only ones too.
    DuckDB locks the file for one process: while another run holds it, wait up
    to `wait` seconds, then stop with WarehouseBusy. A read-only connection
    also has file access from SQL switched off, so a query cannot write files.
    """
    path = Path(path)
    _remove_stale_creations(path)
    if read_only and not path.is_file():
        raise WarehouseMissing(f"{path}: no warehouse there (check --warehouse; `ratings run` makes one)")
    if not read_only and not path.exists():
        _create(path)
    config = {"memory_limit": memory_limit()} | ({"enable_external_access": False} if read_only else {})
    deadline = time.monotonic() + wait
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only, config=config)
            break
        except (duckdb.ParserException, duckdb.InvalidInputException) as err:  # the memory limit given
            raise WarehouseError(f"RATINGS_DUCKDB_MEMORY={config['memory_limit']!r}: not a size DuckDB reads "
                                 f"({str(err).splitlines()[0]})") from err
        except duckdb.IOException as err:
            if "lock" not in str(err).lower():
                raise WarehouseError(f"{path}: cannot open the warehouse ({str(err).splitlines()[0]})") from err
            if time.monotonic() >= deadline:
                holder = re.search(r"PID \d+", str(err))
                raise WarehouseBusy(
                    f"{path} is in use by another run ({holder.group(0) if holder else 'another process'}); "
                    f"try again when it has finished, or give --wait SECONDS") from err
            time.sleep(0.2)
    _check_version(con, path, read_only)
    if not read_only:
        _refresh_views(con)
    return con


MEMORY_PER_CORE_MB = 150  # DuckDB's MB: 10^6 bytes


def memory_limit() -> str:
    """DuckDB's memory limit (RATINGS_DUCKDB_MEMORY, a DuckDB size such as "4GB"), by
    default 150 MB for each core DuckDB runs a thread on, two at least (300 MB on two
    cores): past it DuckDB spills to a folder beside the warehouse rather than growing,
    and lets go of the warehouse's blocks it has read rather than keep them beside what
    the next step needs (a long history's lists, after they are stored). By the core, as
    DuckDB works: each of its threads joins and sorts in memory of its own. What each
    limit cost and saved: bench/README.md."""
    return os.environ.get("RATINGS_DUCKDB_MEMORY") or f"{MEMORY_PER_CORE_MB * max(2, os.cpu_count() or 1)}MB"


def _create(path: Path) -> None:
    """The warehouse's tables, version row and views, written under a temporary name
    in the same folder, then renamed to `path` in one step.

    The first warehouse a process makes is built by running sql/schema.sql (the
    current layout: no migration) and sql/views.sql; its bytes are kept (a few
    hundred KB), and each later one of the same layout is those bytes written out,
    much less work than running the SQL again (the tests make hundreds). Either way
    the file appears whole, by the rename."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.creating-{os.getpid()}")
        tmp.unlink(missing_ok=True)
        schema = (SQL_DIR / "schema.sql").read_text()
        key = _layout_key(schema)
        if key in _TEMPLATES:
            tmp.write_bytes(_TEMPLATES[key])
        else:
            with duckdb.connect(str(tmp)) as con:
                con.execute(schema)
                con.execute("insert into warehouse_version values (?)", [WAREHOUSE_VERSION])
                _refresh_views(con)
            if not tmp.with_name(tmp.name + ".wal").exists():  # closed and checkpointed: the file is all of it
                _TEMPLATES[key] = tmp.read_bytes()
        os.replace(tmp, path)
    except (OSError, duckdb.IOException) as err:
        raise WarehouseError(f"{path}: cannot create the warehouse ({_reason(err)})") from err


def _remove_stale_creations(path: Path) -> None:
    """Remove the temporary files of creations of `path` whose process is gone: a run
    killed while _create wrote left them, and nothing else ever would."""
    try:
        leftovers = list(path.parent.glob(f".{glob.escape(path.name)}.creating-*"))
    except OSError:
        return
    for leftover in leftovers:
        found = re.fullmatch(rf"\.{re.escape(path.name)}\.creating-(\d+)(\.wal)?", leftover.name)
        if found and not _alive(int(found.group(1))):
            with contextlib.suppress(OSError):  # another process's cleaning, or a read-only folder
                leftover.unlink()


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # Windows' os.kill(pid, 0) would end the process, not probe it
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):  # another user's process, or not a pid this system checks
        return True
    return True


# An empty warehouse of each layout this process has made (see _create), by _layout_key.
_TEMPLATES: dict[str, bytes] = {}


def _layout_key(schema: str) -> str:
    """What a new warehouse's bytes depend on: the tables, the views, the version row,
    and the DuckDB that wrote them (its storage format)."""
    text = "\0".join([schema, (SQL_DIR / "views.sql").read_text(), str(WAREHOUSE_VERSION), duckdb.__version__])
    return hashlib.sha256(text.encode()).hexdigest()


def _reason(err: BaseException) -> str:
    return err.strerror if isinstance(err, OSError) and err.strerror else str(err).splitlines()[0]


def _refresh_views(con: duckdb.DuckDBPyConnection) -> None:
    """The analysts' views, made again only when sql/views.sql changed (they are
    derived: a new version of the pipeline may define them otherwise)."""
    text = (SQL_DIR / "views.sql").read_text()
    digest = hashlib.sha256(text.encode()).hexdigest()
    if row(con, "select value from settings where key = 'views_sha256'") != (digest,):
        con.execute(text)
        con.execute("insert or replace into settings values ('views_sha256', ?)", [digest])


def _migrations(found: int) -> list[Path]:
    """The files that bring layout `found` to WAREHOUSE_VERSION, in order."""
    return [SQL_DIR / "migrations" / f"{n}.sql" for n in range(found + 1, WAREHOUSE_VERSION + 1)]


def _migrate(con: duckdb.DuckDBPyConnection, found: int) -> None:
    """Each migration in one transaction with its version row: a run killed half-way
    leaves the warehouse at the layout before it, whole."""
    for n, migration in enumerate(_migrations(found), start=found + 1):
        with transaction(con):
            con.execute(migration.read_text())
            _after_migration(con, n)
            con.execute("insert into warehouse_version values (?)", [n])


def _after_migration(con: duckdb.DuckDBPyConnection, n: int) -> None:
    """Layout 9 moved each rule set's columns to tables of its own, made for every rule set
    of layout 8: those of rule sets the warehouse holds no series of, left empty, are dropped
    (the rule set's schema.sql makes them when it first rates), and so are the revisions
    tables left empty (the store makes them at a list's first revision). Layout 11: the
    corrections entered before it are told whether their list rated their player then."""
    if n == 11:
        _rated_at_entry(con)
    if n != 9:
        return
    for (name,) in con.execute("""select m.name from moved_tables m
                                  where not exists (select 1 from series s where s.system like m.system)
                                  union all select name from moved_tables where name like '%_revisions'
                                  union all select unnest(['player_state_revisions', 'calculations_revisions'])
                                  """).fetchall():
        if con.execute("select 1 from duckdb_tables() where table_name = ?", [name]).fetchall() \
                and not scalar(con, f"select count(*) from {name}"):
            con.execute(f"drop table {name}")
    con.execute("drop table moved_tables")


def _rated_at_entry(con: duckdb.DuckDBPyConnection) -> None:
    """Each correction's `rated_at_entry`: the player had games on its list in the list's
    revision in force when it was entered (an older revision's rows are in
    calculations_revisions, which only a warehouse with revisions has)."""
    rows = "select l.revision, k.series, k.list_id, k.player_id, k.games_played from calculations k join lists l " \
           "using (series, list_id)"
    if con.execute("select 1 from duckdb_tables() where table_name = 'calculations_revisions'").fetchall():
        rows += " union all select revision, series, list_id, player_id, games_played from calculations_revisions"
    con.execute(f"""
        update corrections c set rated_at_entry = coalesce((
            select bool_or(a.games_played > 0) from ({rows}) a
            where a.series = c.series and a.list_id = c.list_id and a.player_id = c.player_id
              and a.revision = (select max(r.revision) from list_revisions r
                                where r.series = c.series and r.list_id = c.list_id and r.computed_at <= c.entered_at)
        ), false)""")


def _check_version(con: duckdb.DuckDBPyConnection, path: Path, read_only: bool) -> None:
    """A warehouse of an older layout with migrations is brought up to date when
    writable, and refused with what to do when read-only (layout 9 moved the rule sets'
    columns to tables of their own, which every reader joins); one made by another layout
    (or not by this pipeline) is refused with a clear message, not half-used."""
    tables = {t for (t,) in con.execute("select table_name from duckdb_tables() where schema_name = 'main'"
                                        ).fetchall()}
    if "warehouse_version" in tables:
        found = con.execute("select max(version) from warehouse_version").fetchall()[0][0]
    else:  # the first layout had no version table
        found = 1 if tables else None
    if found is not None and MIGRATED_FROM <= found < WAREHOUSE_VERSION:
        if not read_only:
            _migrate(con, found)
            return
        con.close()
        raise WarehouseLayout(f"{path} has the layout of version {found}: a command that writes (ratings validate) "
                              f"brings it to version {WAREHOUSE_VERSION} once, keeping everything, then it can be read")
    if found != WAREHOUSE_VERSION:
        con.close()
        if not tables:
            raise WarehouseLayout(f"{path} is not a warehouse of this pipeline (a database without its tables): "
                                  "give the warehouse's path, or a new file name")
        if found is None:
            raise WarehouseLayout(f"{path} was left incomplete (no layout version: its creation was interrupted "
                                  "by an older version of the pipeline): delete it and run again")
        raise WarehouseLayout(f"{path} has the layout of version {found}, this pipeline needs version "
                              f"{WAREHOUSE_VERSION}: rebuild it from the input files into a new warehouse")


def sql_text(value: str | Path) -> str:
    """A value as an SQL string literal (where a statement cannot take a parameter: a
    view's definition, a table function's file name)."""
    return "'" + str(value).replace("'", "''") + "'"


def sql_name(name: str) -> str:
    """A column's name as an SQL identifier (a file's header may hold anything)."""
    return '"' + name.replace('"', '""') + '"'


def stage_sql(name: str) -> str:
    """The text of sql/<name>.sql (a pure SELECT, or a statement for audits)."""
    return (SQL_DIR / f"{name}.sql").read_text()


def stage(con: duckdb.DuckDBPyConnection, name: str) -> duckdb.DuckDBPyRelation:
    """Run the SELECT of sql/<name>.sql and return its rows as a relation."""
    return con.sql(stage_sql(name))


@contextlib.contextmanager
def run_record(con: duckdb.DuckDBPyConnection, command: str, arguments: dict, by: str | None = None) -> Iterator[int]:
    """Record a run in `runs`: running, then done or failed."""
    run_id = scalar(con, "select nextval('run_ids')")
    con.execute("insert into runs values (?, ?, ?, ?, null, 'running', ?)",
                [run_id, command, json.dumps(arguments, default=str, sort_keys=True), dt.datetime.now(), by])
    try:
        yield run_id
    except BaseException:
        con.execute("update runs set status = 'failed', finished_at = ? where run_id = ?",
                    [dt.datetime.now(), run_id])
        raise
    con.execute("update runs set status = 'done', finished_at = ? where run_id = ?",
                [dt.datetime.now(), run_id])


_IN_TRANSACTION: set[int] = set()


@contextlib.contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """All or nothing; inside an open transaction, part of it (DuckDB does not nest)."""
    if id(con) in _IN_TRANSACTION:
        yield
        return
    _IN_TRANSACTION.add(id(con))
    try:
        con.execute("begin transaction")  # inside the try: a Ctrl-C just after it still rolls back
        yield
    except BaseException:
        _IN_TRANSACTION.discard(id(con))
        _rolled_back(con)
        raise
    _IN_TRANSACTION.discard(id(con))
    try:
        con.execute("commit")
    except BaseException:  # a Ctrl-C during the commit: whatever it did not commit is not left open
        _rolled_back(con)
        raise


def _rolled_back(con: duckdb.DuckDBPyConnection) -> None:
    """Roll back the open transaction, if any: a Ctrl-C (KeyboardInterrupt) may come
    before `begin` took effect or after `commit` did, and a transaction left open would
    take back what the caller then records (a run marked failed) when the connection
    closes."""
    try:
        con.execute("rollback")
    except duckdb.TransactionException:  # no transaction open
        pass


@contextlib.contextmanager
def scratch(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """A transaction always rolled back: what is written inside is read, then gone
    (a study's trial rated as a scenario, never kept); the statements inside that
    would open a transaction of their own (`transaction`) are part of it."""
    if id(con) in _IN_TRANSACTION:
        raise RuntimeError("a scratch transaction cannot be part of another")
    _IN_TRANSACTION.add(id(con))
    try:
        con.execute("begin transaction")  # inside the try: a Ctrl-C just after it still rolls back
        yield
    finally:
        _IN_TRANSACTION.discard(id(con))
        _rolled_back(con)


def scalar(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None):
    """The single value of a one-row, one-column query."""
    return con.execute(sql, params or []).fetchall()[0][0]


def row(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> tuple | None:
    """The first row of a query, or None; reads the whole result so the connection is free."""
    rows = con.execute(sql, params or []).fetchall()
    return rows[0] if rows else None


def create_temp_table(con: duckdb.DuckDBPyConnection, name: str, columns: dict[str, tuple[str, list]]) -> None:
    """The temporary table `name` of `columns` (column -> its SQL type and its values), side
    by side. The values go as query parameters: a table made by pyarrow from Python lists
    would load pandas (pipeline/formats/arrow_values.py) in a command with no other use for it."""
    chosen = ", ".join(f"unnest(?::{kind}[]) as {sql_name(c)}" for c, (kind, _) in columns.items())
    con.execute(f"create or replace temp table {name} as select {chosen}", [values for _, values in columns.values()])


def staged(con: duckdb.DuckDBPyConnection, staging: str, kind: str) -> str:
    """The staging table of a kind, qualified: "main" is the warehouse's (a later
    validate takes its rows in), "temp" this connection's in-memory copy. Qualified
    by the warehouse's catalog, as an unqualified main.x finds the temporary table first."""
    if staging == "temp":
        return f"temp.main.staged_{kind}"
    database = scalar(con, "select current_database()").replace('"', '""')
    return f'"{database}".main.staged_{kind}'


def temp_staging(con: duckdb.DuckDBPyConnection) -> str:
    """In-memory copies of the staging tables, for ingest and validate in one go, and
    `part_tables`: the parts staged in a table of their own (pipeline.ingest.tables.ingest_file)."""
    for kind in KINDS:
        con.execute(f"create or replace temp table staged_{kind} as select * from main.staged_{kind} limit 0")
    con.execute("create or replace temp table part_tables (file_id integer)")
    return "temp"


def extra_text(name: str) -> str:
    """SQL of a staged or stored row's column `name` kept in its `extra` (JSON), as the file
    gave it (null where empty)."""
    return f"nullif(trim(extra->>{sql_text(name)}), '')"


def initial_columns_sql(columns: dict[str, str]) -> str:
    """SQL of the initial ratings with a rule set's own initial columns (name -> SQL type)."""
    own = "".join(f", try_cast({extra_text(name)} as {kind}) as {sql_name(name)}" for name, kind in columns.items())
    return f"select player_id, rating{own} from initial_ratings"
