"""`ratings explain` and `ratings whatif`, on the worked example of the rules."""
from __future__ import annotations

import pytest

from tests.as_user import ratings
from tests.conftest import write_rows


@pytest.fixture
def worked_example(cli, tmp_path):
    """The rules' worked example (a senior rated 1650, seven games), plus newcomer 10
    whose estimate swings for all 25 rounds (tests/test_performance_rules.py)."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"], [
        [1, "Senior Example", 1980], [2, "Opp 1500", 1980], [3, "Opp 1720", 1980], [4, "Opp 1600", 1980],
        [5, "Opp 1250", 1980], [6, "Opp 1690", 1980], [7, "Opp 1800", 1980], [8, "Opp 2100", 1980],
        [9, "Opp 1000", 1980], [11, "Opp 1830", 1980], [12, "Opp 1700", 1980], [10, "New Swinger", 1990]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [
        [1, 1650], [2, 1500], [3, 1720], [4, 1600], [5, 1250], [6, 1690], [7, 1800], [8, 2100],
        [9, 1000], [11, 1830], [12, 1700]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-09-05", 1, 2, "1-0"], ["2026-09-12", 3, 1, "0-1"], ["2026-09-19", 1, 4, "1-0"],
        ["2026-09-26", 1, 5, "1-0"], ["2026-10-03", 6, 1, "1/2-1/2"], ["2026-10-10", 1, 7, "0-1"],
        ["2026-10-17", 8, 1, "1-0"],
        ["2026-11-07", 10, 9, "1-0"], ["2026-11-14", 11, 10, "1-0"], ["2026-11-21", 10, 12, "0-1"]])
    w = tmp_path / "w.duckdb"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w,
        "--out", tmp_path / "out")
    return w


def test_explain_writes_out_the_worked_example(cli, worked_example):
    card = cli("explain", 1, "--list", "2027-01", "--warehouse", worked_example).output
    assert "Before: rated 1650" in card and "Junior this season (R2): no" in card
    assert "no: win, 1650 − 1250 = 400 ≥ 350" in card  # the win 400 below does not count
    assert "no: loss, 2100 − 1650 = 450 ≥ 350" in card  # the loss 450 above does not count
    assert "yes: loss, 1800 − 1650 = 150 < 350" in card
    assert "yes: draws always count" in card
    assert "Nj = 5 compatible games, Sc = 3.5, Ea = 1662.000, P = Sc / Nj = 0.7000" in card
    assert "D(0.70) = +149 (table)" in card
    assert "Pj = Ea + D(P) = 1811.000" in card
    assert "Rule: barycentre" in card
    assert "Ej = (1811.000 × 5 + (16 − 5) × 1650) / 16 = 1700.312" in card
    assert "Published (R3: nearest ten, 5 up): 1700.312 → 1700" in card


def test_explain_shows_the_estimate_of_each_round(cli, worked_example):
    card = cli("explain", 10, "--list", "2027-01", "--warehouse", worked_example).output
    rounds = card.split("Estimate per round")[1].splitlines()[0]
    # The heading's colon, the first pass and 25 rounds with the range (R9); the values of
    # tests/test_performance_rules.py: 1387.667 first, then 1308.8, 1389.4, ... ending at 1310.
    assert rounds.count(":") == 27
    assert "first pass: 1387.7, 1: 1308.8, 2: 1389.4" in rounds and rounds.endswith("25: 1310.0")
    assert "Rule: archived" in card


def test_whatif_gives_the_three_outcomes(cli, worked_example):
    # After 2027-01, player 1 is 1700. One game against 1650 in the next list (2027-05):
    # win: Pj = 1650 + 470 = 2120, 1 game: barycentre (2120 + 15·1700)/16 = 1726.25 → 1730;
    # draw: Pj = 1650 < 1700, brake (16·1700 + 1650)/17 = 1697.06 → 1700;
    # loss: Pj = 1180, brake (16·1700 + 1180)/17 = 1669.41 → 1670.
    out = cli("whatif", 1, "--opponent", 1650, "--warehouse", worked_example).output
    assert "list 2027-05" in out
    assert "win: 1700 → 1730 (+30)" in out and "unrounded 1726.250" in out
    assert "draw: 1700 → 1700 (+0)" in out
    assert "loss: 1700 → 1670 (-30)" in out


def test_explain_unknown_player_or_list(cli, worked_example):
    assert "no list '2030-01'" in cli("explain", 1, "--list", "2030-01", "--warehouse", worked_example,
                                      ok=False).output
    assert "player 99 is not in the registry" in cli("explain", 99, "--list", "2027-01", "--warehouse",
                                                     worked_example, ok=False).output


def test_an_opponent_without_an_estimate_has_no_rating_used(small_federation, tmp_path):
    # Issue 50: the card printed `rating used nan`. Gus (7) and Hana (8), unrated school
    # players, play only each other: a group with no rated player, so neither has an
    # estimate (R11) and the rating used against Hana is none, shown as FIDE's card shows it.
    ratings(tmp_path, "run", "--players", "players.csv", "--ratings", "ratings.csv", "--games", "games.csv",
            "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    card = ratings(tmp_path, "explain", 7, "--list", "2027-01", "--warehouse", "w.duckdb")
    game = next(line for line in card.splitlines() if "Hana School" in line)
    assert game.split() == ["8", "Hana", "School", "-", "win", "no:", "the", "opponent", "has", "no", "estimate",
                            "(R11)", "2026-09-26", "School", "day"]
