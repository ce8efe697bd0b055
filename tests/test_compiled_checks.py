"""The input models run compiled (pipeline/validate/model_checks.py): checks.json is the
Pandera models' current compilation, and on hostile rows of every kind the compiled
checks (SQL over the typed rows, the writers' Arrow checks) fail exactly the rows,
columns and checks Pandera's own validation of the same typed rows fails."""
from __future__ import annotations

import json

import duckdb
import pandas as pd
import pandera.pandas as pa
import pytest

from pipeline.input_layout import columns
from pipeline.systems.fide.initial import FideInitialColumns
from pipeline.systems.performance.initial import PerformanceInitialColumns
from pipeline.validate import schemas
from pipeline.validate.compile import COMPILED, compiled, compiled_text, pandera_failures
from pipeline.validate.initial import with_initial_columns
from pipeline.validate.model_checks import Model, compiled_models, initial_models, schema_of
from pipeline.validate.typed import create_schema_failures, typed_rows_sql

LONG_NAME = "N" * 61  # the FIDE list's name column holds 60
BREAK = "Anna\nSmith"

# Rows of each kind, as staged (texts), each meant to trip some checks; None: empty.
HOSTILE = {
    "games": [
        {"date": "2024-03-01", "white_id": "1", "black_id": "2", "result": "1-0"},  # passes
        {"date": None, "white_id": "1", "black_id": "2", "result": "0-1"},  # not_nullable
        {"date": "2024-02-30", "white_id": "1", "black_id": "1", "result": "x"},  # unparsed, self, unknown code
        {"date": "2024-03-01", "white_id": "7", "black_id": "7", "result": None},  # self, result missing
        {"date": "2024-03-01", "white_id": None, "black_id": "abc", "result": "½-½"},  # both ids missing
        {"date": "2024-03-01", "white_id": "3", "black_id": "4", "result": "1/2-1/2", "event": "a\tb"},
    ],
    "players": [
        {"player_id": "1", "name": "Ann", "birth_year": "1990"},  # passes
        {"player_id": "2", "name": BREAK, "club": "a\x1bb", "birth_year": "1800"},  # control twice, year
        {"player_id": "123456789012345", "name": LONG_NAME, "estimated_rating": "0"},  # id and name too wide
        {"player_id": "4", "name": None, "grade": "0k", "estimated_rating": "3001"},
        {"player_id": "5", "name": "Eve", "grade": " 5 k ", "extra": '{"federation": "BELG", "title": "WGM IA"}'},
        {"player_id": "6", "name": "Bo", "extra": '{"fed": "BEL", "title": "GM WGM IA FA NA IO FST"}'},
        {"player_id": "7", "name": "Cy", "birth_year": "2999", "extra": '{"title": "a\\u2028b"}'},
    ],
    "ratings": [
        {"player_id": "1", "rating": "1500"},  # passes
        {"player_id": "2", "rating": "0", "peak_rating": "3500"},
        {"player_id": "3", "rating": "1505", "peak_rating": "1400"},  # peak below (1505: taken as given, R14)
        {"player_id": "4", "archive_performance": "3500"},  # absurd, unpaired, neither rating nor archives
        {"player_id": "5", "rating": "1500", "archive_performance": "1400", "archive_games": "3"},  # rated, archives
        {"player_id": "6"},  # neither
        {"player_id": None, "rating": "x", "archive_games": "9"},
        {},  # every value empty: Pandera's row checks do not judge it, nor do the compiled ones
    ],
    "calendar": [
        {"list_id": "2024-01", "window_start": "2023-09-01", "window_end": "2023-12-31"},
        {"list_id": "2024-13", "window_start": "2024-02-01", "window_end": "2024-01-31"},
        {"list_id": None, "window_start": "2024-02-30", "window_end": "2024-01-31"},
    ],
    "events": [
        {"event_id": "open-2024", "name": "Open", "start_date": "2024-03-01", "end_date": "2024-03-03",
         "class": "A", "board_size": "19", "rated_in": "2024-04", "games_scheduled": "9"},
        {"event_id": "-bad", "name": "a\nb", "start_date": "2024-03-05", "end_date": "2024-03-03",
         "class": "E", "board_size": "10", "rated_in": "2024-4"},
        {"event_id": "x", "name": "X", "start_date": "2024-03-01", "end_date": "2024-03-20", "rated_in": "2024-03"},
        {"event_id": None, "name": None, "start_date": None, "end_date": "2024-03-20", "rated_in": "2024-02"},
    ],
    "go_games": [
        {"event_id": "e", "date": "2024-03-01", "black_id": "1", "white_id": "2", "winner": "B", "weight": "1"},
        {"event_id": None, "date": "2024-03-01", "black_id": "3", "white_id": "3", "winner": "x", "weight": "3"},
        {"event_id": "e", "date": "2024-03-01", "black_id": "1", "white_id": "2", "winner": None, "weight": "-1",
         "handicap": "10", "round": "r"},
    ],
}



