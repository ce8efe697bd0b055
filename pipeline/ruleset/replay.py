"""A list recomputed from the warehouse, for a calculation card: the state after the
list before and the window's games, given to the rule set as the rating stage gave
them (the computation is deterministic, so the replay is the published one)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import duckdb
import numpy as np
import pandas as pd

from pipeline.ruleset.games import window_games
from pipeline.ruleset.interface import NotFound, Period, SeriesOfLists
from pipeline.ruleset.words import span


@dataclass(frozen=True)
class Replayed:
    """What a card starts from: the state before the list, the list's games, its period."""

    before: str | None
    state: object
    games: object
    period: Period
    me: int  # the player's index in the state


def _lists(con: duckdb.DuckDBPyConnection, series: str) -> pd.DataFrame:
    return con.sql("select list_id, window_start, window_end from lists where series = $s order by position",
                   params={"s": series}).df()


def list_to_replay(con: duckdb.DuckDBPyConnection, series: SeriesOfLists, list_id: str) -> tuple[str | None, pd.DataFrame]:
    """The list before `list_id` (None: the initial ratings) and `list_id`'s window:
    a computed list, or the next one (whose window may already hold games)."""
    lists = _lists(con, series.name)
    if list_id in set(lists["list_id"]):
        where = int(np.flatnonzero(lists["list_id"] == list_id)[0])
        before = None if where == 0 else lists["list_id"].iloc[where - 1]
        return before, lists.iloc[[where]].reset_index(drop=True)
    following = next_list(con, series) if not lists.empty and series.rule_set.periods_are == "windows" else None
    if list_id == following:
        return lists["list_id"].iloc[-1], next_window(con, series)
    raise NotFound(f"no list {list_id!r} in {series.name}: its lists are {span(lists['list_id'].tolist())}"
                   + (f" (and the next one, {following}, from the games so far)" if following else ""))


def next_window(con: duckdb.DuckDBPyConnection, series: SeriesOfLists) -> pd.DataFrame:
    """The window after the latest list computed, in the rule set's calendar."""
    lists = _lists(con, series.name)
    if lists.empty:
        raise NotFound("no list has been computed yet")
    day = pd.Timestamp(lists["window_end"].iloc[-1]).date() + dt.timedelta(days=1)
    return series.rule_set.calendar(day, day)


def next_list(con: duckdb.DuckDBPyConnection, series: SeriesOfLists) -> str:
    """The list after the latest one computed (its window may already hold games)."""
    return next_window(con, series)["list_id"].iloc[0]


def replayed(con: duckdb.DuckDBPyConnection, series: SeriesOfLists, player_id: int | None, list_id: str,
             extra: dict | None = None) -> Replayed:
    """The inputs of `list_id` as the rating stage had them, and where the player is
    (None: every player of the list, me = -1); `extra`: other game columns wanted
    (the rule set's own games are fetched without)."""
    before, one = list_to_replay(con, series, list_id)
    series.rule_set.place_games(con)
    state = series.rule_set.starting_state(con, series.name, before)
    me = -1
    if player_id is not None:
        me = int(np.searchsorted(state.ids, player_id))
        if me >= len(state.ids) or state.ids[me] != player_id:
            raise NotFound(f"player {player_id} is not in the registry")
    period = Period(0, one["list_id"].iloc[0], pd.Timestamp(one["window_start"].iloc[0]).date(),
                    pd.Timestamp(one["window_end"].iloc[0]).date())
    if extra:
        games = window_games(con, one, extra).of(0)
    else:
        games = series.rule_set.period_games(con, series.name, one).of(0)
    return Replayed(before, state, games, period, me)
