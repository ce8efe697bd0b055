"""Glicko-2, the fifth rule set (pipeline/systems/glicko2/): Glickman's worked example
("Example of the Glicko-2 system", 2013) on the pure array code, a player with no game,
an independent per-player loop on a simulated federation, and the rule set end to end
through the CLI beside the performance Elo."""
from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict

import duckdb
import numpy as np
import pandas as pd
import pytest

from pipeline.ruleset.games import WindowGames
from pipeline.ruleset.interface import Period
from pipeline.simulate import simulate
from pipeline.systems.glicko2 import Glicko2, Glicko2State, period_calendar
from pipeline.systems.glicko2.rules import Glicko2Rules, expected, g, period_result, to_glicko2
from tests.conftest import write_rows
from tests.test_submissions import query

# Glickman 2013, the example: a 1500 / 200 / 0.06 player (index 0) beats 1400 / 30, loses to
# 1550 / 100 and to 1700 / 300, tau = 0.5. The opponents' own volatilities do not enter.
EXAMPLE = {"rating": [1500.0, 1400.0, 1550.0, 1700.0], "deviation": [200.0, 30.0, 100.0, 300.0],
           "white": [0, 2, 3], "black": [1, 0, 0], "white_score": [1.0, 1.0, 1.0]}

# Step 2: mu_j = (r_j - 1500) / 173.7178, phi_j = RD_j / 173.7178; step 3: the paper's table.
PAPER_TERMS = [  # (opponent, g(phi_j), E(mu, mu_j, phi_j)) as the paper prints them (four and three places)
    (1, 0.9955, 0.639),
    (2, 0.9531, 0.432),
    (3, 0.7242, 0.303),
]


def test_glickmans_example_step_by_step():
    ratings, deviations = np.array(EXAMPLE["rating"]), np.array(EXAMPLE["deviation"])
    mu, phi = to_glicko2(ratings, deviations)
    for j, g_paper, e_paper in PAPER_TERMS:
        assert g(phi[j]) == pytest.approx(g_paper, abs=5e-5)
        assert expected(mu[0], mu[j], phi[j]) == pytest.approx(e_paper, abs=5e-4)
    result = period_result(ratings, deviations, np.full(4, 0.06), np.array(EXAMPLE["white"]),
                           np.array(EXAMPLE["black"]), np.array(EXAMPLE["white_score"]), Glicko2Rules(tau=0.5))
    # Step 3: v = [0.9955² 0.639 (1 − 0.639) + 0.9531² 0.432 (1 − 0.432) + 0.7242² 0.303 (1 − 0.303)]⁻¹ = 1.7785
    # in the paper, from its rounded g and E; unrounded they give 1.77898.
    assert result.v[0] == pytest.approx(1.7785, abs=1e-3)
    # Step 4: Delta = v [0.9955 (1 − 0.639) + 0.9531 (0 − 0.432) + 0.7242 (0 − 0.303)] = 1.7785 × −0.2720 = −0.4834
    # (−0.48393 unrounded).
    assert result.delta[0] == pytest.approx(-0.4834, abs=1e-3)
    assert result.games[0] == 3 and result.score[0] == 1
    # Step 5: sigma' = 0.05999; step 6: phi* = sqrt(1.1513² + 0.05999²) = 1.152862; step 7:
    # phi' = 1 / sqrt(1 / 1.152862² + 1 / 1.7785) = 0.8722, mu' = 0 + 0.8722² × −0.2720 = −0.2069;
    # step 8: r' = 173.7178 × −0.2069 + 1500 = 1464.06, RD' = 173.7178 × 0.8722 = 151.52.
    assert result.volatility[0] == pytest.approx(0.05999, abs=1e-5)
    assert result.rating[0] == pytest.approx(1464.06, abs=0.01)
    assert result.deviation[0] == pytest.approx(151.52, abs=0.01)


