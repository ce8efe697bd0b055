"""The Go rulings G2, G4a and G5-G9, F2 and F3, each on the defect that asked for it,
with the numbers computed by hand (go-ratings.md; Table I of the Belgian seed:
Con 116 and A 200 at −1950, Con 10 and A 70 at 650 and above)."""
from __future__ import annotations

import math

import duckdb
import numpy as np
import pandas as pd
import pytest

from pipeline.systems.go_belgium import RULES, first_ratings, game_weight, sides_of
from tests.conftest import cli_runner, write_rows

NAN = np.nan


# ---------------------------------------------------------------------------
# G2: first ratings

@pytest.mark.parametrize("case, black, white, result, handicap, rating, expected", [
    # An NC player (0, Black) wins with 9 stones against a 5 dan (450): the opponent's adjusted
    # strength is 450 − (9 − 0.5) × 100 = −400, and all wins give it + 100: −300 (not 550, 6 dan).
    ("9-stone win against a 5 dan", [0], [1], [1.0], [9], [NAN, 450], -300),
    # The same game lost: the worst adjusted strength − 100 = −500.
    ("9-stone loss against a 5 dan", [0], [1], [0.0], [9], [NAN, 450], -500),
    # The NC player (1, White) gives 2 stones to a player at −1000 and wins: adjusted
    # strength −1000 + 150 = −850, + 100: −750.
    ("a win giving 2 stones", [0], [1], [0.0], [2], [-1000, NAN], -750),
    # All losses against −2400 (even): −2400 − 100 = −2500, floored at −2450 before the event counts from it.
    ("all losses near the floor", [0, 0], [1, 2], [0.0, 0.0], [0, 0], [NAN, -2400, -2400], -2450),
])
def test_g2_all_wins_and_losses_use_the_handicap_adjusted_strength(case, black, white, result, handicap,
                                                                   rating, expected):
    s = sides_of(np.array(black), np.array(white), np.array(result), np.array(handicap, dtype=float),
                 np.ones(len(black)))
    rating = np.array(rating, dtype=float)
    first = first_ratings(s, rating, np.isnan(rating))
    assert first[np.isnan(rating)][0] == pytest.approx(expected), case


def test_g2_the_bisection_runs_on_minus_2450_to_1000():
    # NC wins 2 of 3 even games against three players at 950: above 650, A = 70 (G5); the rating R
    # with 3 × E = 2 solves 0.986 − 1/(e^(d/70) + 1) = 2/3 for d = R − 950: e^(d/70) = 1/0.319333 − 1,
    # d = 70 × ln(2.13152) = 53.0: R = 1003.0, above the interval: the bisection stops at 1000.
    d = 70 * math.log(1 / (0.986 - 2 / 3) - 1)
    assert 950 + d == pytest.approx(1003.0, abs=0.1)
    s = sides_of(np.array([0, 0, 0]), np.array([1, 2, 3]), np.array([1.0, 1.0, 0.0]), np.zeros(3), np.ones(3))
    first = first_ratings(s, np.array([NAN, 950, 950, 950]), np.array([True, False, False, False]))
    assert first[0] == pytest.approx(1000, abs=1e-6)


def test_g7_a_game_of_weight_0_gives_no_first_rating():
    # Class D (weight 0) only: no first rating; with one class-C game as well, the rating comes from it alone
    # (a win: best + 100 = −200, whatever the class-D loss).
    s = sides_of(np.array([0]), np.array([1]), np.array([1.0]), np.zeros(1), np.array([0.0]))
    assert np.isnan(first_ratings(s, np.array([NAN, -300.0]), np.array([True, False]))[0])
    s = sides_of(np.array([0, 0]), np.array([1, 2]), np.array([1.0, 0.0]), np.zeros(2), np.array([0.8, 0.0]))
    assert first_ratings(s, np.array([NAN, -300.0, -900.0]), np.array([True, False, False]))[0] == -200


# ---------------------------------------------------------------------------
# Small boards weigh less only from 2021

