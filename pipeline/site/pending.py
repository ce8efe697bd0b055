"""The pre-publication check of the site (the Belgian federation's "ELO-controlelijst"):
the games in force that wait for a list not computed yet, each player's as they read
them, so that a player finds a wrong or missing game and tells the rating officer
before the next list is computed, quoting the file and row it came from
(sql/site/pending.sql). The games and the list are those `ratings run` says wait
(pipeline/rate/waiting.py): the list is computed the day after its window closes."""
from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.rate import found_periods
from pipeline.rate.waiting import as_day, computed_from, waiting_games
from pipeline.ruleset.replay import next_window
from pipeline.site.data import played_view
from pipeline.warehouse import stage_sql

# A game as pending_json gives it: its key there, the column of sql/site/pending.sql.
GAME_FIELDS = {"date": "date", "event": "event", "round": "round", "colour": "colour", "opponent_id": "opponent_id",
               "opponent_name": "opponent_name", "result": "result", "file": "file", "row": "row_number",
               "submission": "submission"}


@dataclass(frozen=True)
class Pending:
    series: str
    list_id: str | None  # the next list (None: no game waits, and a rule set of events, which no calendar foretells)
    window_start: dt.date | None  # its games window, in the rule set's calendar
    window_end: dt.date | None
    computed_on: dt.date | None  # the day after its window closes: the games in force then are the ones it rates
    after: dt.date | None  # the latest list's window end (None: no list computed yet)
    games: pa.Table  # sql/site/pending.sql: a row a player and game, by player, date, file and row


def next_list_window(con: duckdb.DuckDBPyConnection, series) -> tuple[str, dt.date, dt.date] | None:
    """The list after the series' latest one and its window (None: no list computed yet,
    or periods that are events, which no calendar foretells)."""
    # The next list as `ratings whatif` and `explain` name it (the rule set's calendar
    # from the day after the latest list's window): the same list the officer computes.
    if series.rule_set.periods_are != "windows":
        return None
    if not con.execute("select 1 from lists where series = ? limit 1", [series.name]).fetchall():
        return None
    window = next_window(con, series).iloc[0]
    return window["list_id"], as_day(window["window_start"]), as_day(window["window_end"])


def pending_games(con: duckdb.DuckDBPyConnection, series) -> Pending:
    """The games in force placed in the series' lists not computed yet (as its rule set
    places them), per player, and the first of those lists that holds games, with the day
    it is computed; when no game waits, the list after the latest one."""
    con.execute("set variable series = ?", [series.name])
    found = found_periods(con, series)
    waiting = waiting_games(con, found[~found["computed"]])  # leaves uncomputed_lists, which the SQL reads
    played_view(con, series)  # the rule set's games as chess's `games` (Go's go_games)
    games = con.sql(stage_sql("site/pending")).to_arrow_table()
    after = con.execute("select arg_max(window_end, position) from lists where series = ?",
                        [series.name]).fetchone()[0]
    if waiting is not None:
        following = waiting.list_id, waiting.window_start, waiting.window_end
    else:
        following = next_list_window(con, series)
    if following is None:
        return Pending(series.name, None, None, None, None, after, games)
    list_id, start, end = following
    return Pending(series.name, list_id, start, end, computed_from(end), after, games)


def pending_json(p: Pending) -> dict[int, dict]:
    """Each player with pending games: player id -> {"player_id", "name", "list_id",
    "computed_on" (YYYY-MM-DD), "games": [{"date" (YYYY-MM-DD), "event", "round",
    "colour" (white/black), "opponent_id", "opponent_name", "result" (1, ½, 0, + or -,
    the player's), "file", "row", "submission"}]}, the games in date order. Plain
    JSON values only: the dates as ISO text, the same in every language."""
    table = p.games
    # Dates as text by Arrow, not a Python call a row.
    table = table.set_column(table.schema.get_field_index("date"), "date", pc.cast(table["date"], pa.string()))
    rows = table.select(["player_id", "name", *GAME_FIELDS.values()]).to_pylist()
    computed_on = p.computed_on.isoformat() if p.computed_on else None
    return {player_id: {"player_id": player_id, "name": games[0]["name"], "list_id": p.list_id,
                        "computed_on": computed_on,
                        "games": [{key: g[column] for key, column in GAME_FIELDS.items()} for g in games]}
            for player_id, games in ((k, list(g)) for k, g in itertools.groupby(rows, key=lambda r: r["player_id"]))}
