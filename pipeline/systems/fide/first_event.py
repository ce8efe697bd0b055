"""Ruling X8: an unrated player's first event is the event of their earliest game
against a rated opponent (ties: the earlier start, then the event id), whichever list
rates it; a first event with a zero score is ignored (B02 8.2).

Before a list is rated, the earliest such game is known from every game whose event
started from an earlier list (or from the initial ratings): those are all the games
that can come before the list's own, since an event that starts from the list itself
or a later one starts after the list's games were played. So a league that began
before a weekend tournament, and is rated months after it, is known to be the first
event when the tournament's list is rated (and its games are then pooled even with a
zero score), and is ignored when its own list comes, if it scored zero and the
player is still unrated.
"""
from __future__ import annotations

from dataclasses import dataclass

import duckdb
import numpy as np

NONE = np.iinfo(np.int64).max  # no game against a rated opponent known
NO_EVENT = -1  # event keys are hashes shifted right: never negative


@dataclass
class FirstEvents:
    """Each player's earliest game against a rated opponent known so far: its day, its
    event's first day, the event's rank by id and the event's key."""

    day: np.ndarray
    start: np.ndarray
    rank: np.ndarray
    event: np.ndarray

    @classmethod
    def none(cls, n: int) -> FirstEvents:
        return cls(*(np.full(n, NONE, dtype=np.int64) for _ in range(3)), np.full(n, NO_EVENT, dtype=np.int64))

    def merge(self, player: np.ndarray, day: np.ndarray, start: np.ndarray, rank: np.ndarray,
              event: np.ndarray) -> None:
        """Keep, for each player, the earliest of what was known and these games."""
        if not len(player):
            return
        order = np.lexsort((rank, start, day, player))
        lead = order[np.r_[True, player[order][1:] != player[order][:-1]]]
        who = player[lead]
        earlier = _before((day[lead], start[lead], rank[lead]), (self.day[who], self.start[who], self.rank[who]))
        who, lead = who[earlier], lead[earlier]
        self.day[who], self.start[who] = day[lead], start[lead]
        self.rank[who], self.event[who] = rank[lead], event[lead]

    def append(self, day: int, start: int, rank: int, event: int) -> None:
        """One more player (the what-if's fictitious opponent) with this first game."""
        self.day, self.start, self.rank, self.event = (np.append(a, v) for a, v in zip(
            (self.day, self.start, self.rank, self.event), (day, start, rank, event)))


def _before(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> np.ndarray:
    """a < b, the tuples compared element by element in order (lexicographically)."""
    less, tied = np.zeros(len(a[0]), dtype=bool), np.ones(len(a[0]), dtype=bool)
    for x, y in zip(a, b):
        less |= tied & (x < y)
        tied &= x == y
    return less


def rated_opponent_sides(white: np.ndarray, black: np.ndarray, day: np.ndarray, first_day: np.ndarray,
                         rank: np.ndarray, event: np.ndarray, match: np.ndarray,
                         rating: np.ndarray) -> tuple[np.ndarray, ...]:
    """(player, day, start, rank, event) of each side of these games whose opponent is
    rated on `rating`, the list the games' events started from (X2). Matches are left
    out: a match with a player unrated at its start is not rated (X6), and a player
    without a first event is unrated."""
    played = ~match
    player = np.concatenate([white[played], black[played]])
    opponent = np.concatenate([black[played], white[played]])
    rated = ~np.isnan(rating[opponent])
    both = [np.concatenate([a[played]] * 2)[rated] for a in (day, first_day, rank, event)]
    return (player[rated], *both)


def first_games_before(con: duckdb.DuckDBPyConnection, series: str, computing: list[str]) -> tuple[np.ndarray, ...]:
    """(player index, day, start, rank, event) of the earliest game against a rated
    opponent of each player never rated before the lists `computing`, among the games
    whose event started from a list computed before them (its stored ratings) or from
    the initial ratings (a start list that is none of the series' lists, or none)."""
    found = con.execute("""
        with numbered as (select player_id, (row_number() over (order by player_id) - 1)::bigint as i from players),
        -- the lists computed before these (a card's replay computes one list: not those after it)
        stored as (
            select list_id from lists
            where series = $series and not list_contains($computing, list_id)
              and window_start < coalesce((select min(window_start) from lists
                                           where series = $series and list_contains($computing, list_id)),
                                          date '9999-12-31')
        ),
        ever_rated as (
            select player_id from initial_ratings where rating is not null
            union select player_id from player_state
                  where series = $series and rating is not null and list_id in (select list_id from stored)
        ),
        sides as (
            select g.white_id as player_id, g.black_id as opponent_id, g.date, p.first_day, p.event_rank,
                   p.event_key, p.start_list
            from fide_placed p join games g using (game_key)
            where g.white_score is not null and not p.match
            union all
            select g.black_id, g.white_id, g.date, p.first_day, p.event_rank, p.event_key, p.start_list
            from fide_placed p join games g using (game_key)
            where g.white_score is not null and not p.match
        ),
        known as (
            select s.* from sides s
            where s.player_id not in (select player_id from ever_rated)
              and (s.start_list in (select list_id from stored)
                   and exists (select 1 from player_state r where r.series = $series and r.list_id = s.start_list
                                 and r.player_id = s.opponent_id and r.rating is not null)
                   or (s.start_list is null or not (s.start_list in (select list_id from lists where series = $series)
                                                    or list_contains($computing, s.start_list)))
                      and exists (select 1 from initial_ratings r where r.player_id = s.opponent_id
                                    and r.rating is not null))
            qualify row_number() over (partition by s.player_id order by s.date, s.first_day, s.event_rank) = 1
        )
        select n.i, datediff('day', date '1970-01-01', k.date) as day,
               datediff('day', date '1970-01-01', k.first_day) as start, k.event_rank,
               (hash(k.event_key) >> 1)::bigint as event
        from known k join numbered n using (player_id)
        order by n.i""", {"series": series, "computing": list(computing)}).fetchnumpy()
    return tuple(np.asarray(found[k], dtype=np.int64) for k in ("i", "day", "start", "event_rank", "event"))
