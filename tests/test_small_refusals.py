"""Issue 36, "messages and small refusals": each failure a user can meet is one message
naming what and where, and a non-zero exit; nothing of theirs is overwritten."""
from __future__ import annotations

import csv
import errno
import os
import pathlib
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.as_user import ratings, tree
from tests.conftest import write_rows


def _refused(result, code: int = 1) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output and "unexpected" not in result.output, result.output
    return result.output


def _scalar(w: Path, sql: str):
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql).fetchall()[0][0]


# 1. A scenario is never published.

def test_site_refuses_a_scenario(cli, published, tmp_path):
    w, _ = published
    rules = tmp_path / "quota12.toml"
    rules.write_text("senior_quota = 12\n")
    cli("scenario", "quota12", "--rules", rules, "--warehouse", w)
    said = _refused(cli("site", "--system", "quota12", "--out", tmp_path / "site", "--warehouse", w, ok=False))
    assert "quota12 is a scenario, and scenarios are never published" in said
    assert "ratings compare performance quota12" in said
    assert not (tmp_path / "site").exists()


# 2. site, compare and evaluate write only into their own folders.

def _federation(tmp_path: Path) -> Path:
    """Another source of ratings to compare the lists with."""
    return write_rows(tmp_path / "federation.csv", ["player_id", "list_id", "rating"],
                      [[p, "2027-01", 1500 + 50 * p] for p in range(1, 6)])


def test_output_folders_holding_a_users_files_are_refused(cli, published, tmp_path):
    w, _ = published
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "index.html").write_text("my own page")
    federation = _federation(tmp_path)
    for args in (("site",), ("compare", "performance", federation), ("evaluate",)):
        said = _refused(cli(*args, "--out", mine, "--warehouse", w, ok=False))
        assert f"{mine} holds files this command did not write" in said and "give another --out" in said
    assert sorted(p.name for p in mine.iterdir()) == ["index.html"]
    assert (mine / "index.html").read_text() == "my own page"


def test_a_command_writes_again_into_its_own_folder_but_not_another_commands(cli, published, tmp_path):
    w, _ = published
    site, empty = tmp_path / "site", tmp_path / "empty"
    empty.mkdir()
    for _ in range(2):
        cli("site", "--out", site, "--lang", "en", "--warehouse", w)
    federation = _federation(tmp_path)
    for _ in range(2):
        cli("compare", "performance", federation, "--out", empty, "--warehouse", w)
    said = _refused(cli("compare", "performance", federation, "--out", site, "--warehouse", w, ok=False))
    assert f"{site} holds `ratings site`'s output" in said


# 3. query --out: never a published list, only the formats it writes.

def test_query_out_never_overwrites_a_published_revision(cli, published, tmp_path):
    w, out = published
    revision = out / "lists" / "2027-01-r1.csv"
    before = revision.read_bytes()
    said = _refused(cli("query", "select 1 as x", "--out", revision, "--warehouse", w, ok=False))
    assert f"{revision}: refused" in said and "published lists" in said
    assert revision.read_bytes() == before
    # Another warehouse's publication (not in this one's record) is recognised by its name.
    elsewhere = tmp_path / "copy" / "lists"
    elsewhere.mkdir(parents=True)
    shutil.copy(revision, elsewhere)
    said = _refused(cli("query", "select 1 as x", "--out", elsewhere / revision.name, "--warehouse", w, ok=False))
    assert "a published revision of a list, never rewritten" in said
    assert (elsewhere / revision.name).read_bytes() == before
    mine = tmp_path / "result.csv"
    for _ in range(2):  # a query written again replaces its own result
        cli("query", "select 1 as x", "--out", mine, "--warehouse", w)
    assert mine.read_text() == "\"x\"\n1\n"


