"""The Belgian Go Federation rating (seeds 000 and 002; rulings G1–G4).

| rule                                                        | where                 |
|-------------------------------------------------------------|-----------------------|
| per event, from the pre-event ratings, changes summed (G1)  | `rate_event`          |
| Con and A: table I, interpolated and extrapolated           | `con_and_a`           |
| expected result, the 0.986 asymmetry                        | `expected_result`     |
| handicap: (h − 0.5) × 100, factors, h = 1 included (G3)     | `handicap_terms`      |
| event class and board size weights (small boards from 2021) | `game_weight`         |
| weight 0 counts for nobody (G7)                             | `rate_event`          |
| Con and A flat above 650 (G5)                               | `con_and_a`           |
| the −2450 floor                                             | `rate_event`          |
| grades with hysteresis, first grade (G4)                    | `go.grades`           |
| new members at the middle of their grade                    | `go.grades.middle_of` |
| NC players: first rating by bisection, handicap-adjusted    | `first_ratings`       |
|   all wins / losses, floored (G2)                           |                       |

The seed's published table and examples use two simplifications; the rule set
has a setting for each (`symmetric_expectation`, `giver_factor_squared`).
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.ruleset.parameters import a_date, within
from pipeline.systems.go.grades import level_of_points, next_level

HERE = Path(__file__).parent  # the rule set's tables are data files beside its code


def _table_one() -> tuple[tuple[float, float, float], ...]:
    with open(HERE / "go-belgium-table-1.csv", newline="") as fh:
        return tuple((float(r["rating"]), float(r["con"]), float(r["a"])) for r in csv.DictReader(fh))


@dataclass(frozen=True)
class GoBelgiumRules:
    """Parameters of the Belgian Go rating; defaults are the rules as written."""

    # Each default is the rules'; beside it, what a --rules file may set instead
    # (pipeline/ruleset/parameters.py): Go points run from -2450 to 1000 (ruling G6).
    # the stronger player's expectation is 0.986 − 1/(e^(d/A) + 1): an expectation, at most 1
    asymmetry: float = within(0.986, 0.5, 1)
    symmetric_expectation: bool = False  # True: the seed's table and examples (1 − 1/(e^(d/A) + 1))
    giver_factor_squared: bool = True  # False: the seed's second example (the giver's factor unsquared)
    stone_value: float = within(100.0, 0, 1000, above=True)  # the receiver of h stones gains (h − 0.5) × 100
    handicap_offset: float = within(0.5, 0, 1)  # no komi in handicap games
    factor_step: float = within(10.0, 0, 1000, above=True)  # factor 1 − (h − 0.5) / 10 ...
    factor_minimum: float = within(0.1, 0, 1)  # ... at least 0.1
    class_weights: tuple[tuple[str, float], ...] = (("A", 1.2), ("B", 1.0), ("C", 0.8), ("D", 0.0))
    board_weights: tuple[tuple[int, float], ...] = ((19, 1.0), (13, 0.5), (9, 0.3))
    small_boards_since: str = a_date("2021-01-01")  # 13×13 and 9×9 weigh less from then on ("since 2021")
    floor: float = within(-2450.0, -5000, 1000)  # 25 kyu
    first_rating_bounds: tuple[float, float] = (-2450.0, 1000.0)  # ruling G2: bisection interval
    # G2: all wins (losses): best (worst) adjusted opponent ± 100
    first_rating_margin: float = within(100.0, 0, 1000)
    bisection_steps: int = within(60, 1, 200)  # the interval halves 60 times: far below a hundredth of a point
    table: tuple[tuple[float, float, float], ...] = field(default_factory=_table_one, repr=False)


RULES = GoBelgiumRules()


def con_and_a(rating: np.ndarray, rules: GoBelgiumRules = RULES) -> tuple[np.ndarray, np.ndarray]:
    """Con and A at a rating: table I, linear between rows, extrapolated below −1950
    with the first rows' slope; above 650 the last row's values (ruling G5: going on
    upward would make Con negative above 1650 and A above 2050)."""
    t = np.array(rules.table)
    r = np.asarray(rating, dtype=float)

    def line(column: int) -> np.ndarray:
        inside = np.interp(r, t[:, 0], t[:, column])  # flat beyond the last row (G5)
        low_slope = (t[1, column] - t[0, column]) / (t[1, 0] - t[0, 0])
        return np.where(r < t[0, 0], t[0, column] + (r - t[0, 0]) * low_slope, inside)

    return line(1), line(2)


def expected_result(difference: np.ndarray, a: np.ndarray, rules: GoBelgiumRules = RULES) -> np.ndarray:
    """1/(e^(−d/A) + 1) for the weaker (d ≤ 0); 0.986 − 1/(e^(d/A) + 1) for the stronger."""
    d = np.asarray(difference, dtype=float)
    with np.errstate(over="ignore"):  # both branches are computed; e^x = inf gives the limit 0
        stronger = (1.0 if rules.symmetric_expectation else rules.asymmetry) - 1.0 / (np.exp(d / a) + 1.0)
        return np.where(d <= 0, 1.0 / (np.exp(-d / a) + 1.0), stronger)


def handicap_terms(handicap: np.ndarray, receives: np.ndarray,
                   rules: GoBelgiumRules = RULES) -> tuple[np.ndarray, np.ndarray]:
    """The difference adjustment and the factor of one side of each game.

    h = 0 is an even game: no adjustment, factor 1. For h ≥ 1 (ruling G3: h = 1
    too) the receiver gains (h − 0.5) × 100 with factor max(0.1, 1 − (h − 0.5)/10);
    the giver loses as much, with that factor squared."""
    h = np.asarray(handicap, dtype=float)
    given = h >= 1
    stones = np.where(given, h - rules.handicap_offset, 0.0)
    receiver = np.maximum(rules.factor_minimum, 1.0 - stones / rules.factor_step)
    giver = receiver ** 2 if rules.giver_factor_squared else receiver
    adjustment = np.where(receives, 1.0, -1.0) * stones * rules.stone_value
    factor = np.where(given, np.where(receives, receiver, giver), 1.0)
    return adjustment, factor


def game_weight(event_class: np.ndarray, board_size: np.ndarray, override: np.ndarray, date: np.ndarray,
                rules: GoBelgiumRules = RULES) -> np.ndarray:
    """Class weight × board weight (13×13 and 9×9 only for games played from 1 January
    2021: earlier ones weigh by their class alone), unless the game carries its own weight."""
    by_class = pd.Series(dict(rules.class_weights))
    by_board = pd.Series(dict(rules.board_weights))
    small_boards = pd.to_datetime(np.asarray(date)) >= pd.Timestamp(rules.small_boards_since)
    board = by_board.reindex(np.asarray(board_size, dtype=np.int64)).to_numpy(dtype=float)
    computed = (by_class.reindex(np.asarray(event_class, dtype=object)).to_numpy(dtype=float)
                * np.where(small_boards, board, 1.0))
    return np.where(np.isnan(override), computed, override)


@dataclass(frozen=True)
class Sides:
    """The game sides of an event: one row per game and player."""

    player: np.ndarray
    opponent: np.ndarray
    result: np.ndarray  # 1 win, 0 loss, 0.5 jigo
    adjustment: np.ndarray  # handicap adjustment of the difference
    factor: np.ndarray
    weight: np.ndarray


def sides_of(black: np.ndarray, white: np.ndarray, black_result: np.ndarray, handicap: np.ndarray,
             weight: np.ndarray, rules: GoBelgiumRules = RULES) -> Sides:
    """Black takes the handicap stones: Black receives, White gives."""
    receives = np.concatenate([np.ones(len(black), dtype=bool), np.zeros(len(white), dtype=bool)])
    h = np.concatenate([handicap, handicap])
    adjustment, factor = handicap_terms(h, receives, rules)
    return Sides(np.concatenate([black, white]), np.concatenate([white, black]),
                 np.concatenate([black_result, 1.0 - black_result]), adjustment, factor,
                 np.concatenate([weight, weight]))


def side_terms(s: Sides, rating: np.ndarray, rules: GoBelgiumRules = RULES) -> dict[str, np.ndarray]:
    """Every term of each side's change, from the ratings given (pre-event, G1)."""
    own, opp = rating[s.player], rating[s.opponent]
    difference = own - opp + s.adjustment
    con, a = con_and_a(own, rules)
    expected = expected_result(difference, a, rules)
    change = con * s.weight * s.factor * (s.result - expected)
    return {"own": own, "opponent_rating": opp, "difference": difference, "con": con, "a": a,
            "expected": expected, "change": change}


