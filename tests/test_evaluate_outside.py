"""`ratings evaluate` takes outside sources as they come (issue 53, item 2): a file of
ratings dated by day or by its window, on any scale (WHR's own output, tests/fixtures/whr/),
a file of forecasts scored as it is; a list dated by its month alone that would score games
of its own month is refused. Each run as a user runs it, in the warehouse of
tests/test_evaluate_forecasts.py (four players under Glicko-2, January to March 2027)."""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.as_user import completed, ratings
from tests.conftest import write_rows
from tests.test_evaluate_forecasts import brier, glicko, independent_scores, log_loss  # noqa: F401 (the fixture)

WHR = Path(__file__).parent / "fixtures" / "whr" / "whr.csv"
RATINGS = ["player_id", "list_id", "rating"]


def line_of(printed: str, source: str) -> list[str]:
    return next(x.split() for x in printed.splitlines() if x.split()[:1] == [source])


def whr_scores(scale_factor: float = 1.0) -> tuple[pd.DataFrame, float, float]:
    """WHR's file scored by hand: February's games by its list 2027-02 (window to 31 January,
    in force from 1 February), March's by 2027-03; January's by none (no list in force):
    E = 1 / (1 + 10^(-D × scale_factor / 400)), the offset cancelling in D."""
    whr = pd.read_csv(WHR).set_index(["list_id", "player_id"])["rating"]
    games = independent_scores_of_whr()
    d = np.array([whr[(l, w)] - whr[(l, b)] for l, w, b in zip(games["list_id"], games["white_id"], games["black_id"])])
    e = 1 / (1 + 10 ** (-d * scale_factor / 400))
    return games, log_loss(e, games["score"]), brier(e, games["score"])


def independent_scores_of_whr() -> pd.DataFrame:
    rows = [("F1", "2027-02", 1, 3, 0.0), ("F2", "2027-02", 2, 4, 1.0), ("M1", "2027-03", 4, 1, 0.5),
            ("M2", "2027-03", 2, 3, 1.0)]
    return pd.DataFrame(rows, columns=["game_id", "list_id", "white_id", "black_id", "score"])


def test_whr_as_the_package_writes_it(glicko):
    shutil.copy(WHR, glicko / "whr.csv")
    printed = ratings(glicko, "evaluate", "--system", "glicko2", "--ratings", "whr.csv", "--offset", "1500",
                      "--warehouse", "w.duckdb", "--out", "whr-scores")
    _, own_loss, own_brier = whr_scores()
    whr = line_of(printed, "whr")
    # Four games, both rate: a file of ratings has no forecast of its own, and says so.
    assert whr[1:6] == ["4", f"{own_loss:.4f}", f"{own_brier:.4f}", f"{own_loss:.4f}", f"{own_brier:.4f}"]
    assert "the yardstick (no forecast of its own)" in printed
    assert line_of(printed, "glicko2")[1] == "4"  # the common games shrink to WHR's
    forecasts = pd.read_parquet(glicko / "whr-scores" / "forecasts.parquet").query("source == 'whr'")
    assert forecasts["list_id"].tolist() == ["2027-02", "2027-02", "2027-03", "2027-03"]


def test_whr_in_natural_units_and_on_a_fitted_scale(glicko):
    # The same ratings in natural units (r × ln 10 / 400), read back with --scale ln 10.
    natural = pd.read_csv(WHR).assign(rating=lambda t: t["rating"] * math.log(10) / 400)
    natural.to_csv(glicko / "natural.csv", index=False)
    printed = ratings(glicko, "evaluate", "--ratings", "natural.csv:scale=2.302585093,offset=1500",
                      "--warehouse", "w.duckdb")
    _, own_loss, _ = whr_scores()
    assert line_of(printed, "natural")[2] == f"{own_loss:.4f}"
    # On these four games WHR's lists predict every decisive result the wrong way round (fitted
    # on one or two games each): no positive scale fits them, and fitting says so.
    shutil.copy(WHR, glicko / "whr.csv")  # this test's own copy: under xdist it may run first
    refused = completed(glicko, "evaluate", "--ratings", "whr.csv", "--scale", "fit", "--offset", "1500",
                        "--warehouse", "w.duckdb", code=1)
    assert "whr.csv: no scale fits its ratings to the 4 games scored" in refused.stderr