def test_query_out_never_writes_into_a_folder_of_published_lists(cli, published, small_federation, tmp_path):
    # Issue 50: the current list and state files (lists/2027-01.csv, state/2027-01.parquet)
    # were replaced by the result of a warehouse that had not published them, and files
    # beside the lists went out with them, whichever warehouse wrote the result.
    w, out = published
    other = tmp_path / "other.duckdb"  # the same files, published elsewhere: out is not in its record
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", other, "--out", tmp_path / "elsewhere")
    before = tree(out)
    for target in ("out/lists/2027-01.csv", "out/state/2027-01.parquet", "out/lists/2027-01-excel.csv",
                   "out/result.csv", "out/2027-01/result.parquet"):
        for warehouse in ("other.duckdb", "w.duckdb"):
            said = ratings(tmp_path, "query", "select 1 as x", "--out", target, "--warehouse", warehouse, code=1)
            assert f"Error: {target}: refused, it is in {out.resolve()}, a folder of published lists and states " \
                   "(write the result elsewhere)" in said
    said = ratings(tmp_path, "rejects", "--out", "out/rejects.csv", "--warehouse", "w.duckdb", code=1)
    assert f"out/rejects.csv: refused, it is in {out.resolve()}, a folder of published lists" in said
    assert tree(out) == before
    assert "1 row written to result.csv" in ratings(tmp_path, "query", "select 1 as x", "--out", "result.csv",
                                                    "--warehouse", "other.duckdb")


def test_explain_all_writes_only_into_a_folder_of_its_own(published, tmp_path):
    # Issue 50: `explain --all --out DIR` wrote over a user's <player_id>.txt files and
    # into the folder of published lists.
    w, out = published
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "1.txt").write_text("my notes on player 1")
    said = ratings(tmp_path, "explain", "--all", "--list", "2027-01", "--out", "mine", "--warehouse", w, code=1)
    assert "mine holds files this command did not write: `ratings explain` writes only into a new or empty " \
           "folder, or one it wrote before" in said
    assert tree(mine) == {"1.txt": b"my notes on player 1"}
    before = tree(out)
    for inside in ("out", "out/cards", "out/lists"):
        said = ratings(tmp_path, "explain", "--all", "--list", "2027-01", "--out", inside, "--warehouse", w, code=1)
        assert f"Error: {inside}: refused, it is in {out.resolve()}, a folder of published lists and states " \
               "(write the cards elsewhere)" in said
    assert tree(out) == before
    ratings(tmp_path, "site", "--out", "site", "--lang", "en", "--warehouse", w)
    said = ratings(tmp_path, "explain", "--all", "--list", "2027-01", "--out", "site/cards", "--warehouse", w, code=1)
    assert f"site/cards: refused, it is in {(tmp_path / 'site').resolve()}, the output of `ratings site`" in said
    for _ in range(2):  # its own folder, written again
        said = ratings(tmp_path, "explain", "--all", "--list", "2027-01", "--out", "cards", "--warehouse", w)
        assert "cards of list 2027-01 written to cards" in said
    assert "1.txt" in tree(tmp_path / "cards")


def test_query_out_refuses_an_extension_it_does_not_write(cli, published, tmp_path):
    w, _ = published
    said = _refused(cli("query", "select 1", "--out", tmp_path / "x.xlsx", "--warehouse", w, ok=False))
    assert "x.xlsx: write the result to a .csv or .parquet file" in said
    assert not (tmp_path / "x.xlsx").exists()


# 4. A file of ratings: plausible ratings, and rows.

@pytest.mark.parametrize("value", ["nan", "inf", "1e308", "-50", "0", "3001"])
def test_implausible_ratings_in_a_ratings_file_are_refused(cli, published, tmp_path, value):
    w, _ = published
    ratings = write_rows(tmp_path / "federation.csv", ["player_id", "list_id", "rating"],
                         [[1, "2027-01", 1800], [2, "2027-01", value]])
    for args in (("compare", "performance", ratings, "--out", tmp_path / "c"), ("evaluate", "--ratings", ratings)):
        said = _refused(cli(*args, "--warehouse", w, ok=False))
        assert f"{ratings}, row 2: rating {value} is not a plausible chess rating (from 1 to 3000" in said
    assert not (tmp_path / "c").exists()


def test_a_ratings_file_with_only_its_header_is_refused(cli, published, tmp_path):
    w, _ = published
    ratings = write_rows(tmp_path / "federation.csv", ["player_id", "list_id", "rating"], [])
    for args in (("compare", "performance", ratings, "--out", tmp_path / "c"), ("evaluate", "--ratings", ratings)):
        said = _refused(cli(*args, "--warehouse", w, ok=False))
        assert f"{ratings}: a file of ratings with no rows" in said


# 5. What a killed creation left is cleaned.

