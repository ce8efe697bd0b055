"""`ratings run --system go-belgium | go-ffg1984`: events, games with handicaps,
declared grades, NC players; per-event states and the current list; the card."""
from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import pytest

from tests.conftest import write_rows, write_small_go_club


@pytest.fixture
def go_files(tmp_path):
    return write_small_go_club(tmp_path)


def _state(out, event_id):
    return pd.read_parquet(out / "state" / f"{event_id}.parquet").set_index("player_id")


def test_belgian_go_rating_event_by_event(cli, go_files, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "go-belgium", "--players", go_files["players"], "--events", go_files["events"],
        "--games", go_files["games"], "--warehouse", w, "--out", out)
    # club-1: the seed's first example: both 20 kyu members start at the middle, −1950;
    # a club game (0.8): Anna +46.4 → −1903.6, Bram → −1996.4.
    one = _state(out, "club-1")
    assert one.loc[1, "rating"] == pytest.approx(-1903.6) and one.loc[2, "rating"] == pytest.approx(-1996.4)
    assert list(one["grade"]) == ["20k", "20k"] and 3 not in one.index  # Cleo (NC) has not played yet
    # club-2: the second example as the rules are written: Bram (Black) receives one stone, Anna wins.
    # Anna: difference 92.8 − 50 = 42.8, A 197.68, Con 113.216, E = 0.986 − 1/(e^0.216512 + 1) = 0.539917,
    #   giver's factor 0.95² = 0.9025: +113.216 × 0.8 × 0.9025 × 0.460083 = +37.608 → −1865.992:
    #   above 20 kyu's upper bound (−1900): promoted to 19 kyu.
    # Bram: difference −42.8, A 202.32, Con 118.784, E = 1/(e^(42.8/202.32) + 1) = 0.447310, factor 0.95:
    #   118.784 × 0.8 × 0.95 × (0 − 0.447310) = −40.381 → −2036.781 (still 20 kyu: not 100 below −2000).
    two = _state(out, "club-2")
    assert two.loc[1, "rating"] == pytest.approx(-1865.992, abs=1e-3) and two.loc[1, "grade"] == "19k"
    assert two.loc[2, "rating"] == pytest.approx(-2036.781, abs=1e-3) and two.loc[2, "grade"] == "20k"
    # open-1: Cleo, NC, beat Bram and lost to Anna: her first rating makes her expected score 1 (G2),
    # between the two; the event then counts from it. Everyone with a rating is in the state.
    three = _state(out, "open-1")
    assert set(three.index) == {1, 2, 3}
    assert list(three.columns) == ["rating", "grade", "games", "events"]
    assert (three.loc[1, "games"], three.loc[1, "events"], three.loc[3, "events"]) == (3, 3, 1)
    current = pd.read_csv(out / "lists" / "current.csv")
    assert list(current.columns) == ["player_id", "name", "club", "rating", "grade", "games", "events", "last_event"]
    assert current.set_index("player_id").loc[1, "rating"] == round(three.loc[1, "rating"])
    card = cli("explain", 3, "--list", "open-1", "--warehouse", w).output
    assert "Before: NC (no rating)" in card and "First rating (ruling G2)" in card
    anna = cli("explain", 1, "--list", "club-2", "--warehouse", w).output
    assert "difference +42.8, A 197.68, Con 113.216, expected 0.5399" in anna
    assert "change = 113.216 × 0.8 × 0.9025 × (1 − 0.5399) = +37.608" in anna
    assert "After: -1866.0 (19k)" in anna
    # The analysts' view: Anna's club-2, before and after, with the promotion.
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("""select rating_before, round(rating_after, 3), grade_before, grade_after, games, rule
                              from go_history where event_id = 'club-2' and player_id = 1""").fetchall() == [
            (pytest.approx(-1903.6), -1865.992, "20k", "19k", 1, "rated")]


