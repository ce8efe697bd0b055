"""The two Go rule sets (seeds 000, 002 and 004; rulings G1–G4, F1), against the seeds' own numbers."""
from __future__ import annotations

import csv
import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from pipeline.systems import go_ffg1984 as ffg
from pipeline.systems.go_belgium import RULES, con_and_a, expected_result, first_ratings, handicap_terms, \
    rate_event, sides_of
from pipeline.systems.go.grades import grade_text, level_of_grade, level_of_points, middle_of, next_level

# The seed's two simplifications (go-ratings.md): symmetric expectation, the giver's factor unsquared.
SEED = dataclasses.replace(RULES, symmetric_expectation=True, giver_factor_squared=False)
NAN = np.nan


def event(games, rating, level=None, rules=RULES):
    """rate_event on a few players: games are (black, white, black's result[, handicap[, weight]])."""
    rating = np.array(rating, dtype=float)
    g = [tuple(x) + (0, 1.0)[len(x) - 3:] if len(x) < 5 else tuple(x) for x in games]
    black, white = np.array([x[0] for x in g]), np.array([x[1] for x in g])
    result = np.array([x[2] for x in g], dtype=float)
    handicap = np.array([x[3] for x in g], dtype=float)
    weight = np.array([x[4] for x in g], dtype=float)
    level = np.array(level if level is not None else level_of_points(rating), dtype=float)
    return rate_event(black, white, result, handicap, weight, rating, level, rules)


# ---------------------------------------------------------------------------
# The seed's "points gained by beating an opponent" table (class A, weight 1.2)

TABLE = Path(__file__).parent / "fixtures" / "go-belgium-points-gained.csv"
COLUMNS = (-200, -150, -100, -50, 0, 50, 100, 150, 200)  # the opponent's rating minus one's own


def _table_cells():
    with open(TABLE, newline="") as fh:
        for row in csv.DictReader(fh):
            level = level_of_grade(row["grade"].replace("e ", " ").replace(" kyu", "k").replace(" dan", "d"))
            for column, printed in zip(COLUMNS, list(row.values())[1:]):
                yield row["grade"], float(middle_of(level)), column, float(printed)


CELLS = list(_table_cells())


def test_the_table_has_54_cells_at_the_middle_of_each_grade():
    assert len(CELLS) == 54
    assert sorted({c[1] for c in CELLS}) == [-1950, -1450, -950, -450, 50, 550]  # 20k, 15k, 10k, 5k, 1d, 6d


def _gain(own: float, opponent: float, rules) -> float:
    """Points for beating the opponent in an even class-A game (weight 1.2)."""
    r = event([(0, 1, 1.0, 0, 1.2)], [own, opponent], rules=rules)
    return float(r.change[0])


@pytest.mark.parametrize("grade, own, column, printed", CELLS, ids=[f"{c[0]} {c[2]:+d}" for c in CELLS])
def test_points_gained_table_with_the_seeds_simplifications(grade, own, column, printed):
    assert round(_gain(own, own + column, SEED), 1) == printed


def test_points_gained_with_the_rules_as_written():
    # Against a weaker opponent (columns −200 … −50) the 0.986 asymmetry lowers the
    # expectation by 0.014, so the gain is 0.014 × Con × 1.2 more; against an equal
    # or stronger one the formulas are the same.
    # 20 kyu (−1950, Con 116, A 200) beating −2150: d = +200,
    #   E = 0.986 − 1/(e^1 + 1) = 0.986 − 0.268941 = 0.717059; gain = 116 × 1.2 × 0.282941 = 39.386.
    assert _gain(-1950, -2150, RULES) == pytest.approx(39.386, abs=1e-3)
    for _, own, column, _ in CELLS:
        con, _ = con_and_a(np.array([own]))
        extra = 0.014 * con[0] * 1.2 if column < 0 else 0.0
        assert _gain(own, own + column, RULES) == pytest.approx(_gain(own, own + column, SEED) + extra)


# ---------------------------------------------------------------------------
# The seed's three worked examples (club games, weight 0.8)

def test_example_1_equal_players():
    # A and B at −1950: E = 0.5, Con 116: A gains 116 × 0.8 × 0.5 = 46.4 → −1903.6; B → −1996.4.
    for rules in (SEED, RULES):
        r = event([(0, 1, 1.0, 0, 0.8)], [-1950, -1950], rules=rules)
        assert r.change[0] == pytest.approx(46.4) and r.rating[0] == pytest.approx(-1903.6)
        assert r.rating[1] == pytest.approx(-1996.4)


