"""Table-driven tests of each formula of the performance Elo, against values
computed by hand from the rules (seed 001, rulings R1–R12; reasoning beside each)."""
from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np
import pytest

from pipeline.systems.performance.calendar import season_end_year
from pipeline.systems.performance import (
    RULES, PerformanceRules, Rule, bonus, compatible, is_junior, performance, published,
    rate_list, rated_players_ratings, unrated_players_ratings,
)

NAN = np.nan


def one_list(ratings: list[float], games: list[tuple[int, int, float]], birth_years=None,
             archives: dict[int, tuple[float, int]] | None = None, season: int = 2027):
    """rate_list on players 0..n-1 with `ratings` (NaN = unrated) and games (white, black, white score)."""
    n = len(ratings)
    pa = np.full(n, NAN)
    na = np.zeros(n, dtype=np.int64)
    for i, (p, g) in (archives or {}).items():
        pa[i], na[i] = p, g
    w, b, s = (np.array(x) for x in zip(*games))
    by = np.full(n, NAN) if birth_years is None else np.array(birth_years, dtype=float)
    return rate_list(w.astype(int), b.astype(int), s.astype(float), np.array(ratings, dtype=float),
                     pa, na, by, season)


def test_worked_example_of_the_rules():
    # A senior rated 1650: wins vs 1500, 1720, 1600, 1250; draw vs 1690; losses to 1800, 2100.
    # The win vs 1250 (400 below) and the loss to 2100 (450 above) do not count:
    # Nj = 5, Sc = 3.5, P = 0.70, Ea = 8310 / 5 = 1662, D = 149, Pj = 1811,
    # Pj > Ei and 5 < 16: Ej = (1811 × 5 + 1650 × 11) / 16 = 1700.3125 → 1700.
    r = one_list([1650, 1500, 1720, 1600, 1250, 1690, 1800, 2100],
                 [(0, 1, 1), (0, 2, 1), (0, 3, 1), (0, 4, 1), (0, 5, 0.5), (6, 0, 1), (7, 0, 1)])
    assert r.totals.games[0] == 5
    assert r.totals.score[0] == 3.5
    assert r.totals.mean_opponent[0] == pytest.approx(1662)
    assert r.performance[0] == pytest.approx(1811)
    assert r.unrounded[0] == pytest.approx(1700.3125)
    assert r.rating[0] == 1700
    assert r.rule[0] == Rule.BARYCENTRE


@pytest.mark.parametrize("p, expected", [
    (0.50, 0), (0.70, 149), (0.30, -149), (0.06, -444), (0.94, 444),  # table points
    (0.714, 158 + 0.4 * 8),  # R5: between 0.71 (158) and 0.72 (166)
    (5 / 7, 158 + (500 / 7 - 71) * 8),  # 71.43 %: the same interpolation
    (0.945, 444 + 0.5 * 26),  # between 0.94 (444) and 0.95 (470)
    (0.95, 470), (0.97, 470), (1.0, 470),  # R5: bounded at +470, P = 1 included
    (0.05, -470), (0.02, -470), (0.0, -470),  # and at −470, P = 0 included
])
def test_bonus_reads_interpolates_and_bounds_the_table(p, expected):
    assert bonus(np.array([p]))[0] == pytest.approx(expected)


def test_bonus_is_odd():
    p = np.linspace(0, 1, 1001)
    assert np.allclose(bonus(1 - p), -bonus(p))


@pytest.mark.parametrize("ea, p, expected", [
    (1500, 0.5, 1500),
    (1100, 0.1, 1000),  # 1100 − 366 = 734, raised to the floor
    (1300, 0.0, 1000),  # 1300 − 470 = 830, raised
    (1400, 0.25, 1207),  # 1400 − 193, above the floor
])
def test_performance_floor(ea, p, expected):
    assert performance(np.array([ea]), np.array([p]))[0] == pytest.approx(expected)


