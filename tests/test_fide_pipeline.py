"""`ratings run --system fide`: the same command and files as the performance Elo,
with monthly lists, the K rules from the initial ratings' columns, pooled first
ratings over 26 months, and the FIDE card. Every number is computed by hand."""
from __future__ import annotations

import pandas as pd
import pytest

from tests.conftest import cli_runner, copy_built, write_rows


@pytest.fixture(scope="module")
def fide_once(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("fide")
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"], [
        [1, "One", 1980], [2, "Two", 1980], [3, "Three", 1980], [4, "Four", 1980], [5, "Five Master", 1970],
        [6, "Six New", 1990], [7, "Seven Young Rated", 1990], [8, "Eight", 1980],
        [9, "Nine Returns", 1990], [10, "Ten Too Late", 1990]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_total", "peak_rating"], [
        [1, 2000, 100, 2000], [2, 2000, 100, ""], [3, 2100, "", ""], [4, 1900, 100, 1900],
        [5, 2390, 500, 2410],  # peaked at 2410: K 10
        [7, 1800, 10, 1800],  # 10 games: K 40
        [8, 1600, "", ""]])  # no columns: established (30 games), peak = rating
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event"], [
        ["2026-01-10", 1, 2, "1-0", "Club"],
        ["2026-01-10", 5, 4, "1/2-1/2", "Club"],
        ["2026-01-11", 7, 8, "1-0", "Club"],
        ["2026-01-17", 6, 1, "1-0", "Jan open"], ["2026-01-18", 2, 6, "1/2-1/2", "Jan open"],
        ["2026-01-19", 6, 3, "0-1", "Jan open"],
        ["2026-01-17", 9, 1, "0-1", "Jan open"], ["2026-01-18", 2, 9, "1/2-1/2", "Jan open"],
        ["2026-01-19", 9, 3, "0-1", "Jan open"],
        ["2026-01-17", 10, 1, "0-1", "Jan open"], ["2026-01-18", 2, 10, "1/2-1/2", "Jan open"],
        ["2026-01-19", 10, 3, "0-1", "Jan open"],
        ["2026-03-07", 6, 4, "1-0", "Mar open"], ["2026-03-08", 8, 6, "0-1", "Mar open"],
        ["2028-02-05", 9, 7, "1-0", "Feb 28"], ["2028-02-06", 8, 9, "0-1", "Feb 28"],
        ["2028-03-05", 10, 7, "1-0", "Mar 28"], ["2028-03-06", 8, 10, "0-1", "Mar 28"]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    run = cli_runner()("run", "--system", "fide", "--players", players, "--ratings", ratings, "--games", games,
                       "--warehouse", w, "--out", out, "--no-reports")
    return tmp_path, run


@pytest.fixture
def fide(fide_once, tmp_path):
    """(warehouse, out, the run's result): a copy for this test of the run the module made once."""
    built, run = fide_once
    return (*copy_built(built, tmp_path), run)


def _list(out, list_id):
    return pd.read_csv(out / "lists" / f"{list_id}.csv").set_index("player_id")["rating"]


def test_monthly_lists_named_for_the_month_of_publication(fide):
    _, out, _ = fide
    files = sorted(p.stem for p in (out / "lists").glob("????-??.csv"))  # the latest revisions
    # January 2026 … March 2028 windows: lists 2026-02 … 2028-04, one a month, empty months included.
    assert files[0] == "2026-02" and files[-1] == "2028-04" and len(files) == 27


def test_the_first_period(fide):
    _, out, _ = fide
    lst = _list(out, "2026-02")
    # 1 beats 2, both 2000, K 20: E 0.50 → +10 / −10.
    assert (lst[1], lst[2]) == (2010, 1990)
    # 5 (2390, peak 2410 → K 10) draws 4 (1900): D = 490 → 400, E = 0.92: 10 × −0.42 = −4.2 → −4: 2386.
    # 4: D = −400, E = 0.08, 20 × +0.42 = +8.4 → +8: 1908.
    assert (lst[5], lst[4]) == (2386, 1908)
    # 7 (10 games → K 40) beats 8: D = 200, E = 0.76: 40 × 0.24 = 9.6 → +10: 1810;
    # 8 (no columns: established, K 20): 20 × −0.24 = −4.8 → −5: 1595.
    assert (lst[7], lst[8]) == (1810, 1595)
    # 3 only met unrated players: unchanged; 6, 9, 10 have 3 pooled games: not on the list.
    assert lst[3] == 2100 and not {6, 9, 10} & set(lst.index)


