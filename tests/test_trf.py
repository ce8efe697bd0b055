"""The TRF reader and writer (pipeline/formats/trf.py).

Real files: tests/fixtures/trf/ (origin in its README.md). Columns below are
1-based as in the FIDE spec; Python slices are 0-based, so column c is
line[c - 1] and columns a..b are line[a - 1:b].
"""
from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from pipeline.formats.cells import LayoutError
from pipeline.formats.sniff import is_legend, is_ruler, looks_like_trf
from pipeline.formats.trf import (
    Problem,
    date_from,
    read_trf,
    tournament_from_text,
    trf_text,
)
from tests.conftest import write_rows

FIXTURES = Path(__file__).parent / "fixtures" / "trf"
LICHESS = FIXTURES / "lichess_swiss_2020_06.trf"
BELGIAN = FIXTURES / "belgian_interclubs_2023_r1_excerpt.txt"


def games_of(t) -> set[tuple]:
    return set(zip(t.games["round"], t.games["white_rank"], t.games["black_rank"], t.games["result"]))


# ---------------------------------------------------------------------------
# Real files


def test_lichess_swiss_export():
    t = read_trf(LICHESS)
    assert t.flavour == "trf"
    assert t.problems == ()
    assert t.tags["012"] == "Mai 5 Plus 0 Turnier"
    assert len(t.players) == 13  # 13 lines starting 001
    assert t.players["rank"].tolist() == list(range(1, 14))
    assert t.players["id"].isna().all()  # lichess writes no FIDE ids
    assert t.players.loc[0, "points"] == 8.0  # Player 1's columns 81-84: " 8.0"

    # Byes by eye: H in round 1 for ranks 5 and 8; U for 6 (r2), 7 (r4), 10 (r5), 12 (r1);
    # "-" with no opponent for 5 (r2), 8 (r2-r5: 4) and 13 (r4-r10: 7) = 12.
    assert t.byes["code"].value_counts().to_dict() == {"-": 12, "U": 4, "H": 2}
    assert set(zip(t.byes["rank"], t.byes["round"])) >= {(5, 1), (8, 1), (6, 2), (12, 1), (13, 10)}
    # 13 players x 10 rounds = 130 blocks, 18 of them byes: 112 blocks name an
    # opponent, two per game, so 56 games, each recorded once.
    assert len(t.games) == 56
    assert not t.games.duplicated(["round", "white_rank"]).any()
    assert not t.games.duplicated(["round", "black_rank"]).any()
    # Round 1: Player 1's line "13 b 1", Player 13's "1 w 0": 13 had White and lost.
    # Round 3: Player 1's "3 w 0", Player 3's "1 b 1": Black won.
    # Round 4: Player 1's "6 b =", Player 6's "1 w =".
    assert {(1, 13, 1, "0-1"), (3, 1, 3, "0-1"), (4, 6, 1, "1/2-1/2")} <= games_of(t)
    # No 132 dates: every game takes the start date, "May 29, 2020" in tag 042.
    assert set(t.games["date"]) == {dt.date(2020, 5, 29)}
    assert set(t.games["event"]) == {"Mai 5 Plus 0 Turnier"}


def test_belgian_report_in_swar_layout():
    data = BELGIAN.read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # written in Latin-1: the reader has to fall back
    t = read_trf(BELGIAN)
    assert t.flavour == "swar"  # header lines 00A..00F
    assert t.problems == ()
    assert t.tags["00C"] == "Envoi des rondes 1 à 1"
    assert len(t.players) == 12
    # The national id (matricule) in the FIDE-id field, columns 64-68 here.
    assert t.players["id"].tolist() == list(range(90001, 90013))
    assert pd.isna(t.players.loc[1, "rating"])  # Player 2's rating is written 0: unrated
    assert t.players.loc[0, "rating"] == 1625
    # 132: "23.09.24" at columns 92-99, year first as in the spec.
    assert t.round_dates == (dt.date(2023, 9, 24),)
    # Six boards: 1-2 "2 w 1"/"1 b 0", 3-4 "4 w 0"/"3 b 1", 5-6 and 7-8 won by
    # White, 9-10 "10 w 0", 11-12 "12 w ="/"11 b =".
    assert games_of(t) == {(1, 1, 2, "1-0"), (1, 3, 4, "0-1"), (1, 5, 6, "1-0"), (1, 7, 8, "1-0"),
                           (1, 9, 10, "0-1"), (1, 11, 12, "1/2-1/2")}
    first = t.games.iloc[0]
    assert (first["white_id"], first["black_id"], first["date"]) == (90001, 90002, dt.date(2023, 9, 24))
    assert len(t.byes) == 0


