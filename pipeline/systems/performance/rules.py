"""The national performance Elo (seed 001; rulings R1–R13).

| rule                                             | where                          |
|--------------------------------------------------|--------------------------------|
| compatible games (350 rule, draws always count)  | `compatible`                   |
| thresholds compared at 6 decimals, R13           | `compatible`, `estimates`      |
| D(P) table, interpolation, ±470 bound (R5)       | `bonus`                        |
| Pj = Ea + D(P), floored at 1000                  | `performance`                  |
| brake / quota / barycentre (rated players)       | `rated_players_ratings`        |
| junior quota, R2                                 | `is_junior`                    |
| the season of a list, R2a                        | `calendar.list_season`         |
| first rating, archives, R6                       | `unrated_players_ratings`      |
| iterative estimation, R7–R10                     | `estimates`                    |
| anchoring of unrated groups, R11                 | `components.anchored`          |
| rounding of published ratings, R3                | `published`                    |
| list identity and calendar, R1                   | `calendar.nominal_calendar`    |
| which opponent rating, R4                        | `rate_list` (`used`)           |

Every function is array code: one call handles every player of a list.
"""
from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

import numpy as np

from pipeline.ruleset.parameters import one_of, within
from pipeline.ruleset.texts import first_that_holds
from pipeline.systems.performance.components import anchored

HERE = Path(__file__).parent  # the rule set's tables are data files beside its code


def _dp_table() -> tuple[tuple[float, float], ...]:
    with open(HERE / "performance-dp-table.csv", newline="") as fh:
        return tuple((float(r["p"]), float(r["dp"])) for r in csv.DictReader(fh))


@dataclass(frozen=True)
class PerformanceRules:
    """Parameters of the performance Elo; defaults are the seed's values."""

    # Each default is the seed's; beside it, what a --rules file may set instead
    # (pipeline/ruleset/parameters.py): ratings run from 1 to 3000.
    compatibility_gap: float = within(350.0, 0, 3000, above=True)  # seed II.2: "à moins de 350 points"
    entry_games: int = within(8, 1, 100)  # seed I: entry after 8 compatible games
    # A quota above the brake's weight would weigh the old rating negatively in the
    # barycentre completed to 16 (16 - Nj < 0): the quotas are at most brake_weight.
    junior_quota: int = within(8, 1, "brake_weight")  # seed I: 8 compatible games for a junior
    senior_quota: int = within(16, 1, "brake_weight")  # seed I: 16 for a senior
    brake_weight: int = within(16, 1, 100)  # seed V-1-a: "SEIZE fois le ELO initial"
    performance_floor: float = within(1000.0, 1, 3000)  # seed II.5
    bonus_bound: float = within(470.0, 0, 800, above=True)  # seed II.4, ruling R5 (the table's D reaches 677)
    junior_age: int = within(20, 0, 100)  # ruling R2: season_end_year - birth_year < 20
    start_value: float = within(1500.0, 1, 3000)  # ruling R7
    settle_tolerance: float = within(20.0, 0, 3000, above=True)  # seed: "moins de 20 points"
    max_rounds: int = within(25, 1, 1000)  # seed: up to 25 rounds; ruling R9
    # ruling R3: published ratings are in tens. Every rating a list carries is rounded to the
    # step, the ratings of players without a game too: a divisor of ten keeps a rating in tens as
    # it is (under 7, 1510 would become 1512 without a game). An initial rating is taken as given
    # whatever its last digit (R14), and rounded on the first list computed from it.
    rounding_step: int = one_of(10, 1, 2, 5, 10, why="a divisor of ten: a rating in tens stays as it is, R3")
    dp_table: tuple[tuple[float, float], ...] = field(default_factory=_dp_table, repr=False)


RULES = PerformanceRules()

# Ruling R13: the decimals at which the estimation's thresholds (350, 20) are compared.
R13_DECIMALS = 6


class Rule(StrEnum):
    """Which branch of the rules produced a player's new rating or archive."""

    NO_GAMES = "no compatible game"
    BRAKE = "brake"
    QUOTA = "quota met"
    BARYCENTRE = "barycentre"
    FIRST_RATING = "first rating"
    ARCHIVES_MERGED = "first rating with archives"
    ARCHIVED = "archived"
    UNANCHORED = "unanchored group (R11)"


