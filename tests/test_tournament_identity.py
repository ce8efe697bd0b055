"""Who a tournament file's players are (pipeline/ingest_trf.py, issue 13): the id
wins over the name, a FIDE id the registry gives another player is a problem with
both ids, and the messages for players not found say why and advise --register-new
only when it would help."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from pipeline.formats.trf import Problem, tournament_from_text
from pipeline.ingest.trf import (
    _new_players,
    _staged_games,
    identity_assumptions,
    registry_identities,
    registry_ids,
)
from pipeline.warehouse import connect
from tests.test_trf import player


@pytest.fixture
def con(tmp_path):
    """A registry of three: Doe (FIDE id 5678), Roe (FIDE id 4242), Poe (no FIDE id)."""
    con = connect(tmp_path / "w.duckdb")
    con.executemany("insert into players (player_id, name, extra, file_id, row_number) values (?, ?, ?, 1, ?)",
                    [(7, "Doe, John", json.dumps({"fide_id": "5678"}), 1),
                     (8, "Roe, Ann", json.dumps({"fide_id": "4242"}), 2),
                     (9, "Poe, Edgar", None, 3)])
    yield con
    con.close()


def with_id(line: str, fide_id: int | None) -> str:
    """A 001 line with its FIDE id (columns 58-68) replaced, blank for None."""
    return line[:57] + (f"{fide_id:>11}" if fide_id else " " * 11) + line[68:]


def four(ids: list[int | None], names=("Doe, John", "Other, Name", "Poe, Edgar", "Nobody, Here"),
         *tags: str) -> str:
    """Four players on lines 3-6 (after 012 and 042), 1-2 and 3-4 paired in round 1."""
    lines = [player(1, names[0], 1.0, "   2 w 1"), player(2, names[1], 0.0, "   1 b 0"),
             player(3, names[2], 1.0, "   4 w 1"), player(4, names[3], 0.0, "   3 b 0")]
    return "\n".join(["012 Open", "042 2026/03/01", *tags, *(with_id(line, i) for line, i in zip(lines, ids))])


def test_the_id_wins_and_a_contradicting_fide_id_is_never_matched_by_name(con):
    # Rank 1: "Doe, John" with FIDE id 1234; the registry's Doe has 5678: a contradiction.
    # Rank 2: FIDE id 4242 is Roe's, under another name here: the id wins.
    # Rank 3: Poe with FIDE id 3333; the registry has no FIDE id for Poe: found by the name.
    # Rank 4: no id, and nobody of that name.
    t = tournament_from_text(four([1234, 4242, 3333, None]))
    found = registry_identities(con, t)
    assert found["player_id"].tolist() == [pd.NA, 8, 9, pd.NA]
    assert found["matched_by"].tolist() == [None, "id", "name", None]
    assert found.loc[1, "conflict"] == "FIDE id 1234 in the file, 5678 in the registry for 'Doe, John': not matched"
    assert found["conflict"].iloc[1:].isna().all()
    assert registry_ids(con, t).tolist() == [pd.NA, 8, 9, pd.NA]
    assert identity_assumptions(t, found) == ["line 5: matched to the registry by name, which has no fide_id "
                                              "for this player"]


def test_a_contradicting_player_is_not_registered_and_the_game_is_rejected_with_both_ids(con):
    t = tournament_from_text(four([1234, 4242, 3333, None]))
    found = registry_identities(con, t)
    ids = found["player_id"]
    # --register-new: rank 4 has no id, rank 1 contradicts the registry: nobody to register.
    assert len(_new_players(t, ids, {7, 8, 9}, found)) == 0
    rows, problems = _staged_games(t, ids, register_new=True, identities=found)
    assert problems == [
        Problem(3, "FIDE id 1234 in the file, 5678 in the registry for 'Doe, John': not matched"),
        Problem(6, "'Nobody, Here' (starting rank 4) is not in the player registry: no id in the file "
                   "(the id field is blank) and no single registered player has this name"),
    ]
    assert rows["problem"].tolist() == [
        "line 3: white: FIDE id 1234 in the file, 5678 in the registry for 'Doe, John': not matched",
        "line 6: black: 'Nobody, Here' (starting rank 4) is not in the player registry: no id in the file "
        "(the id field is blank) and no single registered player has this name"]


def test_register_new_is_advised_only_when_not_given(con):
    # Rank 4 has FIDE id 4444, which nobody in the registry has.
    t = tournament_from_text(four([5678, 4242, None, 4444], names=("A, A", "B, B", "Poe, Edgar", "New, Kid")))
    ids = registry_ids(con, t)
    _, without = _staged_games(t, ids)
    assert without == [Problem(6, "'New, Kid' (starting rank 4) is not in the player registry: no registered "
                                  "player has FIDE id 4444 (--register-new adds the file's new players)")]
    # Given, and 4444 is already someone's player_id: not registered, and not advised again.
    assert len(_new_players(t, ids, {7, 8, 9, 4444})) == 0
    _, given = _staged_games(t, ids, register_new=True)
    assert given == [Problem(6, "'New, Kid' (starting rank 4) is not in the player registry and was not "
                                "registered: its FIDE id 4444 is already another player's player_id, or given "
                                "to two players of the file")]
    assert "--register-new" not in given[0].message


def test_a_file_without_dates_is_rejected_whole_with_one_message(con):
    text = four([5678, 4242, None, None]).replace("042 2026/03/01\n", "")
    t = tournament_from_text(text)
    rows, problems = _staged_games(t, registry_ids(con, t))
    assert problems[0] == Problem(0, t.fatal) and t.fatal.startswith("no start date (tag 042)")
    assert len(problems) == 1  # rank 4's absence from the registry is not worth a word: nothing is taken in
    assert rows["problem"].tolist() == [t.fatal, t.fatal]  # both games, each rejected with it


def test_a_round_dated_outside_the_event_is_rejected_in_its_staged_row(con):
    t = tournament_from_text(four([5678, 4242, None, None], ("Doe, John", "Roe, Ann", "Poe, Edgar", "Nobody, Here"),
                                  "052 2026/03/01", "132".ljust(91) + "26/04/01"))
    rows, _ = _staged_games(t, registry_ids(con, t))
    late = ("round 1 is dated 2026-04-01 (tag 132), outside the event's dates 2026-03-01..2026-03-01 "
            "(tags 042, 052): not filed in another window")
    # Game 1-2 (Doe and Roe, both found by id): rejected for its date alone; game 3-4 for its
    # date and for rank 4 (line 8, after 012, 042, 052 and 132), who is not in the registry.
    assert rows["problem"].tolist()[:2] == [
        late, late + "; line 8: black: 'Nobody, Here' (starting rank 4) is not in the player registry: no id in "
                     "the file (the id field is blank) and no single registered player has this name"]
    assert rows["date"].tolist()[:2] == ["2026-04-01", "2026-04-01"]  # kept as read, for the reject's raw values
    assert rows["white_id"].tolist()[:2] == ["7", "9"]
