"""More of the files the Go field writes (issue 37): the FFG results table (.tou),
the AGA results report and pairgoth's .tour, read into the same GoTournament as
OpenGotha and EGD files; and the formats met in the field that are not read
(Swiss Perfect's files, SWAR's and PairTwo's binary saves, pairgoth team tournaments,
MacMahon's XML, PGN: issue 51), each refused by name, with nothing staged.

Real files: tests/fixtures/go/ (origin and every change in its README.md).
Player keys are the line's number among player lines (FFG, as in the EGD
format), the AGA id (AGA) and pairgoth's player id (pairgoth).
"""
from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from pipeline.formats.aga import aga_from_text, read_aga
from pipeline.formats.ffg_tou import ffg_from_text, read_ffg
from pipeline.formats.go_files import Problem, egd_from_text, opengotha_from_xml, read_egd
from pipeline.formats.go_reports import read_go_file
from pipeline.formats.pairgoth import pairgoth_from_json, read_pairgoth
from pipeline.formats.sniff import go_report_format, looks_like_egd, looks_like_opengotha, not_read
from tests.as_user import ratings

FIXTURES = Path(__file__).parent / "fixtures" / "go"
JUVISY_TOU = FIXTURES / "opengotha_juvisy_2019.tou"
JUVISY_H9 = FIXTURES / "opengotha_juvisy_2019.h9"
AGA_EXAMPLE = FIXTURES / "aga_rated_games_example.txt"
AGA_OPENGOTHA = FIXTURES / "opengotha_aga_export_2020.txt"
BOSP_TOUR = FIXTURES / "pairgoth_bosp2024_excerpt.tour"
SP_EXPORT = FIXTURES / "swissperfect_gonzaga_2010_export_excerpt.txt"
SP_TRN = FIXTURES / "swissperfect_gonzaga_2010_header.trn"
SP_SCO = FIXTURES / "swissperfect_gonzaga_2010_header.sco"
SP_INI = FIXTURES / "swissperfect_gonzaga_2010.ini"
SWISS = FIXTURES / "opengotha_simpleswiss_excerpt.xml"
BOM = b"\xef\xbb\xbf"  # the UTF-8 byte-order mark a Windows editor's "UTF-8" puts first
MACMAHON = FIXTURES / "macmahon39_pairgoth_sample.xml"
PGN = Path(__file__).parent / "fixtures" / "trf" / "nepomniachtchi_liren_2023_game1.pgn"


def games_of(t) -> set[tuple]:
    """(round, black, white, winner, handicap, forfeit, counted) of every game."""
    g = t.games
    return set(zip(g["round"], g["black"], g["white"], g["winner"], g["handicap"], g["forfeit"], g["counted"]))


def counts(w: Path) -> dict[str, int]:
    with duckdb.connect(str(w), read_only=True) as con:
        return {table: con.execute(f"select count(*) from {table}").fetchone()[0]
                for table in ("players", "events", "go_games", "rejects")}


# ---------------------------------------------------------------------------
# FFG .tou


def test_ffg_file_written_by_opengotha():
    t = read_ffg(JUVISY_TOU)
    assert t.source == "ffg" and t.problems == ()
    # ;name=Tournoi de Juvisy, ;comm=Tournoi de Juvisy, ;date=26/10/2019, ;size=19; no end date in the format.
    assert t.event == {"event_id": "Tournoi_de_Juvisy", "name": "Tournoi de Juvisy",
                       "start_date": dt.date(2019, 10, 26), "end_date": dt.date(2019, 10, 26),
                       "class": None, "board_size": 19}
    # 19 player lines (`grep -vc '^;'`), keys their order among them.
    assert t.players["key"].tolist() == [str(n) for n in range(1, 20)]
    # Line 12: "   1 Player 1                  3D 9900001 75Ju    2+w0 ...".
    first = t.players.iloc[0]
    assert (first["name"], first["grade"], first["ffg_licence"], first["club"], first["line"]) == (
        "Player 1", "3d", "9900001", "75Ju", 12)
    # Player 18 has no licence (7 blanks) and is 10K; player 19 is 18K.
    assert pd.isna(t.players.iloc[17]["ffg_licence"]) and t.players["grade"].tolist()[17:] == ["10k", "18k"]
    assert t.players["egd_pin"].isna().all()
    # 72 entries with an opponent (`cut -c47- | grep -oE '\b[1-9][0-9]*[-+=][wb][0-9]' | wc -l`), two a game;
    # the four `0=` (player 2 absent in rounds 2-4, player 14 in round 1) are no game.
    assert len(t.games) == 36
    assert t.games.groupby("round").size().to_dict() == {1: 9, 2: 9, 3: 9, 4: 9}
    # 38 of the 72 entries have 1-9 stones (`...[wb][1-9]`): 19 handicap games.
    assert (t.games["handicap"] > 0).sum() == 19
    # Round 1: player 1 "2+w0", player 2 "1-b0"; round 4: player 1 "15+w4", player 15 "1-b4",
    # player 13 "19+w9", player 19 "13-b9" (White won, giving 4 and 9 stones).
    assert {(1, "2", "1", "W", 0, False, True), (4, "15", "1", "W", 4, False, True),
            (4, "19", "13", "W", 9, False, True)} <= games_of(t)
    assert set(t.games["date"]) == {dt.date(2019, 10, 26)} and t.games["counted"].all()
    said = " | ".join(t.assumptions)
    assert "every game dated 2019-10-26" in said and "taken to end the day it starts" in said
    assert "no mark for a game won by default" in said


