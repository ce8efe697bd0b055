"""The Go tournament file readers (pipeline/formats/go_files.py).

Real files: tests/fixtures/go/ (origin in its README.md). Player keys are
OpenGotha's (name + first name, no spaces, upper case) for the XML files and
the line's number among player lines for EGD tables.
"""
from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from pipeline.formats.go_files import (
    Problem,
    egd_from_text,
    grade_text,
    looks_like_egd,
    looks_like_opengotha,
    opengotha_from_xml,
    read_egd,
    read_opengotha,
)
from tests.as_user import ratings

FIXTURES = Path(__file__).parent / "fixtures" / "go"
SWISS = FIXTURES / "opengotha_simpleswiss_excerpt.xml"
BOSP = FIXTURES / "pairgoth_bosp2024_excerpt.xml"
EGD_2017 = FIXTURES / "opengotha_export_2017.h9"
JUVISY_H9 = FIXTURES / "opengotha_juvisy_2019.h9"
WAGC_1979 = FIXTURES / "egd_wagc_1979.txt"
WAGC_1996 = FIXTURES / "egd_wagc_1996.txt"
WAGC_2021 = FIXTURES / "egd_wagc_2021.txt"
BOM = b"\xef\xbb\xbf"  # the UTF-8 byte-order mark a Windows editor's "UTF-8" puts first


def games_of(t) -> set[tuple]:
    """(round, black, white, winner, handicap, forfeit, counted) of every game."""
    g = t.games
    return set(zip(g["round"], g["black"], g["white"], g["winner"], g["handicap"], g["forfeit"], g["counted"]))


# ---------------------------------------------------------------------------
# Real files


def test_opengotha_file():
    t = read_opengotha(SWISS)
    assert t.source == "opengotha"
    assert t.problems == ()
    assert t.event == {"event_id": "veteran2swiss", "name": "Championnat des Vieux Dragons",
                       "start_date": dt.date(2020, 12, 22), "end_date": dt.date(2021, 1, 7),
                       "class": None, "board_size": 19}
    assert len(t.players) == 8  # 8 <Player> lines
    assert t.players["key"].tolist() == [f"PLAYER{n}" for n in range(1, 9)]
    # Player 1: rank="3K" rating="1820" egfPin="" club="84Av" country="FR".
    first = t.players.iloc[0]
    assert (first["name"], first["grade"], first["rating"], first["club"], first["country"]) == (
        "Player 1", "3k", 1820.0, "84Av", "FR")
    assert t.players["egd_pin"].isna().all()  # every egfPin is ""
    assert len(t.games) == 12  # 12 <Game> lines
    # Rounds as the file has them: 2 in round 1, 3 in round 5, 2 in round 4,
    # 2 in round 3, 3 in round 2; read back in round order.
    assert t.games["round"].tolist() == [1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 5]
    # Round 2, table 13: blackPlayer="PLAYER2" whitePlayer="PLAYER8" RESULT_BLACKWINS, handicap 0.
    # Round 1, table 10: PLAYER8 Black, PLAYER1 White, RESULT_WHITEWINS.
    assert {(2, "PLAYER2", "PLAYER8", "B", 0, False, True),
            (1, "PLAYER8", "PLAYER1", "W", 0, False, True)} <= games_of(t)
    assert (t.games["handicap"] == 0).all() and t.games["counted"].all()
    # No round dates in OpenGotha files: every game takes beginDate.
    assert set(t.games["date"]) == {dt.date(2020, 12, 22)}


def test_pairgoth_export_of_an_opengotha_file():
    t = read_opengotha(BOSP)
    assert t.problems == ()
    assert t.event == {"event_id": "bosp2024", "name": "4th Bogazici Go Tournament",
                       "start_date": dt.date(2024, 7, 6), "end_date": dt.date(2024, 7, 7),
                       "class": None, "board_size": 19}
    assert len(t.players) == 11  # 11 <Player> elements, each over two lines
    # egfPin="90000001<line break>": the break is read as a space and dropped.
    assert t.players["egd_pin"].tolist() == [90000000 + n for n in range(1, 12)]
    # dataVersion="201": ratings as written (Player 9: rating="-300", rank="24k").
    row = t.players.set_index("key").loc["PLAYER9"]
    assert (row["grade"], row["rating"]) == ("24k", -300.0)
    # 4 games in round 1 (tables 1, 2, 5, 6), 5 in round 2 (tables 1, 2, 4, 5, 18).
    assert t.games.groupby("round").size().to_dict() == {1: 4, 2: 5}
    # Round 2 table 18: blackPlayer="PLAYER10" whitePlayer="PLAYER9" RESULT_WHITEWINS.
    assert (2, "PLAYER10", "PLAYER9", "W", 0, False, True) in games_of(t)
    # Player 9's round-1 bye (<ByePlayer player="Player9" roundNumber="1"/>) is not a game.
    assert not ((t.games["round"] == 1) & (t.games[["black", "white"]] == "PLAYER9").any(axis=1)).any()


