"""`ratings evaluate` scores each source by its own forecast and by the common logistic
yardstick, side by side (issue 53, item 1): Glicko-2's own forecast recomputed here from
its state table, independently of pipeline/, and the rule sets' own expected scores at
values worked by hand from their tables."""
from __future__ import annotations

import math

import duckdb
import numpy as np
import pandas as pd
import pytest

from pipeline.systems import rule_set
from pipeline.systems.glicko2 import Glicko2
from pipeline.systems.go_belgium.rules import rate_event
from tests.as_user import ratings
from tests.conftest import cli_runner, write_rows

GAMES = ["game_id", "date", "white_id", "black_id", "result"]


@pytest.fixture(scope="module")
def glicko(tmp_path_factory):
    """Four players under Glicko-2, monthly: January's games are scored by the initial
    ratings (Anna's RD given, 80; the others' unsaid: 350, Glickman's step 1), February's
    by list 2027-02 (January's period), March's by 2027-03."""
    folder = tmp_path_factory.mktemp("glicko")
    players = write_rows(folder / "players.csv", ["player_id", "name"], [[1, "Anna"], [2, "Bert"], [3, "Cara"],
                                                                       [4, "Dirk"]])
    initial = write_rows(folder / "ratings.csv", ["player_id", "rating", "deviation"],
                         [[1, 1800, 80], [2, 1700, ""], [3, 1600, ""], [4, 1500, ""]])
    games = write_rows(folder / "games.csv", GAMES, [
        ["J1", "2027-01-09", 1, 2, "1-0"], ["J2", "2027-01-09", 3, 4, "1/2-1/2"],
        ["F1", "2027-02-06", 1, 3, "0-1"], ["F2", "2027-02-06", 2, 4, "1-0"],
        ["M1", "2027-03-06", 4, 1, "1/2-1/2"], ["M2", "2027-03-06", 2, 3, "1-0"],
        ["M3", "2027-03-13", 3, 1, "+/-"],  # a forfeit: never scored
    ])
    ratings(folder, "run", "--system", "glicko2", "--players", players, "--ratings", initial, "--games", games,
            "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    return folder


def independent_scores(folder) -> pd.DataFrame:
    """Each game's own forecast and yardstick recomputed from the warehouse's state table
    and the initial ratings file, with numpy, not with pipeline/."""
    with duckdb.connect(str(folder / "w.duckdb"), read_only=True) as con:
        state = con.sql("""select p.list_id, p.player_id, p.rating as published, s.exact_rating as rating, s.deviation
                           from player_state p join glicko2_state s using (series, list_id, player_id)
                           where p.series = 'glicko2'""").df()
    initial = pd.read_csv(folder / "ratings.csv").assign(list_id="(initial)", published=lambda t: t["rating"])
    initial["deviation"] = initial["deviation"].fillna(350.0)  # Glickman 2013, step 1: an unrated player's RD
    state = pd.concat([state, initial[state.columns]]).set_index(["list_id", "player_id"])
    games = pd.read_csv(folder / "games.csv").query("result != '+/-'")
    # The list in force on a game's day: January's games the initial ratings (in force from
    # the first period's start), then each month the list named for it (R1: dated by its month).
    games["list_id"] = games["date"].str[:7].where(games["date"] >= "2027-02", "(initial)")
    games["score"] = games["result"].map({"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5})
    w = state.loc[list(zip(games["list_id"], games["white_id"]))].reset_index(drop=True)
    b = state.loc[list(zip(games["list_id"], games["black_id"]))].reset_index(drop=True)
    # The Glicko-2 scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178 (Glickman 2013, step 2);
    # g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2); the expected score of the game with g of both
    # deviations: E = 1 / (1 + exp(-g(sqrt(phi_w^2 + phi_b^2)) (mu_w - mu_b))).
    mu_w, mu_b = (w["rating"] - 1500) / 173.7178, (b["rating"] - 1500) / 173.7178
    phi = np.sqrt(w["deviation"] ** 2 + b["deviation"] ** 2) / 173.7178
    games["forecast"] = 1 / (1 + np.exp(-(mu_w - mu_b) / np.sqrt(1 + 3 * phi ** 2 / math.pi ** 2))).to_numpy()
    # The yardstick reads the published ratings: 1 / (1 + 10^(-D/400)).
    games["yardstick"] = 1 / (1 + 10 ** (-(w["published"] - b["published"]) / 400)).to_numpy()
    return games


def log_loss(p, s) -> float:
    return float(np.mean(-(s * np.log(p) + (1 - s) * np.log(1 - p))))


def brier(p, s) -> float:
    return float(np.mean((s - p) ** 2))


def test_glicko2_scored_by_its_own_forecast_and_the_yardstick(glicko):
    printed = ratings(glicko, "evaluate", "--system", "glicko2", "--warehouse", "w.duckdb", "--out", "scores")
    games = independent_scores(glicko)
    assert len(games) == 6 and games["list_id"].tolist() == ["(initial)"] * 2 + ["2027-02"] * 2 + ["2027-03"] * 2
    own = log_loss(games["forecast"], games["score"]), brier(games["forecast"], games["score"])
    yardstick = log_loss(games["yardstick"], games["score"]), brier(games["yardstick"], games["score"])
    assert abs(own[0] - yardstick[0]) > 1e-3  # the two differ: the test tells one from the other
    # Both printed, side by side: games, own log-loss and Brier, the yardstick's, and what the own is.
    line = next(x.split() for x in printed.splitlines() if x.split()[:1] == ["glicko2"])
    assert line[1:6] == ["6", f"{own[0]:.4f}", f"{own[1]:.4f}", f"{yardstick[0]:.4f}", f"{yardstick[1]:.4f}"]
    assert line[6:] == ["its", "own"]
    whole = pd.read_csv(glicko / "scores" / "accuracy.csv").query("list_id != list_id").iloc[0]
    assert whole["forecast"] == "own"
    assert whole["own_log_loss"] == pytest.approx(own[0], abs=1e-9)
    assert whole["own_brier"] == pytest.approx(own[1], abs=1e-9)
    assert whole["log_loss"] == pytest.approx(yardstick[0], abs=1e-9)  # the yardstick keeps its columns
    # Each game as each source forecast it: the game's id from the games file, the list that scored it.
    forecasts = pd.read_parquet(glicko / "scores" / "forecasts.parquet")
    assert forecasts.columns.tolist() == ["game_id", "source", "list_id", "forecast", "yardstick", "score"]
    assert forecasts["game_id"].tolist() == ["J1", "J2", "F1", "F2", "M1", "M2"]
    assert forecasts["list_id"].tolist() == games["list_id"].tolist()
    assert forecasts["forecast"].to_numpy() == pytest.approx(games["forecast"].to_numpy(), abs=1e-12)
    assert forecasts["yardstick"].to_numpy() == pytest.approx(games["yardstick"].to_numpy(), abs=1e-12)
    assert forecasts["score"].tolist() == games["score"].tolist()
    # The calibration says which forecast it bins: the own's and the yardstick's.
    calibration = pd.read_csv(glicko / "scores" / "calibration.csv")
    assert set(calibration["forecast"]) == {"own", "yardstick"}
    assert calibration.query("forecast == 'own'")["games"].sum() == 6


def test_forecasts_file_is_the_same_bytes_on_a_rerun(glicko):
    ratings(glicko, "evaluate", "--system", "glicko2", "--warehouse", "w.duckdb", "--out", "one")
    ratings(glicko, "evaluate", "--system", "glicko2", "--warehouse", "w.duckdb", "--out", "two")
    for name in ("forecasts.parquet", "accuracy.parquet", "calibration.csv"):
        assert (glicko / "one" / name).read_bytes() == (glicko / "two" / name).read_bytes(), name


def test_until_scores_the_games_up_to_its_day(glicko):
    printed = ratings(glicko, "evaluate", "--system", "glicko2", "--until", "2027-02-28", "--warehouse", "w.duckdb")
    line = next(x.split() for x in printed.splitlines() if x.split()[:1] == ["glicko2"])
    games = independent_scores(glicko).query("date <= '2027-02-28'")
    assert line[1:3] == ["4", f"{log_loss(games['forecast'], games['score']):.4f}"]


DAY = {"day": np.array(["2027-03-01", "2027-03-01"], dtype="datetime64[D]")}


def test_the_performance_elo_forecasts_by_its_table_read_the_other_way():
    performance = rule_set("performance", {})
    # D = +100 lies between the table's D(0.63) = 95 and D(0.64) = 102 (R5's interpolation):
    # P = 0.63 + 0.01 × (100 − 95) / (102 − 95) = 0.637143. D = −470: D(0.05), P = 0.05.
    white, black = {"rating": np.array([1700.0, 1500.0])}, {"rating": np.array([1600.0, 1970.0])}
    assert performance.win_probability(white, black, DAY) == pytest.approx([0.637143, 0.05], abs=1e-6)
    # Beyond the table's last row (D(0.99) = 677) it says no more than 0.99.
    assert performance.win_probability({"rating": np.array([2500.0])}, {"rating": np.array([1500.0])},
                                       {"day": DAY["day"][:1]}) == pytest.approx([0.99])


def test_fide_forecasts_by_table_8_1_2_and_the_400_rule():
    fide = rule_set("fide", {})
    # Table 8.1.2: D = 100 is in the row 99-106: 0.64 for the higher rated. D = -600 counts
    # as -400 (ruling X4, a player under 2650): the row 392-411, 0.08 for the lower rated.
    white, black = {"rating": np.array([1700.0, 1500.0])}, {"rating": np.array([1600.0, 2100.0])}
    assert fide.win_probability(white, black, DAY).tolist() == [0.64, 0.08]
    # A player of 2650 or more uses the real difference in an event from 1 October 2025 (X4):
    # 2700 - 2100 = 600, the row 560-619, 0.98; before that day it counts as 400: 0.92.
    days = {"day": np.array(["2025-09-30", "2025-10-01"], dtype="datetime64[D]")}
    got = fide.win_probability({"rating": np.array([2700.0, 2700.0])}, {"rating": np.array([2100.0, 2100.0])}, days)
    assert got.tolist() == [0.92, 0.98]


def test_the_belgian_go_forecast_is_whites_expectation_in_its_own_rate_event():
    """The forecast the rule set declares is checked against the expectation its own rating
    computes for White (`evaluate` on Go games: tests/test_evaluate_go.py)."""
    go = rule_set("go-belgium", {})
    # Four games of one event: Black, White, Black's result, handicap (Black takes the stones).
    black, white = np.array([0, 1, 2, 3]), np.array([1, 2, 3, 0])
    black_result, handicap = np.array([1.0, 0.0, 0.5, 1.0]), np.array([0.0, 2.0, 5.0, 1.0])
    points = np.array([-350.0, 120.0, 640.0, -1500.0])
    r = rate_event(black, white, black_result, handicap, np.ones(4), points, np.full(4, np.nan), go.parameters)
    whites_side = r.terms["expected"][4:]  # the sides: the four Blacks, then the four Whites
    forecast = go.win_probability({"rating": points[white]}, {"rating": points[black]}, {"handicap": handicap})
    assert forecast == pytest.approx(whites_side, abs=1e-15)
    # By hand, the first game: White 120 against Black -350, even: d = +470; A at 120 from
    # table I, between 50 (A 100) and 150 (A 95): 100 - 5 × 70 / 100 = 96.5; White is the
    # stronger: 0.986 - 1 / (e^(470 / 96.5) + 1) = 0.986 - 1 / 131.3725 = 0.978388.
    assert forecast[0] == pytest.approx(0.978388, abs=1e-6)


def test_the_french_1984_go_rules_declare_no_forecast():
    # Points by case, no expectation (seed 004): scored by the yardstick alone, and said so.
    assert rule_set("go-ffg1984", {}).forecast_columns is None


def test_a_forecast_that_is_not_a_probability_names_the_rule_set(glicko, monkeypatch, tmp_path):
    """A rule set's win_probability outside 0..1 (a defect of its code, an outside rule set's
    most likely) is one message naming it, never a score of nonsense."""
    monkeypatch.setattr(Glicko2, "win_probability", lambda self, white, black, game: white["rating"] / 1000)
    refused = cli_runner()("evaluate", "--system", "glicko2", "--warehouse", glicko / "w.duckdb", ok=False)
    assert refused.exit_code == 1
    assert ("the glicko2 rules' win_probability gave a value outside 0..1 for glicko2's games: a defect of the "
            "rule set's code") in refused.output