def test_the_ffg_and_egd_exports_of_one_tournament_give_the_same_games():
    # OpenGotha wrote both files of the Juvisy tournament from one save (same commit, same program).
    tou, h9 = read_ffg(JUVISY_TOU), read_egd(JUVISY_H9)
    assert h9.problems == () and len(h9.games) == 36
    assert tou.games.drop(columns="date").equals(h9.games.drop(columns="date"))
    assert tou.players["grade"].tolist() == h9.players["grade"].tolist()


# pairgoth's layout (StandingsHandler.exportToFFGFormat): ;time= before ;size=, names cut to 24
# characters, the rounds written "<opp><result>/<colour><handicap>" as in the EGD format,
# a bye "0+"; hand-made, no file written by pairgoth was found.
PAIRGOTH_TOU = """;name=20240706-istanbul
;date=06/07/2024
;vill=Istanbul
;comm=4th Bogazici Go Tournament
;prog=Pairgoth 0.20
;time=45
;ta=82
;size=19
;komi=6.5
; Generated by Pairgoth 0.20
; Canadian 45 minutes, 25 stones / 5 minutes
;
;Num Nom Prenom               Niv Licence Club
   1 PLAYER One               3D         TR     2+/w0      3+/b0
   2 PLAYER Two               1D 1800014 38Gr   1-/b0      0+
   3 PLAYER_WITH_A_LONG_NAME Fo 4K         TR      0-      1-/w0
"""


def test_ffg_file_in_pairgoth_layout():
    t = ffg_from_text(PAIRGOTH_TOU, "x")
    assert t.problems == ()
    assert t.event["event_id"] == "20240706-istanbul" and t.event["start_date"] == dt.date(2024, 7, 6)
    assert t.players["name"].tolist() == ["PLAYER One", "PLAYER Two", "PLAYER WITH A LONG NAME Fo"]
    assert t.players["ffg_licence"].tolist()[:2] == [None, "1800014"]
    # Two games; "0+" and "0-" (byes) are none.
    assert games_of(t) == {(1, "2", "1", "W", 0, False, True), (2, "1", "3", "B", 0, False, True)}


FFG_BAD = """;name=club-night
;date=31/02/2024
;Num Nom Prenom               Niv Licence Club
   1 Alpha Ann                 3D 1234567 75Ju    2+w0    3+b0    4+w0
   2 Bravo Bob                 2D         92Le    1-b0    3x      0=
   3 Charlie Cy                1K 12AB    49An    4-w0    1-w0    2+w0
   4 Delta Dan                 xx         75Op    3+b0    9+w0    1-b0
   5 NoGrade Here
"""


def test_ffg_bad_lines_are_reported_and_the_rest_is_read():
    t = ffg_from_text(FFG_BAD, "club")
    assert [(p.line, p.message) for p in t.problems] == [
        (2, "unreadable date ;date=31/02/2024 (dd/mm/yyyy)"),
        # Line 7 (player 4) has no grade, so the rounds naming 4 on lines 4 and 6 have no partner line.
        (4, "round 3: opponent 4's line was not read"),
        (5, "round 2: unreadable entry '3x': this round not read"),
        (6, "unreadable FFG licence '12AB'"),
        (6, "round 1: opponent 4's line was not read"),
        (6, "round 3: paired with 2, but line 5 gives 2 no opponent"),  # line 5's round 3 is "0="
        # "xx" is not in columns 31-33, so the line is read by blanks, and no token is a grade.
        (7, "no grade after the name: line not read"),
        (8, "no grade after the name: line not read"),
    ]
    assert t.players["key"].tolist() == ["1", "2", "3"] and t.players["ffg_licence"].tolist() == ["1234567", None, None]
    # Read: round 1 lines 4/5 ("2+w0", "1-b0"), round 2 lines 4/6 ("3+b0", "1-w0").
    assert games_of(t) == {(1, "2", "1", "W", 0, False, True), (2, "1", "3", "B", 0, False, True)}


