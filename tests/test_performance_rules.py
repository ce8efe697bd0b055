"""Table-driven tests of each formula of the performance Elo, against values
computed by hand from the rules (seed 001, rulings R1–R12; reasoning beside each)."""
from __future__ import annotations

import dataclasses
import datetime as dt
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pipeline.systems.performance.calendar import season_end_year
from pipeline.systems.performance import (
    RULES, PerformanceRules, Rule, bonus, compatible, is_junior, performance, published,
    rate_list, rated_players_ratings, unrated_players_ratings,
)
from tests.conftest import write_rows

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


# --- BAF 103: the federation's own worked examples (ruling R14) ------------------------------
#
# BAF 103 (the FFE's arbiters' bulletin), IV "Le classement Elo FFE", works three players' lists by
# hand, each against their rated opponents (it leaves unrated opponents aside): two of them meet
# foreign players rated 2261 and 2209, which R14 takes as given. Each case: Ei (None: unrated),
# birth year, the games as (opponent's rating, score); then what the rules give, worked below.
BAF103 = {
    # IENTILE, a senior rated 1970: wins over 1780, 1920, 2180, 2130; draws with 2210 and 2160; a
    # loss to 2261 (291 above: compatible). Nj = 7, Sc = 5, P = 5/7 = 71.43 %, Ea = 14641 / 7 =
    # 2091.571; R5: D = 158 + (500/7 − 71) × (166 − 158) = 158 + 24/7 = 161.429 (BAF: 161);
    # Pj = (14641 + 24) / 7 + 158 = 2095 + 158 = 2253 (BAF: 2092 + 161 = 2253). Pj > Ei, a senior
    # with 7 < 16: Ej = (2253 × 7 + 1970 × 9) / 16 = 33501 / 16 = 2093.8125 → 2090 (BAF: 2093.81 → 2090).
    "IENTILE": (1970, 1980, [(1780, 1), (2261, 0), (1920, 1), (2180, 1), (2210, 0.5), (2160, 0.5), (2130, 1)]),
    # LUCOTTE, an unrated junior, scores 3.5 against 8 rated players: Ea = 15079 / 8 = 1884.875, P =
    # 43.75 %, D = −50 + 0.75 × 7 = −44.75: a first performance of 1840.125 (BAF: 1840). With the 350
    # rule the loss to 2209 (368.9 above) drops out: 3.5 / 7 against 12870 / 7 = 1838.571 (BAF:
    # 1838.5), P = 0.5, D = 0: 1838.571, within 20 of 1840.125, settled (R9). Nj = 7 < 8: no rating,
    # archives of 7 games (BAF: "des archives sont donc constituées"); R10 archives the settled
    # estimate, 1840.125, where BAF's hand calculation writes the second performance.
    "LUCOTTE": (None, 2012, [(1910, 0), (1970, 0), (2209, 0), (1920, 0.5), (1750, 1), (1710, 1), (1920, 0),
                             (1690, 1)]),
    # GRAND, rated 1270: losses to 1620 and above do not count (BAF names none: one to 1700, 430
    # above, stands for them). Compatible: 1560, 1530, 1320, 1280, 1260, 1520, one point (the win
    # over 1260): Ea = 8470 / 6 = 1411.667, P = 1/6; R5: D = −284 + (100/6 − 16) × 11 = −276.667
    # (BAF reads −284 at 16 %): Pj = 1411.667 − 276.667 = 1135 (BAF: 1128). Pj < Ei, the brake:
    # Ej = (16 × 1270 + 6 × 1135) / 22 = 27130 / 22 = 1233.18 → 1230 (BAF: 1231.27 → 1230).
    "GRAND": (1270, 1970, [(1560, 0), (1530, 0), (1320, 0), (1280, 0), (1260, 1), (1520, 0), (1700, 0)]),
}
# name: Nj, Sc, Ea, Pj (R10: an unrated player's settled estimate), Ej unrounded, published, archives, rule
BAF103_RESULTS = {
    "IENTILE": (7, 5, 14641 / 7, 2253, 33501 / 16, 2090, None, Rule.BARYCENTRE),
    "LUCOTTE": (7, 3.5, 12870 / 7, 1840.125, NAN, NAN, (1840.125, 7), Rule.ARCHIVED),
    "GRAND": (6, 1, 8470 / 6, 1135, 27130 / 22, 1230, None, Rule.BRAKE),
}


@pytest.mark.parametrize("name", list(BAF103))
def test_baf_103_worked_examples_by_the_rules(name):
    ei, born, games = BAF103[name]
    nj, sc, ea, pj, unrounded, rating, archives, rule = BAF103_RESULTS[name]
    r = one_list([NAN if ei is None else ei] + [opponent for opponent, _ in games],
                 [(0, i, score) for i, (_, score) in enumerate(games, start=1)],
                 birth_years=[born] + [1970] * len(games))
    assert (r.totals.games[0], r.totals.score[0]) == (nj, sc)
    assert r.totals.mean_opponent[0] == pytest.approx(ea)
    assert r.performance[0] == pytest.approx(pj)
    np.testing.assert_allclose([r.unrounded[0], r.rating[0]], [unrounded, rating])
    assert (r.archive_performance[0], r.archive_games[0]) == pytest.approx(archives or (NAN, 0), nan_ok=True)
    assert r.rule[0] == rule


def test_baf_103_worked_examples_through_the_pipeline(tmp_path):
    """The three examples as a federation runs them: a registry, the initial ratings (2261 and
    2209 among them, ruling R14), the games of one window; `ratings run` in a fresh process; the
    published list and state read back."""
    players, ratings, games = [], [], []
    for number, (name, (ei, born, played)) in enumerate(BAF103.items(), start=1):
        subject = 100 * number
        players.append([subject, name, born])
        if ei is not None:
            ratings.append([subject, ei])
        for i, (opponent, score) in enumerate(played, start=1):
            players.append([subject + i, f"{name} opponent {i}", 1970])
            ratings.append([subject + i, opponent])
            games.append(["2026-10-03", subject, subject + i, {1: "1-0", 0.5: "1/2-1/2", 0: "0-1"}[score]])
    files = {"players": write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"], players),
             "ratings": write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], ratings),
             "games": write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], games)}
    ratings_command = Path(sys.executable).parent / "ratings"
    done = subprocess.run([ratings_command, "run", *(f"--{k}={v}" for k, v in files.items()),
                           "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out", "--no-reports"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr  # every initial rating taken in: no reject
    listed = pd.read_csv(tmp_path / "out" / "lists" / "2027-01-r1.csv").set_index("player_id")
    state = pd.read_parquet(tmp_path / "out" / "state" / "2027-01.parquet").set_index("player_id")
    for number, name in enumerate(BAF103, start=1):
        *_, rating, archives, _ = BAF103_RESULTS[name]
        if archives is None:
            assert (listed.loc[100 * number, "rating"], listed.loc[100 * number, "previous_rating"]) \
                == (rating, BAF103[name][0]), name
        else:  # not on the list; the state carries the archives
            assert 100 * number not in listed.index
            assert (state.loc[100 * number, "archive_performance"], state.loc[100 * number, "archive_games"]) \
                == pytest.approx(archives), name