def test_looks_like_trf():
    assert looks_like_trf(LICHESS.read_bytes()[:300])
    assert looks_like_trf(BELGIAN.read_bytes()[:300])
    # bbpPairings writes a CR alone at the end of each line.
    assert looks_like_trf(b"012 AutoTest Tournament\r001    1      Test0001 Player0001")
    assert looks_like_trf(b"\xef\xbb\xbf\n### comment\n012 Open\n022 Gent\n")
    assert not looks_like_trf(b"player_id,name\n1,Ann\n")
    assert not looks_like_trf(b'[Event "Open"]\n[Site "Gent"]\n')
    assert not looks_like_trf(b"012;Open;Gent\n")  # a code needs a space after it
    assert not looks_like_trf(b"022 Gent\n032 BEL\n")  # codes, but neither a name (012) nor a player
    assert not looks_like_trf(b"")


@pytest.mark.parametrize("line", [
    "         1         2         3         4         5         6         7         8         9",  # Swiss-Manager
    "         1         2         3         4         5         6         7         8         9        10        11",
    "         1         2         3         4         5         6         7         8         9         0         1",
    "1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890",
    "0123456789012345678901234567890123456789012345678901234567890123456789",  # the Irish rating system
    "0         1         2         3         4         5",  # 0-based tens
    "1234567890123  ",  # trailing blanks
])
def test_column_rulers_of_every_writer(line):
    assert is_ruler(line) and not is_legend(line)


@pytest.mark.parametrize("line", [
    "001    1      Player 1                          1759           90001             3.5         18 b 0",
    "012 1234567890", "1234567", "2018/04/08", "1023456789012", "         1         3", "  1  2  3  4",
    "         1         2 x", "",
])
def test_lines_that_are_no_ruler(line):
    assert not is_ruler(line)


# ---------------------------------------------------------------------------
# A hand-made file with a forfeit, every kind of bye and every kind of bad line


def player(rank: int, name: str, points: float, *rounds: str) -> str:
    """A 001 line: fixed fields in their columns, then one 10-column block a round from column 92."""
    fixed = (f"001 {rank:>4} m    {name:<33} {2100 - 100 * rank:>4} BEL {100 + rank:>11} 1990/01/01 "
             f"{points:>4.1f} {rank:>4}")
    assert len(fixed) == 89 and fixed[57:68].strip() == str(100 + rank)  # FIDE id in columns 58-68
    return fixed + "  " + "".join(f"{r:<10}" for r in rounds).rstrip()


TINY = [
    "012 Tiny Open",  # line 1
    "042 2024/03/01",  # line 2
    "052 2024/13/45",  # line 3: month 13
    "132".ljust(91) + "24/03/01  24/03/02  24/03/03",  # line 4
    player(1, "One, A", 2.0, "   2 w 1", "   3 w =", "0000 - H"),  # line 5
    player(2, "Two, B", 2.0, "   1 b 0", "   4 w +", "   3 w 1"),  # line 6
    player(3, "Three, C", 1.5, "   4 w 0", "   1 w =", "   2 b 1"),  # line 7
    player(4, "Four, D", 2.0, "   3 b 1", "   2 b -", "0000 - F"),  # line 8
    player(5, "Five, E", 2.0, "0000 - U", "   6 w 1", "0000 - Z"),  # line 9
    player(6, "Six, F", 1.0, "0000 - +", "   5 b 0", "   7 w 1"),  # line 10
    player(7, "Seven, G", 0.0, "   8 w X", "0000 - -", "   8 b 0"),  # line 11
    player(8, "Eight, H", 2.0, "   7 b 1", "  12 w 1", "   7 w 1"),  # line 12
    player(9, "Nine, I", 0.0, "  10 w -", "  10 w L", "  10 w D"),  # line 13
    player(10, "Ten, J", 1.0, "   9 b -", "   9 b W", "   9 b D"),  # line 14
    "001   11      Short, Line",  # line 15: ends at column 25
]