@pytest.mark.parametrize("klass, board, date, weight", [
    ("C", 13, "2020-12-31", 0.8),  # before 2021: the class alone
    ("C", 13, "2021-01-01", 0.4),  # from 2021: 0.8 × 0.5
    ("B", 9, "2019-06-01", 1.0),
    ("B", 9, "2022-06-01", 0.3),
    ("A", 19, "2018-01-01", 1.2),
])
def test_small_board_weights_apply_from_2021(klass, board, date, weight):
    got = game_weight(np.array([klass]), np.array([board]), np.array([NAN]), np.array([date], dtype="datetime64[D]"),
                      RULES)
    assert got[0] == pytest.approx(weight)


# ---------------------------------------------------------------------------
# Through the CLI

def _belgian(cli, tmp_path, players, events, games, *more, system="go-belgium", **expect):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    result = cli("run", "--system", system,
                 "--players", write_rows(tmp_path / "players.csv", ["player_id", "name", "grade"], players),
                 "--events", write_rows(tmp_path / "events.csv",
                                        ["event_id", "name", "start_date", "end_date", "class"], events),
                 "--games", write_rows(tmp_path / "games.csv",
                                       ["event_id", "date", "black_id", "white_id", "winner", "handicap", "round"],
                                       games), "--warehouse", w, "--out", out, *more, **expect)
    return w, out, result


def _state(out, event_id):
    return pd.read_parquet(out / "state" / f"{event_id}.parquet").set_index("player_id")


def test_g6_grades_from_30_kyu_to_9_dan(cli, tmp_path):
    players = [[1, "Zero kyu", "0k"], [2, "Zero dan", "0d"], [3, "Ten dan", "10d"], [4, "Thirty-one", "31k"],
               [8, "Twelve dan", "12d"], [5, "Thirty kyu", "30k"], [6, "Twenty-five kyu", "25k"], [7, "Nine dan", "9d"]]
    w, out, result = _belgian(cli, tmp_path, players, [["e", "Club", "2026-01-10", "2026-01-10", "C"]],
                              [["e", "2026-01-10", 5, 6, "W", 0, 1]], rejected=True)
    text = result.output
    for grade in ("0k", "0d", "10d", "12d", "31k"):
        assert f"grade: not a Go grade (30k … 1k, 1d … 9d, or NC: ruling G6) (got '{grade}')" in text
    # 30k is weaker than 25k: it starts at the floor, −2450 (its middle would be −2950), like 25k (−2450).
    # An even club game between equals: E = 0.5, Con at −2450 = 116 + 5 × 6 = 146: ± 146 × 0.8 × 0.5 = 58.4.
    state = _state(out, "e")
    assert state.loc[6, "rating"] == pytest.approx(-2450 + 58.4)
    assert state.loc[5, "rating"] == -2450  # the loss is floored


def test_g7_a_class_d_game_counts_for_nobody(cli, tmp_path):
    players = [[1, "Anna", "10k"], [2, "Bram", "10k"]]
    events = [["friendly", "Friendly", "2026-01-10", "2026-01-10", "D"], ["club", "Club", "2026-01-17", "2026-01-17", "C"]]
    games = [["friendly", "2026-01-10", 1, 2, "B", 0, 1], ["club", "2026-01-17", 1, 2, "B", 0, 1]]
    w, out, _ = _belgian(cli, tmp_path, players, events, games)
    friendly = _state(out, "friendly")
    # Stored and shown, and nothing changes: the middle of 10 kyu, −950, no game, no event.
    assert (friendly.loc[1, "rating"], friendly.loc[1, "games"], friendly.loc[1, "events"]) == (-950, 0, 0)
    club = _state(out, "club")
    assert (club.loc[1, "games"], club.loc[1, "events"]) == (1, 1)
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select distinct rule from go_game_sides where list_id = 'friendly'").fetchall() == [
            ("not counted: weight 0 (G7)",)]


