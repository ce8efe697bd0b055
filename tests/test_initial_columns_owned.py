"""The national Elo's and FIDE's initial columns are their rule sets' own (issue 54, item 3):
the shared ratings model is the player and the rating; the archives (Pa, Na) and their
rules are the national Elo's model's, games to date and peak FIDE's, declared as Glicko-2's
are (RuleSet.initial_columns, InitialColumns) and kept in the row's `extra` (layout 14).
A rule set's model judges a ratings file that gives its columns, or one validated for a run
that rates its lists: its rules about the row are never another rule set's reason to refuse
an input."""
from __future__ import annotations

import csv
from pathlib import Path

import duckdb

from pipeline import warehouse
from pipeline.systems.fide import Fide
from pipeline.systems.performance import Performance
from tests.conftest import write_rows
from tests.test_schema_layout import LAYOUT_6


def query(w: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql).fetchall()


def federation(tmp_path: Path, header: list[str], rows: list[list]) -> list[str]:
    """A registry of players 1-3, the initial ratings `rows`, and one game: 1 beats 2."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "A"], [2, "B"], [3, "C"]])
    ratings = write_rows(tmp_path / "ratings.csv", header, rows)
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"],
                       [["2026-09-05", 1, 2, "1-0"]])
    return ["--players", str(players), "--ratings", str(ratings), "--games", str(games)]


def test_fides_unrated_player_with_games_to_date_is_not_judged_by_the_national_rule(cli, tmp_path):
    # Player 3 is unrated with 3 rated games to date: FIDE starts them from those (X5's
    # 30 games count them). The national Elo's "neither a rating nor archives" refused the
    # row whatever the rule set rated; under FIDE alone it is taken in, and FIDE reads it.
    w = tmp_path / "w.duckdb"
    files = federation(tmp_path, ["player_id", "rating", "games_total", "peak_rating"],
                       [[1, 2100, 40, 2150], [2, 2000, "", ""], [3, "", 3, ""]])
    cli("run", "--system", "fide", *files, "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    assert query(w, "select count(*) from rejects") == [(0,)]
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute(f"select player_id, rating, games_total, peak_rating from ({Fide().initial_ratings_sql()}) "
                           "order by 1").fetchall() == [(1, 2100.0, 40, 2150.0), (2, 2000.0, None, None),
                                                        (3, None, 3, None)]


def test_a_glicko2_file_is_not_judged_by_the_national_rule(cli, tmp_path):
    # Player 3's row gives no rating: nothing Glicko-2 starts from (a new player's 1500 /
    # 350 / 0.06, step 1), and no national rule refuses it under Glicko-2 alone.
    w = tmp_path / "w.duckdb"
    files = federation(tmp_path, ["player_id", "rating", "deviation", "volatility"],
                       [[1, 1500, 200, 0.06], [2, 1400, 30, ""], [3, "", "", ""]])
    cli("run", "--system", "glicko2", *files, "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    assert query(w, "select count(*) from rejects") == [(0,)]
    assert query(w, "select player_id, rating from initial_ratings order by 1") == [(1, 1500.0), (2, 1400.0), (3, None)]


def test_the_national_rule_judges_every_file_a_national_run_reads(cli, tmp_path):
    # The sample's ratings file gives no archive column: a row with nothing is still
    # refused where the national Elo rates (the default rule set), as before.
    w = tmp_path / "w.duckdb"
    files = federation(tmp_path, ["player_id", "rating"], [[1, 1500], [2, 1400], [3, ""]])
    cli("run", *files, "--warehouse", w, "--out", tmp_path / "out", "--no-reports", rejected=True)
    assert query(w, "select row_number, reason from rejects") == [(3, "neither a rating nor archives")]


def test_a_file_giving_a_rule_sets_columns_is_judged_by_its_model_whatever_the_run_rates(cli, tmp_path):
    # Under Glicko-2 alone, archives and a peak are still checked by the national Elo's and
    # FIDE's models, with the reasons of before (issue 54: each rejection with the same reason).
    w = tmp_path / "w.duckdb"
    files = federation(tmp_path, ["player_id", "rating", "archive_performance", "archive_games", "peak_rating"],
                       [[1, 1500, "", "", 1400], [2, 1400, "", "", ""], [3, "", 1600, 9, ""]])
    cli("run", "--system", "glicko2", *files, "--warehouse", w, "--out", tmp_path / "out", "--no-reports",
        rejected=True)
    assert query(w, "select row_number, reason from rejects order by 1") == [
        (1, "peak_rating is below the rating (the peak is the highest published rating)"),
        (3, "archive_games: archived games must be a whole number from 1 to 7 (got '9')")]


def test_a_rejected_rows_own_columns_are_written_out_for_its_fix(cli, tmp_path):
    # Kept in `extra`, the archives of a refused row are still in the file `ratings rejects`
    # writes, to be corrected and given back.
    w = tmp_path / "w.duckdb"
    files = federation(tmp_path, ["player_id", "rating", "archive_performance", "archive_games"],
                       [[1, 1500, "", ""], [2, 1400, "", ""], [3, "", 1600, 12]])
    cli("run", *files, "--warehouse", w, "--out", tmp_path / "out", "--no-reports", rejected=True)
    cli("rejects", "--warehouse", w, "--out", tmp_path / "fix.csv")
    with open(tmp_path / "fix.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["player_id"], r["rating"], r["archive_performance"], r["archive_games"]) for r in rows] == [
        ("3", "", "1600", "12")]


def test_an_older_warehouses_initial_columns_move_to_extra(tmp_path, monkeypatch):
    # Layout 13 kept the archives, games to date and peak in shared columns: migration 14
    # moves each given value into its row's `extra`, where each rule set reads its own.
    w = tmp_path / "old.duckdb"
    with duckdb.connect(str(w)) as con:
        con.execute(LAYOUT_6.read_text())
        con.execute("insert into warehouse_version values (6)")
    with monkeypatch.context() as m:  # brought to layout 13, as the code of before did
        m.setattr(warehouse, "WAREHOUSE_VERSION", 13)
        warehouse.connect(w).close()
    with duckdb.connect(str(w)) as con:
        con.execute("""insert into initial_ratings (player_id, rating, archive_performance, archive_games, file_id,
                                                    row_number, games_total, peak_rating, extra) values
                       (1, 1500, null, null, 1, 1, null, null, null),
                       (2, null, 1612.5, 3, 1, 2, null, null, null),
                       (3, 2100, null, null, 1, 3, 40, 2150, '{"deviation": "80"}')""")
        con.execute("""insert into staged_ratings (file_id, row_number, player_id, rating, archive_performance,
                                                   archive_games) values (2, 1, '4', '', '1500', '2')""")
    warehouse.connect(w).close()  # its first writable connection runs the migrations
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute(f"select * from ({Performance().initial_ratings_sql()}) order by 1").fetchall() == [
            (1, 1500.0, None, None), (2, None, 1612.5, 3), (3, 2100.0, None, None)]
        assert con.execute(f"select * from ({Fide().initial_ratings_sql()}) order by 1").fetchall() == [
            (1, 1500.0, None, None), (2, None, None, None), (3, 2100.0, 40, 2150.0)]
        assert con.execute("select extra->>'deviation' from initial_ratings where player_id = 3").fetchall() == [
            ("80",)]
        assert con.execute("select player_id, extra->>'archive_performance', extra->>'archive_games' "
                           "from staged_ratings").fetchall() == [("4", "1500", "2")]
