"""Publish the Go ratings: each event's state and the current list.

OUT/state/<event_id>.parquet: player_id, rating (unrounded), grade, games,
events for every player with a rating after that event; OUT/lists/current.csv
and .parquet: the list after the last event (the rating rounded half up, F1).
"""
from __future__ import annotations

import re
from pathlib import Path

import duckdb

from pipeline.publish import by_key, write_csv, write_parquet
from pipeline.validate.schemas import EVENT_ID

SAFE_EVENT_ID = re.compile(EVENT_ID)


def publish_go(con: duckdb.DuckDBPyConnection, out: Path, formats: tuple[str, ...]) -> list[str]:
    out = Path(out)
    (out / "lists").mkdir(parents=True, exist_ok=True)
    (out / "state").mkdir(parents=True, exist_ok=True)
    events = [r[0] for r in con.execute("select event_id from go_events order by end_date, start_date, event_id"
                                        ).fetchall()]
    states = by_key(con.sql("""select event_id, player_id, rating, grade, games, events from go_state
                                 order by event_id, player_id""").to_arrow_table(), "event_id")
    for event_id in events:
        if not SAFE_EVENT_ID.fullmatch(event_id):  # a file name: never a path out of OUT (validation checks it too)
            raise ValueError(f"event id {event_id!r} cannot name a file")
        if event_id in states:
            write_parquet(states[event_id].drop_columns(["event_id"]), out / "state" / f"{event_id}.parquet")
    current = con.sql("""
        with last as (select event_id from go_events order by end_date desc, start_date desc, event_id desc limit 1),
        played as (select player_id, arg_max(r.event_id, e.end_date) as last_event
                   from go_results r join go_events e using (event_id) where r.games > 0 group by player_id)
        select s.player_id, p.name, p.club, floor(s.rating + 0.5)::integer as rating, s.grade, s.games, s.events,
               pl.last_event
        from go_state s join last using (event_id) join players p using (player_id)
        left join played pl using (player_id)
        order by s.rating desc, s.player_id""").to_arrow_table()
    if "parquet" in formats:
        write_parquet(current, out / "lists" / "current.parquet")
    if "csv" in formats:
        write_csv(current, out / "lists" / "current.csv")
    return events