def test_g9_a_rematch_in_another_round_is_another_game(cli, tmp_path):
    players = [[1, "Anna", "10k"], [2, "Bram", "10k"]]
    games = [["open", "2026-01-10", 1, 2, "B", 0, 1], ["open", "2026-01-10", 1, 2, "B", 0, 2],
             ["open", "2026-01-10", 1, 2, "B", 0, 2]]  # the third repeats the second's round: a duplicate
    w, out, result = _belgian(cli, tmp_path, players, [["open", "Open", "2026-01-10", "2026-01-10", "B"]], games,
                              rejected=True)
    assert "read 3 = accepted 2 + rejected 1" in result.output
    assert _state(out, "open").loc[1, "games"] == 2


@pytest.mark.parametrize("system", ["go-belgium", "go-ffg1984"])
def test_a_game_won_by_default_is_stored_counted_and_never_rated(cli, tmp_path, system):
    # Issue 50: a game won by default was an open reject no fix could take in. Written B+F or W+F
    # (SGF's notation; the tournament files' _BYDEF and `!` are read as such), it is stored and
    # counted as the list's forfeit, and rated by neither rule set: Anna, Bram and Cleo get what the
    # same event without it gives them.
    players = [[1, "Anna", "10k"], [2, "Bram", "10k"], [3, "Cleo", "12k"]]
    events = [["one", "One", "2026-01-10", "2026-01-10", "C"]]
    played = [["one", "2026-01-10", 1, 2, "B", 0, 1], ["one", "2026-01-10", 2, 3, "W", 0, 2]]
    ratings = {}
    for name, games in (("without", played), ("with", [*played, ["one", "2026-01-10", 3, 1, "W+F", 0, 2]])):
        folder = tmp_path / name
        folder.mkdir()
        w, out, result = _belgian(cli, folder, players, events, games, system=system)
        assert "rejected 0" in result.output
        ratings[name] = _state(out, "one")[["rating", "games"]]
    assert ratings["with"].equals(ratings["without"])
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select winner, black_result from go_games where black_id = 3").fetchall() == [("W+F", 0.0)]
        assert con.execute("select games_rated, forfeits from lists").fetchall() == [(2, 1)]


def test_a_correction_for_a_player_who_did_not_play_is_in_the_history_and_the_card(cli, tmp_path):
    players = [[1, "Anna", "10k"], [2, "Bram", "10k"], [3, "Cleo", "5k"]]
    events = [["one", "One", "2026-01-10", "2026-01-10", "C"], ["two", "Two", "2026-01-17", "2026-01-17", "C"]]
    games = [["one", "2026-01-10", 1, 2, "B", 0, 1], ["two", "2026-01-17", 1, 3, "W", 0, 1]]
    w, out, _ = _belgian(cli, tmp_path, players, events, games)
    cli("correct", 3, "--list", "one", "--rating", -300, "--reason", "moved up after a league", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out)
    with duckdb.connect(str(w), read_only=True) as con:
        row = con.execute("select rating_after, games, rule from go_history where event_id = 'one' and player_id = 3"
                          ).fetchall()
    assert row == [(-300.0, 0, "correction by the rating commission: moved up after a league")]
    card = cli("explain", 3, "--list", "one", "--warehouse", w).output
    assert "correction sets the points to -300.0 (moved up after a league)" in card
    assert "change over the event: +0.000" in card  # no game: the correction is not a game's change
    assert _state(out, "two").loc[3, "rating"] > -300  # event two counts from the correction, Cleo wins


