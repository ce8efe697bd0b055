"""A synthetic federation in the pipeline's input format, for benchmarks and tests.

    python -m pipeline.simulate --players 80000 --lists 6 --seed 1 --out sim/
    python -m pipeline.simulate --players 800000 --lists 6 --seed 1 --out sim10m/ --format parquet

writes `players`, `ratings` (the list in force before the first window) and
`games` (CSV, or Parquet with `--format parquet`). Everything is numpy array
code: the loops run over lists, tournament sizes and rounds, never over
players or games, so that a federation of a million games is quick to make
(bench/README.md).

The model:

- true strengths: seniors normal around 1700 (sd 280), juniors lower and by
  age, all together around 1600 (sd ~300); juniors (R2: under 20 in the
  season) gain strength every window, the younger the more;
- the initial list: most players rated near their true strength (a multiple
  of ten, 1000..2800); some unrated, some of those with archives (1–7 games);
- newcomers every window (unrated, ids above every earlier id); some of them
  with archives in the initial ratings file, the others absent from it;
- club round-robins: each club's players of the window in all-play-all groups
  of about 8–12 (at least 6), one round a week;
- Swiss opens paired by rating: each round sorts the players of an open by
  score, then by current rating, and pairs neighbours (a bye for the odd one),
  re-pairing with the next board two players who already met;
  the number of opens is set so that a window has about 2.1 games per player
  of the federation (`GAMES_PER_PLAYER_PER_LIST`);
- school days: unrated juniors (school kids, no club) play only each other,
  which makes groups with no rated player (R11: unanchored);
- results from the true strength gap (+30 for White): expected score
  1/(1+10^(-d/400)), draws about 30 % at equal strength (more among strong
  players), fewer as |d| grows; 0.5 % forfeits (`+/-`, `-/+`, `-/-`).

The simulation keeps its own rough current rating (for Swiss pairings) by an
Elo update per window; it does not try to reproduce the published lists.
Same seed, same bytes (numpy's PCG64, stable sorts, pyarrow writers).
"""
from __future__ import annotations

import datetime as dt
import math
import re
import time
from dataclasses import dataclass
from pathlib import Path

import click
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from pipeline.systems.performance.calendar import NOMINAL, list_season

GAMES_PER_PLAYER_PER_LIST = 2.1
NEWCOMER_SHARE = 0.03  # of all players, per window
FORFEIT_RATE = 0.005
WHITE_ADVANTAGE = 30.0
MIN_RATING, MAX_RATING = 1000, 2800
FORMATS = ("csv", "parquet")
LIST_ID = re.compile(r"([0-9]{4})-([0-9]{2})")

# Result codes: the index into RESULTS. Scores from White's and Black's side.
RESULTS = ("1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-")
WHITE_WINS, BLACK_WINS, DRAW, WHITE_BY_FORFEIT, BLACK_BY_FORFEIT, DOUBLE_FORFEIT = range(6)
WHITE_SCORE = np.array([1.0, 0.0, 0.5, 1.0, 0.0, 0.0])
BLACK_SCORE = np.array([0.0, 1.0, 0.5, 0.0, 1.0, 0.0])

# Kinds of player.
REGULAR, SCHOOL_ONLY, SCHOOL_GRADUATE = 0, 1, 2


@dataclass(frozen=True)
class Window:
    list_id: str
    start: np.datetime64  # first day of the window (datetime64[D])
    days: int  # length of the window in days
    start_year: int
    season_end: int  # R2, R2a: the season of the list


class FirstListError(ValueError):
    """A first list that starts no simulation: not a nominal list's id, or its windows
    out of the calendar's years; the message says which."""


