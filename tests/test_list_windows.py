"""A list is computed only once its window has closed (issue 50): the day after its
window's last day (an event's: the day after it ends), `today` being RATINGS_TODAY in
these tests. Until then `ratings run` says how many games wait for it, and the site's
pre-publication check (`ratings site --pending`) shows the same games for the same list
and day. Every rule set, and `rate`, `scenario`, `tune` where they make lists."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import duckdb
import pytest

from tests.as_user import completed
from tests.conftest import write_rows, write_small_go_club

COLUMNS = ["date", "white_id", "black_id", "result", "event", "round"]


def ratings(folder: Path, today: str, *args, ok: int = 0) -> subprocess.CompletedProcess:
    """`ratings` as a user runs it, in `folder`, on the day `today`."""
    return completed(folder, *args, code=ok, env=os.environ | {"RATINGS_TODAY": today, "RATINGS_WAREHOUSE": ""})


def _query(w: Path, sql: str, params=None) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


@pytest.fixture
def autumn(tmp_path) -> Path:
    """A federation's files: two games of June 2017 (the list 2017-09's window, May to
    August), then the autumn as the issue tells it: games of September to mid-October
    2017 taken in on 16 October. The club cup ends on 9 September, the autumn open runs
    from 30 September to 14 October."""
    write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
               [[i, f"Player {i}", 1980 + i] for i in range(1, 7)])
    write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700], [3, 1600], [4, 1500]])
    write_rows(tmp_path / "games.csv", COLUMNS, [
        ["2017-06-10", 1, 2, "1-0", "Summer league", 1],
        ["2017-06-24", 3, 4, "1/2-1/2", "Summer league", 2],
        ["2017-09-02", 1, 3, "1-0", "Club cup", 1],
        ["2017-09-09", 2, 4, "0-1", "Club cup", 2],
        ["2017-09-30", 5, 1, "0-1", "Autumn open", 1],
        ["2017-10-07", 6, 2, "1/2-1/2", "Autumn open", 2],
        ["2017-10-14", 3, 5, "+/-", "Autumn open", 3],
    ])
    return tmp_path


def _pending(folder: Path) -> tuple[set[tuple[str, str]], int]:
    """The site's pending pages: (list, day computed) of every player, and the games (each once)."""
    pages = [json.loads(p.read_text()) for p in (folder / "api" / "v1" / "pending").glob("*.json")]
    return {(p["list_id"], p["computed_on"]) for p in pages}, sum(len(p["games"]) for p in pages) // 2