def bonus(p: np.ndarray, rules: PerformanceRules = RULES) -> np.ndarray:
    """D(P): the table interpolated linearly between whole percentages (R5).

    np.interp clamps outside the table's [0.05, 0.95] core, which is exactly the
    ±470 bound of R5 (P ≥ 0.95 → +470, P ≤ 0.05 → −470, P = 0 and 1 included).
    """
    table = np.array([row for row in rules.dp_table if abs(row[1]) <= rules.bonus_bound])
    return np.interp(np.asarray(p, dtype=float), table[:, 0], table[:, 1])


def expected_score(d: np.ndarray, rules: PerformanceRules = RULES) -> np.ndarray:
    """P(D), the score expected at a rating difference D: the D(P) table read the other way,
    interpolated linearly (R5). The whole table, not the ±470 bound: the bound is the bonus's
    (seed II.4: "les primes sont bornées"), the table the curve that generates it; beyond its
    last rows (±677) the table says no more than 0.01 and 0.99."""
    table = np.array(rules.dp_table)
    return np.interp(np.asarray(d, dtype=float), table[:, 1], table[:, 0])


def performance(mean_opponent: np.ndarray, p: np.ndarray, rules: PerformanceRules = RULES) -> np.ndarray:
    """Pj = Ea + D(P), raised to the floor (seed II.5)."""
    return np.maximum(mean_opponent + bonus(p, rules), rules.performance_floor)


def compatible(score: np.ndarray, own: np.ndarray, opponent: np.ndarray,
               rules: PerformanceRules = RULES) -> np.ndarray:
    """Whether each game counts: draws always; a win if the opponent is less than
    350 below, a loss if less than 350 above (seed II.2), the gap rounded to 6
    decimals (R13: a gap within a millionth of 350 is 350)."""
    gap = rules.compatibility_gap
    # ruling R13: the gap from full-precision values, compared at 6 decimals, so that
    # the order of the sums behind an estimate never decides whether a game counts
    return np.where(score == 1.0, np.round(own - opponent, R13_DECIMALS) < gap,
                    np.where(score == 0.0, np.round(opponent - own, R13_DECIMALS) < gap, True))


@dataclass(frozen=True)
class Totals:
    """Per-player sums over the counted games: Nj, Sc, Ea, P and Pj."""

    games: np.ndarray
    score: np.ndarray
    mean_opponent: np.ndarray
    p: np.ndarray
    performance: np.ndarray


def totals(player: np.ndarray, score: np.ndarray, opponent_rating: np.ndarray,
           counted: np.ndarray, n: int, rules: PerformanceRules = RULES) -> Totals:
    """Nj, Sc, Ea, P, Pj of every player over the games flagged `counted`.

    `player`, `score`, `opponent_rating` hold one row per game and side; `n` is the
    number of players. Players
    without a counted game get Nj = 0 and NaN for the rest.
    """
    who = player[counted]
    nj = np.bincount(who, minlength=n)
    sc = np.bincount(who, weights=score[counted], minlength=n)
    opp = np.bincount(who, weights=opponent_rating[counted], minlength=n)
    some = nj > 0
    ea = np.divide(opp, nj, out=np.full(n, np.nan), where=some)
    p = np.divide(sc, nj, out=np.full(n, np.nan), where=some)
    perf = np.full(n, np.nan)
    perf[some] = performance(ea[some], p[some], rules)
    return Totals(nj.astype(np.int64), sc, ea, p, perf)


@dataclass(frozen=True)
class Estimation:
    """Outcome of the iterative estimation of unrated players (R7–R10)."""

    estimate: np.ndarray  # final estimate per player (NaN for players not estimated)
    moving_per_round: tuple[int, ...]  # players still moving after each round with the range (R9)
    players: np.ndarray  # indices of the estimated players
    history: np.ndarray  # their estimates after the first pass, then each round: shape (1 + rounds, len(players))

    @property
    def rounds(self) -> int:
        return len(self.moving_per_round)

    @property
    def still_moving(self) -> int:
        return self.moving_per_round[-1] if self.moving_per_round else 0


