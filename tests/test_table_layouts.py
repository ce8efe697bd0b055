"""A table in the wrong layout is refused whole at ingest (issue 37), in one message that
names what it lacks, what it has and the closest of its columns; nothing of it, nor of the
files given with it, is staged (staged, a registry without names would reject every rating
and game of its players after it, row by row)."""
from __future__ import annotations

from collections import Counter

import duckdb
import pyarrow.parquet as pq

from tests.conftest import PROJECT_DIR, write_rows


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


BELGIAN_HISTORY = PROJECT_DIR / "tests" / "fixtures" / "belgium" / "official_ratings.parquet"  # its layout: 4 lists


def test_a_file_of_several_lists_given_as_initial_ratings_is_refused_naming_its_list_column(cli, tmp_path):
    # Issue 51: the federation's history file (85 lists a player) was staged row by row, 889,394 rows
    # rejected as "listed again" and a list published from the 2,058 taken, each from whichever list
    # came first. The fixture is a slice of its layout (list_period, player_id, rating, games_total).
    table = pq.read_table(BELGIAN_HISTORY)  # read here by pyarrow, not by the pipeline
    lists = sorted(set(table.column("list_period").to_pylist()))
    by_player = Counter(zip(table.column("player_id").to_pylist(), table.column("list_period").to_pylist()))
    in_lists = Counter(player for player, _ in by_player)
    several = sorted(p for p, n in in_lists.items() if n > 1)
    assert (lists, len(several), table.num_rows) == (["201810", "201901", "201904", "201907"], 298, 1187)
    most = min(p for p, n in in_lists.items() if n == max(in_lists.values()))  # the lowest id of the most lists
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"],
                         [[p, f"Player {p}"] for p in sorted(in_lists)])
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", players, "--ratings", BELGIAN_HISTORY, "--warehouse", w, "--out",
                 tmp_path / "out", ok=False)
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        f"Error: {BELGIAN_HISTORY}: a file of several lists: its column 'list_period' names 4 lists (201810 … "
        f"201907) and 298 players are in more than one (player {most} in {in_lists[most]}); initial ratings are "
        "one list, the one in force before the first window: nothing of it is taken in. Give the rows of that "
        "list alone, as a file of their own")
    assert "listed again" not in result.output and nothing_staged(w)
    # One list of it is initial ratings; so is each player's latest rating with its list (no player twice).
    last = tmp_path / "201907.csv"
    write_rows(last, ["list_period", "player_id", "rating"],
               [[period, p, r] for period, p, r in zip(*(table.column(c).to_pylist() for c in
                                                        ("list_period", "player_id", "rating"))) if period == "201907"])
    cli("ingest", "--players", players, "--ratings", last, "--warehouse", w)
    latest = {p: (period, r) for period, p, r in sorted(zip(*(table.column(c).to_pylist() for c in
                                                            ("list_period", "player_id", "rating"))))}
    each = write_rows(tmp_path / "latest.csv", ["list_id", "player_id", "rating"],
                      [[period, p, r] for p, (period, r) in latest.items()])
    cli("ingest", "--ratings", each, "--warehouse", tmp_path / "w2.duckdb")