def test_a_scale_fitted_on_the_games_scored(glicko):
    # One list in natural units, in force from 1 January: J1 d = 0.3 won, J2 0.9 drawn, F1 -0.4
    # lost, F2 0.2 won, M1 -0.5 drawn, M2 -0.7 won (the one surprise).
    natural = {1: 0.5, 2: 0.2, 3: 0.9, 4: 0.0}
    write_rows(glicko / "nat.csv", [*RATINGS, "window_end"], [[p, "2027-01", r, "2026-12-31"] for p, r in natural.items()])
    d = np.array([0.3, 0.9, -0.4, 0.2, -0.5, -0.7])
    s = np.array([1.0, 0.5, 0.0, 1.0, 0.5, 1.0])
    # S maximising the likelihood of 1 / (1 + 10^(-d/S)): found here by bisection on the
    # derivative of the log-likelihood in b = ln 10 / S, sum (s - E) d = 0 (decreasing in b).
    low, high = 1e-9, 100.0
    for _ in range(200):
        b = (low + high) / 2
        low, high = (b, high) if np.sum((s - 1 / (1 + np.exp(-b * d))) * d) > 0 else (low, b)
    scale = math.log(10) / b
    printed = ratings(glicko, "evaluate", "--ratings", "nat.csv", "--scale", "fit", "--offset", "1500",
                      "--warehouse", "w.duckdb")
    assert f"nat: scale fitted by maximum likelihood on its 6 games: {scale:.6g}" in printed
    e = 1 / (1 + np.exp(-b * d))
    assert line_of(printed, "nat")[1:4] == ["6", f"{log_loss(e, s):.4f}", f"{brier(e, s):.4f}"]
    # A fixed scale scores worse than the fitted one: it maximises the likelihood.
    fixed = line_of(ratings(glicko, "evaluate", "--ratings", "nat.csv", "--scale", "2.302585", "--offset", "1500",
                            "--warehouse", "w.duckdb"), "nat")
    assert float(fixed[2]) > log_loss(e, s)


def test_a_file_outside_the_plausible_ratings_until_its_scale_is_given(glicko):
    shutil.copy(WHR, glicko / "whr.csv")
    refused = completed(glicko, "evaluate", "--ratings", "whr.csv", "--warehouse", "w.duckdb", code=1)
    assert "whr.csv, row 2: rating -91.731491 is not a plausible chess rating" in refused.stderr
    assert "give --scale and --offset" in refused.stderr


def test_a_file_of_forecasts_scored_as_it_is(glicko):
    write_rows(glicko / "peer.csv", ["game_id", "probability"], [["F1", 0.3], ["F2", 0.8], ["M1", 0.5], ["M2", 0.6]])
    printed = ratings(glicko, "evaluate", "--system", "glicko2", "--forecasts", "peer.csv", "--warehouse",
                      "w.duckdb", "--out", "peer-scores")
    s = np.array([0.0, 1.0, 0.5, 1.0])
    p = np.array([0.3, 0.8, 0.5, 0.6])
    # -(ln 0.7 + ln 0.8 + ln 0.5 + ln 0.6) / 4 = (0.356675 + 0.223144 + 0.693147 + 0.510826) / 4 = 0.445948;
    # Brier (0.09 + 0.04 + 0 + 0.16) / 4 = 0.0725
    assert log_loss(p, s) == pytest.approx(0.445948, abs=1e-6) and brier(p, s) == pytest.approx(0.0725)
    peer = line_of(printed, "peer")
    assert peer[1:6] == ["4", "0.4459", "0.0725", "0.4459", "0.0725"] and "a file of forecasts" in printed
    # Glicko-2 on the same four games (the file covers no January game): the games shrink.
    games = independent_scores(glicko).query("date >= '2027-02'")
    assert line_of(printed, "glicko2")[1:3] == ["4", f"{log_loss(games['forecast'], games['score']):.4f}"]
    forecasts = pd.read_parquet(glicko / "peer-scores" / "forecasts.parquet").query("source == 'peer'")
    assert forecasts["forecast"].tolist() == forecasts["yardstick"].tolist() == p.tolist()