def test_a_correction_recomputes_every_later_event(cli, go_files, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    args = ["--players", go_files["players"], "--events", go_files["events"], "--games", go_files["games"]]
    cli("run", "--system", "go-belgium", *args, "--warehouse", w, "--out", out)
    before = _state(out, "open-1").loc[2, "rating"]
    cli("correct", 2, "--list", "club-2", "--rating", -1800, "--reason", "plays far stronger", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out)
    assert _state(out, "club-2").loc[2, "rating"] == -1800 and _state(out, "club-2").loc[2, "grade"] == "19k"
    assert _state(out, "open-1").loc[2, "rating"] != before  # open-1 counted from the corrected rating


def test_french_1984_rules_game_by_game(cli, tmp_path):
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "One"], [2, "Two"], [3, "Three"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 100], [2, 150], [3, 200]])
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class"], [
        ["e1", "Two days", "2026-01-10", "2026-01-11", "B"], ["e2", "Later", "2026-02-01", "2026-02-01", "B"]])
    games = write_rows(tmp_path / "games.csv", ["event_id", "date", "black_id", "white_id", "winner"], [
        ["e1", "2026-01-11", 2, 3, "B"],  # second day: Two (140 by then) beats Three (200)
        ["e1", "2026-01-10", 1, 2, "B"],  # first day: One (100) beats Two (150)
        ["e2", "2026-02-01", 3, 1, "B"]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "go-ffg1984", "--players", players, "--ratings", ratings, "--events", events,
        "--games", games, "--warehouse", w, "--out", out)
    # In date order: One beats Two, case 1.2: +20 / −10 → 120, 140; Two beats Three, 1.2:
    # T = (60 + 10) / 3 = 23.333 → 163.333, 190. Then e2: Three (190) beats One (120), 2.2: T = 4 → 194, 116.
    e1, e2 = _state(out, "e1"), _state(out, "e2")
    assert e1["rating"].to_dict() == pytest.approx({1: 120, 2: 140 + 70 / 3, 3: 190})
    assert e2["rating"].to_dict() == pytest.approx({1: 116, 2: 140 + 70 / 3, 3: 194})
    # Grades read from the points, without hysteresis (ruling F3): 116 and 163.3 are 2 dan; Three's 200
    # was 3 dan, 190 and 194 are 2 dan (the Belgian rules would keep 3 dan down to 100).
    assert e1["grade"].to_dict() == {1: "2d", 2: "2d", 3: "2d"}
    assert e2["grade"].to_dict() == {1: "2d", 2: "2d", 3: "2d"}
    current = pd.read_csv(out / "lists" / "current.csv").set_index("player_id")
    assert current.loc[2, "rating"] == 163  # ruling F1: exact points, the list rounds half up
    card = cli("explain", 2, "--list", "e1", "--warehouse", w).output
    assert "case 1.2" in card


def test_go_inputs_are_validated(cli, go_files, tmp_path):
    bad = write_rows(tmp_path / "bad.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap"], [
        ["club-1", "2026-01-10", 1, 2, "X", 0],  # unknown winner code
        ["club-1", "2026-01-10", 1, 2, "B", 12],  # 12 stones
        ["nowhere", "2026-01-10", 1, 2, "B", 0],  # unknown event
        ["club-1", "2026-02-10", 1, 2, "B", 0],  # outside the event's dates
        ["club-1", "2026-01-10", 1, 9, "W", 0],  # unknown player
        ["club-1", "2026-01-10", 2, 1, "jigo", 0]])  # fine
    w = tmp_path / "w.duckdb"
    out = cli("run", "--system", "go-belgium", "--players", go_files["players"], "--events", go_files["events"],
              "--games", bad, "--warehouse", w, "--out", tmp_path / "out", rejected=True).output
    assert "read 6 = accepted 1 + rejected 5" in out
    assert "winner: unknown code (got 'X')" in out
    assert "handicap: handicap must be a whole number of stones from 0 to 9 (got '12')" in out
    assert "event_id: nowhere is not in the events" in out
    assert "date: 2026-02-10 is outside the event (2026-01-10 … 2026-01-10)" in out
    assert "white_id: 9 is not in the player registry" in out
    refused = cli("rate", "--system", "fide", "--warehouse", w, ok=False)
    assert "this warehouse holds go (go-belgium); the fide rules rate chess games" in refused.output


