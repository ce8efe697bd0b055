"""Calendars and boundaries (issue 36): rulings R2a, R13 (performance-elo.md), X1a, X7
(fide-elo.md) and F2 (go-ratings.md), each at its boundary, through `ratings run` as
a user meets it, every number computed by hand beside the assertion."""
from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from pipeline.systems.performance.rules import bonus
from tests.conftest import write_rows

CASE = Path(__file__).parent / "fixtures" / "estimation-divergence"


def _query(warehouse: Path, sql: str, params=()) -> list[tuple]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.execute(sql, list(params)).fetchall()


def _performance(cli, tmp_path, players, ratings, games, calendar=None):
    """`ratings run` of the performance Elo on the rows given; the warehouse's path."""
    w = tmp_path / "w.duckdb"
    files = ["--players", write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"], players),
             "--ratings", write_rows(tmp_path / "ratings.csv",
                                     ["player_id", "rating", "archive_performance", "archive_games"], ratings),
             "--games", write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], games)]
    if calendar is not None:
        files += ["--calendar", write_rows(tmp_path / "calendar.csv", ["list_id", "window_start", "window_end"],
                                           calendar)]
    cli("run", *files, "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    return w


def _state(warehouse: Path, list_id: str) -> dict[int, tuple]:
    """player_id → (rating, archive_performance, archive_games) on a list."""
    rows = _query(warehouse, """select player_id, rating, archive_performance, archive_games from player_state natural left join performance_state
                                where series = 'performance' and list_id = ?""", [list_id])
    return {r[0]: r[1:] for r in rows}


# ---------------------------------------------------------------------------
# R2a: a list's season is the one that ends in its list id's year

def test_r2a_the_season_is_the_list_ids_not_the_windows(cli, tmp_path):
    # The calendar file moves the end of the September window to 3 September 2026 (R1 allows
    # it). J, born 2007, is 2026 − 2007 = 19 in the season ending in 2026, the season of list
    # 2026-09 (R2a): a junior there, although the window ends in September, where a season
    # read from the window's end would be the one ending in 2027 (20: a senior).
    #   2026-09: J (1600) draws 8 games with O (1780), the last two on 2 and 3 September.
    #   Nj = 8, P = 0.5, D = 0, Pj = Ea = 1780 ≥ 1600. Junior, quota 8 met: Ej = Pj = 1780.
    #   (A senior would get the barycentre (1780 × 8 + 1600 × 8) / 16 = 1690.)
    #   2027-01 (window 4 September – 31 December): the season ending in 2027, J is 20: a
    #   senior. J (1780) draws 8 games with P2 (1960, who played nothing before): Pj = 1960 ≥
    #   1780, 8 < 16: (1960 × 8 + 1780 × 8) / 16 = 1870 (a junior would get 1960).
    players = [[1, "J Junior", 2007], [2, "O Opponent", 1980], [3, "P2 Opponent", 1980]]
    ratings = [[1, 1600, "", ""], [2, 1780, "", ""], [3, 1960, "", ""]]
    games = ([[f"2026-08-{d}", 1, 2, "1/2-1/2"] for d in (24, 25, 26, 27, 28, 29)]
             + [["2026-09-02", 2, 1, "1/2-1/2"], ["2026-09-03", 1, 2, "1/2-1/2"]]
             + [[f"2026-10-{d:02d}", 1, 3, "1/2-1/2"] for d in range(1, 9)])
    calendar = [["2026-09", "2026-05-01", "2026-09-03"], ["2027-01", "2026-09-04", "2026-12-31"]]
    w = _performance(cli, tmp_path, players, ratings, games, calendar)
    assert _state(w, "2026-09")[1][0] == 1780
    assert _state(w, "2027-01")[1][0] == 1870
    junior = dict(_query(w, "select list_id, junior from performance_calculations where series = 'performance' "
                            "and player_id = 1"))
    assert junior == {"2026-09": True, "2027-01": False}
    # The same season where a user reads it: the calculation card (a replay of the list) and
    # the top_players view.
    card = cli("explain", 1, "--list", "2026-09", "--warehouse", w).output
    assert "Junior this season (R2): yes" in card
    assert "Ej = Pj = 1780.000" in card
    view = dict(_query(w, "select list_id, junior from top_players where series = 'performance' "
                          "and player_id = 1"))
    assert view == {"2026-09": True, "2027-01": False}


# ---------------------------------------------------------------------------
# R13: the 350 test and the 20-point settling at 6 decimals

def test_r13_a_win_exactly_350_above_through_a_sum_a_hair_under_does_not_count(cli, tmp_path):
    # U (unrated, no archives) plays 12 games in the window of list 2027-01: beats W (1430),
    # loses 4 to A (2190), and wins 1, loses 6 against B (2070).
    # First pass (no range): Sc = 2, Nj = 12, P = 1/6, D between 0.16 (−284) and 0.17 (−273):
    # −284 + (1/6 − 0.16) × 1100 = −830/3; Ea = (1430 + 4 × 2190 + 7 × 2070) / 12 = 24680/12
    # = 6170/3, so the estimate is (6170 − 830) / 3 = 1780, exactly 350 above W.
    # In binary floating point 24680/12 = 2056.6666666666665 and D = −276.6666666666667, whose
    # sum is 1779.9999999999998: the plain subtraction 1779.9999999999998 − 1430 gives
    # 349.9999999999998 < 350, and the win would count (the check just below shows it).
    first = 24680 / 12 + float(bonus(np.array([2 / 12]))[0])
    assert first - 1430 < 350
    # R13: the gap rounded to 6 decimals is 350.000000, not < 350: the win does not count.
    # Round 1: the losses to A (2190 − 1780 = 410 ≥ 350) do not count either; the 7 games
    # against B do (290 < 350): P = 1/7, D between 0.14 (−309) and 0.15 (−296): −309 +
    # (1/7 − 0.14) × 1300 = −305.286; Pj = 2070 − 305.286 = 1764.714, within 20 of 1780:
    # settled, the estimation stops. Nj = 7 < 8: no rating yet, the archives are Pa = 1780,
    # Na = 7 (R6, R10). Counting the win (Nj = 8, Ea = (1430 + 7 × 2070) / 8 = 1990, P = 0.25,
    # Pj = 1990 − 193 = 1797, settled too) would have given U a first rating of 1780.
    # W (1430) lost to U, 350 above: not counted for W either: no compatible game, W stays
    # 1430 (counted: Pj = 1780 − 470 = 1310 < 1430, the brake (16 × 1430 + 1310) / 17 =
    # 1422.94 → 1420).
    players = [[1, "U Unrated", 1980], [2, "W Weaker", 1980], [3, "A Stronger", 1980], [4, "B Opponent", 1980]]
    ratings = [[2, 1430, "", ""], [3, 2190, "", ""], [4, 2070, "", ""]]
    games = ([["2026-09-05", 1, 2, "1-0"]] + [[f"2026-09-{d:02d}", 3, 1, "1-0"] for d in (6, 7, 8, 9)]
             + [["2026-09-10", 1, 4, "1-0"]] + [[f"2026-09-{d}", 4, 1, "1-0"] for d in range(11, 17)])
    w = _performance(cli, tmp_path, players, ratings, games)
    state = _state(w, "2027-01")
    rating, pa, na = state[1]
    assert rating is None and (round(pa, 3), na) == (1780.0, 7)
    assert state[2][0] == 1430
    games_counted = dict(_query(w, "select player_id, games from calculations where series = 'performance' "
                                   "and list_id = '2027-01' and player_id in (1, 2)"))
    assert games_counted == {1: 7, 2: 0}
    # The card says why, with the numbers: 1780 − 1430 = 350 ≥ 350.
    card = cli("explain", 1, "--list", "2027-01", "--warehouse", w).output
    assert "no: win, 1780 − 1430 = 350 ≥ 350" in card


def test_r13_a_performance_exactly_20_from_the_estimate_is_not_settled(cli, tmp_path):
    # U (unrated, no archives) wins 1 and loses 4 against A (2000) and loses to Z (2340).
    # First pass: Sc = 1, Nj = 6, P = 1/6, D between 0.16 (−284) and 0.17 (−273):
    # −284 + (1/6 − 0.16) × 1100 = −830/3; Ea = (5 × 2000 + 2340) / 6 = 12340/6: the estimate
    # is (12340 − 1660) / 6 = 1780 (in floating point 2056.6666666666665 − 276.6666666666667
    # = 1779.9999999999998).
    # Round 1: Z's win (2340 − 1780 = 560 ≥ 350) does not count; 5 games against A: P = 0.2,
    # D = −240, Pj = 1760: exactly 20 from the estimate. In floating point |1760 −
    # 1779.9999999999998| = 19.999999999999773 < 20 would settle U at 1780 (the check below);
    # R13 rounds it to 20.000000, not < 20: U moves to (1780 + 1760) / 2 = 1770.
    first = 12340 / 6 + float(bonus(np.array([1 / 6]))[0])
    assert abs(2000 + float(bonus(np.array([0.2]))[0]) - first) < 20
    # Round 2: the same games count (A: 2000 − 1770 = 230 < 350; Z: 570 ≥ 350), Pj = 1760,
    # 10 from 1770: settled. Nj = 5 < 8: archives Pa = 1770, Na = 5 (R6, R10), after 2
    # rounds (1 player moving in round 1, none in round 2).
    players = [[1, "U Unrated", 1980], [2, "A Opponent", 1980], [3, "Z Stronger", 1980]]
    ratings = [[2, 2000, "", ""], [3, 2340, "", ""]]
    games = [["2026-09-05", 1, 2, "1-0"]] + [[f"2026-09-{d:02d}", 1, 2, "0-1"] for d in (6, 7, 8, 9)] + [
        ["2026-09-10", 3, 1, "1-0"]]
    w = _performance(cli, tmp_path, players, ratings, games)
    rating, pa, na = _state(w, "2027-01")[1]
    assert rating is None and (round(pa, 3), na) == (1770.0, 5)
    rounds = _query(w, "select round, players_moving from estimation_rounds where series = 'performance' "
                       "and list_id = '2027-01' order by round")
    assert rounds == [(1, 1), (2, 0)]


def test_r13_the_estimation_divergence_case(cli, tmp_path):
    # tests/fixtures/estimation-divergence (README there): 177665's first estimate 12380/7
    # (1768.5714285714284 in floating point) beats 113531's 9930/7 (1418.5714285714287): a
    # win exactly 350 above, whose plain float gap is 349.9999999999998, and which does not
    # count (R13). Counted, it gave 177665 Pa 1835.447 and the three others 1709.716,
    # 1655.733, 1619.818. The independent implementation's archives, to 3 decimals, for the
    # four players whose estimates go through that game:
    w = tmp_path / "w.duckdb"
    cli("run", "--players", CASE / "players.csv", "--ratings", CASE / "initial.csv", "--games", CASE / "games.csv",
        "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    state = _state(w, "2021-01")
    expected = {177665: (1836.158, 3), 104676: (1710.029, 6), 165436: (1655.763, 6), 196292: (1619.848, 6)}
    got = {p: (round(state[p][1], 3), state[p][2]) for p in expected}
    assert got == expected
    assert all(state[p][0] is None for p in expected)  # still unrated: archives only


# ---------------------------------------------------------------------------
# X1a and X7: a FIDE list is dated 3 days after its closing date

FIDE_PLAYERS = [[1, "A", 1980], [2, "B", 1980], [3, "C", 1980], [4, "D", 1980], [5, "N", 1980], [6, "M", 1980]]
FIDE_RATINGS = [[1, 2000, 100], [2, 2000, 100], [3, 1900, 100], [4, 1900, 100], [5, 1800, 29], [6, 1800, 29]]


def _fide(cli, tmp_path, players, ratings, games, calendar=None, *more):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    files = ["--players", write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"], players),
             "--ratings", write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_total"], ratings),
             "--games", write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event"],
                                   games)]
    if calendar is not None:
        files += ["--calendar", write_rows(tmp_path / "calendar.csv", ["list_id", "window_start", "window_end"],
                                           calendar)]
    cli("run", "--system", "fide", *files, "--warehouse", w, "--out", out, "--no-reports", *more)
    return w, out


def test_x1a_an_event_starting_on_a_calendar_files_list_date_takes_that_lists_ratings(cli, tmp_path):
    # The calendar file closes list 2026-02 on 27 January 2026: X1a dates it 3 days later,
    # 30 January (as a monthly list closing on 29 January is dated 1 February).
    #   2026-02 (games to 27 January): N (1800, 29 games: K 40) beats A (2000, K 20), and M
    #   (1800, 29 games) beats B (2000). D = −200: E = 0.24 (table 8.1.2, 198–206).
    #   N, M: +40 × 0.76 = 30.4 → 30: 1830, 30 games (K 20 from now on).
    #   2026-03 (28 January – 24 February): "Eve" on 29 January, the day before the list's date,
    #   starts from the list before (X2: the initial ratings): M (1800, K 40) beats D (1900):
    #   D = −100, E = 0.36: +40 × 0.64 = 25.6 → 26: 1830 + 26 = 1856.
    #   "Open" on 30 January, the list's date, starts from list 2026-02: N (1830, K 20) beats C
    #   (1900): D = −70, E = 0.40 (69–76): +20 × 0.60 = 12: 1842; C: 20 × (0 − 0.60) = −12: 1888.
    #   (Dated a day late, the list would be in force from 31 January, and Open would start
    #   from the initial ratings: N +26 → 1856, C −13 → 1887.)
    games = [["2026-01-10", 5, 1, "1-0", "Jan"], ["2026-01-11", 6, 2, "1-0", "Jan"],
             ["2026-01-29", 6, 4, "1-0", "Eve"], ["2026-01-30", 5, 3, "1-0", "Open"]]
    calendar = [["2026-02", "2025-12-28", "2026-01-27"], ["2026-03", "2026-01-28", "2026-02-24"]]
    w, _ = _fide(cli, tmp_path, FIDE_PLAYERS, FIDE_RATINGS, games, calendar)
    rows = _query(w, "select player_id, rating from player_state where series = 'fide' and list_id = '2026-03' "
                     "and player_id in (3, 4, 5, 6)")
    assert dict(rows) == {3: 1888, 4: 1887, 5: 1842, 6: 1856}  # D, in Eve: 20 × (0 − 0.64) = −12.8 → −13
    k = dict(_query(w, "select player_id, k from fide_calculations where series = 'fide' and list_id = '2026-03' "
                       "and player_id in (5, 6)"))
    assert k == {5: 20, 6: 40}  # Open from list 2026-02 (30 games), Eve from the initial ratings (29)


def test_x7_the_12_months_run_from_the_list_date_minus_12_months_included(cli, tmp_path):
    # Monthly lists: list 2026-02 is dated 1 February 2026; its 12 months are 1 February 2025
    # (included) … 31 January 2026. A and B last played on 1 February 2025: active, no flag.
    # C and D last played on 31 January 2025, a day before them: inactive, flag i.
    # (E and F play in January 2026 so that list 2026-02 is computed; active.)
    players = [*FIDE_PLAYERS[:4], [5, "E", 1980], [6, "F", 1980]]
    ratings = [[i, 1800, 100] for i in range(1, 7)]
    games = [["2025-02-01", 1, 2, "1/2-1/2", "Feb"], ["2025-01-31", 3, 4, "1/2-1/2", "Jan"],
             ["2026-01-10", 5, 6, "1/2-1/2", "New year"]]
    w, out = _fide(cli, tmp_path, players, ratings, games, None, "--format", "csv,txt")
    flags = dict(_query(w, "select player_id, inactive from fide_state where series = 'fide' "
                           "and list_id = '2026-02'"))
    assert flags == {1: False, 2: False, 3: True, 4: True, 5: False, 6: False}
    # The TXT list's Flag column (column 133, 1-based) says the same.
    lines = (out / "lists" / "2026-02.txt").read_text().splitlines()[1:]
    txt = {int(line[:15]): line[132:].strip() for line in lines}
    assert txt == {1: "", 2: "", 3: "i", 4: "i", 5: "", 6: ""}


# ---------------------------------------------------------------------------
# F2: the 1984 rules order games by date, event start, round, file order; not by event id

def test_f2_two_events_on_the_same_day_interleave_by_round(cli, tmp_path):
    # "alpha" and "zeta" both start and play on 10 January 2026. The file lists alpha's games
    # first; the event ids put alpha first too; F2 puts zeta's round 1 before alpha's round 2.
    # Points: 1 → 100, 2 → 150, 3 → 200, 4 and 5 → 300.
    #   round 1, alpha: 4 beats 5, even: T = (110 − 0) / 10 = 11: 4 → 311, 5 → 289.
    #   round 1, zeta: 1 (100) beats 2 (150): NFC < NFP, NC ≤ NP: T = (50 + 10) / 3 = 20:
    #   1 → 120, 2 loses 10: 140.
    #   round 2, alpha: 2 (140) beats 3 (200): T = (60 + 10) / 3 = 23.333: 2 → 163.333, 3 → 190.
    # Alpha before zeta (event id, or the file's order) would give 2 (150) beats 3: T = 20, 2 →
    # 170, 3 → 190; then 1 (100) beats 2 (170): T = 80 / 3 = 26.667: 1 → 126.667, 2 → 160.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[i, f"P{i}"] for i in range(1, 6)])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"],
                         [[1, 100], [2, 150], [3, 200], [4, 300], [5, 300]])
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class"], [
        ["alpha", "Alpha cup", "2026-01-10", "2026-01-10", "B"], ["zeta", "Zeta cup", "2026-01-10", "2026-01-10", "B"]])
    games = write_rows(tmp_path / "games.csv", ["event_id", "date", "black_id", "white_id", "winner", "round"], [
        ["alpha", "2026-01-10", 2, 3, "B", 2], ["alpha", "2026-01-10", 4, 5, "B", 1],
        ["zeta", "2026-01-10", 1, 2, "B", 1]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "go-ffg1984", "--players", players, "--ratings", ratings, "--events", events,
        "--games", games, "--warehouse", w, "--out", out)
    # The states: zeta ends first in the F2 order (its last game is the second), alpha last.
    zeta = pd.read_parquet(out / "state" / "zeta.parquet").set_index("player_id")["rating"].to_dict()
    alpha = pd.read_parquet(out / "state" / "alpha.parquet").set_index("player_id")["rating"].to_dict()
    assert zeta == pytest.approx({1: 120, 2: 140, 3: 200, 4: 311, 5: 289})
    assert alpha == pytest.approx({1: 120, 2: 140 + 70 / 3, 3: 190, 4: 311, 5: 289})
    # Each game's own points before it (go_game_sides): 2 met 3 at 140, after losing to 1.
    own = dict(_query(w, "select player_id, own from go_game_sides where player_id = 2 and opponent_id = 3"))
    assert own == pytest.approx({2: 140})
