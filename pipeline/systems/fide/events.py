"""FIDE's events (rulings X1-X3, X6): which list rates each game's event, which list
it takes ratings from, and the games of the lists to compute with the states of
those start lists that this pass does not compute itself."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from pipeline.ruleset.games import WindowGames, span_rated, window_games
from pipeline.systems.fide.calendar import list_date, monthly_calendar
from pipeline.systems.fide.first_event import first_games_before

HERE = Path(__file__).parent
INITIAL = None  # the start "list" of an event that began before the series' first list


def fide_windows(con: duckdb.DuckDBPyConnection, closing_days: int) -> pd.DataFrame:
    """The lists (list_id, window_start, window_end, list_date): a calendar file's,
    whose window ends at its list's closing date and whose list is dated
    `closing_days` later; else one a month covering every game and every list an
    events file names (`rated_in`)."""
    filed = con.sql("select list_id, window_start, window_end from calendar order by window_start").df()
    first, last, named = _span(con)
    if len(filed) or first is None:
        # ruling X1a: dated like a monthly list, closing_days after its window's end
        dates = [list_date(end, closing_days).date() for end in filed["window_end"]]
        return filed.assign(list_date=pd.Series(dates, index=filed.index, dtype=object))  # a date column even when empty
    if named is not None:  # a late report's list is a list too
        last = max(last, named - pd.Timedelta(days=closing_days))
    return monthly_calendar(first, last, closing_days)


def _span(con: duckdb.DuckDBPyConnection) -> tuple:
    """The first and last day to cover (the games the series rates and its lists), and the date
    of the latest list an events file names for them."""
    first, last = span_rated(con)
    named = con.execute("""select max(strptime(rated_in || '-01', '%Y-%m-%d')::date) from events
                           where event_id in (select event from games where game_key not in (
                               select game_key from excluded_games where series = getvariable('series')))
                           """).fetchall()[0][0]
    return first, last, named


def place_fide_games(con: duckdb.DuckDBPyConnection, closing_days: int) -> None:
    """`series_calendar`, the temp table `fide_placed` (pipeline/systems/fide/events.sql)
    and the temp table `placed_games` the generic stages read (a table, as every rule
    set's: one warehouse may place its games under several in one connection)."""
    con.register("series_calendar", fide_windows(con, closing_days))
    con.execute("create or replace temp table fide_placed as " + (HERE / "events.sql").read_text())
    con.execute("""create or replace temp table placed_games as
        select game_key, rated_on as list_id, (hash(event_key) >> 1)::bigint as event_key,
               hash(event_key, start_list, first_day, match, after_decided) as placement,
               start_list, datediff('day', date '1970-01-01', first_day)::integer as first_day,
               match, after_decided, event_rank
        from fide_placed""")


PLACED_COLUMNS = {"day": np.int64, "event_key": np.int64, "start_list": object, "first_day": np.int64,
                  "match": bool, "after_decided": bool, "event_rank": np.int64}


@dataclass(frozen=True)
class FideGames:
    """The games of the lists to compute (`games.extra` holds each game's day, event,
    start list, the event's first day, whether it is a match and, in a match, whether
    it was played after the match was decided, and the event's rank by id); the states
    (rating, games_total, peak) of the start lists computed before this pass, by list id
    (INITIAL: the initial ratings); and the last list (1-based index) that reads each
    start list computed in this pass.

    For the first-event rule (X8): `firsts_before`, the earliest game against a rated
    opponent of each player that the games of start lists computed before this pass
    give (with the first list's games only: `of(0)`), and, by each start list computed
    in this pass, the indices in `all_games` (the whole pass) of the games that start
    from it, to be known once it is computed."""

    games: WindowGames
    start_states: dict
    last_use: dict[str, int]
    all_games: WindowGames | None = None
    by_start: dict[str, np.ndarray] = field(default_factory=dict)
    firsts_before: tuple[np.ndarray, ...] | None = None

    def of(self, i: int) -> FideGames:
        return FideGames(self.games.of(i), self.start_states, self.last_use, self.all_games, self.by_start,
                         self.firsts_before if i == 0 else None)

    def starting_from(self, list_id: str) -> tuple[np.ndarray, ...] | None:
        """(white, black, day, first_day, event_rank, event_key, match) of the pass's games
        whose events start from `list_id`; None when there are none."""
        at = self.by_start.get(list_id)
        if at is None:
            return None
        g = self.all_games
        return (g.white[at], g.black[at], *(g.extra[k][at] for k in ("day", "first_day", "event_rank", "event_key",
                                                                       "match")))


def fide_period_games(con: duckdb.DuckDBPyConnection, series: str, periods: pd.DataFrame, states) -> FideGames:
    """The games of `periods`; `states(list_id)` loads a stored list's state (INITIAL:
    the initial ratings)."""
    games = window_games(con, periods, PLACED_COLUMNS)
    stored = {r[0] for r in con.execute("select list_id from lists where series = ?", [series]).fetchall()}
    computing = set(periods["list_id"])
    # Factorised once: not a million start-list strings compared again for every list.
    codes, keys = pd.factorize(games.extra["start_list"], use_na_sentinel=False)
    known = stored | computing
    # A start list that is not one of the series' lists came before its first: the initial ratings.
    keys = np.array([k if k in known else INITIAL for k in keys.tolist()], dtype=object)  # a few hundred lists
    games.extra["start_list"] = keys[codes] if len(codes) else np.zeros(0, dtype=object)
    latest = np.full(len(keys), -1, dtype=np.int64)
    np.maximum.at(latest, codes, games.list_index)
    last_use: dict = {}
    for key, index in zip(keys.tolist(), latest.tolist()):
        last_use[key] = max(last_use.get(key, -1), index)
    needed = set(last_use)
    last_use = {key: index for key, index in last_use.items() if key in computing}
    start_states = {key: states(key) for key in needed - computing}
    # X8: the games that start from a list of this pass, by that list (known once it is computed)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(keys) + 1))
    by_start = {key: order[bounds[k]:bounds[k + 1]] for k, key in enumerate(keys.tolist()) if key in computing}
    firsts = first_games_before(con, series, sorted(computing))
    return FideGames(games, start_states, last_use, games, by_start, firsts)