def test_evaluate_reads_its_own_forecasts_back(glicko):
    """What --out writes (game_id, ..., forecast) is a file of forecasts: a peer's, in the format."""
    ratings(glicko, "evaluate", "--system", "glicko2", "--warehouse", "w.duckdb", "--out", "back")
    mine = pd.read_parquet(glicko / "back" / "forecasts.parquet")
    mine.rename(columns={"forecast": "probability"})[["game_id", "probability"]].to_parquet(glicko / "mine.parquet")
    printed = ratings(glicko, "evaluate", "--system", "glicko2", "--forecasts", "mine.parquet", "--warehouse",
                      "w.duckdb")
    assert line_of(printed, "mine")[1:4] == line_of(printed, "glicko2")[1:4]


@pytest.mark.parametrize("rows, said", [
    ([["F1", 0.3], ["F1", 0.4]], "peer.csv, rows 1, 2: game F1 is forecast twice: one forecast a game"),
    ([["F1", 0.3], ["X9", 0.4]], "peer.csv, row 2: game X9 is not a game of the warehouse"),
    ([["F1", 1.2]], "peer.csv, row 1: probability '1.2' is not a probability"),
    ([["F1", "high"]], "peer.csv, row 1: probability 'high' is not a probability"),
    ([["F1", "nan"]], "peer.csv, row 1: probability 'nan' is not a probability"),
])
def test_a_bad_file_of_forecasts_names_the_file_and_the_row(glicko, rows, said):
    write_rows(glicko / "peer.csv", ["game_id", "probability"], rows)
    refused = completed(glicko, "evaluate", "--forecasts", "peer.csv", "--warehouse", "w.duckdb", code=1)
    assert said in refused.stderr


def test_a_list_dated_by_its_month_that_would_score_its_own_months_games_is_refused(glicko):
    # List 2027-01 in force from 1 January would score J1 and J2, played in January (2027-02 F1
    # and F2 in February): games a list published in that month may have been computed from.
    month = [[p, "2027-01", 1500 + 100 * p] for p in range(1, 5)] + [[p, "2027-02", 1500 + 90 * p] for p in range(1, 5)]
    write_rows(glicko / "fed.csv", RATINGS, month)
    refused = completed(glicko, "evaluate", "--ratings", "fed.csv", "--warehouse", "w.duckdb", code=1)
    assert ("fed.csv: list 2027-01 is dated by its month alone, in force from 2027-01-01, and would score 2 games "
            "played in 2027-01 (and 1 more of its lists so)") in refused.stderr
    assert "window_end column" in refused.stderr and "a day in list_id (YYYY-MM-DD)" in refused.stderr
    # compare sets the lists side by side as dated: the window rule is evaluate's.
    ratings(glicko, "compare", "glicko2", "fed.csv", "--warehouse", "w.duckdb", "--out", "cmp")
    # The same lists saying their window: in force from the day after it.
    windows = [[*r, "2026-12-31" if r[1] == "2027-01" else "2027-01-31"] for r in month]
    write_rows(glicko / "fed.csv", [*RATINGS, "window_end"], windows)
    printed = ratings(glicko, "evaluate", "--ratings", "fed.csv", "--warehouse", "w.duckdb")
    assert line_of(printed, "fed")[1] == "6"
    # Or a day in list_id (the day the list came into force), or a date column under another name.
    write_rows(glicko / "fed.csv", RATINGS, [[p, "2027-01-01" if l == "2027-01" else "2027-02-10", r]
                                             for p, l, r in month])
    printed = ratings(glicko, "evaluate", "--ratings", "fed.csv", "--warehouse", "w.duckdb", "--out", "days")
    # 2027-02-10 comes into force after F1 and F2 (6 February): they are 2027-01-01's, March's its.
    assert line_of(printed, "fed")[1] == "6"
    assert pd.read_parquet(glicko / "days" / "forecasts.parquet")["list_id"].tolist() == \
        ["2027-01-01"] * 4 + ["2027-02-10"] * 2
    write_rows(glicko / "fed.csv", [*RATINGS, "published"], [[*r, "2027-02-10" if r[1] == "2027-02" else "2027-01-01"]
                                                             for r in month])
    printed = ratings(glicko, "evaluate", "--ratings", "fed.csv", "--columns", "date=published",
                      "--warehouse", "w.duckdb")
    assert line_of(printed, "fed")[1] == "6"