def test_bad_lines_are_reported_and_the_rest_is_read():
    t = tournament_from_text("\n".join(TINY))
    assert list(t.problems) == [
        Problem(3, "unreadable date '2024/13/45' in tag 052"),
        # Round 2: 1 says "3 w =", 3 says "1 w =": both White; reported once, on the lower rank's line.
        Problem(5, "round 2: colour 'w' against 3 does not match 'w' on line 7"),
        # Round 3: 2 says "3 w 1" and 3 says "2 b 1": both claim the win.
        Problem(6, "round 3: result '1' against 3 does not match '1' on line 7"),
        # Round 3: 6 says "7 w 1", but 7's line has "8 b 0" (and 8's "7 w 1", a game).
        Problem(10, "round 3: paired with 7, but line 11 pairs 7 with 8"),
        Problem(11, "round 1: unknown result code 'X'"),
        Problem(12, "round 2: opponent 12 is not a starting rank in the file"),
        # D: a draw of less than one move, not rated; the project has no code for it.
        Problem(13, "round 3: unrated draw 'D' with 10 has no result code here; not recorded"),
        Problem(15, "player line too short (25 characters): the fixed fields need 84"),
    ]
    # Ten players kept; the short line's player (rank 11) is not one of them.
    assert t.players["rank"].tolist() == list(range(1, 11))
    # Games left: round 1: 1-2 (1 won with White), 3-4 (4 won with Black),
    # 9-10 both "-" (double forfeit); 7-8 is dropped with 7's unknown code.
    # Round 2: 2-4 "+"/"-" (White wins by forfeit), 5-6, and 9-10 "L"/"W"
    # (Black wins a game of less than a move: unrated, so -/+); 1-3 dropped
    # (colours), 8-12 dropped (no rank 12). Round 3: 8-7 only (8 White, won).
    assert games_of(t) == {(1, 1, 2, "1-0"), (1, 3, 4, "0-1"), (1, 9, 10, "-/-"),
                           (2, 2, 4, "+/-"), (2, 5, 6, "1-0"), (2, 9, 10, "-/+"),
                           (3, 8, 7, "1-0")}
    # The game date is the round's 132 date (YY/MM/DD).
    assert t.games.set_index("round")["date"].groupby(level=0).first().to_dict() == {
        1: dt.date(2024, 3, 1), 2: dt.date(2024, 3, 2), 3: dt.date(2024, 3, 3)}
    # Ids are the FIDE ids of the lines: 100 + rank here.
    row = t.games[(t.games["round"] == 2) & (t.games["white_rank"] == 2)].iloc[0]
    assert (row["white_id"], row["black_id"], row["white_line"], row["black_line"]) == (102, 104, 6, 8)
    # Every bye kind, none of them a game: H, F, U, Z, and a forfeit win (+)
    # or loss (-) with opponent 0000.
    assert set(zip(t.byes["rank"], t.byes["round"], t.byes["code"], t.byes["id"])) == {
        (1, 3, "H", 101), (4, 3, "F", 104), (5, 1, "U", 105), (5, 3, "Z", 105), (6, 1, "+", 106),
        (7, 2, "-", 107)}


