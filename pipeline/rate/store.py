"""Store what a rating pass computed, with revisions: one transaction, whatever the rule set.

Each recomputed list whose results differ from its stored revision gets a new
one: the old rows of every table move to <table>_revisions, who changed goes to
rating_changes, why to list_revisions; a list whose results are the same keeps its
revision (and only its input signature is updated).
"""
from __future__ import annotations

import datetime as dt

import duckdb

from pipeline.rate.periods import to_arrow
from pipeline.ruleset.games import Columns
from pipeline.ruleset.tables import SHARED_KEYS, joined
from pipeline.warehouse import scalar, sql_text, stage_sql, transaction

COMMON_TABLES = ("lists", "player_state", "calculations")  # every rule set fills them


def table_columns(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple[str, str]]:
    """The columns of a warehouse table, in order, with their types."""
    return con.execute("""select column_name, data_type from duckdb_columns()
                          where schema_name = 'main' and table_name = ? order by column_index""", [table]).fetchall()


def split_extensions(con: duckdb.DuckDBPyConnection, computed: dict[str, list[Columns]],
                     extensions: dict[str, str]) -> dict[str, list[Columns]]:
    """The computed parts with a rule set's own columns of each shared table moved to its
    own table (RuleSet.extensions), keyed as the shared rows: the shared tables take only
    the columns every rule set has."""
    split = dict(computed)
    for shared, own in extensions.items():
        columns = {c for c, _ in table_columns(con, shared)}
        keys = SHARED_KEYS[shared][1:]  # the series is the store's to give
        split[shared] = [{k: v for k, v in part.items() if k in columns} for part in computed.get(shared, [])]
        split[own] = [{k: part[k] for k in keys} | {k: v for k, v in part.items() if k not in columns}
                      for part in computed.get(shared, [])]
    return split


def revisions_table(con: duckdb.DuckDBPyConnection, table: str) -> str:
    """<table>_revisions, made (or given the columns a rule set added since) to hold old rows."""
    name = f"{table}_revisions"
    con.execute(f"create table if not exists {name} as select 0 as revision, * from {table} limit 0")
    have = {c for (c,) in con.execute("select column_name from duckdb_columns() where schema_name = 'main' "
                                      "and table_name = ?", [name]).fetchall()}
    for column, kind in con.execute("""select column_name, data_type from duckdb_columns()
                                       where schema_name = 'main' and table_name = ? order by column_index""",
                                    [table]).fetchall():
        if column not in have:
            con.execute(f'alter table {name} add column "{column}" {kind}')
    return name


def computed_rows(con: duckdb.DuckDBPyConnection, series: str, table: str, parts: list[Columns]) -> str:
    """The computed rows of a table as the temporary table new_<table>, with every column
    of the table (those the rule set did not fill are null); a column the table does not
    have is refused, never dropped. Copied, not read through `register`: DuckDB holds an
    object registered in a transaction, and the arrays under it, until the commit; a
    temporary table's rows are DuckDB's, within its memory limit."""
    columns = table_columns(con, table)
    if parts:
        batch_rows = to_arrow(parts)  # read by its name in the statement below
        given, source = set(batch_rows.column_names), "batch_rows"
    else:
        given, source = {c for c, _ in columns}, f"(select * from {table} limit 0)"
    con.execute(f"create or replace temp table new_{table} as "
                f"select {stored_columns(series, table, columns, given)} from {source}")
    return f"new_{table}"


def stored_columns(series: str, table: str, columns: list[tuple[str, str]], given: set[str]) -> str:
    """SQL of the computed columns `given` as the table's `columns` hold them (those the
    rule set did not fill null; the revision the store's); a column the table does not
    have is refused, never dropped."""
    unknown = sorted(given - {c for c, _ in columns})
    if unknown:
        raise ValueError(f"the rule set gave {table} columns it does not have: {', '.join(unknown)}")
    literal = sql_text(series)
    # Each column as the table holds it, so that an unchanged row fingerprints the same.
    return ", ".join(f"{literal} as series" if name == "series" else f'"{name}"::{kind} as "{name}"' if name in given
                     else f'null::{kind} as "{name}"' for name, kind in columns if name != "revision")


def store_new(con: duckdb.DuckDBPyConnection, series: str, computed: dict[str, list[Columns]], run_id: int,
              extensions: dict[str, str] | None, computed_at: dt.datetime) -> dict[str, int]:
    """Lists the series has never held, written as they are computed: their rows straight
    into their tables, revision 1, "first computed" (what `store` records of such a list,
    without the fingerprints that compare a list with its revision: it has none). Inside
    the rating pass's transaction; returns list_id → 1. `computed` is emptied.

    Why not through `store`: a list with no revision has nothing to be compared with, and
    its rows need no copy in a temporary table first; read by name from this function's
    frame (not registered: DuckDB would hold the object, and the arrays under it, until
    the commit), each batch is let go once inserted (bench/README.md, issue 53's item 7)."""
    parts = split_extensions(con, computed, extensions or {})
    computed.clear()
    list_ids = [part["list_id"] for part in parts["lists"]]
    # Rows kept in their order cost each insert a merge of what the threads wrote, which
    # batches pay once each (bench/README.md); no query reads a table in its stored order.
    con.execute("set preserve_insertion_order = false")
    try:
        for table in list(parts):
            # read by its name in the insert (a table of the warehouse by that name would be read instead)
            new_batch_rows = to_arrow(parts.pop(table))
            select = stored_columns(series, table, table_columns(con, table), set(new_batch_rows.column_names))
            revision = "1 as revision, " if table == "lists" else ""
            con.execute(f"insert into {table} by name select {revision}{select} from new_batch_rows")
            del new_batch_rows
    finally:
        con.execute("reset preserve_insertion_order")
    # as `store` words a list computed for the first time (sql/32_revision_reasons.sql)
    con.execute("""insert into list_revisions
                   select l.series, l.list_id, 1, ?, ?, l.registry_version,
                          (select count(*) from rating_changes r where r.series = l.series and r.list_id = l.list_id
                             and r.revision = 1), 'first computed'
                   from lists l where l.series = ? and l.list_id in (select unnest(?::varchar[]))""",
                [run_id, computed_at, series, list_ids])
    return dict.fromkeys(list_ids, 1)