@pytest.mark.parametrize("deviation, volatility, grown", [
    # phi = 200 / 173.7178 = 1.1512925; sqrt(1.1512925² + 0.06²) = sqrt(1.3254744 + 0.0036) = 1.1528549;
    # × 173.7178 = 200.2714
    (200.0, 0.06, 200.27142),
    # phi = 50 / 173.7178 = 0.2878231; sqrt(0.0828421 + 0.09²) = sqrt(0.0909421) = 0.3015662; × 173.7178 = 52.38741
    (50.0, 0.09, 52.38741),
    # A deviation at the cap stays there (Glickman 1999's 350): sqrt(2.014761² + 0.06²) = 2.015654 → 2.014761.
    (350.0, 0.06, 350.0),
])
def test_a_player_with_no_game_keeps_rating_and_volatility_and_the_deviation_grows(deviation, volatility, grown):
    # Players 1 and 2 play each other; player 0 does not play (Glickman 2013, step 6).
    result = period_result(np.array([1723.0, 1500.0, 1600.0]), np.array([deviation, 80.0, 80.0]),
                           np.array([volatility, 0.06, 0.06]), np.array([1]), np.array([2]), np.array([0.5]))
    assert result.rating[0] == 1723.0 and result.volatility[0] == volatility
    assert result.deviation[0] == pytest.approx(grown, abs=1e-5)
    assert result.games[0] == 0 and np.isnan(result.v[0])


@pytest.mark.parametrize("months, expected", [
    # One month a period, each list named for the month after it (the month it is published in, R1).
    (1, [("2026-10", "2026-09-01", "2026-09-30"), ("2026-11", "2026-10-01", "2026-10-31"),
         ("2026-12", "2026-11-01", "2026-11-30"), ("2027-01", "2026-12-01", "2026-12-31"),
         ("2027-02", "2027-01-01", "2027-01-31")]),
    # Quarters from January; four months give the performance Elo's nominal windows.
    (3, [("2026-10", "2026-07-01", "2026-09-30"), ("2027-01", "2026-10-01", "2026-12-31"),
         ("2027-04", "2027-01-01", "2027-03-31")]),
    (4, [("2027-01", "2026-09-01", "2026-12-31"), ("2027-05", "2027-01-01", "2027-04-30")]),
    (12, [("2027-01", "2026-01-01", "2026-12-31"), ("2028-01", "2027-01-01", "2027-12-31")]),
])
def test_the_periods_cover_the_games_and_divide_the_year(months, expected):
    periods = period_calendar(dt.date(2026, 9, 5), dt.date(2027, 1, 9), months)
    assert [(a, str(b), str(c)) for a, b, c in periods.itertuples(index=False)] == expected


# --- an independent computation of a simulated federation --------------------------------------

SCALE = 173.7178


def reference_volatility(sigma: float, phi: float, v: float, delta: float, tau: float, eps: float) -> float:
    """Glickman 2013, step 5, for one player, as the paper writes it."""
    a = math.log(sigma * sigma)

    def f(x):
        return (math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x)) / (2 * (phi ** 2 + v + math.exp(x)) ** 2)
                - (x - a) / tau ** 2)

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > eps:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def reference_period(state: dict, games: list, tau=0.5, eps=1e-6, cap=350.0) -> dict:
    """Every player's (rating, RD, volatility) after a period, player by player: the state
    before it for everyone (simultaneous games); newcomers from 1500 / 350 / 0.06."""
    start = dict(state)
    sides = defaultdict(list)
    for white, black, score in games:
        sides[white].append((black, score))
        sides[black].append((white, 1 - score))
        for p in (white, black):
            start.setdefault(p, (1500.0, 350.0, 0.06))
    after = {}
    for p, (r, rd, sigma) in start.items():
        mu, phi = (r - 1500) / SCALE, rd / SCALE
        if p not in sides:
            after[p] = (r, min(math.sqrt(phi ** 2 + sigma ** 2), cap / SCALE) * SCALE, sigma)
            continue
        information = surprise = 0.0
        for opponent, score in sides[p]:
            r_j, rd_j, _ = start[opponent]
            mu_j, phi_j = (r_j - 1500) / SCALE, rd_j / SCALE
            g_j = 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
            e = 1 / (1 + math.exp(-g_j * (mu - mu_j)))
            information += g_j ** 2 * e * (1 - e)
            surprise += g_j * (score - e)
        v = 1 / information
        new_sigma = reference_volatility(sigma, phi, v, v * surprise, tau, eps)
        phi_star = min(math.sqrt(phi ** 2 + new_sigma ** 2), cap / SCALE)
        new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
        after[p] = (SCALE * (mu + new_phi ** 2 * surprise) + 1500, SCALE * new_phi, new_sigma)
    return after


