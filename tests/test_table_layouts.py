"""A table in the wrong layout is refused whole at ingest (issue 37), in one message that
names what it lacks, what it has and the closest of its columns; nothing of it, nor of the
files given with it, is staged (staged, a registry without names would reject every rating
and game of its players after it, row by row)."""
from __future__ import annotations

import duckdb

from tests.conftest import write_rows


def nothing_staged(w) -> bool:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute("""select (select count(*) from submissions) + (select count(*) from staged_players)
                                     + (select count(*) from staged_games) + (select count(*) from rejects)""").fetchall()[0][0] == 0


def test_a_registry_without_names_is_refused_with_what_it_has(cli, small_federation, tmp_path):
    players = write_rows(tmp_path / "no-names.csv", ["player_id", "birth_year", "club"], [[1, 1980, "A"], [2, 1975, "A"]])
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", players, "--ratings", small_federation["ratings"], "--games",
                 small_federation["games"], "--warehouse", w, "--out", tmp_path / "out", ok=False)
    assert result.exit_code == 1
    assert ("no-names.csv: given as a players file, it lacks the column name; it has player_id, birth_year, club: "
            "nothing of it is taken in") in result.output
    assert "not in the player registry" not in result.output  # no cascade of rejects
    assert nothing_staged(w)


def test_games_with_white_and_black_name_the_columns_they_meant(cli, small_federation, tmp_path):
    games = write_rows(tmp_path / "g.csv", ["date", "white", "black", "result"], [["2026-09-05", 1, 2, "1-0"]])
    w = tmp_path / "w.duckdb"
    result = cli("ingest", "--games", games, "--warehouse", w, ok=False)
    assert result.exit_code == 1
    assert ("lacks the columns white_id, black_id; it has date, white, black, result "
            "(closest: white → white_id, black → black_id)") in result.output
    assert nothing_staged(w)


def test_a_table_given_as_another_kind_says_which_kind_it_is(cli, small_federation, tmp_path):
    w = tmp_path / "w.duckdb"
    result = cli("ingest", "--ratings", small_federation["games"], "--warehouse", w, ok=False)
    assert result.exit_code == 1
    assert ("given as a ratings file, it lacks the columns player_id, rating; it has date, white_id, black_id, "
            "result, event, round; its columns are those of a games file: give it as --games") in result.output
    assert nothing_staged(w)
