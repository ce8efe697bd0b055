"""Real tournament files and tables mutated as real writers and real mistakes do: each
one taken in with every row stored or rejected, or refused whole in one message, and
the listings and output folders that follow them kept whole."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import duckdb
import pytest

from tests.conftest import write_rows

FIXTURES = Path(__file__).parent / "fixtures"
# The Belgian interclub FIDE report: 042 = 052 = 2024-09-29 and one 132 date, 29/09/24
# (DD/MM/YY); 16 player lines (grep -c '^001'), each in one round-1 game: 8 games.
INTERCLUBS = FIXTURES / "trf" / "belgian_interclubs_fide_2024_r1_ddmmyy_excerpt.txt"
INTERCLUBS_GAMES = 8


def _interclubs(tmp_path: Path, start: str, end: str, date: str) -> Path:
    text = INTERCLUBS.read_text(encoding="latin-1")
    text = text.replace("042 2024-09-29", f"042 {start}").replace("052 2024-09-29", f"052 {end}")
    path = tmp_path / "interclubs.trf"
    path.write_text(text.replace("29/09/24", date), encoding="latin-1")
    return path


def _stored_dates(w: Path) -> list:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.sql("select distinct date from games order by date").fetchall()


def test_132_dates_that_read_inside_the_event_in_two_orders_are_not_guessed(cli, tmp_path):
    # 05/06/24 in an event of 2024-05-01..2024-06-30: the spec's YY/MM/DD reads 2005-06-24
    # (outside), DD/MM/YY 2024-06-05 and MM/DD/YY 2024-05-06, both inside: two days the
    # games could have been played on, and the file does not say which.
    trf = _interclubs(tmp_path, "2024-05-01", "2024-06-30", "05/06/24")
    w = tmp_path / "w.duckdb"
    said = cli("ingest", trf, "--register-new", "--warehouse", w).output
    assert "in more than one order (DD/MM/YY: 05/06/24 = 2024-06-05; MM/DD/YY: 05/06/24 = 2024-05-06)" in said
    assert "read as DD/MM/YY" not in said
    checked = cli("validate", "--warehouse", w, rejected=True).output
    # 8 games, each rejected for its round's date, + 2 problems of line 13 (the two orders,
    # the round outside the event) = 10 rows read, none stored.
    assert f"games     {trf}  read {INTERCLUBS_GAMES + 2} = accepted 0 + rejected {INTERCLUBS_GAMES + 2}" in checked
    assert _stored_dates(w) == []


def test_132_dates_that_two_orders_read_as_the_same_day_are_taken(cli, tmp_path):
    # 05/05/24: DD/MM/YY and MM/DD/YY both read 2024-05-05: no doubt, said once.
    trf = _interclubs(tmp_path, "2024-05-01", "2024-06-30", "05/05/24")
    w = tmp_path / "w.duckdb"
    said = cli("ingest", trf, "--register-new", "--warehouse", w).output
    assert said.count("read as DD/MM/YY (05/05/24 = 2024-05-05)") == 1 and "more than one order" not in said
    checked = cli("validate", "--warehouse", w).output
    assert f"read {INTERCLUBS_GAMES} = accepted {INTERCLUBS_GAMES} + rejected 0" in checked
    assert [d.isoformat() for (d,) in _stored_dates(w)] == ["2024-05-05"]


@pytest.mark.parametrize("given, path, said", [
    ("--players", FIXTURES / "trf" / "lichess_swiss_2020_06.trf", "(FIDE TRF or SWAR)"),
    ("--ratings", FIXTURES / "go" / "opengotha_egc2011_doctype.xml", "(OpenGotha XML)"),
    ("--events", FIXTURES / "go" / "opengotha_juvisy_2019.tou", "(FFG .tou)"),
    ("--calendar", FIXTURES / "go" / "opengotha_juvisy_2019.h9", "(EGD results)"),
])
def test_a_tournament_report_given_as_a_table_is_refused_as_one(cli, tmp_path, given, path, said):
    # Read as a CSV table, its first line passed for columns: "it has 012 mai 5 plus 0 turnier".
    w = tmp_path / "w.duckdb"
    refused = cli("ingest", given, path, "--warehouse", w, ok=False)
    assert refused.exit_code == 1, refused.output
    assert f"given as an {given[2:]}" in refused.output or f"given as a {given[2:]}" in refused.output
    assert f"it is a tournament report {said}" in refused.output and "give it as --games" in refused.output
    assert "it has" not in refused.output and "unexpected" not in refused.output
    listed = cli("submissions", "--warehouse", w, "--format", "json", ok=False)
    assert listed.exit_code != 0 or json.loads(listed.output) == []


@pytest.mark.parametrize("text", ["012 Nothing here\n", "012 Tags only\n042 2024-01-01\n"])
def test_a_tournament_file_of_tags_and_no_player_is_read_as_no_game(cli, tmp_path, text):
    # Was "unexpected TypeError: operation 'add' not supported for dtype 'str' with dtype 'float64'".
    trf = tmp_path / "tags.trf"
    trf.write_text(text)
    w = tmp_path / "w.duckdb"
    said = cli("ingest", trf, "--warehouse", w).output
    assert "0 players" in said and "0 games" in said and "unexpected" not in said
    assert f"games     {trf}  read 0 = accepted 0 + rejected 0" in cli("validate", "--warehouse", w).output


def test_a_tournament_file_without_012_is_said_unnamed(cli, tmp_path):
    # The tie-break exercise's 16 player lines alone: no 012, no 042.
    lines = (FIXTURES / "trf" / "tiebreak_exercises_swiss_5.trf").read_text().splitlines()
    trf = tmp_path / "players-only.trf"
    trf.write_text("\n".join(line for line in lines if line.startswith("001")) + "\n")
    said = cli("ingest", trf, "--warehouse", tmp_path / "w.duckdb").output
    assert "1 event (unnamed: no tag 012)" in said and "(None)" not in said


@pytest.fixture
def rated(cli, tmp_path):
    """One list (2027-01) of four players from three games, and a file of their ratings."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[1, "Anna", 1980], [2, "Bert", 1975], [3, "Cara", 1990], [4, "Dirk", 1985]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"],
                         [[1, 1800], [2, 1700], [3, 1600], [4, 1500]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-09-05", 1, 2, "1-0"], ["2026-09-05", 3, 4, "1/2-1/2"], ["2026-09-12", 2, 3, "0-1"]])
    w = tmp_path / "w.duckdb"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w,
        "--out", tmp_path / "out", "--no-reports")
    theirs = write_rows(tmp_path / "theirs.csv", ["player_id", "list_period", "rating"],
                        [[p, period, r] for period in ("202608", "202701")
                         for p, r in ((1, 1800), (2, 1700), (3, 1600), (4, 1500))])
    return w, theirs