def next_month(year: int, month: int) -> tuple[int, int]:
    return (year + 1, 1) if month == 12 else (year, month + 1)


def test_an_independent_loop_agrees_on_a_simulated_federation(cli, tmp_path):
    files = simulate(300, 2, 7, tmp_path / "sim")  # 2 windows of four months: January to August 2020
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "glicko2", "--players", files["players"], "--ratings", files["ratings"],
        "--games", files["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    with duckdb.connect(str(w), read_only=True) as con:
        games = con.sql("""select year(date) as y, month(date) as m, white_id, black_id, white_score from games
                           where white_score is not null order by date, game_key""").fetchall()
        initial = con.sql("select player_id, rating from initial_ratings where rating is not null").fetchall()
        stored = con.sql("""select list_id, player_id, rating, exact_rating, deviation, volatility
                            from player_state join glicko2_state using (series, list_id, player_id)
                            where series = 'glicko2'""").df()
        lists = [x for (x,) in con.sql("select list_id from lists where series = 'glicko2' order by position").fetchall()]
    by_month = defaultdict(list)
    for y, m, white, black, score in games:
        by_month[(y, m)].append((white, black, score))
    state = {p: (r, 350.0, 0.06) for p, r in initial}
    month, last = min(by_month), max(by_month)
    expected_lists, compared = [], 0
    while month <= last:
        state = reference_period(state, by_month.get(month, []))
        list_id = "%d-%02d" % next_month(*month)  # the month after the games: the month of publication
        expected_lists.append(list_id)
        mine = stored[stored["list_id"] == list_id].set_index("player_id")
        assert sorted(mine.index) == sorted(state), list_id
        ours = pd.DataFrame.from_dict(state, orient="index", columns=["exact_rating", "deviation", "volatility"])
        ours = ours.loc[mine.index]
        for column in ("exact_rating", "deviation", "volatility"):
            assert np.abs(mine[column].to_numpy() - ours[column].to_numpy()).max() < 1e-9, (list_id, column)
        assert (mine["rating"] == np.floor(mine["exact_rating"] + 0.5)).all()
        compared += len(mine)
        month = next_month(*month)
    assert lists == expected_lists and len(lists) == 8 and compared > 8 * 250
    assert len(games) > 1000


# --- end to end ---------------------------------------------------------------------------------

def glicko2_state(w, list_id: str) -> pd.DataFrame:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.sql("""select player_id, rating, exact_rating, deviation, volatility
                          from player_state join glicko2_state using (series, list_id, player_id)
                          where series = 'glicko2' and list_id = ? order by player_id""",
                       params=[list_id]).df().set_index("player_id")


def test_glicko2_beside_the_performance_elo_end_to_end(cli, small_federation, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", w, "--out", out, "--no-reports")
    printed = cli("run", "--system", "glicko2", "--warehouse", w, "--out", out, "--no-reports").output
    assert "Rate glicko2" in printed
    # Monthly periods, each list named for the month after its games (September's games: 2026-10).
    assert query(w, "select list_id, games_rated, forfeits, players_rated, new_players from lists "
                    "where series = 'glicko2' order by position") == [
        ("2026-10", 8, 0, 8, 3), ("2026-11", 0, 1, 8, 0), ("2026-12", 0, 0, 8, 0), ("2027-01", 0, 0, 8, 0),
        ("2027-02", 1, 0, 8, 0)]
    # Its own columns are in its own tables: the shared ones are as every rule set has them.
    assert {c for (c,) in query(w, "select column_name from duckdb_columns() where table_name = 'player_state'")} \
        == {"series", "list_id", "player_id", "rating"}
    first = glicko2_state(w, "2026-10")
    # 7 and 8, new (1500 / 350 / 0.06), 7 wins. Step 6 first: sqrt(2.014761² + 0.06²) = 2.015654, over the
    # cap 350 / 173.7178 = 2.014761, so phi* = 2.014761 for both. Step 3: g = 1 / sqrt(1 + 3 × 4.059262 / pi²)
    # = 0.669066, E = 1/2, v = 1 / (0.669066² × 1/4) = 8.93557. Step 7: phi' = 1 / sqrt(1 / 4.059262 + 1 / 8.93557)
    # = 1.670705 (RD 290.23), mu' = ± 1.670705² × 0.669066 × 1/2 = ± 0.933765 (± 162.21).
    assert first.loc[7, "exact_rating"] == pytest.approx(1662.21, abs=0.01)
    assert first.loc[8, "exact_rating"] == pytest.approx(1337.79, abs=0.01)
    assert first.loc[7, "deviation"] == first.loc[8, "deviation"] == pytest.approx(290.23, abs=0.01)
    assert (first.loc[7, "rating"], first.loc[8, "rating"]) == (1662, 1338)
    # 6's forfeit of October is counted, never rated: 2026-11 rates nobody, every RD grows (step 6).
    assert (glicko2_state(w, "2026-11")["deviation"] > first["deviation"]).all()

    # A late game of October (4 beats 3) revises 2026-11 and the lists after it.
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"], [["2026-10-15", 4, 3, "1-0"]])
    cli("run", "--games", late, "--warehouse", w, "--out", out, "--no-reports")
    assert query(w, "select list_id, revision, reason from list_revisions where series = 'glicko2' and revision > 1 "
                    "order by 1") == [
        ("2026-11", 2, "late games: submission 4 (late.csv)"),
        ("2026-12", 2, "follows from the revision of an earlier list"),
        ("2027-01", 2, "follows from the revision of an earlier list"),
        ("2027-02", 2, "follows from the revision of an earlier list")]
    october = glicko2_state(w, "2026-11")
    # The game from the state after September, by the pure rules: 3 and 4 are players 0 and 1.
    before = first.loc[[3, 4]]
    by_rules = period_result(before["exact_rating"].to_numpy(), before["deviation"].to_numpy(),
                             before["volatility"].to_numpy(), np.array([1]), np.array([0]), np.array([1.0]))
    assert october.loc[[3, 4], "exact_rating"].to_numpy() == pytest.approx(by_rules.rating, abs=1e-9)
    assert october.loc[3, "exact_rating"] < first.loc[3, "exact_rating"]
    card = cli("explain", 3, "--list", "2026-11", "--system", "glicko2", "--warehouse", w).output
    assert "Cara Rated (3), list 2026-11 (games of 2026-10-01 … 2026-10-31), Glicko-2" in card
    assert f"Before:  r {first.loc[3, 'exact_rating']:.2f}, RD {first.loc[3, 'deviation']:.2f}" in card
    assert "Games:   1, score 0" in card
    assert f"v = {by_rules.v[0]:.4f}, Delta = {by_rules.delta[0]:+.4f}" in card
    assert f"After:   r {by_rules.rating[0]:.2f} (step 8), RD {by_rules.deviation[0]:.2f}" in card
    refused = cli("explain", 6, "--list", "2026-11", "--system", "glicko2", "--warehouse", w, ok=False)
    assert "player 6 has no game in list '2026-11'" in refused.output

    # The commission's rating replaces the published and the exact rating; RD and volatility stay.
    cli("correct", 3, "--list", "2026-11", "--rating", 1600, "--reason", "appeal upheld", "--system", "glicko2",
        "--warehouse", w)
    cli("rate", "--warehouse", w)
    corrected = glicko2_state(w, "2026-11").loc[3]
    assert (corrected["rating"], corrected["exact_rating"]) == (1600, 1600)
    assert (corrected["deviation"], corrected["volatility"]) == (october.loc[3, "deviation"],
                                                                 october.loc[3, "volatility"])
    assert glicko2_state(w, "2026-12").loc[3, "exact_rating"] == 1600  # no game in November: unchanged
    card = cli("explain", 3, "--list", "2026-11", "--system", "glicko2", "--warehouse", w).output
    assert "The commission's correction: appeal upheld: rating 1600" in card
    assert "FAILED" not in cli("audit", "--warehouse", w).output

    # Scored beside the performance Elo, on the same games, each by its published ratings.
    cli("evaluate", "--system", "performance", "--system", "glicko2", "--warehouse", w, "--out", tmp_path / "scores")
    whole = pd.read_csv(tmp_path / "scores" / "accuracy.csv").query("list_id != list_id").set_index("source")
    assert set(whole.index) == {"performance", "glicko2"}
    assert whole.loc["glicko2", "games"] == whole.loc["performance", "games"] > 0
    assert whole["log_loss"].between(0, 2).all()


def test_a_corrected_file_and_a_withdrawn_one_under_glicko2(cli, tmp_path):
    """The record's chain under Glicko-2: a file replaced by its corrected version, then a
    whole file withdrawn; each revises the months it touches and says why, and the lists
    end as a fresh warehouse given only what is in force computes them."""
    games = ["date", "white_id", "black_id", "result"]
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "Anna"], [2, "Bert"], [3, "Cara"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700], [3, 1600]])
    autumn = write_rows(tmp_path / "autumn.csv", games, [["2026-09-05", 1, 2, "1-0"], ["2026-09-06", 2, 3, "1-0"]])
    winter = write_rows(tmp_path / "winter.csv", games, [["2026-11-07", 1, 3, "0-1"]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "glicko2", "--players", players, "--ratings", ratings, "--games", autumn,
        "--games", winter, "--warehouse", w, "--out", out, "--no-reports")
    # The organiser's correction: the second autumn game was a draw.
    fixed = write_rows(tmp_path / "autumn-v2.csv", games, [["2026-09-05", 1, 2, "1-0"],
                                                           ["2026-09-06", 2, 3, "1/2-1/2"]])
    cli("run", "--games", fixed, "--replaces", "autumn.csv", "--warehouse", w, "--out", out, "--no-reports")
    assert query(w, "select list_id, revision from lists where revision > 1 order by 1")[0] == ("2026-10", 2)
    assert "replaces submission 3" in cli("revisions", "--list", "2026-10", "--warehouse", w).output
    fresh = tmp_path / "fresh.duckdb"
    cli("run", "--system", "glicko2", "--players", players, "--ratings", ratings, "--games", fixed,
        "--games", winter, "--warehouse", fresh, "--out", tmp_path / "fresh-out", "--no-reports")
    state = ("select list_id, player_id, rating, exact_rating, deviation, volatility "
             "from player_state natural join glicko2_state order by all")
    assert query(w, state) == query(fresh, state)
    # The whole autumn withdrawn: its month is rated with no game. The initial ratings give
    # no deviation, so each player starts at RD 350 (step 1); without a game the RD would grow
    # to sqrt(350^2 + (0.06 x 173.7178)^2) = 350.155 and is capped at 350 (max_deviation):
    # the ratings and deviations of list 2026-10 are the initial ones.
    cli("withdraw", "autumn-v2.csv", "--reason", "not a rated event", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out, "--no-reports")
    assert query(w, "select player_id, rating, deviation from player_state natural join glicko2_state "
                    "where list_id = '2026-10' order by 1") == [(1, 1800.0, 350.0), (2, 1700.0, 350.0),
                                                                 (3, 1600.0, 350.0)]
    assert "withdrawn: not a rated event" in cli("revisions", "--list", "2026-10", "--warehouse", w).output
    assert "FAILED" not in cli("audit", "--warehouse", w).output


@pytest.mark.parametrize("deviation, volatility, reasons", [
    # Glickman 2013, step 1: RD and sigma are what an unrated player starts from, in the ranges of the
    # parameters that give them (initial_deviation: more than 0, at most 500; initial_volatility: more
    # than 0, at most 1). An infinite volatility makes step 5's ln(sigma^2) infinite, every later
    # value NaN; an RD of 1e308 squares to infinity (phi^2 in steps 3-6).
    ("1e308", "0.06", ["deviation: not a number more than 0 and at most 500 (initial_deviation's range) for the "
                       "glicko2 rules ('1e308')"]),
    ("200", "inf", ["volatility: not a number more than 0 and at most 1 (initial_volatility's range) for the "
                    "glicko2 rules ('inf')"]),
    ("-inf", "1e308", ["deviation: not a number more than 0 and at most 500 (initial_deviation's range) for the "
                       "glicko2 rules ('-inf')",
                       "volatility: not a number more than 0 and at most 1 (initial_volatility's range) for the "
                       "glicko2 rules ('1e308')"]),
    ("nan", "0", ["deviation: not a number for the glicko2 rules ('nan')",
                  "volatility: not a number more than 0 and at most 1 (initial_volatility's range) for the "
                  "glicko2 rules ('0')"]),
])
def test_an_initial_deviation_or_volatility_glicko2_cannot_start_from_is_rejected(cli, tmp_path, deviation,
                                                                                  volatility, reasons):
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "A"], [2, "B"]])
    # 500 and 1 are the ranges' highest values: taken in
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "deviation", "volatility"],
                         [[1, 1500, 500, 1], [2, 1400, deviation, volatility]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [["2026-09-05", 1, 2, "1-0"]])
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "glicko2", "--players", players, "--ratings", ratings, "--games", games,
        "--warehouse", w, "--out", tmp_path / "out", "--no-reports", rejected=True)
    assert query(w, "select row_number, reason from rejects") == [(2, "; ".join(reasons))]
    assert query(w, "select player_id, (extra->>'deviation')::double, (extra->>'volatility')::double "
                    "from initial_ratings") == [(1, 500.0, 1.0)]