def test_go_events_are_validated(cli, go_files, tmp_path):
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class", "board_size"], [
        ["ok-1", "Fine", "2026-01-10", "2026-01-10", "C", 9],
        ["../up", "A path", "2026-01-10", "2026-01-10", "C", 19],  # would name a file outside OUT
        ["late", "Backwards", "2026-01-10", "2026-01-09", "B", 19],
        ["big", "Odd board", "2026-01-10", "2026-01-10", "E", 15],
        ["ok-1", "Again", "2026-01-11", "2026-01-11", "C", 19],
        ["OK-1", "Shouting", "2026-01-12", "2026-01-12", "C", 19]])  # one file with ok-1's on Windows
    w = tmp_path / "w.duckdb"
    out = cli("run", "--system", "go-belgium", "--players", go_files["players"], "--events", events,
              "--warehouse", w, "--out", tmp_path / "out", rejected=True).output
    assert "read 6 = accepted 1 + rejected 5" in out
    assert "event_id: not an event id (letters, digits, _ . -; at most 64; it names a file) (got '../up')" in out
    assert "the event ends before it starts" in out
    assert "board_size: unknown code (got '15')" in out and "class: unknown code (got 'E')" in out
    assert "event_id: ok-1 listed again (first at row 1)" in out
    assert ("event_id: OK-1 differs only by case from ok-1 (row 1): the two would name one file on Windows "
            "and macOS") in out
    # A later file: its Ok-1 meets the stored ok-1; its new-1 is fine.
    later = write_rows(tmp_path / "later.csv", ["event_id", "name", "start_date", "end_date", "class", "board_size"], [
        ["Ok-1", "Later", "2026-02-10", "2026-02-10", "C", 19], ["new-1", "New", "2026-02-10", "2026-02-10", "C", 19]])
    out = cli("run", "--system", "go-belgium", "--events", later, "--warehouse", w, "--out", tmp_path / "out",
              rejected=True).output
    assert "read 2 = accepted 1 + rejected 1" in out
    assert ("event_id: Ok-1 differs only by case from ok-1, already in the warehouse: the two would name one "
            "file on Windows and macOS") in out


GO_FIXTURES = Path(__file__).parent / "fixtures" / "go"


def test_a_real_opengotha_file_ingests_and_rates(cli, tmp_path):
    # tests/fixtures/go/: an OpenGotha 3.52 save (8 players, 12 games) and an EGD results file
    # written by OpenGotha (22 players, 31 games); their players registered from the files.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    xml, egd = GO_FIXTURES / "opengotha_simpleswiss_excerpt.xml", GO_FIXTURES / "opengotha_export_2017.h9"
    result = cli("run", "--system", "go-belgium", "--games", xml, "--games", egd, "--register-new",
                 "--warehouse", w, "--out", out).output
    assert ("OpenGotha: event veteran2swiss, 8 players (0 in the registry, 8 new), 12 games (0 not counted), "
            "0 problems") in result
    assert "EGD results: event Test_Participation_et_Licence_FFG, 22 players (0 in the registry, 22 new)" in result
    assert "read 12 = accepted 12 + rejected 0" in result and "read 31 = accepted 31 + rejected 0" in result
    state = _state(out, "veteran2swiss")
    with duckdb.connect(str(w), read_only=True) as con:
        players = dict(con.execute("select player_id, grade from players").fetchall())
        assert len(players) == 30 and len(set(players)) == 30  # the two files' players kept apart
        played = {p for (p,) in con.execute("select player_id from calculations where list_id = 'veteran2swiss' "
                                            "and games > 0").fetchall()}
    assert len(played) == 8
    # Each player started at the middle of the grade the file declares (3k → −250) and moved.
    start = {p: 100 * (1 - int(players[p][:-1])) - 50 if players[p].endswith("k") else 100 * int(players[p][:-1]) - 50
             for p in played}
    moved = [p for p in played if state.loc[p, "rating"] != start[p]]
    assert len(moved) == 8
    # Rated again, the same file adds nothing and the lists do not change.
    again = cli("run", "--games", xml, "--warehouse", w, "--out", out).output
    assert "already taken in as submission 1, nothing of it rejected: adds nothing" in again
    assert _state(out, "veteran2swiss").equals(state)


def test_players_of_a_go_file_not_in_the_registry_are_reported(cli, tmp_path):
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "grade"],
                         [[1, "Player 1", "3k"], [2, "Player 2", "3k"]])
    w = tmp_path / "w.duckdb"
    out = cli("run", "--system", "go-belgium", "--players", players, "--games",
              GO_FIXTURES / "opengotha_simpleswiss_excerpt.xml", "--warehouse", w, "--out", tmp_path / "out",
              rejected=True).output
    assert "8 players (2 in the registry, 0 new)" in out
    assert "'Player 3' is not in the player registry" in out
    with duckdb.connect(str(w), read_only=True) as con:
        kept = con.execute("select count(*) from go_games").fetchall()[0][0]
        rejected = con.execute("select count(*) from rejects").fetchall()[0][0]
    # Only the games between players 1 and 2 (matched by name) are kept; every other game is rejected.
    assert kept + rejected == 12 and rejected > 0