def test_a_list_is_computed_once_its_window_has_closed(autumn):
    files = ["--players", "players.csv", "--ratings", "ratings.csv", "--games", "games.csv"]
    run = ratings(autumn, "2017-10-16", "run", *files, "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    # 2017-09 (May–August: the two June games) is computed; 2018-01 (September–December)
    # is not: its five games wait, the forfeit of 14 October among them.
    assert ("Waiting: 5 games wait for list 2018-01, computed from 2018-01-01 once its window "
            "(2017-09-01 … 2017-12-31) has closed; `ratings site --pending` shows them to the players") in run.stdout
    assert _query(autumn / "w.duckdb", "select list_id, revision from lists") == [("2017-09", 1)]
    assert not list((autumn / "out" / "lists").glob("2018-01*"))
    # The site's pending page names the same list, the same day and the same five games.
    ratings(autumn, "2017-10-16", "site", "--pending", "--lang", "en", "--out", "site", "--warehouse", "w.duckdb")
    assert _pending(autumn / "site") == ({("2018-01", "2018-01-01")}, 5)
    refused = ratings(autumn, "2017-10-16", "rate", "--from", "2018-01", "--warehouse", "w.duckdb", ok=1)
    assert ("list '2018-01' is not computed yet: its window closes on 2017-12-31, it is computed from 2018-01-01"
            in refused.stderr)
    # A run on the last day of the window still waits; the next day computes the list, revision 1.
    last = ratings(autumn, "2017-12-31", "run", "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    assert "Waiting: 5 games wait for list 2018-01" in last.stdout
    after = ratings(autumn, "2018-01-01", "run", "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    assert "Waiting" not in after.stdout
    assert _query(autumn / "w.duckdb", "select list_id, revision, games_rated, forfeits from lists order by 1") == [
        ("2017-09", 1, 2, 0), ("2018-01", 1, 4, 1)]
    assert (autumn / "out" / "lists" / "2018-01-r1.csv").is_file()


def test_a_rule_set_or_a_scenario_added_computes_only_the_closed_windows(autumn):
    files = ["--players", "players.csv", "--ratings", "ratings.csv", "--games", "games.csv"]
    w = autumn / "w.duckdb"
    ratings(autumn, "2017-10-16", "run", *files, "--warehouse", w, "--out", "out", "--no-reports")
    # FIDE (X1): an event is rated on the list whose window holds its last day; the lists
    # close three days before their date. The club cup ends on 9 September: list 2017-10
    # (29 August – 28 September), closed. The autumn open ends on 14 October: list 2017-11
    # (29 September – 29 October), open: its three games wait, computed from 30 October.
    fide = ratings(autumn, "2017-10-16", "run", "--system", "fide", "--warehouse", w, "--out", "out", "--no-reports")
    assert "Waiting: 3 games wait for list 2017-11, computed from 2017-10-30" in fide.stdout
    assert [r[0] for r in _query(w, "select list_id from lists where series = 'fide' order by position")] == [
        "2017-07", "2017-08", "2017-09", "2017-10"]
    # Glicko-2's rating periods are the months: September's list (2017-10) is computed,
    # October's two games (a forfeit is not one) wait for 2017-11, computed from 1 November.
    glicko = ratings(autumn, "2017-10-16", "run", "--system", "glicko2", "--warehouse", w, "--out", "out",
                     "--no-reports")
    assert "Waiting: 2 games wait for list 2017-11, computed from 2017-11-01" in glicko.stdout
    assert _query(w, "select max(list_id) from lists where series = 'glicko2'") == [("2017-10",)]
    # A scenario computes the lists its rule set computes: 2018-01 waits for it too.
    (autumn / "quota3.toml").write_text("senior_quota = 3\n")
    scenario = ratings(autumn, "2017-10-16", "scenario", "quota3", "--rules", "quota3.toml", "--warehouse", w)
    assert "Waiting: 5 games wait for list 2018-01, computed from 2018-01-01" in scenario.stdout
    assert _query(w, "select list_id from lists where series = 'quota3'") == [("2017-09",)]
    assert "FAILED" not in ratings(autumn, "2017-10-16", "audit", "--warehouse", w).stdout


def test_an_event_is_rated_the_day_after_it_ends(tmp_path):
    """Go rates event by event: an event's window closes with its last day."""
    files = write_small_go_club(tmp_path)
    args = ["--system", "go-belgium", "--players", files["players"], "--events", files["events"], "--games",
            files["games"], "--warehouse", "w.duckdb", "--out", "out", "--no-reports"]
    # The open runs on 1 and 2 March 2026: on its last day, its two games wait.
    run = ratings(tmp_path, "2026-03-02", "run", *args)
    assert "Waiting: 2 games wait for list open-1, computed from 2026-03-03" in run.stdout
    assert _query(tmp_path / "w.duckdb", "select list_id from lists order by position") == [("club-1",), ("club-2",)]
    ratings(tmp_path, "2026-03-03", "run", "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    assert _query(tmp_path / "w.duckdb", "select list_id, revision from lists order by position") == [
        ("club-1", 1), ("club-2", 1), ("open-1", 1)]


def test_a_study_needs_official_lists_computed(cli, autumn, monkeypatch):
    """`tune` scores trials against the official lists: before the first window closes
    there is none, and the study says so instead of failing."""
    monkeypatch.setenv("RATINGS_TODAY", "2017-08-31")  # the window of 2017-09 closes tonight
    w = autumn / "w.duckdb"
    june = write_rows(autumn / "june.csv", COLUMNS, [["2017-06-10", 1, 2, "1-0", "Summer league", 1],
                                                     ["2017-06-24", 3, 4, "1/2-1/2", "Summer league", 2]])
    cli("run", "--players", autumn / "players.csv", "--ratings", autumn / "ratings.csv", "--games", june,
        "--warehouse", w, "--out", autumn / "out", "--no-reports")
    (autumn / "space.toml").write_text("[senior_quota]\nlow = 2\nhigh = 4\n")
    refused = cli("tune", "quota", "--system", "performance", "--space", autumn / "space.toml", "--trials", 2,
                  "--warehouse", w, "--out", autumn / "tune", ok=False)
    assert refused.exit_code == 1
    assert "no performance list has been computed yet (a list is computed once its window has closed)" in \
        refused.output