@pytest.fixture(scope="module")
def g4a(tmp_path_factory):
    """Event "one": Fien (10k) beats Hans (5k); Gijs (10k) beats Fien. Then the commission
    corrects six players at "one" (five of whom did not play in it)."""
    folder = tmp_path_factory.mktemp("g4a")
    cli = cli_runner()
    players = [[1, "Anna", "5k"], [2, "Bram", "5k"], [3, "Cleo", "1d"], [4, "Dirk", "1d"], [5, "Eva", "NC"],
               [6, "Fien", "10k"], [7, "Gijs", "10k"], [8, "Hans", "5k"]]
    games = [["one", "2026-01-10", 8, 6, "W", 0, 1], ["one", "2026-01-10", 6, 7, "W", 0, 2]]
    w, out, _ = _belgian(cli, folder, players, [["one", "One", "2026-01-10", "2026-01-10", "C"]], games)
    for player, points in G4A_CORRECTIONS.items():
        cli("correct", player, "--list", "one", "--rating", points, "--reason", "commission", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out)
    return _state(out, "one")


G4A_CORRECTIONS = {1: -600, 2: -601, 3: 100, 4: 100.01, 5: -600, 8: -600}


@pytest.mark.parametrize("player, grade", [
    # 5 kyu (its lower bound −500) corrected to −600: demoted only strictly below −500 − 100: stays 5k.
    # (Read afresh from the points, −600 was ⌊600/100⌋ + 1 = 7 kyu.)
    (1, "5k"),
    # 5 kyu corrected to −601: below −600, demoted to the grade that keeps the 100-point margin,
    # the reading of −601 + 100 = −501: ⌊501/100⌋ + 1 = 6 kyu (read afresh: 7 kyu).
    (2, "6k"),
    # 1 dan (upper bound 100) corrected to 100: promoted only strictly above: stays 1d (read afresh: 2d).
    (3, "1d"),
    # 1 dan corrected to 100.01: above 100: ⌊100.01/100⌋ + 1 = 2 dan.
    (4, "2d"),
    # No grade (NC) corrected to −600: G4's first reading, ⌊600/100⌋ + 1 = 7 kyu.
    (5, "7k"),
    # Hans (5k, −450) played in "one" (a loss): the correction replaces what the event gave, and the
    # grade moves from the one he had before it: −600 stays 5 kyu.
    (8, "5k"),
])
def test_g4a_a_correction_keeps_the_grades_hysteresis(g4a, player, grade):
    assert g4a.loc[player, "rating"] == pytest.approx(G4A_CORRECTIONS[player])
    assert g4a.loc[player, "grade"] == grade


def test_g8_an_events_file_decides_the_class_of_a_tournament_file(cli, tmp_path):
    from tests.test_go_identity import EGD  # an EGD results file: "Club Night", 6 April 2024
    egd = tmp_path / "club-night.h9"
    egd.write_text("\n".join(["; CL[A]", *EGD]), encoding="utf-8")
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "grade"],
                         [[1, "Alpha Ann", "3d"], [2, "Bravo Bob", "2d"], [3, "Charlie Cy", "1k"]])
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class"],
                        [["Club_Night", "Club night, Utrecht", "2024-04-06", "2024-04-06", "C"]])
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "go-belgium", "--players", players, "--events", events, "--warehouse", w,
        "--out", tmp_path / "out")
    # The file's own class A would be a Belgian A (G8); the events file says C, and decides.
    result = cli("ingest", egd, "--warehouse", w)
    assert "is described by the events file events.csv: its class C and 19×19 board are used" in result.output
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select event_id, class from events").fetchall() == [("Club_Night", "C")]


# ---------------------------------------------------------------------------
# The 1984 rules: F2 and F3

