"""The revisions of the lists, as `ratings revisions` lists them (sql/revisions.sql):
pipeline/rate/store.py stores them, each with why it exists (docs/record.md). Read
without pandas: the listing is a relation printed by pipeline/console.py."""
from __future__ import annotations

import duckdb

from pipeline.warehouse import stage_sql


def any_series(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether any list was computed: the warehouse holds a series (a rule set's lists, a scenario)."""
    return bool(con.execute("select 1 from series limit 1").fetchall())


def listing(con: duckdb.DuckDBPyConnection, series: str | None, list_id: str | None) -> duckdb.DuckDBPyRelation:
    """The revisions of a series' lists (of one list, or of all), list by list; none for no series."""
    return con.sql(stage_sql("revisions"), params={"series": series, "list": list_id})
