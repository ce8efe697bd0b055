"""The record attacked from the rating officer's chair: chains of ingest, withdraw,
--again, replacements, duplicates, corrections, `rate --from` and audits, under every rule
set; each test is a regression a chain found."""
from __future__ import annotations

import duckdb
import pytest

from tests.conftest import write_rows

GO_GAMES = ["event_id", "date", "black_id", "white_id", "winner", "handicap"]


@pytest.fixture
def go_season(tmp_path):
    """Two 20 kyu, a 5 kyu and a 1 dan; three club nights, one file each."""
    files = {
        "players": write_rows(tmp_path / "players.csv", ["player_id", "name", "grade"],
                              [[1, "Anna", "20k"], [2, "Bram", "20k"], [3, "Cleo", "5k"], [4, "Dan", "1d"]]),
        "events": write_rows(tmp_path / "events.csv",
                             ["event_id", "name", "start_date", "end_date", "class", "board_size"],
                             [["e1", "Club 1", "2026-01-10", "2026-01-10", "C", 19],
                              ["e2", "Club 2", "2026-02-10", "2026-02-10", "B", 19],
                              ["e3", "Club 3", "2026-03-10", "2026-03-10", "A", 19]]),
        "e1": write_rows(tmp_path / "e1.csv", GO_GAMES, [["e1", "2026-01-10", 1, 2, "B", 0]]),
        "e2": write_rows(tmp_path / "e2.csv", GO_GAMES, [["e2", "2026-02-10", 1, 3, "W", 0]]),
        "e3": write_rows(tmp_path / "e3.csv", GO_GAMES, [["e3", "2026-03-10", 2, 4, "B", 0]]),
    }
    return files


def _go_run(cli, files, system, w, out):
    cli("run", "--system", system, "--players", files["players"], "--events", files["events"],
        "--games", files["e1"], "--games", files["e2"], "--games", files["e3"],
        "--warehouse", w, "--out", out, "--no-reports")


@pytest.mark.parametrize("system", ["go-belgium", "go-ffg1984"])
def test_audit_of_a_go_warehouse_names_the_stale_event(cli, go_season, tmp_path, system):
    # The Go signature orders the events by `position`, which only `rate` gave them: the
    # audit recomputed the signatures without it and stopped with a Binder Error on every
    # Go warehouse, withdrawn games or not.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _go_run(cli, go_season, system, w, out)
    assert "FAILED" not in cli("audit", "--warehouse", w).output
    cli("withdraw", "e3.csv", "--reason", "void", "--warehouse", w)
    result = cli("audit", "--warehouse", w, ok=False)
    assert result.exit_code == 1, result.output
    assert f"{system} e3: rests on games withdrawn or replaced since it was computed" in result.output
    assert "Binder Error" not in result.output
    cli("rate", "--warehouse", w)
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_ffg1984_first_event_withdrawn_whole_is_revised_with_no_game(cli, go_season, tmp_path):
    # Under the 1984 rules the events are placed by their last game, so an event whose
    # games were all withdrawn dropped out of the periods: never revised (still rating the
    # withdrawn game), the audit failing after every `rate`, `rate --from e1` refused.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _go_run(cli, go_season, "go-ffg1984", w, out)
    cli("withdraw", "e1.csv", "--reason", "void", "--warehouse", w)
    cli("rate", "--warehouse", w)
    with duckdb.connect(str(w), read_only=True) as con:
        lists = con.execute("select list_id, revision, games_rated, position from lists "
                            "where series = 'go-ffg1984' order by position").fetchall()
        e1 = dict(con.execute("select player_id, rating from player_state "
                              "where series = 'go-ffg1984' and list_id = 'e1'").fetchall())
    # e1 stays the first event, revised with no game; e2 and e3 follow it.
    assert lists == [("e1", 2, 0, 0), ("e2", 2, 1, 1), ("e3", 2, 1, 2)]
    # With no game, everyone keeps the starting points: the middle of the declared grade
    # (20k −1950, 5k −450, 1d +50), not Anna's −1939 and Bram's −1961 after the withdrawn game.
    assert e1 == {1: -1950.0, 2: -1950.0, 3: -450.0, 4: 50.0}
    assert "FAILED" not in cli("audit", "--warehouse", w).output
    assert "e1" in cli("rate", "--from", "e1", "--warehouse", w).output
    assert "e1 " in cli("revisions", "--list", "e1", "--warehouse", w).output
    cli("publish", "--warehouse", w, "--out", out, "--no-reports")