def test_late_results_recompute_every_later_event(cli, go_files, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "go-belgium", "--players", go_files["players"], "--events", go_files["events"],
        "--games", go_files["games"], "--warehouse", w, "--out", out)
    before = {e: _state(out, e) for e in ("club-1", "club-2", "open-1")}
    # A result of club-1 arrives late: Bram also beat Anna that night. The same night, players
    # and event with another winner and colours, without rounds: it could be a correction of
    # the first game, so the file is held (issue 50), nothing rated, until the officer says
    # it is another game.
    late = write_rows(tmp_path / "late.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap"],
                      [["club-1", "2026-01-10", 2, 1, "B", 0]])
    held = cli("run", "--games", late, "--warehouse", w, "--out", out, rejected=True).output
    assert "late.csv (submission 4) is held" in held and _state(out, "club-1").equals(before["club-1"])
    cli("confirm", "late.csv", "--reason", "a second game that night", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out)
    # club-1 now has a win each between equal players: both back to −1950; every later event follows.
    assert _state(out, "club-1")["rating"].to_dict() == pytest.approx({1: -1950, 2: -1950})
    for e in ("club-2", "open-1"):
        assert not _state(out, e)["rating"].equals(before[e]["rating"])


def test_go_outputs_are_byte_identical_from_run_to_run(cli, go_files, tmp_path):
    args = ["--system", "go-belgium", "--players", go_files["players"], "--events", go_files["events"],
            "--games", go_files["games"]]
    for k in (1, 2):
        cli("run", *args, "--warehouse", tmp_path / f"w{k}.duckdb", "--out", tmp_path / f"out{k}")
    first = {p.relative_to(tmp_path / "out1"): p.read_bytes() for p in (tmp_path / "out1").rglob("*") if p.is_file()}
    second = {p.relative_to(tmp_path / "out2"): p.read_bytes() for p in (tmp_path / "out2").rglob("*") if p.is_file()}
    assert len(first) == 5 and first == second  # three states, the current list in CSV and Parquet


def test_export_history_under_go_is_by_event(cli, go_files, tmp_path):
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "go-belgium", "--players", go_files["players"], "--events", go_files["events"],
        "--games", go_files["games"], "--warehouse", w, "--out", tmp_path / "out")
    # Each player's event: 2 in club-1, 2 in club-2, 3 in open-1.
    assert "7 rows of 3 events written" in cli("export", "history", "--warehouse", w, "--out", tmp_path / "h").output
    assert sorted(p.name for p in (tmp_path / "h").iterdir()) == ["event_id=club-1", "event_id=club-2",
                                                                  "event_id=open-1"]


def test_a_starting_rating_comes_before_the_declared_grade(cli, go_files, tmp_path):
    # Anna declares 20k (middle −1950) but the starting points give her −1000 (10 kyu by G4),
    # with her 20k grade kept until the points move it: she beats Bram (−1950) in club-1:
    # difference +950; at −1000, halfway between the rows −1050 and −950: Con 67.5, A 152.5;
    # E = 0.986 − 1/(e^(950/152.5) + 1) = 0.986 − 0.001967 = 0.984033;
    # +67.5 × 0.8 × 0.015967 = +0.862 → −999.138, above 20 kyu's upper bound: promoted to 10 kyu.
    ratings = write_rows(tmp_path / "start.csv", ["player_id", "rating"], [[1, -1000]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "go-belgium", "--players", go_files["players"], "--ratings", ratings,
        "--events", go_files["events"], "--games", go_files["games"], "--warehouse", w, "--out", out)
    one = _state(out, "club-1")
    assert one.loc[1, "rating"] == pytest.approx(-999.138, abs=1e-3) and one.loc[1, "grade"] == "10k"
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select rating_before, grade_before from go_history "
                           "where event_id = 'club-1' and player_id = 1").fetchall() == [(-1000, "20k")]


def test_an_opengotha_file_without_a_class_counts_as_class_b(cli, tmp_path):
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "go-belgium", "--games", GO_FIXTURES / "opengotha_simpleswiss_excerpt.xml",
        "--register-new", "--warehouse", w, "--out", tmp_path / "out")
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select class, board_size from events").fetchall() == [("B", 19)]
        # Class B, 19×19: every counted game weighs 1.0.
        assert {x for (x,) in con.execute("select distinct weight from go_game_sides").fetchall()} == {1.0}