def test_blank_blocks_and_lower_case_codes():
    lines = [
        "012 Blanks",
        player(1, "One, A", 1.0, "   2 w h", "        ", "   2 b 1"),  # round 1: h is H, with an opponent
        player(2, "Two, B", 0.0, "   1 b 0", "        ", "   1 w 0"),  # round 2 blank on both lines
        player(3, "Three, C", 0.0, "        ", "   0 - f"),  # 0 is no opponent too; round 3 not reached
    ]
    t = tournament_from_text("\r\n".join(lines))
    assert t.problems == (Problem(2, "round 1: bye code 'h' with opponent 2"),)
    # 1's round 1 is dropped, so 2's "1 b 0" has no answer; 1's line names 2,
    # so that is already explained on line 2 and not reported again.
    assert games_of(t) == {(3, 2, 1, "0-1")}
    # Blank blocks are Z (the spec), also where a line ends before the last round.
    assert set(zip(t.byes["rank"], t.byes["round"], t.byes["code"])) == {
        (1, 2, "Z"), (2, 2, "Z"), (3, 1, "Z"), (3, 2, "F"), (3, 3, "Z")}
    assert t.round_dates == (None, None, None)
    assert t.games["date"].tolist() == [None]  # no 132, no 042
    assert t.fatal.startswith("no start date (tag 042) and no round dates (tag 132)")  # so no game can be filed


def test_repeated_starting_rank_and_round_date_outside_the_tournament():
    lines = [
        "012 Twice",
        "042 2024/03/01",
        "052 2024/03/02",
        "132".ljust(91) + "24/03/01  24/04/02",
        player(1, "One, A", 1.0, "   2 w 1", "   2 b 0"),
        player(2, "Two, B", 1.0, "   1 b 0", "   1 w 1"),
        player(2, "Again, B", 0.0),
    ]
    t = tournament_from_text("\n".join(lines))
    assert list(t.problems) == [
        Problem(4, "round 2: date 2024-04-02 is outside the event's dates 2024-03-01..2024-03-02 (tags 042, 052): "
                   "the round's games are rejected"),
        Problem(7, "starting rank 2 already used on line 6"),
    ]
    assert t.players["name"].tolist() == ["One, A", "Two, B"]
    assert games_of(t) == {(1, 1, 2, "1-0"), (2, 2, 1, "1-0")}
    # Round 2's game is kept as a row, with the reason it is rejected (not filed in April's window);
    # round 1's date, 2024-03-01, is the start date itself: inside.
    by_round = t.games.set_index("round")["problem"].to_dict()
    assert by_round == {1: None, 2: "round 2 is dated 2024-04-02 (tag 132), outside the event's dates "
                                    "2024-03-01..2024-03-02 (tags 042, 052): not filed in another window"}


@pytest.mark.parametrize("text, expected", [
    ("2019/05/01", dt.date(2019, 5, 1)),  # 042 as in the spec
    ("19/05/01", dt.date(2019, 5, 1)),  # 132 as in the spec: YY/MM/DD
    ("23.09.24", dt.date(2023, 9, 24)),  # Belgian 132
    ("2023-09-24", dt.date(2023, 9, 24)),
    ("24.09.2023", dt.date(2023, 9, 24)),
    ("24/09/2023", dt.date(2023, 9, 24)),
    ("28. 07. 2005", dt.date(2005, 7, 28)),  # FIDE's example1.txt
    ("May 29, 2020", dt.date(2020, 5, 29)),  # lichess
    ("  ", None),
])
def test_date_from(text, expected):
    assert date_from(text) == expected


@pytest.mark.parametrize("text", ["2024/13/45", "soon", "1/2/3", "May 32, 2020"])
def test_date_from_rejects(text):
    with pytest.raises(ValueError):
        date_from(text)


# ---------------------------------------------------------------------------
# Writing


