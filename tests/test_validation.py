"""Validation: one bad row of each kind, every one rejected with its reason,
and read = accepted + rejected for every file."""
from __future__ import annotations

import duckdb

from tests.conftest import write_rows


def rejects_by_row(con, path) -> dict[int, str]:
    rows = con.execute("""select r.row_number, r.reason from rejects r join source_files f using (file_id)
                          where f.path like ? order by 1""", [f"%{path.name}"]).fetchall()
    return dict(rows)


def test_each_bad_row_is_rejected_with_its_reason(cli, tmp_path):
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year", "club"], [
        [1, "Ann", 1980, "A"],  # 1 ok
        [2, "Bob", 1990, ""],  # 2 ok
        [3, "Cy", "", ""],  # 3 ok: birth year may be blank
        ["x7", "Dee", 1990, ""],  # 4 id not a number
        [5, "", 1990, ""],  # 5 no name
        [6, "Eve", 1850, ""],  # 6 impossible birth year
        [2, "Bob again", 1990, ""],  # 7 listed twice
        [8, "Fay", 3000, ""],  # 8 born in the future
    ])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "archive_performance", "archive_games"], [
        [1, 1800, "", ""],  # 1 ok
        [3, "", 1500, 3],  # 2 ok: unrated with archives
        [2, -5, "", ""],  # 3 negative rating
        [99, 1700, "", ""],  # 4 not in the registry
        [2, 9999, "", ""],  # 5 absurd rating
        [2, 1700, 1600, 4],  # 6 a rated player with archives
        [2, "", 1600, 12],  # 7 too many archived games
        [2, "", "", ""],  # 8 nothing at all
    ])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "round"], [
        ["2026-09-05", 1, 2, "1-0", 1],  # 1 ok
        ["2026-09-05", 2, 3, "-/+", 1],  # 2 ok: a forfeit is stored, not rated
        ["2026-09-06", 1, 2, "1-1", 2],  # 3 unknown result
        ["2026-02-30", 1, 2, "0-1", 3],  # 4 impossible date
        ["2026-09-07", 2, 2, "1-0", 4],  # 5 a player against themself
        ["2026-09-08", 1, 42, "1-0", 5],  # 6 black not in the registry
        ["2026-09-05", 1, 2, "1-0", 1],  # 7 duplicate of row 1
        ["07/09/2026", 1, 3, "1-0", 6],  # 8 not ISO
        ["2026-09-09", "", 3, "1-0", 7],  # 9 white missing
        ["２０２６-09-10", 1, 3, "1-0", 8],  # 10 full-width digits (pandas reads them, DuckDB's cast not)
    ])
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", players, "--ratings", ratings, "--games", games,
                 "--warehouse", w, "--out", tmp_path / "out", rejected=True)
    assert "read 8 = accepted 3 + rejected 5" in result.output
    assert "read 10 = accepted 2 + rejected 8" in result.output
    con = duckdb.connect(str(w), read_only=True)

    p = rejects_by_row(con, players)
    assert sorted(p) == [4, 5, 6, 7, 8]
    assert "player_id: not a whole-number id of at most 15 digits (got 'x7')" in p[4]
    assert "name: missing value" in p[5]
    assert "impossible birth year" in p[6] and "1850" in p[6]
    assert "listed again (first at row 2)" in p[7]
    assert "impossible birth year" in p[8]

    r = rejects_by_row(con, ratings)
    assert sorted(r) == [3, 4, 5, 6, 7, 8]
    assert "negative or absurd rating" in r[3] and "-5" in r[3]
    assert "99 is not in the player registry" in r[4]
    assert "negative or absurd rating" in r[5] and "9999" in r[5]
    assert "a rated player has no archives" in r[6]
    assert "archived games must be a whole number from 1 to 7" in r[7]
    assert "neither a rating nor archives" in r[8]

    g = rejects_by_row(con, games)
    assert sorted(g) == [3, 4, 5, 6, 7, 8, 9, 10]
    assert "result: unknown code (got '1-1')" in g[3]
    assert "date: not a calendar date (2026-02-30)" in g[4]
    assert "a player plays against themself (player 2)" in g[5]
    assert "black_id: 42 is not in the player registry" in g[6]
    assert "duplicate game: same as row 1 of this file" in g[7]
    assert "07/09/2026" in g[8]
    assert "white_id: missing value" in g[9]
    assert "date: unparseable date" in g[10]

    # Nothing lost: per file, read = accepted + rejected, and the tables agree.
    audit = con.execute("""select f.kind, f.rows_read, f.rows_accepted, f.rows_rejected,
                                  (select count(*) from rejects r where r.file_id = f.file_id)
                           from source_files f order by f.kind""").fetchall()
    for kind, read, accepted, rejected, in_rejects in audit:
        assert read == accepted + rejected and rejected == in_rejects, kind
    assert con.execute("select count(*) from players").fetchall() == [(3,)]
    assert con.execute("select count(*) from games").fetchall() == [(2,)]
    assert con.execute("select result, white_score from games order by row_number").fetchall() == [
        ("1-0", 1.0), ("-/+", None)]
    # The raw row is kept with the reason, so nothing typed in is lost.
    assert con.execute("""select record->>'date' from rejects r join source_files f using (file_id)
                          where f.kind = 'games' and r.row_number = 4""").fetchall() == [("2026-02-30",)]


