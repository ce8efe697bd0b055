"""What FIDE's rules carry from list to list besides the rating: rated games to
date and the highest published rating (K factor), the day of the last rated game
(inactive players), whether the player was ever rated and their earliest game
against a rated opponent (the first-event rule, X8: first_event.py), the pooled
games of unrated players, kept per list so that those of more than 26 lists back
drop out (X9), and the states of the lists later events take ratings from (X2)."""
from __future__ import annotations

from dataclasses import dataclass, field

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.ruleset.games import column
from pipeline.systems.fide.first_event import FirstEvents
from pipeline.warehouse import initial_columns_sql

EPOCH = pd.Timestamp("1970-01-01")
# FIDE's own columns of the initial ratings (RuleSet.initial_columns; its model:
# initial.py): games to date and peak, which choose K (X5)
INITIAL_COLUMNS = {"games_total": "integer", "peak_rating": "double"}
INITIAL_RATINGS = initial_columns_sql(INITIAL_COLUMNS)


@dataclass
class Pool:
    """Unrated players' games against rated opponents, one entry per list (B02 8.2),
    each with the list's place in the series (1: its first list)."""

    places: list[int] = field(default_factory=list)
    entries: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=list)

    def add(self, place: int, who: np.ndarray, games: np.ndarray, opponents: np.ndarray,
            score: np.ndarray) -> None:
        if len(who):
            self.places.append(int(place))
            self.entries.append((who, games, opponents, score))

    def within(self, place: int, lists: int) -> None:
        """Keep what the pool of the list at `place` holds: ruling X9, the games of the
        `lists` lists that end with it (the list itself and the 25 before it), counted
        in lists, not by a date minus 26 months (which loses a list in February, May
        and September, whose windows start on the 29th or 30th of a month)."""
        keep = [i for i, p in enumerate(self.places) if p > place - lists]  # at most one entry a list
        self.places = [self.places[i] for i in keep]
        self.entries = [self.entries[i] for i in keep]

    def forget(self, rated: np.ndarray) -> None:
        """A player who got a rating starts afresh if they ever lose it."""
        self.entries = [tuple(a[~rated[e[0]]] for a in e) for e in self.entries]

    def totals(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per player: pooled games, sum of opponents' ratings, score."""
        if not self.entries:
            return np.zeros(n, dtype=np.int64), np.zeros(n), np.zeros(n)
        who = np.concatenate([e[0] for e in self.entries])
        return tuple(np.bincount(who, weights=np.concatenate([e[k] for e in self.entries]), minlength=n)
                     for k in (1, 2, 3))


@dataclass
class FideState:
    ids: np.ndarray
    birth_year: np.ndarray
    rating: np.ndarray
    games_total: np.ndarray
    peak: np.ndarray
    ever_rated: np.ndarray  # rated on a list or by the initial ratings: their first event is behind them (X8)
    pool: Pool
    last_rated: np.ndarray  # days since 1970-01-01 of the last rated game (−1: none in the history)
    firsts: FirstEvents  # each player's earliest game against a rated opponent known so far (X8)
    list_id: str | None = None  # the list this is the state after (None: the initial ratings)
    place: int = 0  # that list's place in the series (1: the first list; 0: the initial ratings), for X9
    began: int | None = None  # the day the series' first window starts (activity before it is unknown)
    snapshots: dict = field(default_factory=dict)  # list id → (rating, games_total, peak) after it (X2)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.rating, self.games_total, self.peak


def list_state(con: duckdb.DuckDBPyConnection, series: str, list_id: str | None) -> pa.Table:
    """Every registered player (ids ascending) with their rating, games to date, highest
    rating and last rated game after the list `list_id` of the series (None: the
    initial ratings, where a rated player without games_total counts as established,
    30 games, and one without peak_rating has their rating as peak)."""
    return con.sql(f"""
        select p.player_id, p.birth_year, s.rating, coalesce(s.games_total, 0) as games_total, s.peak_rating,
               coalesce(datediff('day', date '1970-01-01', s.last_rated), -1) as last_rated
        from players p left join (
            select player_id, rating, coalesce(games_total, case when rating is not null then 30 end) as games_total,
                   coalesce(peak_rating, rating) as peak_rating, null::date as last_rated
            from ({INITIAL_RATINGS}) where $list is null
            union all
            select player_id, s.rating, f.games_total, f.peak_rating, f.last_rated from player_state s
            left join fide_state f using (series, list_id, player_id)
            where s.series = $series and s.list_id = $list
        ) s using (player_id)
        order by p.player_id""", params={"list": list_id, "series": series}).to_arrow_table()


def state_arrays(con: duckdb.DuckDBPyConnection, series: str, list_id: str | None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rating, games_total, peak) of every player after a stored list (X2's start lists)."""
    t = list_state(con, series, list_id)
    return column(t, "rating"), column(t, "games_total", np.int64), column(t, "peak_rating")


def fide_starting_state(con: duckdb.DuckDBPyConnection, series: str, before: str | None) -> FideState:
    """Every registered player's state after the list `before` of the series (None:
    the initial ratings). Their earliest games against rated opponents (X8) are the
    games' to give (FideGames.firsts_before): they depend on the lists being computed."""
    params = {"before": before, "series": series}
    players = list_state(con, series, before)
    rated = con.sql("""
        with upto as (
            select list_id from lists
            where series = $series
              and window_start <= (select window_start from lists where series = $series and list_id = $before)
        ),
        rated as (
            select player_id from initial_ratings where rating is not null
            union select player_id from player_state
                  where series = $series and rating is not null and list_id in (select list_id from upto)
        )
        select p.player_id in (select player_id from rated) as ever_rated from players p order by p.player_id""",
                    params=params).to_arrow_table()
    ids = column(players, "player_id", np.int64)
    pooled = con.sql("""
        with upto as (
            select list_id, window_start, row_number() over (order by window_start) as place from lists
            where series = $series
              and window_start <= (select window_start from lists where series = $series and list_id = $before)
        ),
        last_rated as (
            select player_id, max(u.window_start) as last from player_state s join upto u using (list_id)
            where s.series = $series and s.rating is not null group by player_id
        )
        select u.place, q.player_id, q.games, q.opponents_sum, q.score
        from pooled_games q join upto u using (list_id) left join last_rated r using (player_id)
        where q.series = $series and q.games > 0 and (r.last is null or u.window_start > r.last)
        order by u.place, q.player_id""", params=params).df()
    pool = Pool()
    for place, rows in pooled.groupby("place", sort=True):  # one group per list: at most 26 are kept
        pool.add(place, np.searchsorted(ids, rows["player_id"].to_numpy()), rows["games"].to_numpy(),
                 rows["opponents_sum"].to_numpy(float), rows["score"].to_numpy(float))
    began, place = con.execute("""
        select min(window_start),
               count(*) filter (where window_start <= (select window_start from lists
                                                       where series = $series and list_id = $before))
        from lists where series = $series""", params).fetchall()[0]
    return FideState(ids, column(players, "birth_year"), column(players, "rating"),
                     column(players, "games_total", np.int64), column(players, "peak_rating"),
                     column(rated, "ever_rated", bool), pool, column(players, "last_rated", np.int64),
                     FirstEvents.none(len(ids)), list_id=before, place=int(place),
                     began=None if before is None or began is None else (pd.Timestamp(began) - EPOCH).days)