def test_egd_file_written_by_opengotha():
    t = read_egd(EGD_2017)
    assert t.source == "egd"
    assert t.problems == ()
    assert t.event == {"event_id": "Test_Participation_et_Licence_FFG",
                       "name": "Test Participation et Licence FFG",
                       "start_date": dt.date(2017, 2, 11), "end_date": dt.date(2017, 2, 12),
                       "class": "A", "board_size": 19}
    assert len(t.players) == 22
    assert t.players["key"].tolist() == [str(n) for n in range(1, 23)]
    # Line 9 of the players: "   9 Player 9   14K FR 69Ly   29  545 1084 0    7-/b0 ..."
    nine = t.players.iloc[8]
    assert (nine["name"], nine["grade"], nine["country"], nine["club"]) == ("Player 9", "14k", "FR", "69Ly")
    # Counted by eye from the round columns (each game on two lines, 0- is no game):
    # round 1: 1-3, 2-6, 5-21, 7-9, 8-10, 12-18, 13-20, 16-22, 17-19 (4, 11, 14, 15 out) = 9;
    # round 2: 1-6, 2-8, 3-16, 4-5, 7-13, 9-20, 10-19, 12-14, 15-22 (11, 17, 18, 21 out) = 9;
    # round 3: 1-7, 2-13, 3-4, 5-18, 9-19, 10-14, 11-15 = 7; round 4: 1-2, 3-9, 5-14, 8-15,
    # 10-18, 11-13 = 6; rounds 5-20 are 0- on every line.
    assert t.games.groupby("round").size().to_dict() == {1: 9, 2: 9, 3: 7, 4: 6}
    # Round 4: line 1 "2-/w0", line 2 "1+/b0": 2 had Black and won, no handicap.
    # Round 2: line 4 "5+/w0", line 5 "4-/b0": White (4) won.
    assert {(4, "2", "1", "B", 0, False, True), (2, "5", "4", "W", 0, False, True)} <= games_of(t)
    assert set(t.games["date"]) == {dt.date(2017, 2, 11)}  # no round dates: DT's first date


# ---------------------------------------------------------------------------
# Hand-made EGD table: one bad line of each kind

EGD_TINY = [
    "; CL[E]",  # line 1: no such class
    "; EV[Spring Cup 2024]",  # line 2
    "; PC[NL, Utrecht]",  # line 3
    "; DT[2024-04-06,2024-04-07]",  # line 4
    "; HA[h2]",  # line 5: handicap = grade difference - 2 where a game has no colour
    "; KM[6.5]",  # line 6
    ";",  # line 7
    "; Pl Name           Rk Co Club",  # line 8
    "   1 Alpha Ann       3d NL Utr    2+/w0    3+/b0    4=/w0  |12345678",  # line 9
    "   2 Novák Šimon     2d NL Ams    1-/b0    4+/w1    0+",  # line 10
    "   3 Charlie Cy      1k DE Ber    5+       1-/w0    6+!b0",  # line 11
    "   4 Delta Di        3x BE Gen    6-/w0    2-/b2    1=/b0",  # line 12: grade 3x
    "   5 Echo Eve        5k FR Par    3-       6+/b0    2-/w0",  # line 13
    "     Fox Fay        10k FR Lyo    4+/b0    5+/w0    3-!w0",  # line 14: tied place, player 6
    "   7 Golf Gus           NL Ams    0-       0-       0-",  # line 15: no grade
    "   8 Hotel Hal       4k NL Utr    9?/b0    0-       0-",  # line 16
    "  12 India Ivy       6k GB Lon    8?/w0   10+/w0   10+/w0",  # line 17: place 12 on the 9th line
    "  10 Juliet Jo       2k NL Ams   12+/b0    9=/b0    9-/w0",  # line 18
    "  11 Kilo Kim        8k NL Utr    0-       0-",  # line 19: two rounds of three
]