def test_game_outside_every_calendar_window(cli, small_federation, tmp_path):
    calendar = write_rows(tmp_path / "calendar.csv", ["list_id", "window_start", "window_end"], [
        ["2027-01", "2026-09-01", "2026-12-31"],
    ])
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                 "--calendar", calendar, "--games", small_federation["games"], "--warehouse", w,
                 "--out", tmp_path / "out", rejected=True)
    assert "read 10 = accepted 9 + rejected 1" in result.output
    con = duckdb.connect(str(w), read_only=True)
    assert con.execute("select row_number, reason from rejects").fetchall() == [
        (10, "date: 2027-01-09 is outside every calendar window")]


def test_overlapping_calendar_windows_are_rejected(cli, tmp_path):
    calendar = write_rows(tmp_path / "calendar.csv", ["list_id", "window_start", "window_end"], [
        ["2027-01", "2026-09-01", "2026-12-31"],
        ["2027-05", "2026-12-15", "2027-04-30"],  # overlaps 2027-01
        ["2027-09", "2027-08-31", "2027-05-01"],  # ends before it starts
        ["2027-9", "2027-05-01", "2027-08-31"],  # not YYYY-MM
    ])
    w = tmp_path / "w.duckdb"
    result = cli("ingest", "--calendar", calendar, "--warehouse", w)
    assert "4 rows staged" in result.output
    result = cli("validate", "--warehouse", w, rejected=True)
    assert "read 4 = accepted 1 + rejected 3" in result.output
    con = duckdb.connect(str(w), read_only=True)
    reasons = dict(con.execute("select row_number, reason from rejects").fetchall())
    assert "overlaps that of list 2027-01" in reasons[2]
    assert "window ends before it starts" in reasons[3]
    assert "list_id: not a list id YYYY-MM" in reasons[4] and "2027-9" in reasons[4]


def test_file_missing_a_column_is_refused_whole_and_nothing_is_stored(cli, small_federation, tmp_path):
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id"], [
        ["2026-09-05", 1, 2], ["2026-09-06", 2, 3]])
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", small_federation["players"], "--games", games, "--warehouse", w,
                 "--out", tmp_path / "out", ok=False)
    assert result.exit_code == 1 and "games.csv: given as a games file, it lacks the column result" in result.output
    con = duckdb.connect(str(w), read_only=True)
    # the run is one transaction: the registry given with it is not taken in either
    assert con.execute("select (select count(*) from rejects) + (select count(*) from players)").fetchall()[0][0] == 0


def test_unreadable_file_is_a_clear_error(cli, tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    result = cli("ingest", "--games", empty, "--warehouse", tmp_path / "w.duckdb", ok=False)
    assert result.exit_code != 0
    assert "empty.csv: the file is empty" in result.output


def test_latin1_and_semicolons_are_read(cli, small_federation, tmp_path):
    # A Latin-1 file (½ is byte 0xBD) with semicolons and CRLF, as a spreadsheet exports it.
    games = tmp_path / "games-latin1.csv"
    games.write_bytes(b"date;white_id;black_id;result\r\n2026-09-05;1;2;\xbd-\xbd\r\n2026-09-06;2;1;1-0\r\n")
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                 "--games", games, "--warehouse", w, "--out", tmp_path / "out")
    assert "read 2 = accepted 2 + rejected 0" in result.output
    con = duckdb.connect(str(w), read_only=True)
    assert con.execute("select result, white_score from games order by date").fetchall() == [
        ("1/2-1/2", 0.5), ("1-0", 1.0)]

def test_an_inherited_check_gives_its_reason_in_every_model(cli, tmp_path):
    # PlayersInput and RatingsInput inherit PlayerRows' id check; pandera names it only in
    # the first model built (here the players'), the others got "player_id: _id".
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "Anna"], ["x2", "Bad"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1500], ["x3", 1600]])
    out = cli("run", "--players", players, "--ratings", ratings, "--warehouse", tmp_path / "w.duckdb",
              "--out", tmp_path / "out", "--no-reports", rejected=True).output
    assert "players.csv, row 2: player_id: not a whole-number id of at most 15 digits (got 'x2')" in out
    assert "ratings.csv, row 2: player_id: not a whole-number id of at most 15 digits (got 'x3')" in out