def test_example_2_one_stone():
    # B (−1996.4, Black) receives one stone from A (−1903.6, White); A wins.
    # A's difference: 92.8 − (1 − 0.5) × 100 = 42.8; at −1903.6, A = 197.68 and Con = 113.216.
    # With the seed's simplifications: E = 1 − 1/(e^(42.8/197.68) + 1) = 0.553917, factor 0.95:
    #   113.216 × 0.8 × 0.95 × 0.446083 = 38.383 — the seed rounds E to 0.55 and Con to 113:
    #   113 × 0.8 × 0.95 × 0.45 = 38.6, "about 38.6".
    seed = event([(1, 0, 0.0, 1, 0.8)], [-1903.6, -1996.4], rules=SEED)
    assert seed.terms["difference"][1] == pytest.approx(42.8)
    assert seed.terms["expected"][1] == pytest.approx(0.553917, abs=1e-6)
    assert seed.change[0] == pytest.approx(38.383, abs=1e-3) and abs(seed.change[0] - 38.6) < 0.3
    # As written: E = 0.986 − 0.446083 = 0.539917 and the giver's factor squared, 0.9025:
    #   113.216 × 0.8 × 0.9025 × 0.460083 = 37.609.
    written = event([(1, 0, 0.0, 1, 0.8)], [-1903.6, -1996.4], rules=RULES)
    assert written.change[0] == pytest.approx(37.609, abs=1e-3)


def test_example_3_four_stones():
    # A (−1450, Black) receives 4 stones from an 8 kyu (−750) and wins:
    # difference −700 + 3.5 × 100 = −350, A = 175: E = 1/(e^2 + 1) = 0.119203; Con 90; factor 0.65:
    #   90 × 0.8 × 0.65 × 0.880797 = 41.221 → 41.2 (A is the weaker and the receiver: both settings agree).
    for rules in (SEED, RULES):
        r = event([(0, 1, 1.0, 4, 0.8)], [-1450, -750], rules=rules)
        assert r.terms["expected"][0] == pytest.approx(0.119203, abs=1e-6)
        assert round(float(r.change[0]), 1) == 41.2


# ---------------------------------------------------------------------------
# Table I, handicaps, weights

@pytest.mark.parametrize("rating, con, a", [
    (-1950, 116, 200), (-1900, 113, 197.5),  # halfway between −1950 and −1850
    (-2050, 122, 205),  # extrapolated below: the first rows' slope (−6 Con, −5 A per 100)
    # Ruling G5: above 650 the last row's values; extrapolating (−1 Con, −5 A per 100) would give
    # Con −0 at 1650 and negative beyond, A negative above 2050.
    (650, 10, 70), (750, 10, 70), (1650, 10, 70), (2100, 10, 70),
    (-1050, 70, 155),
])
def test_con_and_a(rating, con, a):
    c, aa = con_and_a(np.array([rating]))
    assert (c[0], aa[0]) == pytest.approx((con, a))


@pytest.mark.parametrize("h, adjustment, receiver, giver", [
    (0, 0, 1.0, 1.0),  # an even game
    (1, 50, 0.95, 0.9025),  # ruling G3: h = 1 included
    (4, 350, 0.65, 0.4225),
    (9, 850, 0.15, 0.0225),
    (11, 1050, 0.1, 0.01),  # 1 − 1.05 < 0.1: the minimum
])
def test_handicap_terms(h, adjustment, receiver, giver):
    adj, factor = handicap_terms(np.array([h, h]), np.array([True, False]))
    assert list(adj) == pytest.approx([adjustment, -adjustment])
    assert list(factor) == pytest.approx([receiver, giver])
    seed_adj, seed_factor = handicap_terms(np.array([h]), np.array([False]), SEED)
    assert seed_factor[0] == pytest.approx(receiver)  # the seed's example: the giver's factor unsquared


def test_the_floor():
    # −2440 loses an even class-B game to −2440: Con at −2440 = 116 + 4.9 × 6 = 145.4, change −72.7: floored.
    r = event([(0, 1, 0.0)], [-2440, -2440])
    assert r.rating[0] == -2450 and r.rating[1] > -2440


# ---------------------------------------------------------------------------
# Grades

@pytest.mark.parametrize("points, grade", [(237, "3d"), (-1075, "11k"), (0, "1d"), (-1, "1k"), (-100, "2k"),
                                           (99.9, "1d"), (100, "2d")])
def test_first_grade_g4(points, grade):
    assert grade_text(level_of_points(np.array([points])))[0] == grade


@pytest.mark.parametrize("grade, before, after, now", [
    ("1d", 95, 101, "2d"),  # promoted as soon as it passes the upper bound
    ("1d", 95, 100, "1d"),  # strictly above
    ("5k", -490, -510, "5k"),  # not yet 100 below the lower bound (−500)
    ("5k", -490, -600, "5k"),  # G4: −600 stays 5 kyu
    ("5k", -490, -601, "6k"),
    ("5k", -490, -750, "7k"),  # a long way down: the grade that keeps the 100-point margin
    ("2d", 150, -1, "1d"),
])
def test_grade_hysteresis(grade, before, after, now):
    assert grade_text(next_level(np.array([level_of_grade(grade)]), np.array([after])))[0] == now