@pytest.mark.parametrize("score, own, opponent, counts", [
    (1.0, 1850, 1500, False),  # win exactly 350 below: not "less than 350"
    (1.0, 1849.99, 1500, True),  # win 349.99 below
    (0.0, 1500, 1850, False),  # loss exactly 350 above
    (0.0, 1500, 1849.99, True),
    (0.5, 1000, 2500, True),  # draws always count
    (0.5, 2500, 1000, True),
    (1.0, 1500, 2500, True),  # a win up always counts
    (0.0, 2500, 1000, True),  # a loss down always counts
])
def test_compatibility_edges(score, own, opponent, counts):
    assert compatible(np.array([score]), np.array([own]), np.array([opponent]))[0] == counts


@pytest.mark.parametrize("ei, nj, pj, junior, expected, rule", [
    (1800, 4, 1600, False, (16 * 1800 + 4 * 1600) / 20, Rule.BRAKE),  # 1760
    (1600, 16, 1700, False, 1700, Rule.QUOTA),  # senior with 16 games
    (1600, 8, 1700, True, 1700, Rule.QUOTA),  # junior with 8 games
    (1600, 8, 1700, False, (1700 * 8 + 8 * 1600) / 16, Rule.BARYCENTRE),  # senior, 8 < 16: 1650
    (1600, 10, 1760, True, 1760, Rule.QUOTA),  # the same games: a junior takes Pj
    (1600, 10, 1760, False, (1760 * 10 + 6 * 1600) / 16, Rule.BARYCENTRE),  # a senior: 1700
    (1600, 7, 1760, True, (1760 * 7 + 9 * 1600) / 16, Rule.BARYCENTRE),  # junior below 8: 1670
    (1600, 5, 1600, False, 1600, Rule.BARYCENTRE),  # Pj = Ei: not the brake, Ej = Ei anyway
    (1530, 0, NAN, False, 1530, Rule.NO_GAMES),
])
def test_rated_player_branches(ei, nj, pj, junior, expected, rule):
    r = rated_players_ratings(np.array([ei], float), np.array([nj]), np.array([pj], float), np.array([junior]))
    assert r.rating[0] == pytest.approx(expected)
    assert r.rule[0] == rule


def test_floor_enters_the_brake():
    # Rated 1200, loses to four players rated 1300: Pj = max(1000, 1300 − 470) = 1000 < 1200,
    # brake: (16 × 1200 + 4 × 1000) / 20 = 1160 (without the floor it would be 1126).
    r = one_list([1200, 1300, 1300, 1300, 1300], [(0, 1, 0), (0, 2, 0), (3, 0, 1), (4, 0, 1)])
    assert r.performance[0] == 1000
    assert r.unrounded[0] == pytest.approx(1160)
    assert r.rule[0] == Rule.BRAKE


@pytest.mark.parametrize("x, expected", [
    (1545, 1550),  # 5 goes up
    (1544.999, 1540),
    (1544.9996, 1550),  # R3: rounded to 3 decimals first, so this is 1545.000
    (1704.9999999, 1710),  # binary noise under a half does not flip it
    (1555, 1560), (1000, 1000), (1549.5, 1550), (1534.4, 1530),
])
def test_rounding_of_published_ratings(x, expected):
    assert published(np.array([x]))[0] == expected