def test_columns_are_matched_without_case_on_our_side_too(cli, rated):
    w, theirs = rated
    printed = cli("evaluate", "--system", "performance", "--ratings", theirs, "--warehouse", w,
                  "--columns", "LIST_ID=list_period", "--format", "json").stdout
    assert {row["source"] for row in json.loads(printed)} == {"performance", "theirs"}


@pytest.mark.parametrize("columns, twice", [
    ("list_id=list_period,player_id=list_period", "list_period would be read as both player_id and list_id"),
    ("list_id=Player_ID", "player_id would be read as both player_id and list_id"),
])
def test_one_file_column_read_as_two_of_ours_is_refused(cli, rated, columns, twice):
    # Was a reading of every row as a duplicate: "rows 1, 2, 3, ..., 8: player 202609 has two ratings".
    w, theirs = rated
    refused = cli("evaluate", "--system", "performance", "--ratings", theirs, "--warehouse", w,
                  "--columns", columns, ok=False)
    assert refused.exit_code == 1 and twice in refused.output and "has two ratings" not in refused.output


def test_a_player_rated_many_times_on_one_list_names_a_few_rows(cli, rated, tmp_path):
    w, _ = rated
    # player 1 seven times on 2027-01: rows 1-7
    many = write_rows(tmp_path / "many.csv", ["player_id", "list_id", "rating"], [[1, "2027-01", 1600]] * 7)
    refused = cli("evaluate", "--ratings", many, "--warehouse", w, ok=False)
    assert "rows 1, 2, 3, 4, 5 and 2 more: player 1 has 7 ratings on list 2027-01" in refused.output