def test_stale_creation_files_are_removed_at_the_next_connection(cli, published):
    w, _ = published
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()
    dead = [w.with_name(f".{w.name}.creating-{finished.pid}"), w.with_name(f".{w.name}.creating-{finished.pid}.wal")]
    alive = w.with_name(f".{w.name}.creating-{os.getppid()}")  # a process that is running: its creation goes on
    for leftover in (*dead, alive):
        leftover.write_bytes(b"half a warehouse")
    cli("query", "select 1", "--warehouse", w)
    assert not any(p.exists() for p in dead) and alive.exists()


# 6. A full disk names the file.

def _full_disk(monkeypatch):
    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")  # as write() raises it: no file name

    monkeypatch.setattr(pathlib.Path, "write_bytes", full)


def test_a_full_disk_names_the_published_file(cli, published, tmp_path, monkeypatch):
    w, _ = published
    out = tmp_path / "elsewhere"
    _full_disk(monkeypatch)
    said = _refused(cli("publish", "--warehouse", w, "--out", out, ok=False))
    assert "No space left on device" in said and f"{out / 'lists'}/" in said
    assert not list(out.rglob(".*.tmp"))  # no half-written file left behind
    said = _refused(cli("query", "select 1", "--out", tmp_path / "r.csv", "--warehouse", w, ok=False))
    assert f"{tmp_path / 'r.csv'}: No space left on device" in said


def test_a_full_disk_names_the_warehouse_being_created(cli, published, small_federation, tmp_path, monkeypatch):
    new = tmp_path / "new.duckdb"
    _full_disk(monkeypatch)  # `published` made a warehouse: this process writes the next one's bytes
    said = _refused(cli("ingest", small_federation["players"], "--warehouse", new, ok=False))
    assert f"{new}: cannot create the warehouse (No space left on device)" in said
    assert not new.exists() and not list(tmp_path.glob(".new.duckdb.creating-*"))


# 7, 8. Settings: ratings.toml, RATINGS_TODAY, --seed.

def test_a_folder_named_ratings_toml_is_refused(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ratings.toml").mkdir()
    said = _refused(cli("submissions", ok=False))
    assert f"{tmp_path / 'ratings.toml'} is not a file: the settings are a TOML file" in said


def test_a_ratings_today_that_is_no_date_is_one_message(cli, published, monkeypatch):
    w, _ = published
    monkeypatch.setenv("RATINGS_TODAY", "garbage")
    said = _refused(cli("run", "--warehouse", w, "--out", w.parent / "out", ok=False))
    assert "RATINGS_TODAY='garbage': not a date; give it as YYYY-MM-DD" in said


def test_a_negative_seed_is_refused_by_the_option(cli, tmp_path):
    said = _refused(cli("simulate", "--players", 10, "--seed", -1, "--out", tmp_path / "sim", ok=False), code=2)
    assert "Invalid value for '--seed': -1 is not in the range x>=0" in said
    assert not (tmp_path / "sim").exists()


# 9. revisions --list of a list that does not exist.

@pytest.mark.parametrize("list_id", ["../x", "2031-01"])
def test_revisions_of_an_unknown_list_name_the_lists(cli, published, list_id):
    w, _ = published
    said = _refused(cli("revisions", "--list", list_id, "--warehouse", w, ok=False))
    assert f"no list {list_id!r} in performance: its lists are 2027-01 … 2027-05" in said


# 10. The cards print the values they use.

def test_an_unrated_players_card_prints_the_pj_used(cli, tmp_path):
    # tests/test_explain.py's newcomer: the last round counts only the win over 1000
    # (1000 + 470 = 1470), while Pj is the final estimate, 1310 (R10).
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[9, "Opp 1000", 1980], [10, "New Swinger", 1990], [11, "Opp 1830", 1980],
                          [12, "Opp 1700", 1980]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[9, 1000], [11, 1830], [12, 1700]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-11-07", 10, 9, "1-0"], ["2026-11-14", 11, 10, "1-0"], ["2026-11-21", 10, 12, "0-1"]])
    w = tmp_path / "w.duckdb"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w, "--out", tmp_path / "o")
    card = cli("explain", 10, "--list", "2027-01", "--warehouse", w).output
    assert "Pj = Ea + D(P)" not in card
    assert "Last round's performance Ea + D(P) = 1470.000 (not Pj: R10)" in card
    assert "Pj = the final estimate (R10) = 1310.000" in card
    assert "Pa' = (1310.000 × 1) / 1" in card  # the Pj the rule used