def test_the_initial_deviation_and_volatility_come_from_the_ratings_file(cli, tmp_path):
    """Glicko-2's own initial columns (RuleSet.initial_columns): read where given, checked by
    its own model where not valid (the row rejected with the column and the file's text)."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "A"], [2, "B"], [3, "C"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "deviation", "volatility"],
                         [[1, 1500, 200, 0.06], [2, 1400, 30, ""], [3, 1550, -5, "x"]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [["2026-09-05", 1, 2, "1-0"]])
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "glicko2", "--players", players, "--ratings", ratings, "--games", games,
        "--warehouse", w, "--out", tmp_path / "out", "--no-reports", rejected=True)
    assert query(w, "select row_number, reason from rejects") == [
        (3, "deviation: not a number more than 0 and at most 500 (initial_deviation's range) for the glicko2 rules "
            "('-5'); volatility: not a number for the glicko2 rules ('x')")]
    # Player 1 (1500 / 200 / 0.06, the paper's player) beats 2 (1400 / 30): the paper's first
    # game alone. g = 0.9955, E = 0.639; v = 1 / (0.9955^2 x 0.639 x 0.361) = 4.374;
    # phi = 200 / 173.7178 = 1.1513, phi* = sqrt(1.1513^2 + 0.06^2) = 1.1529 (sigma' ~ 0.06);
    # phi' = 1 / sqrt(1 / 1.1529^2 + 1 / 4.374) = 1.0096, RD' = 175.4;
    # mu' = 1.0096^2 x 0.9955 x 0.361 = 0.3663, r' = 1500 + 173.7178 x 0.3663 = 1563.6.
    (exact, deviation), = query(w, "select exact_rating, deviation from glicko2_state where player_id = 1")
    assert exact == pytest.approx(1563.6, abs=0.2) and deviation == pytest.approx(175.4, abs=0.1)
    # 2 gave no volatility: the initial 0.06 (step 1); its RD 30 grows only a little.
    (deviation,), = query(w, "select deviation from glicko2_state where player_id = 2")
    assert 30 < deviation < 32


def test_a_periods_calculations_hold_each_rule_text_once():
    """Every player of a period reads one of two texts (rated before, or a first rating);
    the calculations refer to them, one Python string each, not one a player: the Belgian
    history's 680,659 calculations held 49 MB of copies until they were stored (issue 53,
    item 7). Player 0 is rated (1500 / 350 / 0.06); 1 and 2 are not: they get first ratings."""
    nan = float("nan")
    state = Glicko2State(np.array([10, 20, 30]), np.array([1500.0, nan, nan]), np.array([1500.0, nan, nan]),
                         np.array([350.0, nan, nan]), np.array([0.06, nan, nan]))
    games = WindowGames(np.array([1, 1]), np.array([0, 1]), np.array([1, 2]), np.array([1.0, 0.5]), np.array([0]),
                        {"day": np.array([0, 0]), "game_key": np.array([1, 2])})
    rule = Glicko2().rate_period(state, games, Period(0, "2026-10", dt.date(2026, 9, 1), dt.date(2026, 9, 30)),
                                 None).rows["calculations"]["rule"]
    assert list(rule) == ["Glicko-2, tau = 0.5", "first rating, from 1500 / 350 / 0.06",
                          "first rating, from 1500 / 350 / 0.06"]
    assert len({id(text) for text in rule}) == 2