def estimates(player: np.ndarray, opponent: np.ndarray, score: np.ndarray,
              rating: np.ndarray, start: np.ndarray, estimated: np.ndarray,
              rules: PerformanceRules = RULES, on_round: Callable[[int, int], None] | None = None) -> Estimation:
    """Estimates of the unrated players flagged `estimated`, by Jacobi rounds (R8).

    `rating` is each player's rating on the previous list (NaN when unrated),
    `start` the start value of each unrated player (R7: Pa or 1500).
    The first pass, without the compatibility range, gives the first estimates;
    then up to `max_rounds` rounds with the range (ruling R9: 25 rounds after the
    first pass, so at most 26 passes over the games). `moving_per_round` counts the
    rounds with the range only; `history[0]` is the first pass, `history[r]` round r.
    `on_round(round, players_moving)` is called after each round (progress display).
    """
    n = len(rating)
    if not estimated.any():
        return Estimation(np.full(n, np.nan), (), np.empty(0, dtype=np.int64), np.empty((0, 0)))
    # A round works on the estimated players only (k of them, positions 0..k-1)
    # and on their sides of their games; opponents are looked up in `current`.
    who = np.flatnonzero(estimated)
    k = len(who)
    position = np.cumsum(estimated) - 1
    mine = estimated[player]
    own, opponent, score = position[player[mine]], opponent[mine], score[mine]
    current = np.where(estimated, start, rating)  # R7: unrated opponents at their start value
    first = totals(own, score, current[opponent], np.ones(len(own), dtype=bool), k, rules)
    estimate = first.performance
    current[who] = estimate
    moving: list[int] = []
    history = [estimate]
    for _ in range(rules.max_rounds):  # ruling R9: the first pass is not one of the 25
        opponent_rating = current[opponent]
        ok = compatible(score, estimate[own], opponent_rating, rules)
        t = totals(own, score, opponent_rating, ok, k, rules)
        # R9: no compatible game, or within 20 points of the estimate: settled.
        # R13: the 20 points are compared at 6 decimals, like the 350.
        settled = np.round(np.abs(t.performance - estimate), R13_DECIMALS) < rules.settle_tolerance
        move = (t.games > 0) & ~settled
        estimate = np.where(move, (estimate + t.performance) / 2.0, estimate)
        current[who] = estimate
        moving.append(int(move.sum()))
        history.append(estimate)
        if on_round:
            on_round(len(moving), moving[-1])
        if not move.any():
            break
    final = np.full(n, np.nan)
    final[who] = estimate
    return Estimation(final, tuple(moving), who, np.array(history))


def is_junior(birth_year: np.ndarray, season_end_year: int, rules: PerformanceRules = RULES) -> np.ndarray:
    """R2: junior for the whole season if season_end_year − birth_year < 20;
    no birth year means senior."""
    by = np.asarray(birth_year, dtype=float)
    return np.where(np.isnan(by), False, season_end_year - by < rules.junior_age)


@dataclass(frozen=True)
class NewRatings:
    """Unrounded new rating (NaN when none), archives after the list, rule used."""

    rating: np.ndarray
    archive_performance: np.ndarray
    archive_games: np.ndarray
    rule: np.ndarray


def rated_players_ratings(previous: np.ndarray, nj: np.ndarray, pj: np.ndarray,
                          junior: np.ndarray, rules: PerformanceRules = RULES) -> NewRatings:
    """Ej of players rated on the previous list (seed III.1)."""
    quota = np.where(junior, rules.junior_quota, rules.senior_quota)
    w = rules.brake_weight
    pj0 = np.nan_to_num(pj)
    brake = (w * previous + nj * pj0) / (w + nj)
    barycentre = (pj0 * nj + (w - nj) * previous) / w
    cases = [nj == 0, pj0 < previous, nj >= quota]
    rating = np.select(cases, [previous, brake, pj0], barycentre)
    rule = first_that_holds(cases, [Rule.NO_GAMES, Rule.BRAKE, Rule.QUOTA], Rule.BARYCENTRE)
    nothing = np.full(len(previous), np.nan)
    return NewRatings(rating, nothing, np.zeros(len(previous), dtype=np.int64), rule)