def windows(first_list: str, lists: int) -> list[Window]:
    """`lists` consecutive nominal windows (R1), the first named `first_list`."""
    found = LIST_ID.fullmatch(first_list)
    if found is None or int(found[2]) not in NOMINAL:
        raise FirstListError(f"{first_list!r} is not the id of a nominal list: YYYY-01, YYYY-05 or YYYY-09 "
                             "(the lists of January, May and September)")
    year, month = int(found[1]), int(found[2])
    last = year + (sorted(NOMINAL).index(month) + lists - 1) // len(NOMINAL)  # a year after each September
    if year < 1000 or last > 9999:  # a list's id, and a season (R2a), is its window's four-digit year
        raise FirstListError(f"{first_list!r} and {lists} lists run from the year {year} to {last}: a list's "
                             "year is from 1000 to 9999")
    out = []
    for _ in range(lists):
        (dy0, m0), (dy1, m1) = NOMINAL[month]
        start = dt.date(year + dy0, m0, 1)
        end = dt.date(year + dy1 + (m1 == 12), m1 % 12 + 1, 1) - dt.timedelta(days=1)
        list_id = f"{year}-{month:02d}"
        out.append(Window(list_id, np.datetime64(start, "D"), (end - start).days + 1,
                          start.year, list_season(list_id)))  # ruling R2a: the list id's season
        year, month = (year + 1, 1) if month == 9 else (year, month + 4)
    return out


def round10(x: np.ndarray) -> np.ndarray:
    return np.floor(x / 10 + 0.5) * 10


# ---------------------------------------------------------------------------
# The population


@dataclass
class Population:
    ids: np.ndarray  # int64, increasing with the join order
    birth_year: np.ndarray  # float, nan = unknown
    club: np.ndarray  # int64, 0 = no club
    joined: np.ndarray  # window index of the first games; -1 = on the initial list
    kind: np.ndarray  # REGULAR, SCHOOL_ONLY, SCHOOL_GRADUATE
    strength: np.ndarray  # true strength (changes: juniors improve)
    activity: np.ndarray  # how much one plays, mean 1
    initial_rating: np.ndarray  # float, nan = unrated
    archive_performance: np.ndarray  # float, nan = none
    archive_games: np.ndarray  # int64, 0 = none
    current: np.ndarray  # the simulation's own running rating (nan = unrated)
    played: np.ndarray  # games played so far outside school days