@pytest.mark.parametrize("header, rows, said", [
    ([*RATINGS, "date"], [[1, "2027-01", 1600, "2027-01-01"], [2, "2027-01", 1600, "2027-01-02"]],
     "fed.csv, rows 1, 2: list 2027-01 is dated 2027-01-01 and 2027-01-02: one list, one date"),
    ([*RATINGS, "window_end"], [[1, "2027-01", 1600, "31/12/2026"]],
     "fed.csv, row 1: window_end '31/12/2026' is not a day (YYYY-MM-DD)"),
    ([*RATINGS, "window_end"], [[1, "2027-01", 1600, "2026-12-31"], [2, "2027-02", 1600, ""]],
     "fed.csv, row 2: no window_end: every list of the file is dated by its window_end"),
    ([*RATINGS, "date", "window_end"], [[1, "2027-01", 1600, "2027-01-01", "2026-12-31"]],
     "fed.csv: the file has both a date column (date: the first day a list is in force) and a window_end column"),
    (RATINGS, [[1, "2027-01-32", 1600]], "fed.csv, row 1: {'player_id': '1', 'list_id': '2027-01-32'"),
    # Two lists in force from one day (the second's window_end the day before the first's
    # date): which one scores 2027-01-01's games would be the order of a sort, not the file.
    ([*RATINGS, "window_end"], [[1, "2027-01", 1600, "2026-12-31"], [1, "2027-02", 1650, "2026-12-31"]],
     "fed.csv, rows 1, 2: lists 2027-01 and 2027-02 are both in force from 2027-01-01: give each list a day of its own"),
])
def test_a_badly_dated_file_of_ratings_names_the_file_and_the_rows(glicko, header, rows, said):
    write_rows(glicko / "fed.csv", header, rows)
    refused = completed(glicko, "evaluate", "--ratings", "fed.csv", "--warehouse", "w.duckdb", code=1)
    assert said in refused.stderr


@pytest.mark.parametrize("args, said", [
    (["--scale", "0"], "scale '0': give a number more than 0"),
    (["--scale", "wide"], "scale 'wide': give a number more than 0"),
    (["--system", "glicko2", "--offset", "1500"], "--scale and --offset read the files of ratings"),
    (["--ratings", "whr.csv:scale=big"], "'scale=big' after the file's name: scale 'big'"),
    (["--ratings", "whr.csv:size=2"], "give scale=S (a number or fit) and offset=O"),
    (["--forecasts", "peer.csv", "--forecasts", "sub/peer.csv"], "two sources are named 'peer'"),
])
def test_a_scale_or_a_name_that_does_not_read_is_one_message(glicko, args, said):
    shutil.copy(WHR, glicko / "whr.csv")
    (glicko / "sub").mkdir(exist_ok=True)
    for folder in (glicko, glicko / "sub"):
        write_rows(folder / "peer.csv", ["game_id", "probability"], [["F1", 0.3]])
    refused = completed(glicko, "evaluate", *args, "--warehouse", "w.duckdb", code=None)
    assert refused.returncode in (1, 2) and said in refused.stderr


def test_compare_reads_a_file_on_its_scale_as_evaluate_does(glicko):
    """`compare` takes evaluate's --scale and --offset (one definition of both): the same
    figures as the file's own scale after its name, and refused with no file to read."""
    shutil.copy(WHR, glicko / "whr.csv")
    ratings(glicko, "compare", "glicko2", "whr.csv", "--offset", "1500", "--warehouse", "w.duckdb",
            "--out", "by-option")
    ratings(glicko, "compare", "glicko2", "whr.csv:offset=1500", "--warehouse", "w.duckdb", "--out", "by-name")
    for name in ("lists.csv", "accuracy.csv", "drift.csv"):
        assert (glicko / "by-option" / name).read_bytes() == (glicko / "by-name" / name).read_bytes(), name
    # WHR's four games by hand (whr_scores): read at offset 1500, its lists beside Glicko-2's.
    accuracy = pd.read_csv(glicko / "by-option" / "accuracy.csv").query("list_id != list_id").set_index("source")
    assert accuracy.loc["whr", "log_loss"] == pytest.approx(whr_scores()[1], abs=1e-9)
    drift = pd.read_csv(glicko / "by-option" / "drift.csv").query("source == 'whr'")
    assert drift["mean"].min() > 1000  # the ratings around 0 read around 1500
    refused = completed(glicko, "compare", "glicko2", "glicko2", "--scale", "fit", "--warehouse", "w.duckdb", code=2)
    assert "--scale and --offset read the files of ratings, and no file of ratings is given" in refused.stderr