def test_egd_bad_lines_are_reported_and_the_rest_is_read():
    t = egd_from_text("\n".join(EGD_TINY), "spring")
    assert list(t.problems) == [
        Problem(1, "unknown class CL[E]: A, B, C or D"),
        # Round 2: 2 says "4+/w1", 4 says "2-/b2".
        Problem(10, "round 2: handicap 1 against 4 does not match 2 on line 12"),
        Problem(12, "unreadable grade '3x'"),
        # Round 3: 5 says "2-/w0", but 2's round 3 is "0+".
        Problem(13, "round 3: paired with 2, but line 10 gives 2 no opponent"),
        Problem(15, "no grade after the name: line not read"),
        Problem(16, "round 1: no result against 9 ('?'): not recorded"),
        Problem(17, "place 12 on player line 9: opponents count lines, so this is player 9"),
        Problem(17, "round 2: result '+' against 10 does not match '=' on line 18"),
        Problem(17, "round 3: colour 'w' against 10 does not match 'w' on line 18"),
        Problem(18, "round 1: opponent 12, but the file has 11 player lines"),
        Problem(19, "2 results where the other lines have 3: results not read"),
    ]
    assert t.event == {"event_id": "Spring_Cup_2024", "name": "Spring Cup 2024",
                       "start_date": dt.date(2024, 4, 6), "end_date": dt.date(2024, 4, 7),
                       "class": None, "board_size": 19}
    # Line 7 (Golf Gus) is not read; the others are, Kilo Kim (11) without his results.
    assert t.players["key"].tolist() == ["1", "2", "3", "4", "5", "6", "8", "9", "10", "11"]
    players = t.players.set_index("key")
    assert players.loc["1", "egd_pin"] == 12345678 and players["egd_pin"].notna().sum() == 1
    assert players.loc["2", "name"] == "Novák Šimon"
    assert pd.isna(players.loc["4", "grade"])
    assert (players.loc["6", "name"], players.loc["6", "grade"]) == ("Fox Fay", "10k")
    assert t.games.groupby("round").size().to_dict() == {1: 3, 2: 2, 3: 2}
    assert games_of(t) == {
        # Round 1: 1-2 "2+/w0"/"1-/b0": White (1) won.
        (1, "2", "1", "W", 0, False, True),
        # 3-5 "5+"/"3-": no colour, so HA[h2]: 1k and 5k are 4 grades apart, handicap
        # 4 - 2 = 2, the weaker (5) takes Black; 3 won, so White won.
        (1, "5", "3", "W", 2, False, True),
        # 4-6 "6-/w0"/"4+/b0": Black (6) won; 4's bad grade does not stop the game.
        (1, "6", "4", "B", 0, False, True),
        # Round 2: 1-3 "3+/b0"/"1-/w0": Black (1) won.
        (2, "1", "3", "B", 0, False, True),
        # 5-6 "6+/b0"/"5+/w0": both won; no winner, not counted.
        (2, "5", "6", None, 0, False, False),
        # Round 3: 1-4 "4=/w0"/"1=/b0": jigo.
        (3, "4", "1", "jigo", 0, False, True),
        # 3-6 "6+!b0"/"3-!w0": Black (3) won by default: a forfeit, not counted.
        (3, "3", "6", "B", 0, True, False),
    }
    assert set(t.games["date"]) == {dt.date(2024, 4, 6)}


def test_egd_file_in_iso_8859_15(tmp_path: Path):
    # OpenGotha writes its EGD export in ISO-8859-15: Š is byte A6 there (¦ in Latin-1).
    path = tmp_path / "T240406A.h"
    path.write_bytes("\r\n".join(EGD_TINY[8:10]).replace("4+/w1", "0-   ").encode("iso-8859-15"))
    t = read_egd(path)
    assert t.players["name"].tolist() == ["Alpha Ann", "Novák Šimon"]
    # No header: the event is named after the file, and has no dates or class.
    assert t.event == {"event_id": "T240406A", "name": None, "start_date": None, "end_date": None,
                       "class": None, "board_size": 19}
    # Round 1 "2+/w0"/"1-/b0"; rounds 2 and 3 of line 1 name lines 3 and 4, which this file lacks.
    assert games_of(t) == {(1, "2", "1", "W", 0, False, True)}
    assert t.problems == (Problem(1, "round 2: opponent 3, but the file has 2 player lines"),
                          Problem(1, "round 3: opponent 4, but the file has 2 player lines"))
    assert t.games["date"].tolist() == [None]


# ---------------------------------------------------------------------------
# Hand-made OpenGotha file: one bad element of each kind