def test_writer_columns_points_and_ranks():
    players = pd.DataFrame({"id": [4100001, 4100002, 4100003], "name": ["Alpha, Ann", "Beta, Bob", "Gamma, Cy"],
                            "sex": ["F", "M", None], "title": ["WIM", None, None], "rating": [2105, 1980, None],
                            "federation": ["BEL", "BEL", None], "birth_year": [1990, None, 2011]})
    games = pd.DataFrame({"white_id": [4100001, 4100003, 4100002], "black_id": [4100002, 4100001, 4100003],
                          "result": ["1-0", "-/+", "1/2-1/2"], "round": [1, 2, 3],
                          "date": [dt.date(2024, 5, 4), dt.date(2024, 5, 4), dt.date(2024, 5, 5)]})
    byes = pd.DataFrame({"id": [4100003, 4100002], "round": [1, 2], "code": ["H", "U"]})
    text = trf_text("Club Cup", dt.date(2024, 5, 4), players, games, byes=byes)
    lines = text.split("\r\n")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    assert lines[:5] == ["012 Club Cup", "042 2024/05/04", "052 2024/05/05", "062 3", "072 2"]
    # 132: each round's earliest game date, YY/MM/DD in columns 92-99, 102-109, 112-119.
    assert (lines[5][:3], lines[5][91:99], lines[5][101:109], lines[5][111:119]) == (
        "132", "24/05/04", "24/05/04", "24/05/05")
    alpha, beta, gamma = lines[6:9]
    assert alpha[:3] == "001" and alpha[4:8] == "   1"  # starting rank by the order given
    assert (alpha[9], alpha[10:13], alpha[14:47].rstrip()) == ("w", "WIM", "Alpha, Ann")
    assert (alpha[48:52], alpha[53:56], alpha[57:68], alpha[69:79]) == ("2105", "BEL", "    4100001", "1990/00/00")
    # Points: Alpha won round 1 and won round 2 by forfeit (-/+ with Gamma
    # White), no game in round 3 (written 0000 - Z): 2.0. Beta: 0 + U bye 1 +
    # draw 0.5 = 1.5. Gamma: H bye 0.5 + forfeit loss 0 + draw 0.5 = 1.0.
    assert [line[80:84] for line in (alpha, beta, gamma)] == [" 2.0", " 1.5", " 1.0"]
    assert [line[85:89] for line in (alpha, beta, gamma)] == ["   1", "   2", "   3"]
    assert [alpha[91:99], alpha[101:109], alpha[111:119]] == ["   2 w 1", "   3 b +", "0000 - Z"]
    assert [beta[91:99], beta[101:109], beta[111:119]] == ["   1 b 0", "0000 - U", "   3 w ="]
    assert [gamma[91:99], gamma[101:109], gamma[111:119]] == ["0000 - H", "   1 w -", "   2 b ="]
    assert (beta[9], gamma[9], gamma[48:52], gamma[53:56]) == ("m", " ", "    ", "   ")

    back = tournament_from_text(text)
    assert back.problems == ()
    assert set(zip(back.games["white_id"], back.games["black_id"], back.games["result"])) == {
        (4100001, 4100002, "1-0"), (4100003, 4100001, "-/+"), (4100002, 4100003, "1/2-1/2")}
    assert set(zip(back.byes["id"], back.byes["round"], back.byes["code"])) == {
        (4100003, 1, "H"), (4100002, 2, "U"), (4100001, 3, "Z")}


def test_writer_ties_share_a_rank_and_bad_input_raises():
    players = pd.DataFrame({"id": [1, 2, 3]})
    draw = pd.DataFrame({"white_id": [1], "black_id": [2], "result": ["1/2-1/2"], "round": [1]})
    lines = trf_text("Ties", dt.date(2024, 1, 1), players, draw).split("\r\n")
    # 1 and 2 drew (0.5 each), 3 has 0: ranks 1, 1, 3. No dates: no 132 line.
    assert [line[85:89] for line in lines[5:8]] == ["   1", "   1", "   3"]
    assert not any(line.startswith("132") for line in lines)
    with pytest.raises(ValueError, match="unknown result codes"):
        trf_text("Bad", dt.date(2024, 1, 1), players, draw.assign(result="2-0"))
    with pytest.raises(ValueError, match="not among the players"):
        trf_text("Bad", dt.date(2024, 1, 1), players, draw.assign(black_id=9))
    with pytest.raises(ValueError, match="two games or byes in round 1"):
        trf_text("Bad", dt.date(2024, 1, 1), players,
                 pd.concat([draw, draw.assign(black_id=3)], ignore_index=True))