def _population(n: int, wins: list[Window], rng: np.random.Generator) -> Population:
    lists = len(wins)
    per_window = min(round(NEWCOMER_SHARE * n), n // (2 * lists))
    n0 = n - per_window * lists
    n_clubs = max(1, n // 30)

    # Initial list: a quarter juniors (7–19), seniors mostly 25–65.
    junior = rng.random(n0) < 0.25
    age = np.where(junior, rng.integers(7, 20, n0), np.clip(rng.normal(45, 16, n0), 20, 90).astype(np.int64))
    birth = (wins[0].season_end - age).astype(float)
    strength = np.where(junior, rng.normal(1150, 220, n0) + 45 * (age - 7), rng.normal(1700, 280, n0))
    birth[~junior & (rng.random(n0) < 0.02)] = np.nan  # a few seniors without birth year
    club = np.where(rng.random(n0) < 0.92, np.floor(n_clubs * rng.random(n0) ** 1.5) + 1, 0)
    joined = np.full(n0, -1)
    kind = np.full(n0, REGULAR)
    rated = rng.random(n0) < 0.88
    rating = np.where(rated, np.clip(round10(strength + rng.normal(0, 50, n0)), MIN_RATING, MAX_RATING), np.nan)
    with_archives = ~rated & (rng.random(n0) < 0.4)

    parts = [(birth, strength, club, joined, kind, rating, with_archives)]
    for w, win in enumerate(wins):  # newcomers: 30 % school kids, 40 % juniors, 30 % seniors
        m = per_window
        u = rng.random(m)
        school, young = u < 0.3, (u >= 0.3) & (u < 0.7)
        age = np.select([school, young], [rng.integers(7, 13, m), rng.integers(8, 18, m)],
                        np.clip(rng.normal(35, 14, m), 18, 80).astype(np.int64))
        strength = np.select([school, young], [rng.normal(950, 150, m), rng.normal(1200, 220, m) + 40 * (age - 8)],
                             rng.normal(1500, 250, m))
        club = np.where(~school & (rng.random(m) < 0.85), np.floor(n_clubs * rng.random(m) ** 1.5) + 1, 0)
        kind = np.where(school, np.where(rng.random(m) < 0.6, SCHOOL_ONLY, SCHOOL_GRADUATE), REGULAR)
        with_archives = ~school & (rng.random(m) < 0.25)
        parts.append(((win.season_end - age).astype(float), strength, club, np.full(m, w), kind,
                      np.full(m, np.nan), with_archives))
    birth, strength, club, joined, kind, rating, with_archives = (np.concatenate(c) for c in zip(*parts))
    birth = np.where(np.isnan(birth), np.nan, np.clip(birth, 1930, None))
    strength = np.clip(strength, 600, 2850)
    archive_performance = np.where(with_archives, np.round(np.clip(strength + rng.normal(0, 120, n), 700, 2900), 1),
                                   np.nan)
    archive_games = np.where(with_archives, rng.integers(1, 8, n), 0)
    ids = 1000 + np.cumsum(rng.integers(1, 4, n))
    return Population(ids=ids.astype(np.int64), birth_year=birth, club=club.astype(np.int64),
                      joined=joined.astype(np.int64), kind=kind.astype(np.int64), strength=strength,
                      activity=rng.gamma(1.5, 1 / 1.5, n), initial_rating=rating,
                      archive_performance=archive_performance, archive_games=archive_games.astype(np.int64),
                      current=rating.copy(), played=np.zeros(n, dtype=np.int64))


# ---------------------------------------------------------------------------
# Games


def _results(strength: np.ndarray, white: np.ndarray, black: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Result codes from the true strength gap (logistic expected score, draws near equality)."""
    sw, sb = strength[white], strength[black]
    d = sw - sb + WHITE_ADVANTAGE
    expected = 1 / (1 + 10 ** (-d / 400))
    base = np.clip(0.30 + 0.10 * ((sw + sb) / 2 - 1600) / 400, 0.12, 0.45)
    draw = np.minimum(base * np.exp(-(d / 400) ** 2), 1.8 * np.minimum(expected, 1 - expected))
    u = rng.random(len(white))
    code = np.where(u < expected - draw / 2, WHITE_WINS, np.where(u < expected + draw / 2, DRAW, BLACK_WINS))
    forfeit = rng.random(len(white)) < FORFEIT_RATE
    kinds = rng.choice([WHITE_BY_FORFEIT, BLACK_BY_FORFEIT, DOUBLE_FORFEIT], size=int(forfeit.sum()),
                       p=[0.45, 0.45, 0.10])
    code[forfeit] = kinds
    return code.astype(np.int8)


class Games:
    """The games of one window as arrays, and the names of its events."""

    def __init__(self) -> None:
        self.parts: list[tuple[np.ndarray, ...]] = []
        self.event_names: list[str] = []

    def new_events(self, names: list[str]) -> int:
        first = len(self.event_names)
        self.event_names.extend(names)
        return first

    def add(self, date, white, black, code, event, rnd) -> None:
        self.parts.append((np.asarray(date, dtype=np.int64), white, black, code,
                           np.asarray(event, dtype=np.int64), np.asarray(rnd, dtype=np.int64)))

    def arrays(self) -> tuple[np.ndarray, ...]:
        if not self.parts:
            return tuple(np.zeros(0, dtype=np.int64) for _ in range(6))
        return tuple(np.concatenate(c) for c in zip(*self.parts))


def _round_robin_table(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Circle-method all-play-all of n players: (round, white seat, black seat), 1-based rounds."""
    m = n + n % 2
    seats = list(range(m))
    rounds, whites, blacks = [], [], []
    for r in range(m - 1):
        order = [seats[0]] + seats[1:][-r:] + seats[1:][:-r] if r else seats
        for k in range(m // 2):
            a, b = order[k], order[m - 1 - k]
            if n in (a, b) and n % 2:  # the dummy seat of an odd group: a bye
                continue
            if (r + k) % 2:
                a, b = b, a
            rounds.append(r + 1)
            whites.append(a)
            blacks.append(b)
    return np.array(rounds), np.array(whites), np.array(blacks)


def _club_round_robins(pop: Population, w: int, win: Window, games: Games, rng: np.random.Generator) -> None:
    n = len(pop.ids)
    eligible = (pop.joined <= w) & (pop.club > 0) & (pop.kind == REGULAR)
    take = eligible & (rng.random(n) < np.minimum(0.30 * pop.activity, 0.95))
    who = np.flatnonzero(take)
    who = who[np.lexsort((rng.random(len(who)), pop.club[who]))]
    clubs, first, count = np.unique(pop.club[who], return_index=True, return_counts=True)
    keep = count >= 6
    groups_per_club = np.where(keep, np.ceil(count / 12), 0).astype(np.int64)
    club_of = np.repeat(np.arange(len(clubs)), count)
    rank = np.arange(len(who)) - first[club_of]
    group_in_club = rank * groups_per_club[club_of] // count[club_of]
    group_offset = np.concatenate([[0], np.cumsum(groups_per_club)[:-1]])
    playing = keep[club_of]
    group = (group_offset[club_of] + group_in_club)[playing]
    who = who[playing]
    n_groups = int(groups_per_club.sum())
    if not n_groups:
        return
    size = np.bincount(group, minlength=n_groups)
    start = np.concatenate([[0], np.cumsum(size)[:-1]])
    group_club = clubs[np.repeat(np.arange(len(clubs)), groups_per_club)]
    group_letter = np.arange(n_groups) - np.repeat(group_offset, groups_per_club)
    first_event = games.new_events([f"Club {c} championship {win.list_id} {chr(65 + g % 26)}{'' if g < 26 else g}"
                                    for c, g in zip(group_club.tolist(), group_letter.tolist())])
    # One round a week from a start day that leaves room for every round.
    n_rounds = size - 1 + size % 2
    day0 = (rng.random(n_groups) * (win.days - 7 * (n_rounds - 1))).astype(np.int64)
    for s in np.unique(size):  # one vectorised step per group size
        g = np.flatnonzero(size == s)
        rnd, a, b = _round_robin_table(int(s))
        seats = who[start[g][:, None] + np.arange(s)]  # (groups, s)
        white, black = seats[:, a].ravel(), seats[:, b].ravel()
        rounds = np.tile(rnd, len(g))
        gg = np.repeat(g, len(rnd))
        date = win.start.astype(np.int64) + day0[gg] + 7 * (rounds - 1)
        games.add(date, white, black, _results(pop.strength, white, black, rng), first_event + gg, rounds)


def _avoid_repeats(a: np.ndarray, b: np.ndarray, board_event: np.ndarray, met: np.ndarray,
                   width: int) -> tuple[np.ndarray, np.ndarray]:
    """Re-pair boards whose two players already met, with the next (or previous)
    board of the same event: (a1-b1, a2-b2) becomes a1-a2, b1-b2 or a1-b2, b1-a2.

    Vectorised passes over disjoint board pairs; `met` holds the sorted keys
    min·width + max of the pairs already played.
    """
    a, b = a.copy(), b.copy()
    n = len(a)

    def repeated(x, y):  # met is sorted: a binary search
        key = np.minimum(x, y).astype(np.int64) * width + np.maximum(x, y)
        at = np.minimum(np.searchsorted(met, key), max(len(met) - 1, 0))
        return (met[at] == key) if len(met) else np.zeros(len(key), dtype=bool)

    bad_board = repeated(a, b)
    for parity in (0, 1, 0, 1, 0, 1):
        bad = np.flatnonzero(bad_board)
        if not len(bad):
            break
        nxt = np.minimum(bad + 1, n - 1)
        partner = np.where((bad + 1 < n) & (board_event[nxt] == board_event[bad]), bad + 1, bad - 1)
        ok = (partner >= 0) & (board_event[np.maximum(partner, 0)] == board_event[bad])
        lo = np.sort(np.minimum(bad, partner)[ok])
        lo = lo[np.r_[True, lo[1:] != lo[:-1]]] if len(lo) else lo
        lo = lo[lo % 2 == parity]  # disjoint board pairs (lo, lo + 1)
        hi = lo + 1
        a1, b1, a2, b2 = a[lo], b[lo], a[hi], b[hi]
        first = ~repeated(a1, a2) & ~repeated(b1, b2)
        second = ~first & ~repeated(a1, b2) & ~repeated(b1, a2)
        b[lo] = np.select([first, second], [a2, b2], b1)  # a1 stays on the first board
        a[hi] = np.where(first | second, b1, a2)
        b[hi] = np.select([first, second], [b2, a2], b2)
        moved = first | second
        bad_board[lo] &= ~moved
        bad_board[hi] &= ~moved
    return a, b


def _swiss(pop: Population, players: np.ndarray, event: np.ndarray, n_rounds: np.ndarray,
           first_day: np.ndarray, rounds_per_day: int, first_event: int, games: Games,
           rng: np.random.Generator) -> None:
    """Swiss events, all at once: `players[i]` plays event `event[i]` (contiguous, 0-based).

    Each round sorts an event's players by score, then current rating (unrated
    at 1000, a little noise to vary the pairings), and pairs neighbours, moving
    a player who already met their neighbour to the next board; the odd player
    out gets a bye (one point).
    """
    seed = np.where(np.isnan(pop.current[players]), 1000.0, pop.current[players])
    score = np.zeros(len(players))
    width = len(players)
    met = np.zeros(0, dtype=np.int64)
    for r in range(1, int(n_rounds.max(initial=0)) + 1):
        act = np.flatnonzero(n_rounds[event] >= r)
        # One int64 sort key: event, then score (descending), then rating with
        # noise (descending, to 1/8 point): much faster than a lexsort.
        by_rating = np.clip(np.rint((5000 - seed[act] - rng.normal(0, 25, len(act))) * 8), 0, (1 << 16) - 1)
        by_score = (1 << 6) - 1 - np.rint(2 * score[act])
        key = (event[act].astype(np.int64) << 22) + (by_score.astype(np.int64) << 16) + by_rating.astype(np.int64)
        order = act[np.argsort(key, kind="stable")]
        ev = event[order]
        same_next = np.r_[ev[1:] == ev[:-1], False]
        starts = np.r_[True, ~same_next[:-1]] if len(ev) else np.zeros(0, dtype=bool)
        pos = np.arange(len(ev)) - np.maximum.accumulate(np.where(starts, np.arange(len(ev)), 0))
        top = (pos % 2 == 0)
        k = np.flatnonzero(top & same_next)
        score[order[top & ~same_next]] += 1.0  # bye
        a, b = _avoid_repeats(order[k], order[k + 1], ev[k], met, width)
        met = np.sort(np.concatenate([met, np.minimum(a, b).astype(np.int64) * width + np.maximum(a, b)]))
        swap = rng.random(len(k)) < 0.5
        a, b = np.where(swap, b, a), np.where(swap, a, b)
        white, black = players[a], players[b]
        code = _results(pop.strength, white, black, rng)
        score[a] += WHITE_SCORE[code]
        score[b] += BLACK_SCORE[code]
        e = event[a]
        games.add(first_day[e] + (r - 1) // rounds_per_day, white, black, code, first_event + e, np.full(len(k), r))


def _partition(total: int, sizes: np.ndarray) -> np.ndarray:
    """Cut `total` places into consecutive events of the given sizes (the last one trimmed)."""
    end = np.cumsum(sizes)
    m = int(np.searchsorted(end, total)) + 1
    sizes = sizes[:m].copy()
    sizes[-1] -= end[m - 1] - total if m <= len(end) else 0
    return sizes


def _weighted_sample(weight: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k distinct indices, drawn with probability proportional to weight (Efraimidis–Spirakis)."""
    key = np.log(rng.random(len(weight))) / weight
    if k >= len(weight):
        return np.argsort(-key, kind="stable")
    top = np.argpartition(-key, k - 1)[:k]
    return top[np.argsort(-key[top], kind="stable")]


def _school_days(pop: Population, w: int, win: Window, games: Games, rng: np.random.Generator) -> None:
    n = len(pop.ids)
    pool = ((pop.kind == SCHOOL_ONLY) & (pop.joined <= w) & (rng.random(n) < 0.6)) | \
           ((pop.kind == SCHOOL_GRADUATE) & (pop.joined == w))
    who = np.flatnonzero(pool)
    if len(who) < 4:
        return
    who = who[rng.permutation(len(who))]
    sizes = _partition(len(who), rng.integers(8, 31, len(who) // 8 + 2))
    if sizes[-1] < 4 and len(sizes) > 1:  # too few left for a last event: they join the one before
        sizes[-2] += sizes[-1]
        sizes = sizes[:-1]
    k = len(sizes)
    first_event = games.new_events([f"School day {win.list_id} #{i + 1}" for i in range(k)])
    day = (rng.random(k) * win.days).astype(np.int64) + win.start.astype(np.int64)
    _swiss(pop, who, np.repeat(np.arange(k), sizes), np.full(k, 5), day, 5, first_event, games, rng)


def _opens(pop: Population, w: int, win: Window, target: int, games: Games, rng: np.random.Generator) -> None:
    """Swiss opens until the window has about `target` games in all."""
    eligible = np.flatnonzero(((pop.kind == REGULAR) & (pop.joined <= w)) |
                              ((pop.kind == SCHOOL_GRADUATE) & (pop.joined < w)))
    wanted = target - sum(len(p[1]) for p in games.parts)
    if wanted <= 0 or len(eligible) < 2:
        return
    cap = len(eligible)
    draws = wanted // 100 + 10
    sizes = np.clip(np.exp(rng.normal(math.log(40), 0.7, draws)).round(), 10, 400).astype(np.int64)
    sizes = np.minimum(sizes, cap)
    n_rounds = rng.integers(5, 10, draws)
    while (sizes // 2 * n_rounds).sum() < wanted:  # not enough opens drawn (tiny federations)
        sizes, n_rounds = np.r_[sizes, sizes], np.r_[n_rounds, n_rounds]
    k = int(np.searchsorted(np.cumsum(sizes // 2 * n_rounds), wanted)) + 1
    sizes, n_rounds = sizes[:k], n_rounds[:k]
    # Players are drawn by activity, at most once per open: the opens are filled
    # in passes of distinct players, an open never straddling two passes (more
    # than one pass only when there are more places than players).
    pass_of = np.zeros(k, dtype=np.int64)
    if sizes.sum() > cap:
        filled = 0
        for i, s in enumerate(sizes.tolist()):  # a loop over opens, not games
            if filled + s > cap:
                pass_of[i:] += 1
                filled = 0
            filled += s
    players = []
    for p in range(int(pass_of.max()) + 1):
        places = int(sizes[pass_of == p].sum())
        players.append(eligible[_weighted_sample(pop.activity[eligible], places, rng)])
    players = np.concatenate(players)
    event = np.repeat(np.arange(k), sizes)
    days = (n_rounds + 1) // 2  # two rounds a day
    first_day = (rng.random(k) * (win.days - days + 1)).astype(np.int64) + win.start.astype(np.int64)
    first_event = games.new_events([f"Open {win.list_id} #{i + 1}" for i in range(k)])
    _swiss(pop, players, event, n_rounds, first_day, 2, first_event, games, rng)


def _update_current(pop: Population, white: np.ndarray, black: np.ndarray, code: np.ndarray,
                    rng: np.random.Generator) -> None:
    """The simulation's own running rating after a window: an Elo update; first ratings after 8 games."""
    played = code <= DRAW
    white, black, code = white[played], black[played], code[played]
    n = len(pop.ids)
    seed = np.where(np.isnan(pop.current), 1000.0, pop.current)
    expected = 1 / (1 + 10 ** (-(seed[white] - seed[black]) / 400))
    delta = 10.0 * (WHITE_SCORE[code] - expected)
    change = np.bincount(white, delta, n) - np.bincount(black, delta, n)
    pop.played += np.bincount(white, minlength=n) + np.bincount(black, minlength=n)
    rated = ~np.isnan(pop.current)
    pop.current[rated] = np.clip(round10(pop.current[rated] + change[rated]), MIN_RATING, MAX_RATING)
    new = ~rated & (pop.played >= 8) & (pop.kind != SCHOOL_ONLY)
    pop.current[new] = np.clip(round10(pop.strength[new] + rng.normal(0, 60, int(new.sum()))),
                               MIN_RATING, MAX_RATING)


def _improve_juniors(pop: Population, win: Window, rng: np.random.Generator) -> None:
    age = win.season_end - pop.birth_year  # nan: no birth year = senior
    junior = age < 20
    gain = np.maximum(rng.normal(6 * (20 - np.nan_to_num(age, nan=20)), 25), 0)
    pop.strength = np.where(junior, np.minimum(pop.strength + gain, 2850), pop.strength)


# ---------------------------------------------------------------------------
# Tables and files


def generate(players: int, lists: int, seed: int, first_list: str = "2020-01") -> dict[str, pa.Table]:
    """The three input tables of a synthetic federation (see the module docstring)."""
    if players < 10:
        raise ValueError("simulate at least 10 players")
    if lists < 1:
        raise ValueError("simulate at least one list")
    rng = np.random.Generator(np.random.PCG64(seed))
    wins = windows(first_list, lists)
    pop = _population(players, wins, rng)
    target = round(GAMES_PER_PLAYER_PER_LIST * players)
    columns: list[list[np.ndarray]] = [[] for _ in range(6)]
    names: list[str] = []
    for w, win in enumerate(wins):
        if w:
            _improve_juniors(pop, win, rng)
        games = Games()
        _club_round_robins(pop, w, win, games, rng)
        _school_days(pop, w, win, games, rng)
        _opens(pop, w, win, target, games, rng)
        date, white, black, code, event, rnd = games.arrays()
        # By date, event, round; a stable sort, so boards keep their pairing order.
        key = ((date - date.min(initial=0)) << 40) + (event << 8) + rnd
        order = np.argsort(key, kind="stable")
        school = (pop.kind[white] == SCHOOL_ONLY) | ((pop.kind[white] == SCHOOL_GRADUATE) & (pop.joined[white] == w))
        _update_current(pop, white[~school], black[~school], code[~school], rng)
        for column, values in zip(columns, (date, white, black, code, event + len(names), rnd)):
            column.append(values[order])
        names.extend(games.event_names)
    date, white, black, code, event, rnd = (np.concatenate(c) for c in columns)
    game_table = pa.table({
        "game_id": pa.array(np.arange(1, len(date) + 1, dtype=np.int64)),
        "date": pa.array(date.astype(np.int32), pa.int32()).cast(pa.date32()),
        "white_id": pa.array(pop.ids[white]),
        "black_id": pa.array(pop.ids[black]),
        "result": pa.DictionaryArray.from_arrays(pa.array(code.astype(np.int8)), pa.array(RESULTS)),
        "event": pa.DictionaryArray.from_arrays(pa.array(event.astype(np.int32)), pa.array(names)),
        "round": pa.array(rnd.astype(np.int16)),
    })
    ids = pa.array(pop.ids)
    id_text = pc.cast(ids, pa.string())
    player_table = pa.table({
        "player_id": ids,
        "name": pc.binary_join_element_wise("Sim Player ", id_text, ""),
        "birth_year": pa.array(np.nan_to_num(pop.birth_year).astype(np.int64), mask=np.isnan(pop.birth_year)),
        "club": pc.binary_join_element_wise("Club ", pc.cast(pa.array(pop.club, mask=pop.club == 0), pa.string()), ""),
    })
    listed = ~np.isnan(pop.initial_rating) | (pop.archive_games > 0)
    no_archive = pop.archive_games[listed] == 0
    rating = pop.initial_rating[listed]
    ratings_table = pa.table({
        "player_id": pa.array(pop.ids[listed]),
        "rating": pa.array(np.nan_to_num(rating).astype(np.int64), mask=np.isnan(rating)),
        "archive_performance": pa.array(pop.archive_performance[listed], mask=no_archive),
        "archive_games": pa.array(pop.archive_games[listed], mask=no_archive),
    })
    return {"players": player_table, "ratings": ratings_table, "games": game_table}


def write_table(table: pa.Table, path: Path, fmt: str) -> Path:
    """CSV (comma, header, no quotes: no cell holds a comma or a quote) or Parquet
    (delta-encoded integers and dates, dictionary-encoded text: half the size)."""
    if fmt == "parquet":
        delta = {f.name: "DELTA_BINARY_PACKED" for f in table.schema
                 if pa.types.is_integer(f.type) or pa.types.is_date(f.type)}
        pq.write_table(table, path, use_dictionary=[n for n in table.column_names if n not in delta],
                       column_encoding=delta)
        return path
    with open(path, "wb") as fh:
        fh.write((",".join(table.column_names) + "\n").encode())
        pa_csv.write_csv(table, fh, pa_csv.WriteOptions(include_header=False, quoting_style="none",
                                                        batch_size=1 << 16))
    return path


def simulate(players: int, lists: int, seed: int, out: Path, first_list: str = "2020-01",
             fmt: str = "csv") -> dict[str, Path]:
    """Write a synthetic federation to `out`: players, ratings (the list in force
    before the first window) and games of `lists` nominal windows from `first_list`.

    `fmt` is "csv" (players.csv, ...) or "parquet" (players.parquet, ...). The
    same arguments give byte-identical files. Returns {kind: path}.
    """
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {FORMATS}, got {fmt!r}")
    tables = generate(players, lists, seed, first_list)  # refused before the folder is made
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    return {kind: write_table(table, out / f"{kind}.{fmt}", fmt) for kind, table in tables.items()}


@click.command()
@click.option("--players", type=int, required=True, help="Players in the registry (newcomers included).")
@click.option("--lists", type=int, default=6, show_default=True, help="Number of list windows.")
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed (same seed, same bytes).")
@click.option("--first-list", default="2020-01", show_default=True, help="Id of the first list (YYYY-01/05/09).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="csv", show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Output folder.")
def main(players: int, lists: int, seed: int, first_list: str, fmt: str, out: Path) -> None:
    """Write a synthetic federation in the pipeline's input format.

    Example: python -m pipeline.simulate --players 80000 --lists 6 --seed 1 --out sim/
    """
    began = time.perf_counter()
    try:
        paths = simulate(players, lists, seed, out, first_list, fmt)
    except FirstListError as err:
        raise click.BadParameter(str(err), param_hint="'--first-list'") from err
    seconds = time.perf_counter() - began
    for kind, path in paths.items():
        rows = pq.read_metadata(path).num_rows if fmt == "parquet" else sum(1 for _ in open(path, "rb")) - 1
        click.echo(f"{kind:<8} {path}  {rows} rows  {path.stat().st_size / 1e6:.1f} MB")
    click.echo(f"simulated in {seconds:.2f} s")


if __name__ == "__main__":
    main()