XML_TINY = [
    '<?xml version="1.0" encoding="UTF-8"?>',  # line 1
    '<Tournament dataVersion="201">',  # line 2
    "<Players>",  # line 3
    '<Player name="Dupré" firstName="Élise" rank="2D" rating="2150" egfPin="12345678" club="Lyon" country="FR"/>',
    '<Player name="van Dijk" firstName="Jan Willem" rank="5k" rating="1600" egfPin="" club="" country="NL"/>',
    '<Player name="Ng" firstName="Li" rank="12 kyu" rating="900" egfPin="0" club="Lon" country="GB"/>',  # line 6
    '<Player name="Bad" firstName="Fields" rank="3x" rating="abc" egfPin="P123" club="Gent" country="BE"/>',
    '<Player name="Dupré" firstName="Élise" rank="1D" rating="2100" egfPin="" club="" country="FR"/>',  # line 8
    '<Player name="Pro" firstName="Player" rank="2p" rating="2700" egfPin="" club="" country="JP"/>',  # line 9
    "</Players>",  # line 10
    "<Games>",  # line 11
    ('<Game roundNumber="1" blackPlayer="VANDIJKJANWILLEM" whitePlayer="DUPRÉÉLISE" handicap="3"'
     ' result="RESULT_BLACKWINS"/>'),  # line 12
    ('<Game roundNumber="1" blackPlayer="NGLI" whitePlayer="PROPLAYER" handicap="0"'
     ' result="RESULT_WHITEWINS_BYDEF"/>'),  # line 13
    '<Game roundNumber="2" blackPlayer="DUPREELISE" whitePlayer="NGLI" handicap="0" result="RESULT_EQUAL"/>',
    '<Game roundNumber="2" blackPlayer="VanDijkJanWillem" whitePlayer="ProPlayer" result="RESULT_BOTHLOSE"/>',
    '<Game roundNumber="3" blackPlayer="NOBODY" whitePlayer="NGLI" handicap="0" result="RESULT_BLACKWINS"/>',
    ('<Game roundNumber="3" blackPlayer="PROPLAYER" whitePlayer="VANDIJKJANWILLEM" handicap="0"'
     ' result="RESULT_WHITE"/>'),  # line 17
    ('<Game roundNumber="3" blackPlayer="DUPRÉÉLISE" whitePlayer="BADFIELDS" handicap="0"'
     ' result="RESULT_UNKNOWN"/>'),  # line 18
    '<Game roundNumber="x" blackPlayer="NGLI" whitePlayer="BADFIELDS" handicap="0" result="RESULT_BLACKWINS"/>',
    '<Game roundNumber="4" blackPlayer="NGLI" whitePlayer="DUPRÉÉLISE" handicap="12" result="RESULT_BLACKWINS"/>',
    ('<Game roundNumber="4" blackPlayer="PROPLAYER" whitePlayer="BADFIELDS" handicap="0"'
     ' result="RESULT_BOTHWIN_BYDEF"/>'),  # line 21
    ('<Game roundNumber="4" blackPlayer="BADFIELDS" whitePlayer="VANDIJKJANWILLEM" handicap="0"'
     ' result="RESULT_BLACKWINS"/>'),  # line 22
    '<Game roundNumber="4" blackPlayer="NGLI" whitePlayer="NGLI" handicap="0" result="RESULT_BLACKWINS"/>',
    "</Games>",  # line 24
    "<ByePlayer>",  # line 25
    '<ByePlayer player="NGLI" roundNumber="3"/>',  # line 26
    "</ByePlayer>",  # line 27
    "<TournamentParameterSet>",  # line 28
    ('<GeneralParameterSet name="Coupe d\'Été 2024" shortName="" beginDate="2024-07-13" endDate="2024-07-14x"'
     ' size="13"/>'),  # line 29
    "</TournamentParameterSet>",  # line 30
    "</Tournament>",  # line 31
]


