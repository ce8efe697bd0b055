"""The French Go Federation's rating of May 1984 (seed 004; ruling F1).

Game by game in date order. C won, P lost; NC and NP their points before the
game; a player who received H stones plays at a fictitious level of points +
100 H (NFC, NFP):

| case | condition                     | winner            | loser |
|------|-------------------------------|-------------------|-------|
| 1.1  | NFC < NFP and NC > NP         | + ((NFP − NFC) + 10) / 10 | − 10 |
| 1.2  | NFC < NFP and NC ≤ NP         | + ((NFP − NFC) + 10) / 3  | − 10 |
| 2.1  | NFC ≥ NFP, NFC − NFP > 100    | ignored           |       |
| 2.2  | NFC ≥ NFP, NFC − NFP ≤ 100    | + (110 − (NFC − NFP)) / 10 | − the same |

Drawn games are ignored; a game with a player of unknown points is ignored
("recalculated after each game with a player of known points"). Ruling F1: the
brackets are plain grouping, points are exact, lists round them half up.

Game order is sequential, so the games are rated in waves: a wave holds games
whose players have no earlier game still to rate, and one wave is one array pass.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from pipeline.ruleset.parameters import within


@dataclass(frozen=True)
class Ffg1984Rules:
    # Each default is the article's; beside it, what a --rules file may set instead
    # (pipeline/ruleset/parameters.py): a divisor of 0 would divide by zero.
    stone_value: float = within(100.0, 0, 1000, above=True)
    loser_loses: float = within(10.0, 0, 1000)  # case 1
    step: float = within(10.0, 0, 1000)  # the + 10 of case 1
    stronger_divisor: float = within(10.0, 0, 1000, above=True)  # case 1.1
    weaker_divisor: float = within(3.0, 0, 1000, above=True)  # case 1.2
    ignored_beyond: float = within(100.0, 0, 10_000)  # case 2.1
    base: float = within(110.0, 0, 10_000)  # case 2.2
    divisor: float = within(10.0, 0, 1000, above=True)  # case 2.2


RULES = Ffg1984Rules()


class Case(StrEnum):
    UPSET_HIGHER = "1.1"
    UPSET_LOWER = "1.2"
    IGNORED = "2.1"
    EXPECTED = "2.2"
    DRAW = "draw: ignored"
    UNKNOWN = "a player without points: ignored"


COUNTED_CASES = (Case.UPSET_HIGHER.value, Case.UPSET_LOWER.value, Case.EXPECTED.value)  # the others count for nobody


def game_changes(nc: np.ndarray, np_: np.ndarray, winner_stones: np.ndarray, loser_stones: np.ndarray,
                 rules: Ffg1984Rules = RULES) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Winner's and loser's changes and the case, for games with a winner."""
    nfc = nc + rules.stone_value * winner_stones
    nfp = np_ + rules.stone_value * loser_stones
    gap = nfp - nfc
    upset = nfc < nfp
    case = np.select([upset & (nc > np_), upset, nfc - nfp > rules.ignored_beyond],
                     [Case.UPSET_HIGHER, Case.UPSET_LOWER, Case.IGNORED], Case.EXPECTED)
    t_upset = (gap + rules.step) / np.where(case == Case.UPSET_HIGHER, rules.stronger_divisor, rules.weaker_divisor)
    t_expected = (rules.base - (nfc - nfp)) / rules.divisor
    gain = np.select([upset, case == Case.IGNORED], [t_upset, 0.0], t_expected)
    loss = np.select([upset, case == Case.IGNORED], [-rules.loser_loses, 0.0], -t_expected)
    return gain, loss, case


def waves(black: np.ndarray, white: np.ndarray) -> np.ndarray:
    """The wave of each game (games in order): 1 + the latest wave among the earlier
    games of its two players. Found by relaxation: each pass is one array pass."""
    g = len(black)
    # Each side's previous game of the same player (either colour): sides sorted by player, then game.
    sides = np.concatenate([black, white])
    game = np.concatenate([np.arange(g), np.arange(g)])
    order = np.lexsort((game, sides))
    s, q = sides[order], game[order]
    prev_of_side = np.empty(2 * g, dtype=np.int64)
    prev_of_side[order] = np.where(np.r_[False, s[1:] == s[:-1]], np.r_[-1, q[:-1]], -1)
    previous = prev_of_side.reshape(2, g)  # row 0: Black's previous game, row 1: White's
    wave = np.zeros(g, dtype=np.int64)
    while True:
        candidate = 1 + np.maximum(np.where(previous[0] >= 0, wave[previous[0]], -1),
                                   np.where(previous[1] >= 0, wave[previous[1]], -1))
        candidate = np.maximum(candidate, 0)
        if np.array_equal(candidate, wave):
            return wave
        wave = candidate


@dataclass(frozen=True)
class GamesResult:
    points: np.ndarray  # every player's points after the games (NaN: unknown)
    black_change: np.ndarray
    white_change: np.ndarray
    black_before: np.ndarray
    white_before: np.ndarray
    case: np.ndarray


def rate_games(black: np.ndarray, white: np.ndarray, winner: np.ndarray, handicap: np.ndarray,
               points: np.ndarray, rules: Ffg1984Rules = RULES) -> GamesResult:
    """Rate games in their order (date, then input order). `winner` is "B", "W" or
    "jigo"; Black receives the handicap stones."""
    g = len(black)
    points = np.asarray(points, dtype=float).copy()
    out = {k: np.full(g, np.nan) for k in ("black_change", "white_change", "black_before", "white_before")}
    cases = np.full(g, Case.UNKNOWN, dtype=object)
    wave = waves(black, white)
    order = np.argsort(wave, kind="stable")
    bounds = np.searchsorted(wave[order], np.arange(wave.max(initial=-1) + 2))
    for lo, hi in zip(bounds[:-1], bounds[1:]):  # one wave at a time: its players are distinct
        idx = order[lo:hi]
        b, w, h = black[idx], white[idx], handicap[idx].astype(float)
        nb, nw = points[b], points[w]
        out["black_before"][idx], out["white_before"][idx] = nb, nw
        black_won = winner[idx] == "B"
        nc, np_ = np.where(black_won, nb, nw), np.where(black_won, nw, nb)
        gain, loss, case = game_changes(nc, np_, np.where(black_won, h, 0.0), np.where(black_won, 0.0, h), rules)
        known = ~np.isnan(nb) & ~np.isnan(nw)
        decided = np.isin(winner[idx], ["B", "W"])
        rated = known & decided
        db = np.where(rated, np.where(black_won, gain, loss), 0.0)
        dw = np.where(rated, np.where(black_won, loss, gain), 0.0)
        points[b] = nb + db
        points[w] = nw + dw
        out["black_change"][idx], out["white_change"][idx] = db, dw
        cases[idx] = np.select([~known, ~decided], [Case.UNKNOWN, Case.DRAW], case)
    return GamesResult(points, out["black_change"], out["white_change"], out["black_before"], out["white_before"],
                       cases.astype(str))