def test_f2_games_in_date_order_across_overlapping_events(cli, tmp_path):
    # A league (5 and 20 January) and a one-day tournament (10 January) overlap. Points: 1 → 100,
    # 2 → 150, 3 → 200. In the order of the games (F2):
    #   5 Jan, league: 1 beats 2, case 1.2 (NC 100 ≤ NP 150): T = (50 + 10) / 3 = 20: 120; 2 loses 10: 140.
    #   10 Jan, tournament: 2 (140) beats 3 (200), 1.2: T = (60 + 10) / 3 = 23.333: 163.333; 3: 190.
    #   20 Jan, league: 3 (190) beats 1 (120), 2.2: gap 70, T = (110 − 70) / 10 = 4: 194; 1: 116.
    # By event end date (the tournament first, then the whole league) it would be 2: 170, 3: 190, then
    # 1 (100) beats 2 (170): T = 26.667 … : other numbers.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "One"], [2, "Two"], [3, "Three"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 100], [2, 150], [3, 200]])
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class"], [
        ["league", "League", "2026-01-05", "2026-01-20", "C"], ["cup", "Cup", "2026-01-10", "2026-01-10", "B"]])
    games = write_rows(tmp_path / "games.csv", ["event_id", "date", "black_id", "white_id", "winner"], [
        ["league", "2026-01-05", 1, 2, "B"], ["cup", "2026-01-10", 2, 3, "B"], ["league", "2026-01-20", 3, 1, "B"]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "go-ffg1984", "--players", players, "--ratings", ratings, "--events", events,
        "--games", games, "--warehouse", w, "--out", out)
    # The state after the cup (its last game, 10 January) and after the league (20 January).
    assert _state(out, "cup")["rating"].to_dict() == pytest.approx({1: 120, 2: 140 + 70 / 3, 3: 190})
    assert _state(out, "league")["rating"].to_dict() == pytest.approx({1: 116, 2: 140 + 70 / 3, 3: 194})
    with duckdb.connect(str(w), read_only=True) as con:
        league = con.execute("""select player_id, rating_before, rating_after, games, grade_before, grade_after
                                from go_history where event_id = 'league' order by player_id""").fetchall()
    # The league's own games: 1 from 100 (before their first league game) to 116 (after their last);
    # 2 from 150 to 140; 3 from 190 to 194. F3: grades read from the points (3: 200 was 3 dan; 190 is 2 dan).
    assert [r[:4] for r in league] == [(1, 100, 116, 2), (2, 150, 140, 1), (3, 190, 194, 1)]
    assert [r[4:] for r in league] == [("2d", "2d"), ("2d", "2d"), ("2d", "2d")]
    assert _state(out, "cup").loc[3, "grade"] == "2d"  # 190: 2 dan at once (F3), no hysteresis


def test_f2_ignored_games_count_for_nobody(cli, tmp_path):
    # 1 (500) beats 2 (100): NFC − NFP = 400 > 100, case 2.1, ignored; a jigo is ignored too:
    # stored and shown, counted in nobody's games.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "One"], [2, "Two"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 500], [2, 100]])
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class"], [
        ["e", "E", "2026-01-05", "2026-01-05", "B"]])
    games = write_rows(tmp_path / "games.csv", ["event_id", "date", "black_id", "white_id", "winner", "round"], [
        ["e", "2026-01-05", 1, 2, "B", 1], ["e", "2026-01-05", 2, 1, "jigo", 2]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "go-ffg1984", "--players", players, "--ratings", ratings, "--events", events,
        "--games", games, "--warehouse", w, "--out", out)
    state = _state(out, "e")
    assert (state.loc[1, "rating"], state.loc[1, "games"], state.loc[2, "games"]) == (500, 0, 0)


def test_the_seeds_simplifications_from_the_cli(cli, tmp_path):
    # The seed's second example with its two simplifications switched on (--rules): Bram (−1996.4, Black)
    # receives one stone from Anna (−1903.6) and loses: Anna gains 113.216 × 0.8 × 0.95 × 0.446083 = 38.383
    # (as written, 37.609: tests/test_go_rules.py).
    (tmp_path / "seed.toml").write_text("symmetric_expectation = true\ngiver_factor_squared = false\n")
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, -1903.6], [2, -1996.4]])
    w, out, _ = _belgian(cli, tmp_path, [[1, "Anna", "20k"], [2, "Bram", "20k"]],
                         [["club", "Club", "2026-01-11", "2026-01-11", "C"]], [["club", "2026-01-11", 2, 1, "W", 1, 1]],
                         "--ratings", ratings, "--rules", tmp_path / "seed.toml")
    assert _state(out, "club").loc[1, "rating"] == pytest.approx(-1903.6 + 38.383, abs=1e-3)