def test_opengotha_bad_elements_are_reported_and_the_rest_is_read():
    t = opengotha_from_xml("\n".join(XML_TINY).encode("utf-8"))
    assert list(t.problems) == [
        Problem(7, "unreadable grade '3x'"),
        Problem(7, "unreadable rating 'abc'"),
        Problem(7, "unreadable egfPin 'P123'"),
        Problem(8, "player key DUPRÉÉLISE already used on line 4: not read"),
        Problem(16, "round 3: blackPlayer 'NOBODY' is not among the players"),
        Problem(17, "round 3: unknown result code 'RESULT_WHITE'"),
        Problem(18, "round 3: no result (RESULT_UNKNOWN): not recorded"),
        Problem(19, "unreadable roundNumber 'x'"),
        Problem(20, "round 4: unreadable handicap '12'"),
        Problem(22, "round 4: BADFIELDS already plays on line 21: not recorded"),
        Problem(23, "round 4: NGLI plays itself"),
        Problem(29, "unreadable endDate '2024-07-14x'"),
    ]
    # Keys: name + firstName, spaces out, upper case ("van Dijk" + "Jan Willem").
    assert t.players["key"].tolist() == ["DUPRÉÉLISE", "VANDIJKJANWILLEM", "NGLI", "BADFIELDS", "PROPLAYER"]
    assert t.players["name"].tolist()[:2] == ["Dupré Élise", "van Dijk Jan Willem"]
    assert t.players["grade"].tolist() == ["2d", "5k", "12k", None, "7d"]  # 2p is ranked 7d
    assert t.players["rating"].tolist()[:3] == [2150.0, 1600.0, 900.0] and pd.isna(t.players["rating"][3])
    assert t.players["egd_pin"].tolist() == [12345678, pd.NA, pd.NA, pd.NA, pd.NA]  # "", "0" and "P123" are none
    assert t.players["club"].tolist() == ["Lyon", None, "Lon", "Gent", None]
    assert games_of(t) == {
        (1, "VANDIJKJANWILLEM", "DUPRÉÉLISE", "B", 3, False, True),
        # By default: White wins but the game was not played.
        (1, "NGLI", "PROPLAYER", "W", 0, True, False),
        # "DUPREELISE" without accents finds Dupré Élise, as OpenGotha falls back for older files.
        (2, "DUPRÉÉLISE", "NGLI", "jigo", 0, False, True),
        # Mixed-case keys (pairgoth writes its bye players so) find their players; no handicap is 0.
        (2, "VANDIJKJANWILLEM", "PROPLAYER", None, 0, False, False),
        (4, "PROPLAYER", "BADFIELDS", None, 0, True, False),
    }
    assert t.event == {"event_id": "Coupe_d_Ete_2024", "name": "Coupe d'Été 2024",
                       "start_date": dt.date(2024, 7, 13), "end_date": None, "class": None, "board_size": 13}
    assert set(t.games["date"]) == {dt.date(2024, 7, 13)}


CUT_SHORT = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Tournament dataVersion="200">',  # before 201 ratings were stored 2050 lower
    "<Players>",
    '<Player name="Old" firstName="Timer" rank="1k" rating="-30"/>',  # line 4
    '<Player name="Cut" firstName="Short" rank="1d"',  # line 5: the file ends inside this tag
]


def test_opengotha_file_cut_short_and_old_ratings():
    t = opengotha_from_xml("\n".join(CUT_SHORT).encode("utf-8"), "club-night")
    assert len(t.problems) == 3
    assert t.problems[0] == Problem(0, "no GeneralParameterSet: the event has no name or dates")
    # One player read (line 4) and no game: said on the player's line (issue 51).
    assert t.problems[1] == Problem(4, "1 player and no game read: nothing in this file can be rated (its games "
                                       "are the <Game> elements inside <Games>, each naming a roundNumber, two "
                                       "players and a result)")
    assert t.problems[2].line == 5 and t.problems[2].message.startswith("not well-formed XML: ")
    assert t.players[["key", "grade", "rating"]].values.tolist() == [["OLDTIMER", "1k", 2020.0]]
    assert len(t.games) == 0
    assert t.event["event_id"] == "club-night"


def test_not_an_opengotha_root():
    t = opengotha_from_xml(b'<?xml version="1.0"?>\n<Tournoi/>')
    assert t.problems == (Problem(2, "root element is <Tournoi>, not <Tournament>"),)
    assert len(t.players) == 0 and len(t.games) == 0


# ---------------------------------------------------------------------------
# Recognising the formats


def test_looks_like():
    swiss, bosp, egd = SWISS.read_bytes()[:300], BOSP.read_bytes()[:300], EGD_2017.read_bytes()[:300]
    assert looks_like_opengotha(swiss) and looks_like_opengotha(bosp)  # bosp: blanks before the root
    assert not looks_like_opengotha(egd)
    assert looks_like_opengotha(b"\xef\xbb\xbf<!-- saved -->\n<Tournament>")
    assert not looks_like_opengotha(b'<?xml version="1.0"?>\n<TournamentList/>')
    assert looks_like_egd(egd)
    assert not looks_like_egd(swiss) and not looks_like_egd(bosp)
    # No header: a player line with a grade and two results is enough.
    assert looks_like_egd(b"  1 Alpha Ann  3d NL Utr  2+/w0  3+/b0\n")
    assert not looks_like_egd(b"012 Spring Open\n001    1 m    Alpha, Ann  2100 NED\n")  # TRF
    assert not looks_like_egd(b"player_id,name\n1,Ann\n")
    assert not looks_like_egd(b"")