def test_ffg1984_event_between_emptied_then_refilled_with_again(cli, go_season, tmp_path):
    # An event in the middle emptied: it keeps its place (after the last game played by
    # its end), takes none of the next event's games, and --again brings its game back.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _go_run(cli, go_season, "go-ffg1984", w, out)
    cli("withdraw", "e2.csv", "--reason", "void", "--warehouse", w)
    cli("rate", "--warehouse", w)
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select list_id, games_rated from lists where series = 'go-ffg1984' "
                           "order by position").fetchall() == [("e1", 1), ("e2", 0), ("e3", 1)]
    assert "FAILED" not in cli("audit", "--warehouse", w).output
    cli("ingest", go_season["e2"], "--again", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out, "--no-reports")
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select list_id, games_rated from lists where series = 'go-ffg1984' "
                           "order by position").fetchall() == [("e1", 1), ("e2", 1), ("e3", 1)]
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_go_event_refilled_with_again_says_late_games(cli, go_season, tmp_path):
    # The reasons looked for late games in chess's `games` only: a Go event whose file came
    # back with --again was said to follow from "the registry or the initial ratings", and
    # each player's change from "earlier lists or opponents changed".
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _go_run(cli, go_season, "go-belgium", w, out)
    cli("withdraw", "e1.csv", "--reason", "void", "--warehouse", w)
    cli("rate", "--warehouse", w)
    cli("ingest", go_season["e1"], "--again", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out, "--no-reports")
    # submissions: 1 players, 2-4 the three game files, 5 events, 6 e1.csv again.
    revisions = cli("revisions", "--list", "e1", "--warehouse", w).output
    assert "late games: submission 6 (e1.csv)" in revisions
    assert "the registry or the initial ratings changed" not in revisions
    with duckdb.connect(str(w), read_only=True) as con:
        reasons = dict(con.execute("select player_id, reason from rating_changes where series = 'go-belgium' "
                                   "and list_id = 'e1' and revision = 3").fetchall())
    # Anna (Black, 1) beat Bram (White, 2), even game: described as game_changes describes it.
    assert reasons == {1: "late games (submission 6): 2026-01-10 1-2 B (handicap 0)",
                       2: "late games (submission 6): 2026-01-10 1-2 B (handicap 0)"}


GAMES = ["date", "white_id", "black_id", "result", "event", "round"]


@pytest.fixture
def chess_season(tmp_path):
    """Three seniors (born 1980) rated 1800, 1700, 1600; autumn games (list 2027-01 of the
    performance Elo), winter games (list 2027-05)."""
    return {
        "players": write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                              [[1, "Anna", 1980], [2, "Bert", 1980], [3, "Cara", 1980]]),
        "ratings": write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700], [3, 1600]]),
        "autumn": write_rows(tmp_path / "autumn.csv", GAMES, [["2026-09-05", 1, 2, "1-0", "Autumn", 1],
                                                              ["2026-09-06", 2, 3, "1-0", "Autumn", 2]]),
        "winter": write_rows(tmp_path / "winter.csv", GAMES, [["2027-01-05", 1, 3, "0-1", "Winter", 1],
                                                              ["2027-02-06", 2, 3, "1-0", "Winter", 2]]),
    }


def _chess_run(cli, files, w, out, *more):
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["autumn"],
        "--games", files["winter"], "--warehouse", w, "--out", out, "--no-reports", *more)


def _lists(w, series):
    with duckdb.connect(str(w), read_only=True) as con:
        return [r[0] for r in con.execute("select list_id from lists where series = ? order by position",
                                          [series]).fetchall()]


