"""Validation on typed values (pipeline/validate/typed.py): each row typed once in
DuckDB, the Pandera models checking the values; every reason of every row, with the
text as the file gives it, and no reason made up by a value that did not parse."""
from __future__ import annotations

import duckdb
import pytest

from pipeline.input_layout import columns
from pipeline.validate.model_checks import compiled_models, kind_models
from pipeline.validate.schemas import FREE_TEXT
from pipeline.validate.typed import typed_rows_sql
from tests.conftest import write_rows


def reasons(w, kind: str) -> dict[int, str]:
    con = duckdb.connect(str(w), read_only=True)
    try:
        return dict(con.execute("""select r.row_number, r.reason from rejects r join source_files f using (file_id)
                                   where f.kind = ? order by 1""", [kind]).fetchall())
    finally:
        con.close()


@pytest.fixture
def registry(tmp_path):
    return write_rows(tmp_path / "players.csv", ["player_id", "name"], [[i, f"P{i}"] for i in range(1, 8)])


def test_a_value_that_does_not_parse_is_rejected_for_itself_alone(cli, registry, tmp_path):
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "archive_performance", "archive_games"], [
        [1, "x", 1600, 4],  # 1 the rating is no number: the row checks that read it do not judge the row
        [2, 1700, 1600, 9],  # 2 nine archived games: not a whole number from 1 to 7
        [3, "3500.0", "", ""],  # 3 a number, out of range: the file's text in the reason, not 3500
        ["0004", 1500, "", ""],  # 4 player 4, written with zeros: accepted
        [5, "", 1600, ""],  # 5 an archived performance without its games: the row check judges it
    ])
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", registry, "--ratings", ratings, "--warehouse", w, "--out", tmp_path / "out",
                 rejected=True)
    assert "read 5 = accepted 1 + rejected 4" in result.output
    assert reasons(w, "ratings") == {
        # Not also "a rated player has no archives" (rating x is no rating) nor "neither
        # a rating nor archives": the rating's own reason is the row's.
        1: "rating: negative or absurd rating (not a number from 1 to 3000) (got 'x')",
        # Not also "archive_performance and archive_games go together", nor "a rated
        # player has no archives": they would judge a 9 the file did write as missing.
        2: "archive_games: archived games must be a whole number from 1 to 7 (got '9')",
        3: "rating: negative or absurd rating (not a number from 1 to 3000) (got '3500.0')",
        5: "archive_performance and archive_games go together; neither a rating nor archives",
    }
    con = duckdb.connect(str(w), read_only=True)
    assert con.execute("select player_id, rating from initial_ratings").fetchall() == [(4, 1500.0)]


def test_every_problem_of_a_row_is_said_at_once(cli, registry, tmp_path):
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-13-01", "7", "07", "2-0"],  # 1 no 13th month, 7 and 07 are one player, no such result
        ["2026-09-05", "x", "1", "1-0"],  # 2 white is no id: "plays against themself" cannot be judged
        ["2026-09-05", "3", "", "½-½"],  # 3 black missing
        ["2026-09-05", "3", "1" * 16, "1-0"],  # 4 sixteen digits: no id
        ["2026-09-05", "3", "4", "½-½"],  # 5 fine
    ])
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", registry, "--games", games, "--warehouse", w, "--out", tmp_path / "out",
                 rejected=True)
    assert "read 5 = accepted 1 + rejected 4" in result.output
    assert reasons(w, "games") == {
        1: "a player plays against themself (player 7); date: not a calendar date (2026-13-01); "
           "result: unknown code (got '2-0')",
        2: "white_id: not a whole-number id of at most 15 digits (got 'x')",
        3: "black_id: missing value",
        4: "black_id: not a whole-number id of at most 15 digits (got '1111111111111111')",
    }
    con = duckdb.connect(str(w), read_only=True)
    assert con.execute("select date::varchar, white_id, black_id, result, white_score from games").fetchall() == [
        ("2026-09-05", 3, 4, "1/2-1/2", 0.5)]


def test_a_required_column_the_file_lacks_refuses_the_file_whole(cli, registry, tmp_path):
    # Issue 37: no longer staged and rejected row by row, but refused at ingest with what it lacks.
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id"], [["2026-09-05", 1, 2],
                                                                                 ["2026-09-05", 3, 4]])
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", registry, "--games", games, "--warehouse", w, "--out", tmp_path / "out", ok=False)
    assert result.exit_code == 1 and "lacks the column result; it has date, white_id, black_id" in result.output
    assert reasons(w, "games") == {}


def test_the_typed_rows_keep_every_column_and_type_the_parsed_ones():
    # Every kind's typed select reads a staged table of its columns; the parsed columns
    # come out typed, the others as the text they are.
    con = duckdb.connect()
    models = compiled_models()
    for kind, name in [*kind_models().items(), ("ratings", "GoRatingsInput"), ("events", "GoEventsInput")]:
        model = models[name]
        cols = columns(kind)
        extra = ", extra varchar" if kind in ("players", "ratings") else ""
        con.execute(f"""create or replace table staged (file_id integer, row_number bigint, fixes_file integer,
                        fixes_row bigint{extra}, {', '.join(f'"{c}" varchar' for c in cols)})""")
        types = dict(con.sql(f"describe {typed_rows_sql(kind, model, 'select * from staged')}")
                     .project("column_name, column_type").fetchall())
        assert list(types)[-1] == "unparsed"
        for c in cols:
            # a free text's parse (events, rounds: no control character) keeps it text
            typed = c in model.parses and model.parses[c].sql != FREE_TEXT
            expected = {"bigint", "double", "date"} if typed else {"varchar"}
            assert types[c].lower() in expected, (kind, c, types[c])
        # the columns read from the row (the registry's federation and title, in `extra`)
        assert all(types[c].lower() == "varchar" for c in model.derived), kind
        assert set(model.columns) <= set(cols) | set(model.derived)


def test_a_chess_event_is_rated_by_a_list_after_it_ends(cli, registry, tmp_path):
    # X1: rated_in names a list dated after the month the event ends; X6: 1 to 99 games.
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "rated_in",
                                                  "games_scheduled"], [
        ["ok", "Ok", "2026-03-02", "2026-03-03", "2026-04", "4"],  # 1 accepted
        ["same-month", "Same", "2026-03-02", "2026-03-20", "2026-03", ""],  # 2 the list of the month it ends
        ["earlier", "Earlier", "2026-03-02", "2026-03-03", "2026-02", ""],  # 3 a list before it
        # 4 no 30 February: the row check on the start date cannot judge it, the one on rated_in can
        ["bad-date", "Bad", "2026-02-30", "2026-03-03", "2026-01", ""],
        ["scheduled", "Many", "2026-03-02", "2026-03-03", "", "100"],  # 5 a hundred games scheduled
    ])
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "fide", "--players", registry, "--events", events, "--warehouse", w,
        "--out", tmp_path / "out", "--no-reports", rejected=True)
    x1 = "rated_in: a list dated before the event ends cannot rate it (X1)"
    assert reasons(w, "events") == {
        2: x1, 3: x1,
        4: f"{x1}; start_date: not a calendar date (2026-02-30)",
        5: "games_scheduled: games_scheduled must be a whole number of games from 1 to 99 (X6) (got '100')",
    }
    con = duckdb.connect(str(w), read_only=True)
    assert con.execute("select event_id, rated_in, games_scheduled from events").fetchall() == [("ok", "2026-04", 4)]