# ---------------------------------------------------------------------------
# Grades


@pytest.mark.parametrize("text, grade", [
    ("5K", "5k"), ("5k", "5k"), ("5 kyu", "5k"), ("5 Kyu", "5k"), (" 30k ", "30k"),
    ("2D", "2d"), ("2 dan", "2d"), ("9d", "9d"),
    # Professionals as OpenGotha ranks them: 1p-3p 7d, 4p-6p 8d, 7p-9p 9d.
    ("1p", "7d"), ("3P", "7d"), ("4p", "8d"), ("9 pro", "9d"),
    # Not grades: out of range, no letter, another letter, empty.
    ("0k", None), ("31k", None), ("10d", None), ("10p", None), ("12", None), ("3x", None), ("", None),
    (None, None), ("k5", None),
])
def test_grade_text(text, grade):
    assert grade_text(text) == grade


# ---------------------------------------------------------------------------
# Names (issue 13): `_` is a space, blank names are reported, never "nan"


def test_egd_names_are_cleaned_and_a_missing_name_is_reported():
    lines = ["; EV[Names]", "; DT[2024-04-06,2024-04-06]",
             "   1 van_Dijk Jan_Willem 3d NL Utr    2+/w0",  # line 3: OpenGotha's _ for blanks in a name
             "   2 3k NL Ams    1-/b0  |12345678"]  # line 4: no name at all
    t = egd_from_text("\n".join(lines))
    assert t.players["name"].tolist() == ["van Dijk Jan Willem", None]
    assert t.players["line"].tolist() == [3, 4]
    assert t.problems == (Problem(4, "no name before the grade '3k': the player can be matched by EGD pin only, "
                                     "and is never registered"),)
    # The nameless player is still a player: the game is read, and their pin can find them.
    assert games_of(t) == {(1, "2", "1", "W", 0, False, True)} and t.players["egd_pin"].tolist()[1] == 12345678


def test_opengotha_blank_names_are_reported():
    xml = ['<?xml version="1.0" encoding="UTF-8"?>', "<Tournament>", "<Players>",
           '<Player name="_" firstName=" " rank="5k" egfPin="12345678"/>',  # line 4
           '<Player name="Le_Gall" firstName="Anne" rank="3k"/>', "</Players>", "</Tournament>"]
    t = opengotha_from_xml("\n".join(xml))
    assert t.players["name"].tolist() == [None, "Le Gall Anne"]
    assert t.players["key"].tolist() == ["_", "LE_GALLANNE"]  # keys stay OpenGotha's, as the games name them
    assert Problem(4, "blank name (name '_', firstName ''): the player can be matched by EGD pin only, "
                      "and is never registered") in t.problems


def test_what_the_readers_assume_is_said():
    # EGD_TINY: DT gives 2024-04-06; the game 3-5 ("5+"/"3-") has no colours: HA[h2] decides.
    assert egd_from_text("\n".join(EGD_TINY)).assumptions == (
        "the EGD format has no round dates: every game dated 2024-04-06, the start date (DT)",
        "1 game without colours: Black taken by the weaker grade (White by the earlier line when equal), "
        "handicap the grade difference less 2 (HA[h2])")
    assert read_opengotha(SWISS).assumptions == (
        "an OpenGotha file has no round dates: every game dated 2020-12-22, the start date (beginDate)",)


# ---------------------------------------------------------------------------
# The World Amateur Championship's EGD files (issue 51): a `?` in a round slot, score
# columns between the rounds and the PIN


def plain_games(path: Path, rounds: slice) -> tuple[dict[tuple[int, int, int], str], int]:
    """An EGD table read by plain Python, not by the reader: each player line's fields
    (blanks or tabs; the |PIN cut off), its round entries the `rounds` slice of them, as
    the file's column line says. A game is (round, lower line, higher line), named by both
    lines (asserted), with the two results (the lower line's first, `!` when by default);
    and how many round slots hold `?` alone."""
    lines = [line.split("|")[0].split() for line in path.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith(";")]
    named: dict[tuple[int, int, int], list[tuple[int, str]]] = {}
    for number, fields in enumerate(lines, 1):
        for rnd, entry in enumerate(fields[rounds], 1):
            if (m := re.fullmatch(r"([0-9]+)([-+=])(!?)", entry)) and int(m[1]):
                named.setdefault((rnd, *sorted((number, int(m[1])))), []).append((number, m[2] + m[3]))
    assert {len(sides) for sides in named.values()} == {2}  # each game on both its lines
    unrecorded = sum(entry == "?" for fields in lines for entry in fields[rounds])
    return {game: "".join(result for _, result in sorted(sides)) for game, sides in named.items()}, unrecorded