def test_a_first_rating_from_games_pooled_over_two_months(fide):
    w, out, _ = fide
    assert 6 not in _list(out, "2026-03").index  # February: no game, 3 pooled
    # March: 6 beats 4 (1908) and 8 (1595); the pool: 2000 + 2000 + 2100 + 1908 + 1595 = 9603, score 3.5.
    #   Ra = (9603 + 3600) / 7 = 1886.143; p = 4.5 / 7 = 0.643 → 0.64 → +102; Ru = 1988.143 → 1988.
    assert _list(out, "2026-04")[6] == 1988
    # Games against an unrated player change nothing for the rated one.
    assert (_list(out, "2026-04")[4], _list(out, "2026-04")[8]) == (1908, 1595)
    state = pd.read_parquet(out / "state" / "2026-04.parquet").set_index("player_id")
    assert list(state.columns) == ["rating", "games_total", "peak_rating", "k", "inactive"]
    # K for the events that start from this list (X5): 6 has 5 rated games (< 30): 40; 5 peaked at 2410: 10;
    # 1 has 101 games, born 1980, never 2400: 20. Everyone rated played within 12 months: active.
    assert (state.loc[6, "k"], state.loc[5, "k"], state.loc[1, "k"]) == (40, 10, 20)
    assert not state["inactive"].any()
    assert (state.loc[6, "games_total"], state.loc[6, "peak_rating"]) == (5, 1988)
    assert (state.loc[1, "games_total"], state.loc[7, "games_total"], state.loc[8, "games_total"]) == (101, 11, 31)


def test_pooled_games_older_than_26_months_drop_out(fide):
    _, out, _ = fide
    # 9's window is February 2028 (list 2028-03): the 26 months from December 2025 keep January 2026.
    #   Pool: 2000 + 2000 + 2100 + 1810 + 1595 = 9505, score 0.5 + 2 = 2.5.
    #   Ra = (9505 + 3600) / 7 = 1872.143; p = 3.5 / 7 = 0.50 → 0; Ru = 1872.
    assert _list(out, "2028-03")[9] == 1872
    # 10's window is March 2028 (list 2028-04): January 2026 is 27 months back, dropped: 2 games pooled.
    assert 10 not in _list(out, "2028-04").index


def test_explain_and_whatif_under_fide(cli, fide):
    w, _, _ = fide
    card = cli("explain", 5, "--list", "2026-02", "--warehouse", w).output
    assert "K = 10: published rating has reached 2400 (highest published rating 2410 ≥ 2400)" in card
    assert "D = +490 → +400 (400-point rule), E = 0.92, S − E = -0.42" in card
    assert "Change = K × Σ(S − E) = 10 × -0.42 = -4.20 → -4" in card
    assert "New rating = 2390 -4 = 2386" in card
    new = cli("explain", 6, "--list", "2026-04", "--warehouse", w).output
    assert "Ra = (9603 + 2 × 1800) / (5 + 2) = 1886.143" in new
    assert "p = (3.5 + 2 × 0.5) / (5 + 2) = 0.6429 → 0.64, dp = +102" in new
    assert "Ru = Ra + dp = 1988.143 → 1988" in new
    # Linear performance of 6 in March: two wins against 1908 and 1595: 1751.5 + 400 = 2151.5, 100 %.
    assert "1751.5 + 400 × (2 − 0) / 2 = 2151.5" in new and "Warning: at 100 % or 0 %" in new
    # 1 after the last list is 2010 (no later games); the next list is 2028-05, K 20:
    # win against 2010: E 0.49 → 20 × 0.51 = 10.2 → +10; draw: −0.2 → 0; loss: −9.8 → −10.
    out = cli("whatif", 1, "--opponent", 2020, "--warehouse", w).output
    assert "list 2028-05" in out
    assert "win: 2010 → 2020 (+10)" in out and "draw: 2010 → 2010 (+0)" in out and "loss: 2010 → 2000 (-10)" in out


def test_a_second_rule_set_is_rated_beside_the_first(cli, fide):
    w, _, _ = fide
    beside = cli("rate", "--system", "performance", "--warehouse", w).output  # on the same games
    assert "Rate performance" in beside and "every list is up to date" in beside  # FIDE's own are current
    assert "every list is up to date" in cli("rate", "--warehouse", w).output
    assert "ok     ratings_are_rounded" in cli("audit", "--warehouse", w).output  # whole numbers, and tens


@pytest.mark.parametrize("start", ["2026-03", "2026-04", "2028-03", "2028-04"])
def test_recomputing_from_a_later_list_rebuilds_the_pool_from_the_warehouse(cli, fide, start):
    # From 2026-03, 6's three January games come back from pooled_games; from 2028-03 and
    # 2028-04, 9's and 10's (26 months back or not): the same lists, so no new revision.
    w, out, _ = fide
    before = {p.name: p.read_bytes() for p in (out / "lists").glob("*.csv")}
    rated = cli("rate", "--from", start, "--warehouse", w).output
    assert "unchanged" in rated and "  2\n" not in rated
    cli("publish", "--warehouse", w, "--out", out, "--no-reports")
    assert {p.name: p.read_bytes() for p in (out / "lists").glob("*.csv")} == before