def unrated_players_ratings(nj: np.ndarray, pj: np.ndarray, pa: np.ndarray, na: np.ndarray,
                            rules: PerformanceRules = RULES) -> NewRatings:
    """Ej or new archives of players without a previous rating (seed III.2–3, R6)."""
    na = np.nan_to_num(np.asarray(na, dtype=float))
    pa0 = np.nan_to_num(pa)
    pj0 = np.nan_to_num(pj)
    total = nj + na
    with np.errstate(invalid="ignore", divide="ignore"):
        merged = np.where(total > 0, (pj0 * nj + pa0 * na) / total, np.nan)
    entry = rules.entry_games
    no_games, alone = nj == 0, nj >= entry
    enters = ~no_games & ~alone & (total >= entry)
    archived = ~no_games & ~alone & ~enters
    rating = np.select([alone, enters], [pj0, merged], np.nan)
    new_pa = np.select([no_games, archived], [pa, merged], np.nan)
    new_na = np.select([no_games, archived], [na, total], 0).astype(np.int64)
    # Nj ≥ 8 forgets the past (seed III.2.a), so it is a first rating either way.
    rule = first_that_holds([no_games, alone, enters, archived],
                            [Rule.NO_GAMES, Rule.FIRST_RATING, Rule.ARCHIVES_MERGED, Rule.ARCHIVED],
                            Rule.NO_GAMES)
    return NewRatings(rating, np.where(new_na > 0, new_pa, np.nan), new_na, rule)


def published(x: np.ndarray, rules: PerformanceRules = RULES) -> np.ndarray:
    """R3: nearest ten, 5 going up, after rounding to 3 decimals so that binary
    noise cannot flip a half."""
    step = rules.rounding_step
    return np.floor(np.round(np.asarray(x, dtype=float), 3) / step + 0.5) * step


@dataclass(frozen=True)
class ListResult:
    """One list computed: everyone's state after it, and each player's card."""

    rating: np.ndarray  # published rating (R3), NaN while unrated
    unrounded: np.ndarray
    archive_performance: np.ndarray
    archive_games: np.ndarray
    played: np.ndarray  # games played in the window (forfeits excluded)
    totals: Totals  # over the compatible games, opponents at the ratings used (R4)
    performance: np.ndarray  # Pj: the period's performance, or the final estimate (R10)
    junior: np.ndarray
    rule: np.ndarray
    estimation: Estimation
    unanchored: np.ndarray  # unrated players of the window in groups without a rated player (R11)


def rate_list(white: np.ndarray, black: np.ndarray, white_score: np.ndarray,
              previous: np.ndarray, archive_performance: np.ndarray, archive_games: np.ndarray,
              birth_year: np.ndarray, season_end_year: int,
              rules: PerformanceRules = RULES, on_round: Callable[[int, int], None] | None = None) -> ListResult:
    """Rate one list from the previous one. Players are dense indices 0..n-1;
    `previous` is NaN for unrated players; games are the window's played games."""
    n = len(previous)
    player = np.concatenate([white, black])
    opponent = np.concatenate([black, white])
    score = np.concatenate([white_score, 1.0 - white_score])
    rated = ~np.isnan(previous)
    played = np.bincount(player, minlength=n)
    na = np.nan_to_num(np.asarray(archive_games, dtype=float))
    connected = anchored(white, black, rated)  # ruling R11
    estimated = (played > 0) & ~rated & connected
    start = np.where(na > 0, archive_performance, rules.start_value)  # ruling R7
    estimation = estimates(player, opponent, score, previous, start, estimated, rules, on_round)
    used = np.where(rated, previous, estimation.estimate)  # ruling R4
    known = ~np.isnan(used)
    counted = compatible(score, used[player], used[opponent], rules) & known[player] & known[opponent]
    t = totals(player, score, used[opponent], counted, n, rules)
    pj = np.where(rated, t.performance, estimation.estimate)  # ruling R10
    junior = is_junior(birth_year, season_end_year, rules)
    old = rated_players_ratings(previous, t.games, pj, junior, rules)
    new = unrated_players_ratings(t.games, pj, archive_performance, archive_games, rules)
    unrounded = np.where(rated, old.rating, new.rating)
    unanchored = (played > 0) & ~rated & ~connected
    rule = np.where(rated, old.rule, np.where(unanchored, Rule.UNANCHORED, new.rule))
    return ListResult(
        rating=published(unrounded, rules),
        unrounded=unrounded,
        archive_performance=np.where(rated, np.nan, new.archive_performance),
        archive_games=np.where(rated, 0, new.archive_games),
        played=played,
        totals=t,
        performance=pj,
        junior=junior,
        rule=rule,
        estimation=estimation,
        unanchored=unanchored,
    )