def reader_games(t) -> dict[tuple[int, int, int], bool]:
    """The reader's games as (round, lower line, higher line) -> counted."""
    return {(r, *sorted((int(b), int(w)))): counted
            for r, b, w, counted in zip(t.games["round"], t.games["black"], t.games["white"], t.games["counted"])}


def test_the_1979_world_amateur_championship_file_a_question_mark_is_a_round_without_a_game():
    # Tab-separated: place, name, grade, country, club "xxx", two score columns, then the
    # five rounds; 82 slots hold "?" alone (no game recorded: most of the field played only
    # the first rounds). The base reader found no round entries and said "0 games, 0 problems".
    plain, unrecorded = plain_games(WAGC_1979, slice(-5, None))
    assert (len(plain), unrecorded) == (34, 82)  # 30 lines x 5 slots = 150 = 2 x 34 + 82
    t = read_egd(WAGC_1979)
    assert t.problems == ()
    assert len(t.players) == 30 and len(t.games) == 34
    assert reader_games(t) == dict.fromkeys(plain, True)
    # Line 7, "1 Player 1 7d CN xxx 5 5 17+ 9+ 7+ 4+ 2+": round 5 against 2 ("1-" there), no
    # colours: both 7d, so White is the earlier line (1) and Black (2) lost; HA[h9], even.
    assert (5, "2", "1", "W", 0, False, True) in games_of(t)
    assert "82 round entries '?' (a round without a game recorded): no game" in t.assumptions
    assert t.event["class"] is None  # no CL tag


def test_the_2021_world_amateur_championship_file_score_columns_before_the_pin():
    # ";N Name Rank Coun/Terr MMo 1 2 3 4 5 6 MM Wins Coef1 Coef2 Place": five columns
    # follow the six rounds, then "|PIN". Two slots hold a bye ("0+!" on lines 52 and 55)
    # and four more rounds of line 52 are "0-" (no game); 47 and 57 lost to each other by
    # default in round 2 ("57-!", "47-!"): a game, both lost, not counted.
    plain, unrecorded = plain_games(WAGC_2021, slice(-11, -5))
    assert (len(plain), unrecorded) == (168, 0)  # 57 x 6 = 342 = 2 x 168 + 6 without an opponent
    assert [game for game, results in plain.items() if "!" in results] == [(2, 47, 57)]
    t = read_egd(WAGC_2021)
    assert t.problems == ()
    assert len(t.players) == 57 and len(t.games) == 168
    assert reader_games(t) == {game: game != (2, 47, 57) for game in plain}
    # Line 12, " 1 Player 1  7d CN  Chin  2  9+ 13+ 4+ 5- 6+ 8+  7 5 36 30 1  |90000001".
    first = t.players.iloc[0]
    assert (first["name"], first["grade"], first["country"], first["club"], first["egd_pin"]) == (
        "Player 1", "7d", "CN", "Chin", 90000001)
    assert "5 columns after the rounds on the player lines (scores, place): not read" in t.assumptions
    assert t.event["class"] == "A"


def test_the_1996_world_amateur_championship_file():
    # The EGD's own layout: rounds last, then "|PIN"; eight rounds, every slot a game.
    plain, unrecorded = plain_games(WAGC_1996, slice(-8, None))
    assert (len(plain), unrecorded) == (184, 0)  # 46 x 8 / 2
    t = read_egd(WAGC_1996)
    assert t.problems == ()
    assert reader_games(t) == dict.fromkeys(plain, True)


def test_world_amateur_championships_through_the_cli(tmp_path: Path):
    # As a user runs it: 34 games and 168, of which the double loss by default is rejected
    # as not counted (exit status 3: a row was rejected), 167 stored.
    for path in (WAGC_1979, WAGC_2021):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    said = ratings(tmp_path, "run", "--system", "go-belgium", "--games", WAGC_1979.name, "--games", WAGC_2021.name,
                   "--register-new", "--warehouse", "w.duckdb", "--out", "out", "--no-reports", code=3)
    assert "event 1st_World_Amateur_Go_Championship, 30 players (0 in the registry, 30 new), 34 games " \
           "(0 not counted), 0 problems" in said
    assert "event 41st_World_Amateur_Go_Championship, 57 players (0 in the registry, 57 new), 168 games " \
           "(1 not counted), 0 problems" in said
    assert "read 34 = accepted 34 + rejected 0" in said and "read 168 = accepted 167 + rejected 1" in said