def test_ffg_file_rated_under_the_1984_rules(cli, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    result = cli("run", "--system", "go-ffg1984", "--games", JUVISY_TOU, "--register-new",
                 "--warehouse", w, "--out", out).output
    # 19 player lines, 36 games (see test_ffg_file_written_by_opengotha).
    assert ("FFG results (.tou): event Tournoi_de_Juvisy, 19 players (0 in the registry, 19 new), 36 games "
            "(0 not counted), 0 problems") in result
    assert "read 19 = accepted 19 + rejected 0" in result and "read 36 = accepted 36 + rejected 0" in result
    assert counts(w) == {"players": 19, "events": 1, "go_games": 36, "rejects": 0}
    with duckdb.connect(str(w), read_only=True) as con:
        extra = con.execute("select extra from players where name = 'Player 1'").fetchone()[0]
        event = con.execute("select start_date, end_date, class from events").fetchone()
    assert json.loads(extra) == {"ffg_licence": "9900001"}
    assert event == (dt.date(2019, 10, 26), dt.date(2019, 10, 26), "B")
    state = pd.read_parquet(out / "state" / "Tournoi_de_Juvisy.parquet")
    assert len(state) == 19 and (state["games"] > 0).sum() == 19  # everyone played at least one counted game


def test_a_corrected_ffg_file_replaces_the_first(cli, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "go-ffg1984", "--games", JUVISY_TOU, "--register-new", "--warehouse", w, "--out", out)
    # Round 1 of lines 1 and 2 turned round: "2+w0" / "1-b0" become "2-w0" / "1+b0".
    fixed = tmp_path / "juvisy-fixed.tou"
    fixed.write_bytes(JUVISY_TOU.read_bytes().replace(b"75Ju    2+w0", b"75Ju    2-w0")
                      .replace(b"92Le    1-b0", b"92Le    1+b0"))
    cli("ingest", fixed, "--replaces", 1, "--warehouse", w)
    result = cli("validate", "--warehouse", w).output
    # 36 games + 1 event withdrawn (the players stay registered); one game changed, its winner W to B.
    assert "submission 2 replaces submission 1: 37 rows withdrawn; games 1 changed, 0 added, 0 withdrawn" in result
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select format, status from submissions order by submission_id").fetchall() == [
            ("ffg", "replaced"), ("ffg", "taken in")]


def test_ffg_bad_lines_through_the_cli(cli, tmp_path):
    bad = tmp_path / "club.tou"
    bad.write_text(FFG_BAD.replace("31/02/2024", "10/02/2024"))
    w = tmp_path / "w.duckdb"
    out = cli("run", "--system", "go-ffg1984", "--games", bad, "--register-new", "--warehouse", w,
              "--out", tmp_path / "out", rejected=True).output
    # 2 games and the 8 problems of test_ffg_bad_lines_are_reported..., less the date, now readable.
    assert "2 games (0 not counted), 7 problems" in out
    assert "read 9 = accepted 2 + rejected 7" in out
    with duckdb.connect(str(w), read_only=True) as con:
        reasons = [r for (r,) in con.execute("select reason from rejects order by row_number").fetchall()]
    assert len(reasons) == 7 and "line 8: no grade after the name: line not read" in reasons


# ---------------------------------------------------------------------------
# AGA results


def test_aga_example_of_the_aga():
    t = read_aga(AGA_EXAMPLE)
    assert t.source == "aga" and t.problems == ()
    assert t.event == {"event_id": "Princeton_Go_Club_Rated_Games",
                       "name": "Princeton Go Club Rated Games, Princeton, NJ, June 15-30, 2004",
                       "start_date": dt.date(2004, 6, 15), "end_date": dt.date(2004, 6, 30),
                       "class": None, "board_size": 19}
    assert t.players[["key", "name", "grade", "aga_id", "line"]].values.tolist() == [
        ["7001", "Player 1", "4k", "7001", 6], ["7002", "Player 2", "4k", "7002", 7]]
    # "7001 7002 b 0 7": White 7001, Black 7002, Black won; "7002 7001 w 0 7": White 7002 won.
    # One GAMES section without a number: round 1.
    assert games_of(t) == {(1, "7002", "7001", "B", 0, False, True), (1, "7001", "7002", "W", 0, False, True)}


