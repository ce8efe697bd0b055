"""Who a Go tournament file's players are (pipeline/ingest_go.py, issue 13): ids for
players without a pin from a range no EGD pin can reach, nameless players never
registered nor printed as "nan", pins that contradict the registry, and whether a
file's event row would be accepted (a rejected event must register nobody)."""
from __future__ import annotations

import datetime as dt
import json

import duckdb
import pytest

from pipeline.formats.go_files import egd_from_text
from pipeline.formats.trf import Problem
from pipeline.ingest.go import (
    NEW_PLAYER_IDS,
    _new_players,
    _staged_games,
    belgian_class,
    event_assumptions,
    event_row_problems,
    registry_identities,
)
from pipeline.validate.model_checks import compiled_models
from pipeline.validate.typed import type_and_check
from pipeline.warehouse import connect

EGD = ["; EV[Club Night]", "; DT[2024-04-06,2024-04-06]",
       "   1 Alpha Ann      3d NL Utr    2+/w0    3+/b0  |12345678",  # line 3
       "   2 Bravo Bob      2d NL Ams    1-/b0    4+/w0",  # line 4: no pin
       "   3 Charlie Cy     1k DE Ber    4+/w0    1-/w0  |23456789",  # line 5
       "   4 2k BE Gen                   3-/b0    2-/b0"]  # line 6: no name, no pin


@pytest.fixture
def con(tmp_path):
    con = connect(tmp_path / "w.duckdb")
    yield con
    con.close()


def register(con, rows: list[tuple]) -> None:
    con.executemany("insert into players (player_id, name, extra, file_id, row_number) values (?, ?, ?, 1, ?)",
                    [(pid, name, json.dumps(extra) if extra else None, n)
                     for n, (pid, name, extra) in enumerate(rows, 1)])


def test_players_without_a_pin_get_ids_no_egd_pin_can_be(con):
    # 900000003 is already a registered player's id (given to an earlier file's newcomer).
    register(con, [(900_000_003, "Earlier, Newcomer", None)])
    t = egd_from_text("\n".join(EGD))
    found = registry_identities(con, t)
    new = _new_players(con, t, found["player_id"], "main", found).set_index("key")["player_id"]
    # Alpha and Charlie keep their pins; Bravo has none: the first id of the range past 900000003;
    # the nameless player (line 6) is not registered at all.
    assert new.to_dict() == {"1": 12345678, "2": 900_000_004, "3": 23456789}
    assert NEW_PLAYER_IDS.start == 900_000_000 and len(str(NEW_PLAYER_IDS.start)) == 9  # one digit past any pin


def test_a_taken_pin_moves_its_player_into_the_range(con):
    # Player id 12345678 is someone else, known without a pin: Alpha cannot have it.
    register(con, [(12345678, "Zulu, Zed", None)])
    t = egd_from_text("\n".join(EGD))
    found = registry_identities(con, t)
    new = _new_players(con, t, found["player_id"], "main", found).set_index("key")["player_id"]
    assert new.to_dict() == {"1": 900_000_000, "2": 900_000_001, "3": 23456789}


def test_messages_name_the_player_and_the_pin_and_never_print_nan(con):
    # The registry knows Charlie Cy under another pin: a contradiction, never matched by name.
    register(con, [(5, "Charlie Cy", {"egd_pin": "11111111"})])
    t = egd_from_text("\n".join(EGD))
    found = registry_identities(con, t)
    assert found.loc["3", "conflict"] == "EGD pin 23456789 in the file, 11111111 in the registry for 'Charlie Cy': " \
                                         "not matched"
    rows, problems = _staged_games(t, found["player_id"], identities=found)
    assert [p for p in problems if p.line != 6] == [
        Problem(3, "'Alpha Ann' is not in the player registry: no registered player has EGD pin 12345678 and no "
                   "single registered player has this name (--register-new adds the file's new players)"),
        Problem(4, "'Bravo Bob' is not in the player registry: no EGD pin in the file and no single registered "
                   "player has this name (--register-new adds the file's new players)"),
        Problem(5, "EGD pin 23456789 in the file, 11111111 in the registry for 'Charlie Cy': not matched"),
    ]
    nameless = [p.message for p in problems if p.line == 6]
    assert nameless == ["no name before the grade '2k': the player can be matched by EGD pin only, and is never "
                        "registered",
                        "a player without a name is not in the player registry: no EGD pin in the file; without a "
                        "name it is never registered"]
    assert not any("nan" in str(r) for r in rows["problem"])
    # Given --register-new, the advice is not repeated to those it could not register.
    _, given = _staged_games(t, found["player_id"], register_new=True, identities=found)
    assert not any("--register-new" in p.message for p in given)


EVENT = {"event_id": "club-night", "name": "Club Night", "start_date": dt.date(2024, 4, 6),
         "end_date": dt.date(2024, 4, 6), "class": None, "board_size": 19}


@pytest.mark.parametrize("change, problems", [
    ({}, []),  # class None is staged as B: accepted
    ({"end_date": dt.date(2024, 4, 5)}, ["the event ends (2024-04-05) before it starts (2024-04-06)"]),
    ({"start_date": None, "end_date": None}, ["the event has no start date", "the event has no end date"]),
    ({"name": None}, ["the event has no name"]),
    ({"event_id": "-x"}, ["event id '-x' is not an event id (letters, digits, _ . -; at most 64)"]),
    ({"board_size": 21}, ["board size 21 is not 9, 13 or 19"]),
])
def test_event_row_problems_mirror_the_events_schema(change, problems):
    event = EVENT | change
    assert event_row_problems(event) == problems
    # The same row as ingest_go_tournament stages it, through the typing and the
    # schema that validation applies.
    con = duckdb.connect()
    con.execute("""create table staged_events (file_id integer, row_number bigint, fixes_file integer,
                   fixes_row bigint, event_id varchar, name varchar, start_date varchar, end_date varchar,
                   class varchar, board_size varchar, rated_in varchar, games_scheduled varchar)""")
    con.execute("insert into staged_events (file_id, row_number, event_id, name, start_date, end_date, class, "
                "board_size) values (1, 1, ?, ?, ?, ?, ?, ?)",
                [event["event_id"], event["name"],
                 event["start_date"].isoformat() if event["start_date"] else None,
                 event["end_date"].isoformat() if event["end_date"] else None,
                 event["class"] or "B", str(event["board_size"])])
    type_and_check(con, "events", compiled_models()["GoEventsInput"], "staged_events", 1, set())
    accepted = not con.execute("select * from schema_rejects").fetchall()
    assert accepted == (problems == [])


def test_the_class_assumed_for_a_file_without_one_is_said():
    t = egd_from_text("\n".join(EGD))  # no CL tag
    assert event_assumptions(t)[-1] == "no class in the file: class B (other tournament) assumed"
    # Ruling G8: an EGD class names the EGD's classes: A, B or C is a Belgian A, D a Belgian B; said.
    for egd, belgian in (("A", "A"), ("B", "A"), ("C", "A"), ("D", "B")):
        tagged = egd_from_text("\n".join([f"; CL[{egd}]", *EGD]))
        assert belgian_class(tagged)[0] == belgian
        assert event_assumptions(tagged)[-1].startswith(f"EGD class {egd} (") and \
            f"Belgian class {belgian} (ruling G8" in event_assumptions(tagged)[-1]