class ChessRatings(schemas.RatingsInput, PerformanceInitialColumns, FideInitialColumns):
    """The shared ratings model with the national Elo's and FIDE's initial columns, as
    validation runs them for a part that gives them (with_initial_columns)."""


# Every model validation may choose, with its kind and the Pandera model it compiles.
CASES = [(kind, schemas.SCHEMAS[kind], schema_of(kind, "chess")) for kind in ("players", "calendar", "games",
                                                                                "events", "go_games")]
CASES += [("ratings", ChessRatings, with_initial_columns(schema_of("ratings", "chess"), set(),
                                                         {"performance", "fide"}, "chess")),
          ("ratings", schemas.GoRatingsInput, schema_of("ratings", "go")),
          ("events", schemas.GoEventsInput, schema_of("events", None))]


def test_the_compiled_file_is_the_models_current_one():
    assert COMPILED.read_text(encoding="utf-8") == compiled_text(), \
        "pipeline/validate/checks.json is out of date: run `python -m pipeline.validate.compile`"


def typed(kind: str, model: Model, rows: list[dict]) -> duckdb.DuckDBPyConnection:
    """A connection whose `typed_rows` are `rows` staged and typed as validation types them."""
    con = duckdb.connect()
    con.execute("set variable today = date '2026-06-01'")
    cols = columns(kind)
    extra = ", extra varchar" if kind in ("players", "ratings") else ""
    con.execute(f"""create table staged (file_id integer, row_number bigint, fixes_file integer, fixes_row bigint
                    {extra}, {', '.join(f'"{c}" varchar' for c in cols)})""")
    if extra:  # the file's other columns (a rule set's initial columns) are staged in `extra`
        rows = [{**{c: v for c, v in row.items() if c in cols or c == "extra"},
                 **({"extra": json.dumps(others)} if (others := {c: v for c, v in row.items()
                                                                 if c not in cols and c != "extra"}) else {})}
                for row in rows]
    for number, row in enumerate(rows, start=1):
        names = ["file_id", "row_number", *row]
        con.execute(f"insert into staged ({', '.join(f'{chr(34)}{n}{chr(34)}' for n in names)}) values "
                    f"({', '.join('?' for _ in names)})", [1, number, *row.values()])
    con.execute(f"create temp table typed_rows as {typed_rows_sql(kind, model, 'select * from staged')}")
    return con


@pytest.mark.parametrize("kind, pandera_model, model", CASES, ids=[m.name for _, _, m in CASES])
def test_the_compiled_checks_fail_what_pandera_fails(kind, pandera_model, model, monkeypatch):
    monkeypatch.setenv("RATINGS_TODAY", "2026-06-01")  # the birth years' "this year", both ways
    con = typed(kind, model, HOSTILE[kind])
    create_schema_failures(con, model)
    ours = {tuple(r) for r in con.execute("""select row_number, case when whole_row then null else "column" end,
                                                    "check", whole_row from schema_failures""").fetchall()}
    names = ", ".join(f'"{c}"' for c in model.columns)
    frame = con.sql(f"select row_number, {names} from typed_rows").to_arrow_table() \
        .to_pandas(types_mapper=pd.ArrowDtype).set_index("row_number")
    theirs = {tuple(r.values()) for r in pandera_failures(pandera_model, frame).to_pylist()}
    assert ours == theirs
    # the rows were hostile enough: every check of the model fails somewhere
    failed = {check for _, _, check, _ in ours}
    assert {c.name for c in (*model.checks, *model.row_checks)} <= failed | {"unknown code"}, model.name
    assert len(ours) >= len(HOSTILE[kind]) - 1


def test_a_check_without_a_form_to_run_is_refused_by_the_compile():
    class Loose(pa.DataFrameModel):
        score: schemas.Number = pa.Field(nullable=True)

        @pa.check("score", name="a Python check")
        def _python(cls, s):
            return s > 0

    with pytest.raises(ValueError, match="'a Python check' has no form validation runs"):
        compiled(Loose)


def test_every_model_is_compiled_and_no_rule_set_adds_a_check_to_one():
    # Ruling R14: the initial ratings' model is the same whatever rule sets the warehouse holds;
    # each rule set checks the initial ratings it reads at the run (pipeline/rate/initial.py).
    assert set(compiled_models()) == {m.__name__ for m in (*schemas.SCHEMAS.values(), schemas.GoRatingsInput,
                                                            schemas.GoEventsInput)}
    assert schema_of("ratings", "chess") == compiled_models()["RatingsInput"]
    # Issue 54, item 3: the shared ratings model is the player and the rating; the national
    # Elo's and FIDE's columns are their own models' (compiled: their checks are SQL), and
    # Glicko-2's, whose checks are Python, run in Pandera (pipeline/validate/initial.py).
    assert compiled_models()["RatingsInput"].columns == ("player_id", "rating")
    assert {name: (game, model.name, model.columns) for name, (game, model) in initial_models().items()} == {
        "performance": ("chess", "PerformanceInitialColumns", ("archive_performance", "archive_games")),
        "fide": ("chess", "FideInitialColumns", ("games_total", "peak_rating")),
    }