def test_aga_file_written_by_opengotha():
    t = read_aga(AGA_OPENGOTHA)
    # Its one player (line 6) and no game: a problem, never a clean report of 0 games (issue 51).
    assert t.problems == (Problem(6, "1 player and no game read: nothing in this file can be rated (its games are "
                                     "the lines of its GAMES sections, <white id> <black id> <winner> <handicap> "
                                     "<komi>)"),)
    # "Tourney<tab>EssaiLVLu15h27, Les Oustalous", "<tab>start=2020-08-31", "<tab>finish=2020-08-31".
    assert (t.event["event_id"], t.event["start_date"], t.event["end_date"]) == (
        "EssaiLVLu15h27", dt.date(2020, 8, 31), dt.date(2020, 8, 31))
    # "99999<tab>Player, 1<tab>30K": 99999 is OpenGotha's stand-in for a player without an AGA id.
    assert t.players[["key", "name", "grade", "aga_id"]].values.tolist() == [["99999", "Player 1", "30k", None]]
    assert len(t.games) == 0  # GAMES 1 to GAMES 5 are empty


AGA_BAD = """# a club's evening
TOURNEY Club Night, Gent
\tstart=2024-04-06
\tfinish=2024-04-06
PLAYERS
101 Alpha, Ann 3d
102 Bravo, Bob 2d
103 Charlie, Cy 1x
Delta, Dan 2k
101 Again, Ann 1d
GAMES 1
101 102 w 0 7
103 101 b 0 0 // no komi: handicap 1
GAMES 2
101 104 b 0 7
102 103 ? 0 7
102 101 w 12 0
102 101
END
stray
"""


def test_aga_bad_lines_are_reported_and_the_rest_is_read():
    t = aga_from_text(AGA_BAD, "x")
    by_line = {(p.line, p.message) for p in t.problems}
    assert by_line == {
        (8, "unreadable rank '1x'"),
        (9, "a player line is <AGA id> <name> <rank>: line not read"),
        (10, "AGA id 101 already used on line 6: not read"),
        (15, "round 2: black 104 not among the players"),
        (16, "round 2: no result ('?'): not recorded"),
        (17, "round 2: unreadable handicap '12'"),
        (18, "round 2: a game line is <white id> <black id> <winner> <handicap> <komi>: line not read"),
        (20, "a line after END: not read"),
    }
    assert t.players["key"].tolist() == ["101", "102", "103"]
    assert games_of(t) == {(1, "102", "101", "W", 0, False, True), (1, "101", "103", "B", 1, False, True)}
    assert any("1 game with handicap 0 and komi 0 read as handicap 1" in a for a in t.assumptions)