def first_ratings(s: Sides, rating: np.ndarray, newcomer: np.ndarray, rules: GoBelgiumRules = RULES) -> np.ndarray:
    """Ruling G2: the first rating of each NC player (`newcomer`) of the event: the
    rating whose expected score against their rated opponents equals their score,
    by bisection on [−2450, 1000], all players at once; with all wins (all losses)
    the best (worst) opponent's handicap-adjusted strength + 100 (− 100): their
    rating less the adjustment the NC player received (a 9-stone win against a 5 dan,
    450, is worth 450 − 850 + 100 = −300). Floored at −2450. Only games of weight > 0
    count (G7). NaN: no rated opponent in such a game."""
    n = len(rating)
    rated_opponent = ~np.isnan(rating[s.opponent])
    mine = newcomer[s.player] & rated_opponent & (s.weight > 0)
    who, opp, res, adj = s.player[mine], s.opponent[mine], s.result[mine], s.adjustment[mine]
    games = np.bincount(who, minlength=n)
    score = np.bincount(who, weights=res, minlength=n)
    low = np.full(n, rules.first_rating_bounds[0])
    high = np.full(n, rules.first_rating_bounds[1])
    for _ in range(rules.bisection_steps):  # a fixed number of passes, each over every newcomer's games
        middle = (low + high) / 2
        _, a = con_and_a(middle[who], rules)
        expected = np.bincount(who, weights=expected_result(middle[who] - rating[opp] + adj, a, rules), minlength=n)
        too_high = expected > score
        high = np.where(too_high, middle, high)
        low = np.where(too_high, low, middle)
    strength = rating[opp] - adj  # the opponent as the handicap made them, for the NC player
    best = np.full(n, -np.inf)
    worst = np.full(n, np.inf)
    np.maximum.at(best, who, strength)
    np.minimum.at(worst, who, strength)
    solved = np.select([score == games, score == 0], [best + rules.first_rating_margin,
                                                     worst - rules.first_rating_margin], (low + high) / 2)
    return np.where(newcomer & (games > 0), np.maximum(solved, rules.floor), np.nan)