def test_writer_refuses_values_that_would_break_the_layout():
    players = pd.DataFrame({"id": [4100001, 4100002], "name": ["Alpha, Ann", "Beta, Bob"]})
    draw = pd.DataFrame({"white_id": [4100001], "black_id": [4100002], "result": ["1/2-1/2"], "round": [1]})
    # A line break in a name would start a forged line (here a 001 line of a player who never played).
    forged = players.assign(name=["Alpha, Ann", "Beta\r001    9      Forged, Player"])
    with pytest.raises(LayoutError, match=r"player 4100002: name 'Beta\\r001 .*' has a control character"):
        trf_text("Club Cup", dt.date(2024, 5, 4), forged, draw)
    # Columns 15-47 hold 33 characters: 33 are written whole, 34 refused (never cut).
    line = trf_text("Cup", dt.date(2024, 5, 4), players.assign(name=["A" * 33, "B"]), draw).split("\r\n")[5]
    assert line[14:47] == "A" * 33 and line[47] == " "
    with pytest.raises(LayoutError, match=r"player 4100001: name 'A{34}' is longer than its column \(33"):
        trf_text("Cup", dt.date(2024, 5, 4), players.assign(name=["A" * 34, "B"]), draw)
    with pytest.raises(LayoutError, match=r"player 123456789012: id '123456789012' is longer than its column \(11"):
        trf_text("Cup", dt.date(2024, 5, 4), players.assign(id=[123456789012, 4100002]),
                 draw.assign(white_id=123456789012))
    with pytest.raises(LayoutError, match=r"event name 'Cup\\n012 Other' has a control character"):
        trf_text("Cup\n012 Other", dt.date(2024, 5, 4), players, draw)


def test_round_trip_of_a_simulated_open():
    from pipeline.simulate import generate

    tables = generate(200, 1, 1)
    games = tables["games"].to_pandas()
    games["event"] = games["event"].astype(str)
    games["result"] = games["result"].astype(str)
    opens = games[games["event"].str.startswith("Open")]
    event = opens["event"].value_counts().index[0]
    ev = opens[opens["event"] == event]
    # Worth checking: several rounds, several dates, forfeits among the results,
    # and the simulator already pairs nobody twice in a round.
    assert ev["round"].nunique() > 3 and ev["date"].nunique() > 1
    assert ev["result"].isin(["+/-", "-/+", "-/-"]).any()
    ids = pd.unique(pd.concat([ev["white_id"], ev["black_id"]]))
    ratings = tables["ratings"].to_pandas().set_index("player_id")["rating"]
    players = (tables["players"].to_pandas().set_index("player_id").loc[ids].reset_index()
               .assign(rating=lambda p: p["player_id"].map(ratings).astype("Int64"))
               .sort_values(["rating", "player_id"], ascending=[False, True]))

    text = trf_text(event, min(ev["date"]), players, ev)
    back = tournament_from_text(text)

    assert back.problems == ()
    assert back.tags["012"] == event
    expected = set(zip(ev["white_id"], ev["black_id"], ev["result"], ev["round"], pd.to_datetime(ev["date"]).dt.date))
    got = set(zip(back.games["white_id"], back.games["black_id"], back.games["result"], back.games["round"],
                  back.games["date"]))
    assert got == expected and len(back.games) == len(ev)
    assert back.players["id"].tolist() == players["player_id"].tolist()  # ranks follow the order given
    # Points: each game's score from the result code, summed by player.
    white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "+/-": 1.0, "-/+": 0.0, "-/-": 0.0}
    black = {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5, "+/-": 0.0, "-/+": 1.0, "-/-": 0.0}
    points = (pd.concat([pd.Series(ev["result"].map(white).to_numpy(), index=ev["white_id"]),
                         pd.Series(ev["result"].map(black).to_numpy(), index=ev["black_id"])])
              .groupby(level=0).sum())
    assert back.players.set_index("id")["points"].to_dict() == points.to_dict()
    # Rounds without a game are zero-point byes: one per player and round missing.
    n_rounds = ev["round"].max()
    assert len(back.byes) == len(players) * n_rounds - 2 * len(ev)
    assert set(back.byes["code"]) <= {"Z"}