def test_aga_files_rated_under_the_belgian_rules(cli, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    result = cli("run", "--system", "go-belgium", "--games", AGA_EXAMPLE, "--games", AGA_OPENGOTHA,
                 "--register-new", "--warehouse", w, "--out", out, rejected=True).output
    # 2 PLAYERS lines and 2 GAMES lines; OpenGotha's export: 1 player, 0 games, which is a
    # problem rejected with its line (issue 51): the run says so and ends with exit status 3.
    assert ("AGA results: event Princeton_Go_Club_Rated_Games, 2 players (0 in the registry, 2 new), 2 games "
            "(0 not counted), 0 problems") in result
    assert "AGA results: event EssaiLVLu15h27, 1 players (0 in the registry, 1 new), 0 games (0 not counted), " \
           "1 problem" in result
    assert "read 2 = accepted 2 + rejected 0" in result and "read 1 = accepted 0 + rejected 1" in result
    assert counts(w) == {"players": 3, "events": 2, "go_games": 2, "rejects": 1}
    with duckdb.connect(str(w), read_only=True) as con:
        kept = sorted(json.loads(extra or "{}").get("aga_id", "") for (extra,) in
                      con.execute("select extra from players").fetchall())
    # The AGA ids are kept; OpenGotha's stand-in 99999 is no AGA id.
    assert kept == ["", "7001", "7002"]
    state = pd.read_parquet(out / "state" / "Princeton_Go_Club_Rated_Games.parquet")
    assert (state["games"] == 2).sum() == 2


def test_aga_bad_lines_through_the_cli(cli, tmp_path):
    bad = tmp_path / "club.txt"
    bad.write_text(AGA_BAD)
    w = tmp_path / "w.duckdb"
    out = cli("run", "--system", "go-belgium", "--games", bad, "--register-new", "--warehouse", w,
              "--out", tmp_path / "out", rejected=True).output
    # 2 games + 8 problems (test_aga_bad_lines_are_reported...): 10 rows, 8 rejected with their line.
    assert "read 10 = accepted 2 + rejected 8" in out
    assert "line 3 uses a tab" not in out
    with duckdb.connect(str(w), read_only=True) as con:
        reasons = {r for (r,) in con.execute("select reason from rejects").fetchall()}
    assert "line 20: a line after END: not read" in reasons and len(reasons) == 8


# ---------------------------------------------------------------------------
# pairgoth .tour


def test_pairgoth_tournament_file():
    t = read_pairgoth(BOSP_TOUR)
    assert t.source == "pairgoth" and t.problems == ()
    assert t.event == {"event_id": "bosp2024", "name": "4th Bogazici Go Tournament",
                       "start_date": dt.date(2024, 7, 6), "end_date": dt.date(2024, 7, 7),
                       "class": None, "board_size": 19}
    # 10 player objects (`grep -c '"firstname"'`); the line is the player's opening brace.
    assert t.players["key"].tolist() == ["36", "38", "41", "42", "50", "51", "53", "54", "56", "59"]
    assert t.players["line"].tolist()[:2] == [76, 91]
    # "rank" : -25 is 25k, -15 is 15k; "rating" kept as written.
    assert t.players["grade"].tolist()[:2] == ["25k", "26k"] and t.players["grade"].tolist()[-1] == "15k"
    # 5 pins (`grep -c '"egf" : "9'`), each ending with a line break; "\n" alone is none.
    assert t.players["egd_pin"].dropna().tolist() == [90000003, 90000007, 90000008, 90000009, 90000010]
    # 10 game objects, 2 of them the bye (player 0: `grep -c '"w" : 0\|"b" : 0'`): 8 games.
    assert t.games.groupby("round").size().to_dict() == {1: 4, 2: 4}
    # Round 1 table: "w" : 56, "b" : 50, "r" : "w"; round 2: "w" : 53, "b" : 54, "r" : "w".
    assert {(1, "50", "56", "W", 0, False, True), (2, "54", "53", "W", 0, False, True)} <= games_of(t)


def test_pairgoth_results_and_bad_objects():
    tour = {"type": "INDIVIDUAL", "name": "Club", "shortName": "club", "startDate": "2024-01-06",
            "endDate": "2024-01-06", "gobanSize": 13, "rounds": 1,
            "players": [{"id": n, "name": "P", "firstname": str(n), "rating": 0, "rank": 0} for n in (1, 2, 3, 4)]
            + [{"name": "No", "firstname": "Id"}],
            "games": [[{"id": 1, "t": 1, "w": 1, "b": 2, "h": 0, "r": "#"},
                       {"id": 2, "t": 2, "w": 3, "b": 4, "h": 2, "r": "?"},
                       {"id": 3, "t": 3, "w": 1, "b": 3, "h": 0, "r": "X"},
                       {"id": 4, "t": 4, "w": 2, "b": 9, "h": 0, "r": "b"},
                       {"id": 5, "t": 5, "w": 4, "b": 2, "h": 12, "r": "w"},
                       {"id": 6, "t": 6, "w": 4, "b": 1, "h": 3, "r": "0"}]]}
    text = json.dumps(tour, indent=2)
    t = pairgoth_from_json(text, "x")
    assert t.event["board_size"] == 13
    messages = [p.message for p in t.problems]
    assert messages == ["a player without a numeric id: not read", "round 1: no result ('?'): not recorded",
                        "round 1: cancelled ('X'): not recorded", "round 1: black 9 not among the players",
                        "round 1: unreadable handicap 12"]
    # Each problem names the line of its object's opening brace (json.dumps: one key a line).
    lines = text.splitlines()
    assert all(lines[p.line - 1].strip() == "{" for p in t.problems)
    # Both won ('#') and both lost ('0') are recorded, not counted.
    assert games_of(t) == {(1, "2", "1", None, 0, False, False), (1, "1", "4", None, 3, False, False)}
    broken = pairgoth_from_json('{"type": "INDIVIDUAL",\n "name": }', "x")
    assert [(p.line, p.message) for p in broken.problems][0] == (2, "not well-formed JSON: Expecting value")


def test_pairgoth_file_rated_under_the_belgian_rules(cli, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    result = cli("run", "--system", "go-belgium", "--games", BOSP_TOUR, "--register-new",
                 "--warehouse", w, "--out", out).output
    assert "pairgoth: event bosp2024, 10 players (0 in the registry, 10 new), 8 games (0 not counted), 0 problems" \
        in result
    assert "read 10 = accepted 10 + rejected 0" in result and "read 8 = accepted 8 + rejected 0" in result
    assert counts(w) == {"players": 10, "events": 1, "go_games": 8, "rejects": 0}
    with duckdb.connect(str(w), read_only=True) as con:
        ids = {r[0] for r in con.execute("select player_id from players").fetchall()}
    # The 5 free EGD pins are the players' ids; the other 5 get ids from 900000000 up.
    assert {90000003, 90000007, 90000008, 90000009, 90000010} <= ids and len(ids - set(range(90000000, 90000011))) == 5
    assert (pd.read_parquet(out / "state" / "bosp2024.parquet")["games"] > 0).sum() == 10


# ---------------------------------------------------------------------------
# Formats not read, refused by name


def staged_rows(w: Path) -> dict[str, int]:
    with duckdb.connect(str(w), read_only=True) as con:
        return {table: con.execute(f"select count(*) from {table}").fetchone()[0]
                for table in ("submissions", "staged_players", "staged_ratings", "staged_calendar", "staged_games",
                              "staged_events", "staged_go_games")}


def refused(cli, *args) -> str:
    result = cli(*args, ok=False)
    assert result.exit_code not in (0, 3), result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


@pytest.mark.parametrize("path, says", [
    (SP_EXPORT, "looks like a Swiss Perfect export (its cross table, tab-separated): not read; export it from "
                "Swiss Perfect as a FIDE rating report (the TRF layout)"),
    (SP_TRN, "a Swiss Perfect players file (.trn, a dBase table): not read"),
    (SP_SCO, "a Swiss Perfect results file (.sco, a dBase table): not read"),
    (SP_INI, "a Swiss Perfect settings file (.ini): not read"),
])
def test_swiss_perfect_files_are_refused_by_name(cli, tmp_path, path, says):
    w = tmp_path / "w.duckdb"
    cli("ingest", AGA_EXAMPLE, "--warehouse", w)  # something staged before: the refusals add nothing to it
    before = staged_rows(w)
    assert says in refused(cli, "ingest", path, "--warehouse", w)
    # Named as a registry, the cross table is refused all the same: never staged as players.
    assert says in refused(cli, "ingest", "--players", path, "--warehouse", w)
    assert says in refused(cli, "run", "--players", path, "--warehouse", w, "--out", tmp_path / "out")
    assert staged_rows(w) == before
    # Only the AGA file's submission.
    assert [line.split()[2] for line in cli("submissions", "--warehouse", w).output.splitlines()[1:]] == ["aga"]


def test_a_swar_binary_file_is_refused_by_name(cli, tmp_path):
    swar = tmp_path / "interclubs.swar"
    swar.write_bytes(b"\x00\x01SWAR\x00binary")  # no file saved by SWAR was found: its name is what is known
    w = tmp_path / "w.duckdb"
    message = refused(cli, "ingest", swar, "--warehouse", w)
    assert message.endswith(f"{swar}: named like a SWAR tournament file (.swar, SWAR's own binary save): not read; "
                            "export it from SWAR as a national report (TRF layout) and give that file")
    assert cli("submissions", "--warehouse", w).output.strip() == "no submission yet"


def length_prefixed(*texts: bytes) -> bytes:
    """SWAR's strings: a 4-byte little-endian length, then the bytes (libpairtwo's Swar4 reader)."""
    return b"".join(len(t).to_bytes(4, "little") + t for t in texts)


# No save written by SWAR or PairTwo was found in public sources: these heads are made as the
# readers of libpairtwo (github.com/JeroenED/libpairtwo, src/Readers/Swar4.php, Swar5.php,
# Pairtwo6.php) read them. SWAR: the release, a GUID, a MAC address, "[Tournoi]", the
# tournament's name...; PairTwo: its release in 4 characters, then 4-byte integers.
SWAR_HEAD = length_prefixed(b"v5.24", b"{8A2D4C1E-0B7F-4C2A-9E61-3F5D2B7A9C10}", b"00-00-00-00-00-00",
                            b"[Tournoi]", b"Interclubs", b"Club", b"998", b"Bruxelles") + b"\x00" * 40
PAIRTWO_HEAD = b"6.00" + b"".join(n.to_bytes(4, "little") for n in (32, 0, 12, 0, 0, 1, 0, 1, 0, 0)) + b"\x00" * 40


@pytest.mark.parametrize("name, head, says", [
    ("interclubs.swar", SWAR_HEAD, "a SWAR tournament file (SWAR's own binary save, release v5.24): not read; "
                                   "export it from SWAR as a national report (TRF layout) and give that file"),
    ("interclubs.dat", SWAR_HEAD, "a SWAR tournament file (SWAR's own binary save, release v5.24): not read"),
    ("open.sws", PAIRTWO_HEAD, "a PairTwo tournament file (.sws, PairTwo's own binary save, release 6.00): not "
                               "read; export the tournament from the pairing program as a FIDE rating report (the TRF "
                               "layout) and give that file"),
    ("open", PAIRTWO_HEAD, "a PairTwo tournament file (.sws, PairTwo's own binary save, release 6.00): not read"),
    ("old.sws", b"\x01\x02binary\x00", "named like a PairTwo tournament file (.sws, PairTwo's own binary save): "
                                        "not read"),
])
def test_swar_and_pairtwo_saves_are_refused_by_name(cli, tmp_path, name, head, says):
    # Before: "binary content, not a CSV or Parquet file" (a .sws, a SWAR save named otherwise).
    path = tmp_path / name
    path.write_bytes(head)
    w = tmp_path / "w.duckdb"
    assert says in refused(cli, "ingest", path, "--warehouse", w)
    assert says in refused(cli, "run", "--games", path, "--warehouse", w, "--out", tmp_path / "out")
    assert cli("submissions", "--warehouse", w).output.strip() == "no submission yet"


@pytest.mark.parametrize("path, counted, says", [
    # MacMahon 3.9's layout: 4 <Player>, 3 games and a bye (<Pairing>, PairingWithBye true).
    (MACMAHON, lambda text: (text.count("<Player>"), text.count("<PairingWithBye>false")), (4, 3)),
    # PGN: one game, its tag pairs then its moves.
    (PGN, lambda text: (text.count("[Event "), text.count('[Result "')), (1, 1)),
])
def test_macmahon_and_pgn_files_are_refused_by_name(cli, tmp_path, path, counted, says):
    assert counted(path.read_text(encoding="utf-8")) == says  # what the file holds, read here
    message = {MACMAHON: "a MacMahon tournament file (XML, MacMahon 3.9's layout): not read; export the tournament "
                         "as an EGD results table (.h9), or OpenGotha XML (pairgoth imports MacMahon's file and "
                         "exports both), and give that file",
               PGN: "a PGN file (games written move by move): not read; ratings are computed from a tournament's "
                    "results: give its report from the pairing program (FIDE TRF), or a games table (date, white_id, "
                    "black_id, result)"}[path]
    w = tmp_path / "w.duckdb"
    # Before: "cannot tell what the file holds from its columns (...)", or read as a games table.
    for given in ((path,), ("--games", path), ("--players", path)):
        assert refused(cli, "ingest", *given, "--warehouse", w) == f"Error: {path}: {message}"
    assert cli("submissions", "--warehouse", w).output.strip() == "no submission yet"


def test_a_pairgoth_team_tournament_is_refused(cli, tmp_path):
    team = json.loads(BOSP_TOUR.read_text(encoding="utf-8")) | {"type": "TEAM3"}
    path = tmp_path / "teams.tour"
    path.write_text(json.dumps(team, indent=2))
    w = tmp_path / "w.duckdb"
    assert "a pairgoth TEAM3 tournament (teams paired against teams): not read" in refused(
        cli, "ingest", path, "--warehouse", w)
    assert cli("submissions", "--warehouse", w).output.strip() == "no submission yet"


def test_each_file_is_recognised_as_what_it_is():
    # Every Go fixture: the format its content says, and no other reader's claim.
    expected = {
        "opengotha_juvisy_2019.tou": "ffg", "opengotha_juvisy_2019.h9": "egd",
        "aga_rated_games_example.txt": "aga", "opengotha_aga_export_2020.txt": "aga",
        "pairgoth_bosp2024_excerpt.tour": "pairgoth", "opengotha_export_2017.h9": "egd",
        "opengotha_simpleswiss_excerpt.xml": "opengotha", "pairgoth_bosp2024_excerpt.xml": "opengotha",
        "opengotha_egc2011_doctype.xml": "opengotha", "egd_wagc_1979.txt": "egd", "egd_wagc_1996.txt": "egd",
        "egd_wagc_2021.txt": "egd",
    }
    for name, fmt in expected.items():
        head = (FIXTURES / name).read_bytes()[:8192]
        found = go_report_format(head) or ("opengotha" if looks_like_opengotha(head) else
                                           "egd" if looks_like_egd(head) else None)
        assert found == fmt, name
        assert not_read(head, name) is None, name
        assert read_go_file(FIXTURES / name).source == fmt
    for name in ("swissperfect_gonzaga_2010_export_excerpt.txt", "swissperfect_gonzaga_2010_header.trn",
                 "swissperfect_gonzaga_2010_header.sco", "swissperfect_gonzaga_2010.ini"):
        head = (FIXTURES / name).read_bytes()[:8192]
        assert go_report_format(head) is None and not_read(head, name) is not None
    trf = Path(__file__).parent / "fixtures" / "trf"
    for path in sorted(trf.glob("*.t*")):
        head = path.read_bytes()[:8192]
        assert go_report_format(head) is None and not_read(head, path.name) is None, path.name


# ---------------------------------------------------------------------------
# Every reader: a file with players and no game is a problem (issue 51); a byte-order mark


def without_games(name: str) -> str:
    """A real file as text with every game taken out, as its writer writes a tournament
    whose games were not entered: round entries `0=` (EGD, FFG: no game), the `<Game>`
    elements or pairgoth's rounds emptied."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    if name.endswith((".h9", ".tou")):
        return re.sub(r"(?<=\s)[0-9]+[-+=][/!]?[wb]?[0-9]?(?=\s|$)", "0=", text)
    if name.endswith(".xml"):
        return re.sub(r" *<Game [^>]*/>\n", "", text)
    tour = json.loads(text)
    tour["games"] = [[] for _ in tour["games"]]
    return json.dumps(tour, indent=2)


WHAT_A_GAME_IS = {
    "egd": "a player line ends with one entry a round, <opponent><result>[/<colour><handicap>] (12+/w0; 0= no "
           "game), before any score columns and the |PIN",
    "ffg": "a player line ends with one entry a round, <opponent><result><colour><handicap> (15+w4; 0= no game)",
    "opengotha": "its games are the <Game> elements inside <Games>, each naming a roundNumber, two players and "
                 "a result",
    "pairgoth": 'its "games" hold one array a round of games {"w", "b", "h", "r"} between two players',
}


@pytest.mark.parametrize("name, read, players, line", [
    # The Juvisy exports: 19 player lines, the first on line 12 of both.
    ("opengotha_juvisy_2019.h9", egd_from_text, 19, 12),
    ("opengotha_juvisy_2019.tou", ffg_from_text, 19, 12),
    # 8 <Player> elements, the first on line 4; pairgoth's 10 players, the first object on line 76.
    ("opengotha_simpleswiss_excerpt.xml", lambda text: opengotha_from_xml(text.encode("utf-8")), 8, 4),
    ("pairgoth_bosp2024_excerpt.tour", pairgoth_from_json, 10, 76),
])
def test_a_file_with_players_and_no_game_is_a_problem_in_every_reader(name, read, players, line):
    t = read(without_games(name))
    assert len(t.players) == players and len(t.games) == 0
    assert t.problems == (Problem(line, f"{players} players and no game read: nothing in this file can be rated "
                                        f"({WHAT_A_GAME_IS[t.source]})"),)
    # The AGA reader: OpenGotha's own export of a tournament without games
    # (test_aga_file_written_by_opengotha).


def test_a_file_without_players_or_games_is_a_problem():
    t = egd_from_text("; EV[Club night]\n; DT[2024-01-06]\n")
    assert t.problems == (Problem(0, f"no player and no game read: nothing in this file can be rated "
                                     f"({WHAT_A_GAME_IS['egd']})"),)


def test_a_file_with_players_and_no_game_through_the_cli(tmp_path):
    # As a user runs it: before, "19 players ..., 0 games (0 not counted), 0 problems" and
    # exit status 0 with an event of no game. Now a reject naming the line, exit status 3.
    (tmp_path / "juvisy.h9").write_text(without_games("opengotha_juvisy_2019.h9"), encoding="utf-8")
    said = ratings(tmp_path, "run", "--system", "go-belgium", "--games", "juvisy.h9", "--register-new",
                   "--warehouse", "w.duckdb", "--out", "out", "--no-reports", code=3)
    assert "0 games (0 not counted), 1 problem" in said
    assert "juvisy.h9, line 12: 19 players and no game read: nothing in this file can be rated" in said
    assert "read 1 = accepted 0 + rejected 1" in said


@pytest.mark.parametrize("name", ["opengotha_juvisy_2019.tou", "aga_rated_games_example.txt",
                                  "pairgoth_bosp2024_excerpt.tour"])
def test_a_byte_order_mark_changes_nothing(tmp_path, name):
    # A mark before UTF-8 (as any of these files is saved by a Windows editor's "UTF-8"),
    # and before a name in ISO-8859-15 (OpenGotha's exports; the mark then read as "ï»¿"),
    # except for pairgoth, whose files are UTF-8 JSON.
    data = (FIXTURES / name).read_bytes()
    bodies = [data] if name.endswith(".tour") else [data, data.replace(b"Player", "Pläyer".encode("iso-8859-15"), 1)]
    for body in bodies:
        plain, marked = tmp_path / f"plain-{name}", tmp_path / f"marked-{name}"
        plain.write_bytes(body)
        marked.write_bytes(BOM + body)
        t, m = read_go_file(plain), read_go_file(marked)
        assert m.source == t.source and m.problems == t.problems == ()
        assert games_of(m) == games_of(t) and len(m.games) in (2, 8, 36)
        assert m.players.drop(columns="line").equals(t.players.drop(columns="line"))
        assert m.players["line"].equals(t.players["line"]) or name.endswith(".tour")
        assert {**m.event, "event_id": None} == {**t.event, "event_id": None}