def test_second_replacement_staged_beside_the_first_is_refused(cli, chess_season, tmp_path):
    # Two replacements of one file staged together were both taken in, each "replacing"
    # submission 4, the second's rows rejected as duplicates of the first's.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _chess_run(cli, chess_season, w, out)
    v2 = write_rows(tmp_path / "winter-v2.csv", GAMES, [["2027-01-05", 1, 3, "1-0", "Winter", 1],
                                                        ["2027-02-06", 2, 3, "1-0", "Winter", 2]])
    v3 = write_rows(tmp_path / "winter-v3.csv", GAMES, [["2027-01-05", 1, 3, "1/2-1/2", "Winter", 1],
                                                        ["2027-02-06", 2, 3, "1-0", "Winter", 2]])
    cli("ingest", v2, "--replaces", "winter.csv", "--warehouse", w)
    refused = cli("ingest", v3, "--replaces", "winter.csv", "--warehouse", w, ok=False)
    assert refused.exit_code == 1, refused.output
    assert ("submission 4 (winter.csv) is already to be replaced by submission 5 (winter-v2.csv), still staged"
            in refused.output)
    assert "Traceback" not in refused.output
    # Once v2 is taken in, v3 replaces v2 (a replacement of a replacement).
    cli("validate", "--warehouse", w)
    cli("ingest", v3, "--replaces", "winter-v2.csv", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out, "--no-reports")
    with duckdb.connect(str(w), read_only=True) as con:
        statuses = con.execute("select submission_id, status, replaces from submissions "
                               "where submission_id >= 4 order by 1").fetchall()
    assert statuses == [(4, "replaced", None), (5, "replaced", 4), (6, "taken in", 5)]
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_rate_from_on_a_rule_set_just_added_starts_at_its_first_list(cli, chess_season, tmp_path):
    # `rate --from` a list in the middle of a FIDE series never computed rated that list
    # and the next ones from nothing (no player rated), and the FIDE history then started
    # there: every earlier game was refused as "before the history of the fide lists".
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _chess_run(cli, chess_season, w, out)
    cli("rate", "--from", "2027-02", "--system", "fide", "--warehouse", w)
    # FIDE files each event on the list after it ends: Autumn (ends 2026-09-06) on 2026-10,
    # Winter (ends 2027-02-06) on 2027-03; the lists run monthly from the first to the last.
    assert _lists(w, "fide") == ["2026-10", "2026-11", "2026-12", "2027-01", "2027-02", "2027-03"]
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_rate_from_in_a_warehouse_of_two_rule_sets(cli, chess_season, tmp_path):
    # The performance list 2027-05 is no FIDE list (monthly: 2026-10 … 2027-03): `rate
    # --from 2027-05` revised the performance lists, then stopped on the FIDE series with
    # "no list", half done; it can never succeed. It now forces the series that hold it.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _chess_run(cli, chess_season, w, out)
    cli("run", "--system", "fide", "--warehouse", w, "--out", out, "--no-reports")
    # A correction of Bert at the performance list 2027-01 (1700 → 1750 there) makes it stale.
    cli("correct", 2, "--list", "2027-01", "--rating", 1750, "--reason", "appeal", "--system", "performance",
        "--warehouse", w)
    refused = cli("rate", "--from", "2099-01", "--warehouse", w, ok=False)
    assert refused.exit_code == 1, refused.output
    assert ("no list '2099-01'; the performance lists are 2027-01 … 2027-05; the fide lists are 2026-10 … 2027-03"
            in refused.output)
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select max(revision) from lists where series = 'performance'").fetchone() == (1,)
    done = cli("rate", "--from", "2027-05", "--warehouse", w).output
    assert "Error" not in done
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select list_id, revision from lists where series = 'performance' "
                           "order by position").fetchall() == [("2027-01", 2), ("2027-05", 2)]
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_withdrawing_the_copy_kept_of_a_duplicate_says_the_other_is_not_rated(cli, chess_season, tmp_path):
    # One copy of a game withdrawn as a duplicate, then the file of the other copy withdrawn
    # whole: the game is rated nowhere, and the withdrawal said only "withdrawn: 2 rows".
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _chess_run(cli, chess_season, w, out)
    copy = write_rows(tmp_path / "arbiter.csv", [*GAMES, "game_id"],
                      [["2027-01-05", 1, 3, "0-1", "Winter", 1, "a1"], ["2027-03-01", 1, 2, "1-0", "Spring", 1, "a2"]])
    cli("run", "--games", copy, "--warehouse", w, "--out", out, "--no-reports")
    # winter.csv (submission 4) row 1 is the same game as arbiter.csv (submission 5) row 1.
    cli("rejects", "--withdraw-duplicate", "winter.csv:1", "--reason", "sent twice", "--warehouse", w)
    result = cli("withdraw", "arbiter.csv", "--reason", "wrong event", "--warehouse", w)
    assert ("no copy of them is rated now: submission 4 (winter.csv), row 1: 2027-01-05 1-3 0-1 (a copy of row 1)"
            in result.output)
    # Withdrawing a file none of whose games stood for a withdrawn copy says nothing of it.
    assert "no copy" not in cli("withdraw", "autumn.csv", "--reason", "void", "--warehouse", w).output
    cli("rate", "--warehouse", w)
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_ffg1984_correction_on_an_event_later_emptied(cli, go_season, tmp_path):
    # A correction at an event whose games are then all withdrawn: the event, revised with no
    # game, keeps the correction; adding the corrected player's row to an event with no row
    # turned its text columns into floats ("unexpected TypeError").
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _go_run(cli, go_season, "go-ffg1984", w, out)
    cli("correct", 3, "--list", "e3", "--rating", -1800, "--reason", "appeal", "--warehouse", w)
    cli("withdraw", "e3.csv", "--reason", "void", "--warehouse", w)
    result = cli("rate", "--warehouse", w)
    assert "unexpected" not in result.output
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select player_id, rule, rating, games from calculations "
                           "where series = 'go-ffg1984' and list_id = 'e3'").fetchall() == [
            (3, "correction by the rating commission: appeal", -1800.0, 0)]
        # −1800 points read as ⌊1800 / 100⌋ + 1 = 19 kyu (ruling G4).
        assert con.execute("select rating, grade from player_state natural left join go_state where series = 'go-ffg1984' "
                           "and list_id = 'e3' and player_id = 3").fetchone() == (-1800.0, "19k")
    assert "FAILED" not in cli("audit", "--warehouse", w).output
    cli("publish", "--warehouse", w, "--out", out, "--no-reports")