def test_query_out_into_a_site_is_refused(cli, rated, tmp_path):
    # A site is uploaded whole: a query's file in it would publish what it holds.
    w, _ = rated
    cli("site", "--warehouse", w, "--out", tmp_path / "site")
    for target in (tmp_path / "site" / "birth.csv", tmp_path / "site" / "en" / "birth.parquet"):
        refused = cli("query", "--warehouse", w, "--out", target, "select player_id, birth_year from players", ok=False)
        assert refused.exit_code == 1 and "the output of `ratings site`" in refused.output
        assert not target.exists()
    cli("site", "--warehouse", w, "--out", tmp_path / "site")  # still the site's own folder


def test_query_out_takes_an_upper_case_extension(cli, rated, tmp_path):
    w, _ = rated
    cli("query", "--warehouse", w, "--out", tmp_path / "r.CSV", "select 1 as a")
    cli("query", "--warehouse", w, "--out", tmp_path / "r.Parquet", "select 1 as a")
    assert (tmp_path / "r.CSV").read_text().splitlines() == ['"a"', "1"]
    assert (tmp_path / "r.Parquet").read_bytes()[:4] == b"PAR1"


def test_a_listing_table_keeps_a_row_a_line(cli, tmp_path):
    # A file named with a line break, and a query's values with a tab and a line break:
    # the table shows them as U+FFFD; CSV and JSON keep them, quoted and escaped.
    named = write_rows(tmp_path / 'we"ird\nname.csv', ["player_id", "name"], [[9, 'Nine "N"']])
    w = tmp_path / "w.duckdb"
    cli("ingest", "--players", named, "--warehouse", w)
    table = cli("submissions", "--warehouse", w).output.splitlines()
    assert len(table) == 2 and 'we"ird\ufffdname.csv' in table[1]  # the header, one submission
    rows = list(csv.reader(io.StringIO(cli("submissions", "--warehouse", w, "--format", "csv").output)))
    assert rows[1][1] == 'we"ird\nname.csv' and len(rows[0]) == len(table[0].split())
    assert json.loads(cli("submissions", "--warehouse", w, "--format", "json").output)[0]["name"] == 'we"ird\nname.csv'
    query = "select 'a' || chr(10) || 'b' as x, 'c' || chr(9) || 'd' as y"
    assert cli("query", "--warehouse", w, query).output.splitlines() == ["x    y", "a\ufffdb  c\ufffdd"]
    assert json.loads(cli("query", "--warehouse", w, "--format", "json", query).output) == [{"x": "a\nb", "y": "c\td"}]


def test_a_one_day_event_without_052_keeps_its_rounds_on_its_day(cli, tmp_path):
    # The interclub report without its 052 line: 042 2024-09-29 and 29/09/24 in 132. Read as
    # the spec's YY/MM/DD it is 2029-09-24, after the start, so nothing bounded it: its 8
    # games were filed five years on, without a word. DD/MM/YY puts round 1 on 042's day.
    text = INTERCLUBS.read_text(encoding="latin-1").replace("052 2024-09-29\n", "")
    trf = tmp_path / "no-end.trf"
    trf.write_text(text, encoding="latin-1")
    w = tmp_path / "w.duckdb"
    said = cli("ingest", trf, "--register-new", "--warehouse", w).output
    assert said.count("read as DD/MM/YY (29/09/24 = 2024-09-29)") == 1
    assert "the first round falls on 2029-09-24, not on the start date 2024-09-29" in said
    checked = cli("validate", "--warehouse", w).output
    assert f"read {INTERCLUBS_GAMES} = accepted {INTERCLUBS_GAMES} + rejected 0" in checked
    assert [d.isoformat() for (d,) in _stored_dates(w)] == ["2024-09-29"]


def test_an_event_without_052_whose_first_round_is_not_on_042_keeps_the_spec_order(cli, tmp_path):
    # 042 2024-09-01 and 24/09/29: the spec's 2024-09-29, after the start; DD/MM/YY would be
    # 2029-09-24, on no start date either: nothing says the writer's order is another.
    text = INTERCLUBS.read_text(encoding="latin-1").replace("052 2024-09-29\n", "")
    trf = tmp_path / "no-end.trf"
    trf.write_text(text.replace("042 2024-09-29", "042 2024-09-01").replace("29/09/24", "24/09/29"),
                   encoding="latin-1")
    w = tmp_path / "w.duckdb"
    assert "read as DD/MM/YY" not in cli("ingest", trf, "--register-new", "--warehouse", w).output
    cli("validate", "--warehouse", w)
    assert [d.isoformat() for (d,) in _stored_dates(w)] == ["2024-09-29"]