def test_a_1_dan_at_99_stays_1_dan_after_two_wins_and_three_losses_in_one_event():
    # Five opponents at 99 (equal: E = 0.5): the event's sum is 2 × (+0.5) + 3 × (−0.5) = −0.5 × Con.
    games = [(0, 1, 1.0), (0, 2, 1.0), (0, 3, 0.0), (0, 4, 0.0), (0, 5, 0.0)]
    r = event(games, [99] * 6, level=[1] * 6)
    assert r.rating[0] < 99 and grade_text(r.level)[0] == "1d"
    # Game by game (each its own event) the two wins promote to 2 dan first, and three
    # losses do not bring 2 dan back below 0: the per-event rule matters.
    rating, level = np.array([99.0] * 6), np.array([1.0] * 6)
    for g in games:
        one = event([g], rating, level)
        rating, level = np.where(np.isnan(one.rating), rating, one.rating), one.level
    assert grade_text(level)[0] == "2d"


def test_new_members_start_at_the_middle_of_their_grade():
    assert list(middle_of(np.array([level_of_grade("1d"), level_of_grade("5k"), level_of_grade("2d")]))) == \
        [50, -450, 150]
    assert level_of_grade("NC") is None and level_of_grade("") is None


def test_an_nc_player_gets_the_rating_that_explains_their_score():
    # NC player 0 meets three rated players at 0 (even games), wins one: R solves Σ E(R) = 1.
    r = event([(0, 1, 1.0), (0, 2, 0.0), (0, 3, 0.0)], [NAN, 0, 0, 0])
    start = r.start[0]
    _, a = con_and_a(np.array([start]))
    assert 3 * expected_result(np.array([start]), a)[0] == pytest.approx(1.0, abs=1e-6)
    assert -200 < start < 0 and r.first[0]
    assert r.rating[0] == pytest.approx(start + r.change[0])  # the event then counts from R
    # All wins: the best opponent + 100; all losses: the worst − 100; no rated opponent: no rating.
    s = sides_of(np.array([0, 0, 2]), np.array([1, 3, 4]), np.array([1.0, 1.0, 0.0]), np.zeros(3), np.ones(3))
    first = first_ratings(s, np.array([NAN, -300, NAN, 200, NAN]), np.array([True, False, True, False, True]))
    assert first[0] == 300 and np.isnan(first[2]) and np.isnan(first[4])
    s = sides_of(np.array([0]), np.array([1]), np.array([0.0]), np.zeros(1), np.ones(1))
    assert first_ratings(s, np.array([NAN, -300.0]), np.array([True, False]))[0] == -400


# ---------------------------------------------------------------------------
# The French rules of 1984

@pytest.mark.parametrize("nc, np_, winner_stones, loser_stones, gain, loss, case", [
    # 1.1: the loser received 2 stones: NFP = 100 + 200 = 300 > NFC = 200, and NC > NP:
    #      T = ((300 − 200) + 10) / 10 = 11; the loser loses 10.
    (200, 100, 0, 2, 11, -10, "1.1"),
    # 1.2: NC = 100 ≤ NP = 150, even: T = ((150 − 100) + 10) / 3 = 20.
    (100, 150, 0, 0, 20, -10, "1.2"),
    # 2.1: NFC − NFP = 300 − 150 = 150 > 100: ignored.
    (300, 150, 0, 0, 0, 0, "2.1"),
    # 2.2: NFC − NFP = 50: T = (110 − 50) / 10 = 6, won and lost.
    (200, 150, 0, 0, 6, -6, "2.2"),
    # 2.2 with a fractional T (ruling F1): NFC − NFP = 45: T = 6.5.
    (195, 150, 0, 0, 6.5, -6.5, "2.2"),
])
def test_1984_cases(nc, np_, winner_stones, loser_stones, gain, loss, case):
    g, l, c = ffg.game_changes(np.array([nc], float), np.array([np_], float), np.array([winner_stones], float),
                               np.array([loser_stones], float))
    assert (g[0], l[0], c[0]) == (gain, loss, case)


def test_1984_games_are_rated_in_order():
    # Players 0 (100), 1 (150), 2 (200). Game 1: 0 beats 1 (case 1.2, +20 / −10): 120, 140.
    # Game 2: 1 (140) beats 2 (200), case 1.2: T = (60 + 10) / 3 = 23.333: 163.333, 190.
    # Game 3: 2 (190) beats 0 (120): 2.2, T = (110 − 70) / 10 = 4: 194, 116. Game 4: a jigo, ignored.
    black, white = np.array([0, 1, 2, 0]), np.array([1, 2, 0, 2])
    r = ffg.rate_games(black, white, np.array(["B", "B", "B", "jigo"]), np.zeros(4),
                       np.array([100.0, 150.0, 200.0]))
    assert list(r.points) == pytest.approx([116, 140 + 70 / 3, 194])
    assert list(r.case) == ["1.2", "1.2", "2.2", "draw: ignored"]
    assert list(ffg.waves(black, white)) == [0, 1, 2, 3]
    # Games of distinct players share a wave: one array pass.
    assert list(ffg.waves(np.array([0, 2, 0]), np.array([1, 3, 2]))) == [0, 0, 1]


def test_1984_ranks():
    assert list(grade_text(level_of_points(np.array([-1075, 237])))) == ["11k", "3d"]
    assert math.floor(1075 / 100) + 1 == 11  # the article: 1075 : 100 + 1 = 11, the rest ignored