@pytest.mark.parametrize("nj, pj, pa, na, rating, new_pa, new_na, rule", [
    (8, 1634, NAN, 0, 1634, NAN, 0, Rule.FIRST_RATING),  # no archives, 8 games
    (5, 1634, NAN, 0, NAN, 1634, 5, Rule.ARCHIVED),  # no archives, 5 games: archived
    (8, 1700, 1500, 3, 1700, NAN, 0, Rule.FIRST_RATING),  # Nj ≥ 8: the past is forgotten
    (5, 1700, 1500, 3, (1700 * 5 + 1500 * 3) / 8, NAN, 0, Rule.ARCHIVES_MERGED),  # 1625
    (5, 1780, 1500, 2, NAN, (1780 * 5 + 1500 * 2) / 7, 7, Rule.ARCHIVED),  # R6: 1700 over 7 games
    (0, NAN, 1500, 2, NAN, 1500, 2, Rule.NO_GAMES),  # no game: archives kept
])
def test_unrated_player_cases(nj, pj, pa, na, rating, new_pa, new_na, rule):
    r = unrated_players_ratings(np.array([nj]), np.array([pj], float), np.array([pa], float), np.array([na]))
    np.testing.assert_allclose(r.rating, [rating])
    np.testing.assert_allclose(r.archive_performance, [new_pa])
    assert r.archive_games[0] == new_na
    assert r.rule[0] == rule


def test_junior_is_decided_per_season_ruling_r2():
    # Season 2026-27 ends in 2027: born 2008 → 19 → junior; born 2007 → 20 → senior; unknown → senior.
    assert list(is_junior(np.array([2008, 2007, NAN]), 2027)) == [True, False, False]
    # The three nominal windows of one season belong to the season ending in 2027.
    assert {season_end_year(dt.date(2026, 12, 31)), season_end_year(dt.date(2027, 4, 30)),
            season_end_year(dt.date(2027, 8, 31))} == {2027}


def test_newcomer_estimated_then_first_rating():
    # Unrated player 0 scores 4 wins and 4 draws against eight players rated 1600:
    # first pass (no range): P = 6/8 = 0.75, Ea = 1600, Pj = 1600 + 193 = 1793.
    # Round 1 with the range: all 8 games count (wins 193 below the estimate), the same
    # 1793, within 20 points: settled, stop after 1 round (R9: the first pass is not a
    # round). R10: Pj = 1793, Nj = 8 → first rating 1793 → 1790.
    games = [(0, i, 1.0) for i in range(1, 5)] + [(0, i, 0.5) for i in range(5, 9)]
    r = one_list([NAN] + [1600] * 8, games)
    assert r.estimation.moving_per_round == (0,)
    assert r.estimation.history.shape == (2, 1)  # the first pass, then round 1
    assert r.estimation.estimate[0] == pytest.approx(1793)
    assert r.rating[0] == 1790
    assert r.rule[0] == Rule.FIRST_RATING


def test_start_value_ruling_r7():
    # 0: unrated with archives Pa 1800 / Na 3; 1: unrated without; 2: rated 1700.
    # First pass: 0 beats 1 (at 1500) and draws 2: Ea 1600, P 0.75 → 1793.
    #          1 loses to 0, who counts at his start value Pa = 1800: 1800 − 470 = 1330.
    r = one_list([NAN, NAN, 1700], [(0, 1, 1.0), (0, 2, 0.5)], archives={0: (1800, 3)})
    assert r.estimation.history[0][0] == pytest.approx(1793)
    assert r.estimation.history[0][1] == pytest.approx(1330)


