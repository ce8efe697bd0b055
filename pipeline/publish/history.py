"""The whole rating history of a series, as `ratings export history` writes it (a
Parquet dataset partitioned by list, or by event under the Go rule sets): what it
holds and its order are the rule set's (RuleSet.history: the view, the partition
key, the order)."""
from __future__ import annotations

import duckdb
import pyarrow as pa


def history(con: duckdb.DuckDBPyConnection, series) -> tuple[pa.Table, str]:
    """The rows of the series' history view, in the rule set's order, and the column
    they are partitioned by (list_id, or event_id)."""
    view, key, order = series.rule_set.history
    table = con.sql(f"select * exclude (series) from {view} where series = $s order by {order}",
                    params={"s": series.name}).to_arrow_table()
    return table, key