def test_the_go_card_says_the_first_rating_is_handicap_adjusted(cli, tmp_path):
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "grade"],
                         [[1, "Anna", "20k"], [2, "Bram", "20k"], [3, "Cleo", "NC"]])
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class", "board_size"],
                        [["club-1", "Club night 1", "2026-01-10", "2026-01-10", "C", 19],
                         ["open-1", "Spring open", "2026-03-01", "2026-03-02", "B", 19]])
    games = write_rows(tmp_path / "games.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap"],
                       [["club-1", "2026-01-10", 1, 2, "B", 0], ["open-1", "2026-03-01", 3, 2, "B", 0]])
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "go-belgium", "--players", players, "--events", events, "--games", games,
        "--warehouse", w, "--out", tmp_path / "o")
    card = cli("explain", 3, "--list", "open-1", "--warehouse", w).output
    # Cleo won her one game, even, against Bram (−1996.4 after club-1): −1996.4 + 100.
    assert "First rating (ruling G2): -1896.4" in card
    assert "all wins: the best handicap-adjusted opponent + 100, all losses: the worst − 100" in card
    assert "their rating less the (h − 0.5) × 100 this player received" in card


# 11, 12. Ingest: a column twice, a field too long.

GAMES_HEADER = ["date", "white_id", "black_id", "result", "event", "round"]


def test_a_games_file_with_a_column_twice_is_refused_whole(cli, published, tmp_path):
    w, _ = published
    games = tmp_path / "twice.csv"
    games.write_text("date,white_id,black_id,result,Result\n2027-01-16,1,2,1-0,0-1\n")
    table = pa.table([pa.array(["2027-01-16"]), pa.array([1]), pa.array([2]), pa.array(["1-0"]), pa.array(["0-1"])],
                     names=["date", "white_id", "black_id", "result", "result"])
    pq.write_table(table, tmp_path / "twice.parquet")
    stored = _scalar(w, "select count(*) from games")
    said = _refused(cli("ingest", "--games", games, "--warehouse", w, ok=False))
    assert f"{games}: the columns 'result' and 'Result' are one name twice" in said
    assert "nothing of the file is taken in" in said
    said = _refused(cli("run", "--games", tmp_path / "twice.parquet", "--warehouse", w, "--out", tmp_path / "o",
                        ok=False))
    assert f"{tmp_path / 'twice.parquet'}: the column 'result' appears twice" in said
    assert _scalar(w, "select count(*) from games") == stored
    assert _scalar(w, "select count(*) from submissions where name like 'twice%'") == 0


def test_a_row_too_long_to_read_is_rejected_and_the_others_taken_in(cli, published, tmp_path):
    w, _ = published
    games = write_rows(tmp_path / "long.csv", GAMES_HEADER, [
        ["2027-01-16", 1, 2, "1-0", "Cup", 1], ["2027-01-16", 3, 4, "1-0", "x" * 5_000_000, 1],
        ["2027-01-23", 1, 3, "0-1", "Cup", 2]])
    # Fields within the csv module's limit, a record beyond what DuckDB reads (it numbered it line 1).
    wide = write_rows(tmp_path / "wide.csv", GAMES_HEADER + [f"x{i}" for i in range(30)], [
        ["2027-01-30", 2, 4, "1-0", "Cup", 3], ["2027-01-30", 1, 5, "1-0", "Cup", 3, *["y" * 100_000] * 30]])
    stored = _scalar(w, "select count(*) from games")
    cli("run", "--games", games, "--games", wide, "--warehouse", w, "--out", tmp_path / "out", rejected=True)
    assert _scalar(w, "select count(*) from games") == stored + 3
    rejects = cli("rejects", "--warehouse", w).output
    assert "line 3 holds a field longer than 131,072 characters: not read" in rejects
    assert "line 3 is a record of 3,000,055 bytes, beyond the 2,000,000 a record may hold: not read" in rejects
    long_line = next(line for line in cli("submissions", "--warehouse", w).output.splitlines() if " long.csv " in line)
    assert long_line.split(" taken in ")[1].split()[:5] == ["3", "2", "1", "0", "0"]