@dataclass(frozen=True)
class EventResult:
    """One event rated: each player's state after it, and every term of each game side."""

    start: np.ndarray  # the rating the event counts from: pre-event, or the first rating (G2)
    first: np.ndarray  # the player got a first rating in this event
    rating: np.ndarray  # after the event (NaN: still without a rating)
    level: np.ndarray  # grade after the event, with hysteresis (NaN: none)
    change: np.ndarray  # the event's summed change
    games: np.ndarray  # games counted
    sides: Sides
    counted: np.ndarray  # per side: both players have a rating to count from, and the game weighs (G7)
    terms: dict[str, np.ndarray]  # per side: own, opponent_rating, difference, con, a, expected, change


def rate_event(black: np.ndarray, white: np.ndarray, black_result: np.ndarray, handicap: np.ndarray,
               weight: np.ndarray, rating: np.ndarray, level: np.ndarray,
               rules: GoBelgiumRules = RULES) -> EventResult:
    """Rate one event (ruling G1): every game from the ratings before the event,
    the changes summed and applied at its end, then the floor and the grades.
    Players are dense indices; `rating` and `level` are NaN for NC players."""
    n = len(rating)
    s = sides_of(black, white, black_result, handicap, weight, rules)
    newcomer = np.isnan(rating)
    first = first_ratings(s, rating, newcomer, rules)
    start = np.where(newcomer, first, rating)
    # Ruling G7: a game of weight 0 is stored and shown, and counts for nobody.
    counted = ~np.isnan(start[s.player]) & ~np.isnan(start[s.opponent]) & (s.weight > 0)
    terms = side_terms(s, start, rules)
    change = np.bincount(s.player[counted], weights=terms["change"][counted], minlength=n)
    games = np.bincount(s.player[counted], minlength=n)
    after = np.maximum(start + change, rules.floor)
    start_level = np.where(newcomer, level_of_points(start), level)
    return EventResult(start, newcomer & ~np.isnan(first), after, next_level(start_level, after), change, games,
                       s, counted, terms)