def state_views(con: duckdb.DuckDBPyConnection, own: str | None) -> None:
    """Views series_player_state and new_series_player_state: the stored and the computed
    state rows with the rule set's own columns (its table `own`), whose whole row tells
    who changed (sql/30_rating_changes.sql)."""
    con.execute(f"create or replace temp view series_player_state as select * from {joined('player_state', own)}")
    new_own = None if own is None else f"new_{own}"
    con.execute("create or replace temp view new_series_player_state as "
                f"select * from {joined('new_player_state', new_own, keys_of='player_state')}")


def fingerprints(con: duckdb.DuckDBPyConnection, series: str, tables: list[str]) -> None:
    """Views new_prints and old_prints (list_id, h): each recomputed list's rows of every
    table of results (not the lists' own rows) as one number a table (the sum of the rows'
    hashes), to tell the lists whose results changed with one aggregation a table."""
    parts = tables
    literal = sql_text(series)
    con.execute("create or replace temp view new_prints as " + " union all ".join(
        f"select list_id, sum(hash(t)) + {k} as h from new_{table} t group by list_id"
        for k, table in enumerate(parts)))
    con.execute("create or replace temp view old_prints as " + " union all ".join(
        f"select list_id, sum(hash(t)) + {k} as h from {table} t where series = {literal} "
        f"and list_id in (select list_id from new_lists) group by list_id" for k, table in enumerate(parts)))


def store(con: duckdb.DuckDBPyConnection, series: str, computed: dict[str, list[Columns]], run_id: int,
          extensions: dict[str, str] | None = None, computed_at: dt.datetime | None = None) -> dict[str, int]:
    """Keep what changed; returns list_id → new revision. `extensions`: the rule set's own
    tables of its columns of the shared ones (RuleSet.extensions). `computed` is emptied:
    each table's parts are let go once DuckDB has copied them (`computed_rows`). `computed_at`:
    the revisions' time (now when not given). A batch of a pass's lists is stored as
    they would be with the lists before it: those lists are the warehouse's by then, and
    a list a batch changed comes before every list of the batches after it."""
    now = computed_at or dt.datetime.now()
    extensions = extensions or {}
    parts = split_extensions(con, computed, extensions)
    computed.clear()
    tables = list(parts)
    # A list's own rows (lists, and the rule set's figures of it) are replaced with its
    # results, never fingerprinted nor kept as revisions: list_revisions is their record.
    of_lists = {"lists", extensions.get("lists")}
    with transaction(con):
        con.execute("set variable series = ?", [series])
        for table in tables:
            computed_rows(con, series, table, parts.pop(table))
        fingerprints(con, series, [t for t in tables if t not in of_lists])
        con.execute(f"create or replace temp table changed as {stage_sql('31_changed_lists')}")
        con.execute(f"create or replace temp table revision_reasons as {stage_sql('32_revision_reasons')}")
        if scalar(con, "select count(*) from changed where old_revision is not null"):  # a revision, not a first
            state_views(con, extensions.get("player_state"))
            con.execute(f"insert into rating_changes select ?, c.list_id, ch.old_revision + 1, c.* exclude (list_id) "
                        f"from ({stage_sql('30_rating_changes')}) c join changed ch using (list_id) "
                        f"where ch.old_revision is not null", [series])
            for table in tables:
                if table in of_lists:
                    continue
                old = revisions_table(con, table)
                con.execute(f"""insert into {old} by name select l.revision, t.* from {table} t
                                join lists l using (series, list_id)
                                where t.series = ? and t.list_id in (select list_id from changed)""", [series])
        for table in tables:
            con.execute(f"delete from {table} where series = ? and list_id in (select list_id from changed)",
                        [series])
            extra = "coalesce(ch.old_revision, 0) + 1 as revision, " if table == "lists" else ""
            con.execute(f"""insert into {table} by name
                            select {extra}n.* from new_{table} n join changed ch using (list_id)""")
        con.execute("""update lists set input_signature = n.input_signature, forfeits = n.forfeits, position = n.position
                       from new_lists n where lists.series = n.series and lists.list_id = n.list_id""")
        con.execute("""insert into list_revisions
                       select ?, ch.list_id, coalesce(ch.old_revision, 0) + 1, ?, ?, n.registry_version,
                              (select count(*) from rating_changes r where r.series = ? and r.list_id = ch.list_id
                                 and r.revision = coalesce(ch.old_revision, 0) + 1), w.reason
                       from changed ch join new_lists n using (list_id) join revision_reasons w using (list_id)""",
                    [series, run_id, now, series])
        revised = dict(con.execute("select list_id, coalesce(old_revision, 0) + 1 from changed").fetchall())
        con.execute("drop table changed")
        con.execute("drop table revision_reasons")
        con.execute("drop view new_prints")
        con.execute("drop view old_prints")
        for table in tables:
            con.execute(f"drop table new_{table}")
    return revised