def test_a_field_too_long_that_cannot_be_set_aside_names_the_file_and_the_line(cli, published, tmp_path):
    w, _ = published
    open_quote = tmp_path / "quote.csv"
    open_quote.write_text("date,white_id,black_id,result,event\n2027-01-16,1,2,1-0,Cup\n"
                          '2027-01-16,3,4,1-0,"Cup' + "\nmore" * 40_000 + "\n")
    said = _refused(cli("ingest", "--games", open_quote, "--warehouse", w, ok=False))
    assert f"{open_quote}: line 3 (a quoted field running on to line " in said
    assert "a field longer than 131,072 characters" in said and "nothing of the file is taken in" in said
    players = write_rows(tmp_path / "registry.csv", ["player_id", "name", "birth_year"],
                         [[1, "Anna Rated", 1980], [2, "B" * 200_000, 1975]])
    said = _refused(cli("ingest", "--players", players, "--warehouse", w, ok=False))
    assert f"{players}: line 3 holds a field longer than 131,072 characters: not read; nothing of the file" in said


# 13, 14. The rejects round trip.

@pytest.fixture
def with_rejects(cli, small_federation, tmp_path):
    """The small federation with a games file of six rows, two of them rejected, and
    those two written out by `ratings rejects --out` and fixed: (warehouse, fix file)."""
    games = write_rows(tmp_path / "season.csv", GAMES_HEADER, [
        ["2026-09-05", 1, 2, "1-0", "Cup", 1], ["2026-09-05", 3, 4, "1-x", "Cup", 1],
        ["2026-09-12", 2, 3, "0-1", "Cup", 2], ["2026-09-12", 4, 99, "0-1", "Cup", 2],
        ["2026-09-19", 5, 1, "1-0", "Cup", 3], ["2026-09-19", 6, 2, "1/2-1/2", "Cup", 3]])
    w = tmp_path / "w.duckdb"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"], "--games", games,
        "--warehouse", w, "--out", tmp_path / "out", rejected=True)
    fix = tmp_path / "fix.csv"
    cli("rejects", "--out", fix, "--warehouse", w)
    with open(fix, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["row"] for r in rows] == ["2", "4"]
    rows[0]["result"], rows[1]["black_id"] = "1-0", "2"
    with open(fix, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return w, fix


def test_submissions_after_a_fix_still_add_up(cli, with_rejects):
    w, fix = with_rejects
    cli("run", "--games", fix, "--warehouse", w, "--out", w.parent / "out")
    lines = cli("submissions", "--warehouse", w).output.splitlines()
    assert lines[0].split()[6:11] == ["read", "stored", "rejected", "fixed", "withdrawn"]
    season = next(line for line in lines if " season.csv " in line)
    fixed_by = next(line for line in lines if " fix.csv " in line).split()[0]
    read, stored, rejected, fixed, withdrawn = map(int, season.split(" taken in ")[1].split()[:5])
    assert (read, stored, rejected, fixed, withdrawn) == (6, 4, 0, 2, 0)
    assert season.endswith(f"2 rows fixed by submission {fixed_by}")
    assert _scalar(w, "select count(*) from games") == 6  # the fixes stored once, on the fix file


def test_a_fix_file_row_that_names_no_open_reject_is_refused(cli, with_rejects):
    w, fix = with_rejects
    games = _scalar(w, "select count(*) from games")
    file_id = _scalar(w, "select max(file_id) from source_files where kind = 'games'")
    text = fix.read_text()
    stray = fix.with_name("stray.csv")
    stray.write_text(text.replace(f",{file_id},2\n", f",{file_id},9\n"))
    said = _refused(cli("run", "--games", stray, "--warehouse", w, "--out", w.parent / "out", ok=False))
    assert f"{stray}: a fix file's rows must name an open reject" in said
    assert f"row 1 (file {file_id}, row 9: no reject)" in said and "row 2" not in said
    assert _scalar(w, "select count(*) from games") == games
    cli("run", "--games", fix, "--warehouse", w, "--out", w.parent / "out")
    again = fix.with_name("again.csv")
    again.write_text(text.replace("Cup", "Club cup"))  # another file, fixing what is fixed already
    said = _refused(cli("ingest", "--games", again, "--warehouse", w, ok=False))
    assert f"row 1 (file {file_id}, row 2: a reject already fixed by submission" in said
    assert _scalar(w, "select count(*) from games") == games + 2
