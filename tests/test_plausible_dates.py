"""Plausible dates: a typed year cannot publish a century of lists nor revise every
list already published (sql/validate/plausible_dates.sql), and a real event sent late
is never taken for a typo (rulings D1 and D2, the dates of the games taken in)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import copy_built, write_rows
from tests.test_submissions import query

LISTS = [("2027-01",), ("2027-05",)]
GAMES = ["date", "white_id", "black_id", "result"]
GO = Path(__file__).parent / "fixtures" / "go"


def late(tmp_path, date: str):
    """A game on that date, and one on 2027-02-06 (every file a game of its own there)."""
    return write_rows(tmp_path / f"late-{date}.csv", ["date", "white_id", "black_id", "result", "event"], [
        [date, 1, 2, "1-0", date], ["2027-02-06", 2, 1, "1-0", date]])


@pytest.fixture
def published(published_once, tmp_path):
    """Here a copy of the small federation the session rated and published once
    (tests/conftest.py): no test of this file gives its input files again."""
    return copy_built(published_once, tmp_path)


def test_a_game_after_today_and_31_days_is_in_the_future(cli, published, tmp_path, monkeypatch):
    w, out = published
    monkeypatch.setenv("RATINGS_TODAY", "2027-03-01")  # the horizon is 2027-04-01
    result = cli("run", "--games", late(tmp_path, "2127-03-01"), "--warehouse", w, "--out", out, rejected=True)
    assert "row 1: date: 2127-03-01 is in the future (after 2027-04-01, today + 31 days)" in result.output
    ok = cli("run", "--games", late(tmp_path, "2027-04-01"), "--warehouse", w, "--out", out).output  # the last day allowed
    assert "accepted 2 + rejected 0" in ok
    assert query(w, "select list_id from lists order by 1") == LISTS  # no list for 2127


def test_a_game_before_the_first_list_is_before_the_history(cli, published, tmp_path):
    w, out = published
    result = cli("run", "--games", late(tmp_path, "2026-08-31"), "--warehouse", w, "--out", out, rejected=True)
    assert ("row 1: date: 2026-08-31 is before the history of the performance lists starts (the first list, "
            "2027-01, rates the games from 2026-09-01)") in result.output
    assert query(w, "select list_id, revision from lists order by 1") == [("2027-01", 1), ("2027-05", 2)]


def test_a_date_years_away_from_its_file_and_every_game_stored_is_a_typo(cli, small_federation, tmp_path):
    # Ruling D1. Nothing stored yet: the file's own dates are all there is. 1919-09-05 lies
    # 107 years and 2 days before the file's next date, 2026-09-05 (39,082 days / 365.25 =
    # 107.0 years): more than two years from every other date of its file and from every
    # game stored (none) — a typo. The two 2026 rows are a week apart: neither is alone.
    rows = [["1919-09-05", 1, 2, "1-0"], ["2026-09-05", 3, 4, "1-0"], ["2026-09-12", 4, 3, "1-0"]]
    games = write_rows(tmp_path / "typo.csv", GAMES, rows)
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                 "--games", games, "--warehouse", w, "--out", tmp_path / "out", rejected=True)
    assert ("row 1: date: 1919-09-05 is more than two years from every other date of its file and from every game "
            "stored (the nearest: 2026-09-05, 107.0 years later): likely a typo") in result.output
    assert "read 3 = accepted 2 + rejected 1" in result.output
    assert query(w, "select list_id from lists") == [("2027-01",)]


def test_a_file_of_one_date_far_from_the_games_stored_is_taken_in_and_said(cli, published, tmp_path, monkeypatch):
    # Ruling D1: a file whose dates hang together is never refused as a typo, however far
    # it lies from the games stored. The latest game stored is 2027-01-09; 2029-03-03 and
    # 2029-03-04 are 2 years and 53 days after it, and one day from each other: taken in
    # (the lists 2027-09 … 2029-05 follow, R1: a federation that pauses still publishes),
    # and said, so that a wrong year is seen.
    w, out = published
    season = write_rows(tmp_path / "spring-2029.csv", GAMES, [["2029-03-03", 1, 2, "1-0"], ["2029-03-04", 2, 1, "0-1"]])
    result = cli("run", "--games", season, "--warehouse", w, "--out", out, "--no-reports")
    assert "read 2 = accepted 2 + rejected 0" in result.output
    assert ("dates 2029-03-03 … 2029-03-04: the first games since 2027 (the latest stored before them: 2027-01-09), "
            "more than two years from every game stored: check the year if this is no old event sent late "
            "(ruling D1)") in result.output
    assert query(w, "select max(list_id) from lists") == [("2029-05",)]
    # One game (a file of one date) two years and a day after the latest stored (2029-03-04 →
    # 2031-03-05: 731 days) is no typo either: it is the file's only date. Said too.
    monkeypatch.setenv("RATINGS_TODAY", "2031-06-30")
    one = write_rows(tmp_path / "one.csv", GAMES, [["2031-03-05", 1, 2, "1-0"]])
    result = cli("run", "--games", one, "--warehouse", w, "--out", out, "--no-reports")
    assert "read 1 = accepted 1 + rejected 0" in result.output
    assert "date 2031-03-05: the first games since 2029 (the latest stored before them: 2029-03-04)" in result.output


def test_a_date_near_a_game_stored_or_its_event_is_no_typo(cli, small_federation, tmp_path):
    # Ruling D1 is "more than two years from every other date of its own file AND from every
    # game stored". Validated without rating (no list yet: no history bound); `rate` on the
    # registry alone makes the warehouse one of chess (its events are chess events).
    w = tmp_path / "w.duckdb"
    cli("ingest", small_federation["players"], small_federation["ratings"], "--warehouse", w)
    cli("rate", "--warehouse", w)
    first = write_rows(tmp_path / "autumn.csv", GAMES, [["2026-09-05", 1, 2, "1-0"], ["2026-09-12", 2, 3, "1-0"]])
    cli("ingest", first, "--warehouse", w)
    cli("validate", "--warehouse", w)
    # 2027-03-01 is 2.9 years from the file's other date, 2030-01-10, but 170 days after the
    # stored 2026-09-12: no typo. 2030-01-10 is 2.9 years from 2027-03-01 (1,046 days / 365.25
    # = 2.86 → 2.9) and 3.3 years from every game stored: a typo.
    second = write_rows(tmp_path / "second.csv", GAMES, [["2027-03-01", 1, 3, "1-0"], ["2030-01-10", 3, 1, "1-0"]])
    cli("ingest", second, "--warehouse", w)
    result = cli("validate", "--warehouse", w, rejected=True).output
    assert "read 2 = accepted 1 + rejected 1" in result
    assert ("row 2: date: 2030-01-10 is more than two years from every other date of its file and from every game "
            "stored (the nearest: 2027-03-01, 2.9 years earlier): likely a typo") in result
    # An event's own start and end are dates of the file: a game of the Archive cup (an events
    # file: 2019-01-05 … 2019-12-20) dated 2019-06-01 is 7 years from the file's other rows
    # (2026-09-19) and every game stored, but 5 months from its event's start: no typo.
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date"],
                        [["Archive", "Archive cup", "2019-01-05", "2019-12-20"]])
    cli("ingest", events, "--warehouse", w)
    cli("validate", "--warehouse", w)
    archive = write_rows(tmp_path / "archive.csv", [*GAMES, "event"], [["2019-06-01", 1, 4, "1-0", "Archive"],
                                                                      ["2026-09-19", 4, 1, "1-0", ""]])
    cli("ingest", archive, "--warehouse", w)
    assert "read 2 = accepted 2 + rejected 0" in cli("validate", "--warehouse", w).output


# Ruling D2's hand case. F's 1919-05-01 is more than two years from its file's other dates
# (2026) and, alone, from every game stored: a typo. G's two days of 1919-06 hang together:
# never a typo, however far from the games stored. Stored first, G's 1919-06-01 lies a month
# from F's 1919-05-01, which is then no typo. Whichever comes first, all five rows are games.
F_ROWS = [["1919-05-01", 1, 2, "1-0"], ["2026-09-05", 3, 4, "1-0"], ["2026-09-06", 4, 3, "1-0"]]
G_ROWS = [["1919-06-01", 1, 3, "1-0"], ["1919-06-02", 3, 1, "0-1"]]


def _validated(cli, tmp_path: Path, name: str, players: dict, batches: list[list[Path]]) -> tuple[list, list]:
    """A warehouse given the registry, then each batch of files ingested together and
    validated: its stored games and its open rejects (file name, row, reason)."""
    w = tmp_path / f"{name}.duckdb"
    cli("ingest", players["players"], players["ratings"], "--warehouse", w)
    cli("validate", "--warehouse", w)
    for batch in batches:
        cli("ingest", *batch, "--warehouse", w)
        cli("validate", "--warehouse", w, ok=False)
    games = query(w, "select date::varchar, white_id, black_id, result from games order by all")
    rejects = query(w, """select s.name, r.row_number, r.reason from rejects r join source_files f using (file_id)
                          join submissions s using (submission_id) where r.status = 'open' order by all""")
    return games, rejects


def test_the_order_files_are_validated_in_changes_nothing(cli, small_federation, tmp_path):
    f = write_rows(tmp_path / "f.csv", GAMES, F_ROWS)
    g = write_rows(tmp_path / "g.csv", GAMES, G_ROWS)
    every_way = {
        "f then g": _validated(cli, tmp_path, "fg", small_federation, [[f], [g]]),
        "g then f": _validated(cli, tmp_path, "gf", small_federation, [[g], [f]]),
        "together, f first": _validated(cli, tmp_path, "together_fg", small_federation, [[f, g]]),
        "together, g first": _validated(cli, tmp_path, "together_gf", small_federation, [[g, f]]),
    }
    stored = sorted([d, w, b, r] for d, w, b, r in (tuple(x) for x in [*F_ROWS, *G_ROWS]))
    for way, (games, rejects) in every_way.items():
        assert sorted([d, w, b, r] for d, w, b, r in games) == stored, way
        assert rejects == [], way


def test_f_first_then_g_says_the_typo_is_taken_in(cli, small_federation, tmp_path):
    # F alone: its 1919 row is refused; G then comes within a month of it: examined again, taken in.
    w = tmp_path / "w.duckdb"
    cli("ingest", small_federation["players"], small_federation["ratings"], "--warehouse", w)
    cli("ingest", write_rows(tmp_path / "f.csv", GAMES, F_ROWS), "--warehouse", w)
    assert "read 3 = accepted 2 + rejected 1" in cli("validate", "--warehouse", w, rejected=True).output
    cli("ingest", write_rows(tmp_path / "g.csv", GAMES, G_ROWS), "--warehouse", w)
    result = cli("validate", "--warehouse", w).output
    assert "examined again 1 = accepted 1 + rejected 0" in result
    assert ("rows refused as likely typos, examined again: games stored since lie within two years of them "
            "(ruling D2)") in result
    assert query(w, "select status from rejects") == [("taken in",)]
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_in_one_run_the_typo_is_taken_in_once_the_next_file_is(cli, small_federation, tmp_path):
    # `run` stages its files in memory and validates them in turn: F's 1919 row is refused,
    # G's 1919-06 days are stored (said: before 2026, the earliest stored), then F's row is
    # examined again and taken in; the run ends with no reject (exit 0). Only what a
    # validation took in is said far from the games stored: not F's 2026 rows again.
    f = write_rows(tmp_path / "f.csv", GAMES, F_ROWS)
    g = write_rows(tmp_path / "g.csv", GAMES, G_ROWS)
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                 "--games", f, "--games", g, "--warehouse", w, "--out", tmp_path / "out", "--no-reports").output
    assert "f.csv  read 3 = accepted 3 + rejected 0" in result  # reported once, as it ends up
    assert ("1 of its rows refused as likely typos, examined again once games stored since lie within two years of "
            "them: 1 taken in (ruling D2)") in result
    assert result.count("more than two years from every game stored: check the year") == 1
    assert "dates 1919-06-01 … 1919-06-02: games before 2026 (the earliest stored: 2026-09-05)" in result
    assert query(w, "select count(*) from games") == [(5,)]


# Six real Go tournament files (tests/fixtures/go/README.md), oldest first: events of
# 1996-05-21 (the World Amateur Championship, 15 years before the next), 2011-07-24,
# 2017-02-11, 2019-10-26, 2020-12-22 and 2024-07-06, each dated on its start (the formats
# have no round dates): every file one date, so no game of them is ever a typo (D1), and
# whatever the order, every game is stored, or refused for a reason other than its date (D2).
GO_FILES = ["egd_wagc_1996.txt", "opengotha_egc2011_doctype.xml", "opengotha_export_2017.h9",
            "opengotha_juvisy_2019.h9", "opengotha_simpleswiss_excerpt.xml", "pairgoth_bosp2024_excerpt.xml"]


def _go_warehouse(cli, tmp_path: Path, name: str, batches: list[list[str]]) -> tuple[list, list]:
    """A warehouse given the Go files, each batch ingested together (new players registered)
    and validated: its games (players by name) and its open rejects."""
    tmp_path.mkdir()
    w = tmp_path / f"{name}.duckdb"
    for batch in batches:
        copies = []
        for file in batch:
            shutil.copyfile(GO / file, tmp_path / file)
            copies.append(tmp_path / file)
        cli("ingest", *copies, "--register-new", "--warehouse", w)
        cli("validate", "--warehouse", w, ok=False)
    # New players' ids follow the order they were registered in: the games by names.
    games = query(w, """select g.event_id, g.date::varchar, b.name, wh.name, g.winner, g.handicap
                        from go_games g join players b on b.player_id = g.black_id
                        join players wh on wh.player_id = g.white_id order by all""")
    rejects = query(w, """select s.name, r.row_number, r.reason from rejects r join source_files f using (file_id)
                          join submissions s using (submission_id) where r.status = 'open' order by all""")
    return games, rejects


def test_six_go_events_oldest_first_newest_first_or_together_keep_the_same_games(cli, tmp_path):
    forward = _go_warehouse(cli, tmp_path / "forward", "w", [[f] for f in GO_FILES])
    backward = _go_warehouse(cli, tmp_path / "backward", "w", [[f] for f in reversed(GO_FILES)])
    together = _go_warehouse(cli, tmp_path / "together", "w", [list(reversed(GO_FILES))])
    assert forward == backward == together
    games, rejects = forward
    # 184 + 2708 + 31 + 36 + 12 + 9 games: each stored or rejected, none for its date.
    assert len(games) + len(rejects) == 184 + 2708 + 31 + 36 + 12 + 9
    assert {event for event, *_ in games} == {"World_Amateur_Go_Championship_1996", "egc2011",
                                              "Test_Participation_et_Licence_FFG", "Tournoi_de_Juvisy",
                                              "veteran2swiss", "bosp2024"}
    # The World Amateur Championship of 1996: its 184 games stored, dated on its start.
    assert sum(1 for event, date, *_ in games if event == "World_Amateur_Go_Championship_1996"
               and date == "1996-05-21") == 184
    assert not [reason for *_, reason in rejects if "date" in reason]


def test_an_older_go_event_sent_late_is_taken_in_and_said(cli, tmp_path):
    # The case on real files: an OpenGotha export of 2017-02-11 (31 games) given
    # after one of 2019-10-26 (36 games) lost all its games as "2.7 years before the
    # earliest other game … likely a typo". A file of one date is never a typo (D1): taken
    # in; the Go rules make it the first event; the report says how far it lies.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    for name in ("opengotha_juvisy_2019.h9", "opengotha_export_2017.h9"):
        shutil.copyfile(GO / name, tmp_path / name)
    cli("run", "--system", "go-belgium", "--games", tmp_path / "opengotha_juvisy_2019.h9", "--register-new",
        "--warehouse", w, "--out", out, "--no-reports")
    result = cli("run", "--games", tmp_path / "opengotha_export_2017.h9", "--register-new", "--warehouse", w,
                 "--out", out, "--no-reports").output
    assert "read 31 = accepted 31 + rejected 0" in result
    assert "date 2017-02-11: games before 2019 (the earliest stored: 2019-10-26)" in result
    assert query(w, "select list_id from lists order by position") == [("Test_Participation_et_Licence_FFG",),
                                                                        ("Tournoi_de_Juvisy",)]