@pytest.fixture
def with_a_reject(cli, tmp_path):
    """Three registered players, one of them rejected (birth year 19x5), two rated, two
    games between those: one list published (2027-01) and a site written."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[1, "Anna", 1980], [2, "Bert", "19x5"], [3, "Cara", 1990]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"],
                       [["2026-09-05", 1, 3, "1-0"], ["2026-09-12", 3, 1, "1/2-1/2"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [3, 1600]])
    w = tmp_path / "w.duckdb"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w,
        "--out", tmp_path / "out", "--no-reports", rejected=True)
    cli("site", "--warehouse", w, "--out", tmp_path / "site")
    return w, players


def test_rejects_out_never_writes_over_the_warehouse_an_input_or_a_publication(cli, with_a_reject, tmp_path):
    # `rejects --out w.duckdb` replaced the warehouse by a CSV of one row: every list,
    # state and record lost, and the next command could not open it.
    w, players = with_a_reject
    before = {p: p.read_bytes() for p in (players, tmp_path / "out" / "lists" / "2027-01-r1.csv")}
    for target, said in ((w, "it is the warehouse or one of its input files"),
                         (players, "it is the warehouse or one of its input files"),
                         (tmp_path / "out" / "lists" / "2027-01-r1.csv", "published lists and states"),
                         (tmp_path / "out" / "state" / "fix.csv", "published lists and states"),
                         (tmp_path / "site" / "fix.csv", "the output of `ratings site`")):
        refused = cli("rejects", "--out", target, "--warehouse", w, ok=False)
        assert refused.exit_code == 1 and said in refused.output, refused.output
    assert all(p.read_bytes() == content for p, content in before.items())
    assert not (tmp_path / "site" / "fix.csv").exists() and not (tmp_path / "out" / "state" / "fix.csv").exists()
    listed = json.loads(cli("submissions", "--warehouse", w, "--format", "json").output)
    # players: 3 read = 2 stored + 1 rejected; games: 2 read = 2 stored
    assert [(s["name"], s["read"], s["stored"], s["rejected"]) for s in listed] == [
        ("players.csv", 3, 2, 1), ("ratings.csv", 2, 2, 0), ("games.csv", 2, 2, 0)]
    assert "1 rejected players rows written" in cli("rejects", "--out", tmp_path / "fix.csv", "--warehouse", w).output


def test_a_list_no_player_is_on_yet_has_its_site_page_and_its_pairing_files(cli, tmp_path):
    # Two unrated players and two games between them: 2027-01 is computed with nobody on it
    # (8 games make an entry). The site stopped on "unexpected KeyError: '2027-01'", and
    # --format txt,swiss-manager wrote no file for the list, without a word.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[1, "Anna", 1980], [3, "Cara", 1990]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"],
                       [["2026-09-05", 1, 3, "1-0"], ["2026-09-12", 3, 1, "1/2-1/2"]])
    w = tmp_path / "w.duckdb"
    cli("run", "--players", players, "--games", games, "--warehouse", w, "--out", tmp_path / "out", "--no-reports",
        "--format", "csv,parquet,txt,swiss-manager")
    lists = tmp_path / "out" / "lists"
    assert (lists / "2027-01.csv").read_text().splitlines()[1:] == []
    assert (lists / "2027-01.txt").read_text().splitlines()[0].startswith("ID Number")
    assert len((lists / "2027-01.txt").read_text().splitlines()) == 1
    assert (lists / "2027-01-swiss-manager.csv").read_text().splitlines()[0].startswith('"ID_No";"Name"')
    said = cli("site", "--warehouse", w, "--out", tmp_path / "site").output
    assert "0 players, 1 list" in said
    assert '"rows":[]' in (tmp_path / "site" / "api" / "v1" / "lists" / "2027-01.json").read_text()
    assert (tmp_path / "site" / "en" / "lists" / "2027-01.html").is_file()
