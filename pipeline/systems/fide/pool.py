"""What FIDE's rules carry from list to list besides the rating: rated games to
date and the highest published rating (K factor), the day of the last rated game
(inactive players), whether the player has met a rated opponent (the first-event
rule), the pooled games of unrated players, kept per list so that those older than
26 months drop out, and the states of the lists later events take ratings from (X2)."""
from __future__ import annotations

from dataclasses import dataclass, field

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.rate.periods import column
from pipeline.systems.fide.rules import RULES, FideRules

EPOCH = pd.Timestamp("1970-01-01")


@dataclass
class Pool:
    """Unrated players' games against rated opponents, one entry per list (B02 8.2)."""

    starts: list[pd.Timestamp] = field(default_factory=list)  # window start of each entry's list
    entries: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=list)

    def add(self, start: pd.Timestamp, who: np.ndarray, games: np.ndarray, opponents: np.ndarray,
            score: np.ndarray) -> None:
        if len(who):
            self.starts.append(pd.Timestamp(start))
            self.entries.append((who, games, opponents, score))

    def since(self, cutoff: pd.Timestamp) -> None:
        """Drop the lists whose window starts before the cutoff (26 months)."""
        keep = [i for i, s in enumerate(self.starts) if s >= cutoff]  # at most one entry a list
        self.starts = [self.starts[i] for i in keep]
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
    started: np.ndarray
    pool: Pool
    last_rated: np.ndarray  # days since 1970-01-01 of the last rated game (−1: none in the history)
    list_id: str | None = None  # the list this is the state after (None: the initial ratings)
    began: int | None = None  # the day the series' first window starts (activity before it is unknown)
    snapshots: dict = field(default_factory=dict)  # list id → (rating, games_total, peak) after it (X2)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.rating, self.games_total, self.peak


def pool_cutoff(window_end: pd.Timestamp, rules: FideRules = RULES) -> pd.Timestamp:
    """The earliest window start whose games are still pooled: the 26 months that
    end with this window (a January window keeps the lists from December two years before)."""
    return pd.Timestamp(window_end) + pd.Timedelta(days=1) - pd.DateOffset(months=rules.pool_months)


def list_state(con: duckdb.DuckDBPyConnection, series: str, list_id: str | None) -> pa.Table:
    """Every registered player (ids ascending) with their rating, games to date, highest
    rating and last rated game after the list `list_id` of the series (None: the
    initial ratings, where a rated player without games_total counts as established,
    30 games, and one without peak_rating has their rating as peak)."""
    return con.sql("""
        select p.player_id, p.birth_year, s.rating, coalesce(s.games_total, 0) as games_total, s.peak_rating,
               coalesce(datediff('day', date '1970-01-01', s.last_rated), -1) as last_rated
        from players p left join (
            select player_id, rating, coalesce(games_total, case when rating is not null then 30 end) as games_total,
                   coalesce(peak_rating, rating) as peak_rating, null::date as last_rated
            from initial_ratings where $list is null
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
    the initial ratings)."""
    params = {"before": before, "series": series}
    players = list_state(con, series, before)
    started = con.sql("""
        with upto as (
            select list_id from lists
            where series = $series
              and window_start <= (select window_start from lists where series = $series and list_id = $before)
        ),
        started as (
            select player_id from initial_ratings where rating is not null
            union select player_id from pooled_games
                  where series = $series and list_id in (select list_id from upto)
            union select player_id from player_state
                  where series = $series and rating is not null and list_id in (select list_id from upto)
        )
        select p.player_id in (select player_id from started) as started from players p order by p.player_id""",
                      params=params).to_arrow_table()
    ids = column(players, "player_id", np.int64)
    pooled = con.sql("""
        with upto as (
            select list_id, window_start from lists
            where series = $series
              and window_start <= (select window_start from lists where series = $series and list_id = $before)
        ),
        last_rated as (
            select player_id, max(u.window_start) as last from player_state s join upto u using (list_id)
            where s.series = $series and s.rating is not null group by player_id
        )
        select u.window_start, q.player_id, q.games, q.opponents_sum, q.score
        from pooled_games q join upto u using (list_id) left join last_rated r using (player_id)
        where q.series = $series and q.games > 0 and (r.last is null or u.window_start > r.last)
        order by u.window_start, q.player_id""", params=params).df()
    pool = Pool()
    for start, rows in pooled.groupby("window_start", sort=True):  # one group per list: at most 26 are kept
        pool.add(start, np.searchsorted(ids, rows["player_id"].to_numpy()), rows["games"].to_numpy(),
                 rows["opponents_sum"].to_numpy(float), rows["score"].to_numpy(float))
    began = con.execute("select min(window_start) from lists where series = ?", [series]).fetchall()[0][0]
    return FideState(ids, column(players, "birth_year"), column(players, "rating"),
                     column(players, "games_total", np.int64), column(players, "peak_rating"),
                     column(started, "started", bool), pool, column(players, "last_rated", np.int64), before,
                     None if before is None or began is None else (pd.Timestamp(began) - EPOCH).days)