def test_a_game_against_a_round_without_a_game_is_a_problem():
    # The 1979 file with line 9's round 1 (player 3) written "15+" where line 21 (player 15)
    # keeps "?": the two lines disagree, said on the line that names the game.
    text = WAGC_1979.read_text(encoding="utf-8").replace("3\tPlayer 3\t7d\tCN\txxx\t3\t3\t?\t",
                                                         "3\tPlayer 3\t7d\tCN\txxx\t3\t3\t15+\t")
    t = egd_from_text(text)
    assert t.problems == (Problem(9, "round 1: paired with 15, but line 21 gives 15 no opponent"),)
    assert len(t.games) == 34


def test_a_pin_alone_on_a_line_is_a_problem():
    # The 2021 file with line 12's pin broken onto a line of its own: no line is skipped
    # unsaid; player 1 is read without a pin.
    text = WAGC_2021.read_text(encoding="utf-8").replace("1     |90000001", "1\n|90000001")
    t = egd_from_text(text)
    assert t.problems == (Problem(13, "an EGD pin (90000001) without a player line before it: not read"),)
    assert pd.isna(t.players.iloc[0]["egd_pin"]) and len(t.games) == 168


def test_a_line_with_other_columns_after_its_rounds_is_a_problem_and_its_games_read():
    # The 2021 file with line 12's last column (Place, "1") dropped: four columns after its
    # rounds where the others have five; its six rounds are still read.
    text = WAGC_2021.read_text(encoding="utf-8").replace(" 36   30   1     |90000001", " 36   30   |90000001")
    t = egd_from_text(text)
    assert t.problems == (Problem(12, "4 columns (7 5 36 30) after the rounds where the other lines have 5: the "
                                      "rounds read are the 6 entries before them"),)
    assert len(t.games) == 168


# ---------------------------------------------------------------------------
# A byte-order mark (issue 51)


def accented(data: bytes) -> bytes:
    """A real file with its first player named with an accent, in ISO-8859-15 as OpenGotha
    writes its exports (the fixtures' names were replaced, which left them ASCII)."""
    return data.replace(b"Player 1 ", "Pläyer 1 ".encode("iso-8859-15"), 1)


@pytest.mark.parametrize("path, body", [
    (JUVISY_H9, lambda data: data),  # ASCII
    (WAGC_2021, lambda data: data),  # UTF-8 (its column line is in Cyrillic)
    (JUVISY_H9, accented),  # ISO-8859-15: the mark's bytes are read as "ï»¿"
])
def test_an_egd_file_with_a_byte_order_mark_gives_the_same_games(tmp_path: Path, path, body):
    plain, marked = tmp_path / "plain.h9", tmp_path / "marked.h9"
    plain.write_bytes(body(path.read_bytes()))
    marked.write_bytes(BOM + body(path.read_bytes()))
    t, m = read_egd(plain), read_egd(marked)
    assert m.problems == t.problems == ()
    assert games_of(m) == games_of(t) and len(m.games) in (36, 168)
    assert m.players[["key", "name", "line"]].equals(t.players[["key", "name", "line"]])
    assert m.event == t.event and m.event["class"] == "A"  # line 1 is "; CL[A]"


def test_an_egd_file_with_a_byte_order_mark_through_the_cli(tmp_path: Path):
    # The Juvisy export with an accented name (ISO-8859-15) and a mark before it: before,
    # line 1 was taken for a player line, every player numbered one too high, 2 of its 36
    # games kept, 87 problems and the class lost.
    # A mark says UTF-8 and the rest is not: the file mixes encodings and says so (issue 51's
    # decoding, pipeline/formats/encodings.py); named, its encoding reads it whole, the mark no
    # part of the first line.
    (tmp_path / "juvisy.h9").write_bytes(BOM + accented(JUVISY_H9.read_bytes()))
    mixed = ratings(tmp_path, "ingest", "juvisy.h9", "--register-new", "--warehouse", "mixed.duckdb")
    assert "mixes encodings: line 1 starts with a UTF-8 byte-order mark, line 12 is not UTF-8" in mixed
    said = ratings(tmp_path, "ingest", "juvisy.h9", "--register-new", "--encoding", "iso-8859-15",
                   "--warehouse", "w.duckdb")
    assert "event Tournoi_de_Juvisy, 19 players (0 in the registry, 19 new), 36 games (0 not counted), " \
           "0 problems" in said
    assert "EGD class A" in said
    said = ratings(tmp_path, "validate", "--warehouse", "w.duckdb")
    assert "read 36 = accepted 36 + rejected 0" in said
