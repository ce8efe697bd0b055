"""The files to download of a rule set that publishes states, not lists (RuleSet.list_files
False: the Go rule sets, whose periods are events): each event's state file, byte for byte
the OUT/state/<event>.parquet `ratings run` writes, and with the latest event the current
list (OUT/lists/current.csv, its spreadsheet CSV and Parquet), made by publish's own
functions (pipeline.publish.list_and_state_files)."""
from __future__ import annotations

import duckdb

from pipeline.publish import by_key, csv_bytes, list_and_state_files, only_lists, parquet_bytes
from pipeline.rate.series import own_views
from pipeline.site.downloads import Download, download
from pipeline.warehouse import stage

STATE = "Points after the event (Parquet)"
CURRENT = (("current.csv", "Current list (CSV)", lambda t: csv_bytes(t)),
           ("current-excel.csv", "Current list (CSV, spreadsheet)", lambda t: csv_bytes(t, "excel")),
           ("current.parquet", "Current list (Parquet)", parquet_bytes))


def state_downloads(con: duckdb.DuckDBPyConnection, series, list_ids: list[str]) -> dict[str, list[Download]]:
    """list id -> its files: its state file (an event after which nobody is rated has none,
    as in OUT/state/), and the latest list's the current list's three files."""
    rs = series.rule_set
    con.execute("set variable series = ?", [series.name])
    own_views(con, series)
    with only_lists(con, list(list_ids)):
        states = stage(con, "51_published_states").select(", ".join(("list_id", *rs.published_state))).to_arrow_table()
    rows = by_key(states)
    files = {list_id: [download(f"{list_id}.parquet", STATE,
                                list_and_state_files(list_id, (), state=rows[list_id])[f"state/{list_id}.parquet"])]
             if list_id in rows else [] for list_id in list_ids}
    (latest,), = con.execute("select arg_max(list_id, position) from lists where series = ?", [series.name]).fetchall()
    if rs.current_list and latest in files:
        current = con.sql(rs.current_list).to_arrow_table()
        files[latest] += [download(name, label, make(current)) for name, label, make in CURRENT]
    return files