def test_estimation_that_needs_all_25_rounds_after_the_first_pass_ruling_r9():
    # Unrated 0 beats a 1000 and loses to 1830 and 1700 (rated).
    # First pass (no range): Ea = 1510, P = 1/3, D = −125 + 8/3 → 1387.667.
    # Round 1: from 1387.667 only the loss to 1700 counts (the win is 387.7 below, the
    #   1830 loss 442 above): Pj = 1700 − 470 = 1230, far → mean: 1308.833.
    # Round 2: only the win counts (308.8 below): Pj = 1000 + 470 = 1470 → 1389.417; and so
    # on: the estimate swings between e_odd = (e_even + 1230)/2 and e_even = (e_odd + 1470)/2,
    # whose fixed points are 1310 and 1390, never within 20 points: all 25 rounds with the
    # range run (26 passes in all), one player still moving; round 25 (odd) ends at
    # 1310 − 1.1667 / 4^12 ≈ 1310. R10: Pj = 1310, and with it only the win over the 1000
    # (310 below) is compatible: Nj = 1 → archived (Pa 1310, Na 1), no rating.
    r = one_list([NAN, 1000, 1830, 1700], [(0, 1, 1.0), (2, 0, 1.0), (0, 3, 0.0)])
    e = r.estimation
    assert e.rounds == RULES.max_rounds == 25
    assert len(e.moving_per_round) == 25 and set(e.moving_per_round) == {1}
    assert e.still_moving == 1
    assert e.history.shape == (26, 1)
    first = 1510 - 125 + 8 / 3
    assert e.history[0][0] == pytest.approx(first)
    assert e.history[1][0] == pytest.approx((first + 1230) / 2)
    assert e.history[2][0] == pytest.approx(((first + 1230) / 2 + 1470) / 2)
    assert e.estimate[0] == pytest.approx(1310, abs=1e-3)
    assert r.totals.games[0] == 1
    assert np.isnan(r.rating[0])
    assert r.archive_performance[0] == pytest.approx(1310, abs=1e-3)
    assert r.archive_games[0] == 1


def test_unanchored_group_gets_nothing_ruling_r11():
    # 0 and 1 are rated; 2 and 3 (unrated, 3 with archives) only meet each other.
    r = one_list([1600, 1500, NAN, NAN], [(0, 1, 1.0), (2, 3, 1.0), (3, 2, 0.5)], archives={3: (1400, 2)})
    assert list(r.unanchored) == [False, False, True, True]
    assert np.isnan(r.estimation.estimate[2:]).all()
    assert np.isnan(r.rating[2:]).all()
    assert r.rule[2] == r.rule[3] == Rule.UNANCHORED
    assert np.isnan(r.archive_performance[2]) and r.archive_games[2] == 0  # no archive made
    assert (r.archive_performance[3], r.archive_games[3]) == (1400, 2)  # earlier archives kept


def test_unrated_opponent_counts_at_estimate_ruling_r4():
    # Newcomer 1 loses to 0 (rated 1600) and draws eight players rated 1500.
    # First pass: Sc = 4 of 9, P = 0.4444, Ea = (8 × 1500 + 1600) / 9 = 1511.111,
    # D = −43 + 0.444 × 7 = −39.889 → 1471.222; round 1: every game counts (the loss is
    # 129 above), same value: settled. R4: 0's win counts at 1471.222 (128.8 below 1600):
    # Pj = 1471.222 + 470 = 1941.222, one game, barycentre (1941.222 + 15 × 1600) / 16 = 1621.33 → 1620.
    games = [(0, 1, 1.0)] + [(1, i, 0.5) for i in range(2, 10)]
    r = one_list([1600, NAN] + [1500] * 8, games)
    estimate = 13600 / 9 - 43 + (400 / 9 - 44) * 7
    assert r.estimation.estimate[1] == pytest.approx(estimate)
    assert r.totals.mean_opponent[0] == pytest.approx(estimate)
    assert r.unrounded[0] == pytest.approx((estimate + 470 + 15 * 1600) / 16)
    assert r.rating[0] == 1620


def test_default_parameters_have_not_changed():
    assert dataclasses.asdict(PerformanceRules()) == dataclasses.asdict(RULES)
    fields = {k: v for k, v in dataclasses.asdict(RULES).items() if k != "dp_table"}
    assert fields == {
        "compatibility_gap": 350.0, "entry_games": 8, "junior_quota": 8, "senior_quota": 16,
        "brake_weight": 16, "performance_floor": 1000.0, "bonus_bound": 470.0, "junior_age": 20,
        "start_value": 1500.0, "settle_tolerance": 20.0, "max_rounds": 25, "rounding_step": 10,
    }
    assert len(RULES.dp_table) == 99 and RULES.dp_table[69] == (0.70, 149.0)