# ---------------------------------------------------------------------------
# The ratings a file prints, as initial ratings (--ratings-from-files, ruling R14)

RATINGS_COMMAND = Path(sys.executable).parent / "ratings"
# The real files with printed ratings, and what each needs to be taken in whole on a first load:
# a registry for the files that carry no ids (their players are found by name), a date for the
# one with none (tests/test_field_files.py reads each).
REGISTRIES = {"icu_bunratty_masters_2011_yyddmm.tab": [[n, f"Player {n}"] for n in range(1, 35)],
              "fide_team_tiebreak_nocolor.trf": [[10 * t + b, f"T{t}B{b}"] for t in range(1, 10) for b in (1, 2)]}
PRINTING = {"belgian_interclubs_2023_r1_excerpt.txt": ["--register-new"],
            "belgian_interclubs_2023_r1_boards_1_75.txt": ["--register-new"],
            "belgian_interclubs_fide_2024_r1_ddmmyy_excerpt.txt": ["--register-new"],
            "icu_bunratty_masters_2011_yyddmm.tab": [],
            "fide_team_tiebreak_nocolor.trf": ["--date", "2024-05-01"]}


def printed_ratings(path: Path) -> list[int]:
    """The ratings a TRF prints, read straight from its player lines (columns 49-52), 0 and blank left out."""
    lines = path.read_text(encoding="latin-1").splitlines()
    return sorted(int(line[48:52]) for line in lines if line.startswith("001") and line[48:52].strip("0 "))


@pytest.mark.parametrize("name, system", [*((name, "performance") for name in PRINTING),
                                          ("icu_bunratty_masters_2011_yyddmm.tab", "fide"),
                                          ("icu_bunratty_masters_2011_yyddmm.tab", "glicko2")])
def test_every_rating_a_file_prints_is_taken_in_on_a_first_load(tmp_path, name, system):
    # R14: a printed rating is taken as given, whatever its last digit and whatever rule set the
    # warehouse holds. The four files print 11 + 16 + 18 + 34 = 79 ratings, 8 of them in tens (with
    # the performance Elo, 8 were kept and 71 rejected before); the interclubs' first 75 boards
    # print 120, 12 of them in tens (12 kept, 108 rejected before).
    printed = printed_ratings(FIXTURES / name)
    assert len(printed) == {"belgian_interclubs_2023_r1_excerpt.txt": 11, "icu_bunratty_masters_2011_yyddmm.tab": 34,
                            "belgian_interclubs_2023_r1_boards_1_75.txt": 120,
                            "belgian_interclubs_fide_2024_r1_ddmmyy_excerpt.txt": 16,
                            "fide_team_tiebreak_nocolor.trf": 18}[name]
    assert sum(r % 10 != 0 for r in printed) > len(printed) // 2  # mostly not in tens: the case R14 settles
    registry = ["--players", str(write_rows(tmp_path / "players.csv", ["player_id", "name"], REGISTRIES[name]))] \
        if name in REGISTRIES else []
    w = tmp_path / "w.duckdb"
    done = subprocess.run([RATINGS_COMMAND, "run", "--system", system, *registry, "--games", FIXTURES / name,
                           *PRINTING[name], "--ratings-from-files", "--warehouse", w, "--out", tmp_path / "out",
                           "--no-reports"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(printed)} printed ratings taken as initial ratings" in done.stdout
    with duckdb.connect(str(w), read_only=True) as con:
        assert sorted(r for (r,) in con.execute("select rating from initial_ratings").fetchall()) == printed
        assert con.execute("select count(*) from rejects").fetchall() == [(0,)]
