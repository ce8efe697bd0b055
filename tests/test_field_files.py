"""Real tournament files as their writers write them (issues 37 and 51), read whole through the
CLI: the round dates of tag 132 in the orders real writers use, a team tie-break file whose first
records are team tags, half-point byes written `0000 - =`, column rulers of every writer and the
field legend, placeholder birth dates and tabs, games not played yet (`*`), ranks too wide for
their field. Each fixture's origin is in tests/fixtures/trf/README.md; each count below was made
by hand on the fixture (the commands are beside them) or by `trf_counts`, a reading of the
format's columns independent of the project's reader."""
from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import duckdb

from tests.as_user import ratings
from tests.conftest import write_rows

TRF = Path(__file__).parent / "fixtures" / "trf"


def trf_counts(path: Path) -> tuple[int, dict[int, int]]:
    """The player lines of a TRF and its games by round, read from the columns alone: each game
    once, from the line of its lower starting rank (a block naming a higher one), a result `*`
    (not played yet) left out."""
    players, games = 0, Counter()
    for line in path.read_text(encoding="latin-1").splitlines():
        if line.startswith("001 "):
            players += 1
            for k, at in enumerate(range(91, len(line), 10), 1):  # round k's block: columns 92-99 + 10(k-1)
                opponent = line[at:at + 4].strip()
                if opponent.isdigit() and int(opponent) > int(line[4:8]) and line[at + 7:at + 8] != "*":
                    games[k] += 1
    return players, dict(games)


def stored(w) -> dict:
    with duckdb.connect(str(w), read_only=True) as con:
        return {
            "games": con.execute("select count(*) from games").fetchall()[0][0],
            "rejects": con.execute("select count(*) from rejects where status = 'open'").fetchall()[0][0],
            "byes": dict(con.execute("select code, count(*) from byes group by code").fetchall()),
            "dates": dict(con.execute("select round::integer, min(date) from games group by 1").fetchall()),
            "by_round": dict(con.execute("select round::integer, count(*) from games group by 1").fetchall()),
            "one_date_a_round": con.execute("select count(distinct date) = count(distinct round) from games"
                                            ).fetchall()[0][0],
        }


def test_belgian_interclub_fide_report_with_ddmmyy_round_dates_is_read_whole(cli, tmp_path):
    # 132 says `29/09/24` with 042 and 052 2024-09-29: read as the spec's YY/MM/DD it is 2029-09-24,
    # outside the event, and every game was rejected; read DD/MM/YY it is the event's day.
    # 16 player lines, 8 boards (grep -c '^001' gives 16; each names its opponent): 8 games.
    w = tmp_path / "w.duckdb"
    out = cli("run", "--games", TRF / "belgian_interclubs_fide_2024_r1_ddmmyy_excerpt.txt", "--register-new",
              "--warehouse", w, "--out", tmp_path / "out", "--no-reports").output
    assert ("assumed: line 13: the round dates of tag 132 read as DD/MM/YY (29/09/24 = 2024-09-29): read as "
            "the spec's YY/MM/DD they fall outside the event's dates 2024-09-29..2024-09-29 (tags 042, 052)") in out
    assert out.count("read as DD/MM/YY") == 1  # once per file, not once per round or game
    got = stored(w)
    assert (got["games"], got["rejects"], got["dates"]) == (8, 0, {1: dt.date(2024, 9, 29)})


def test_irish_krause_file_with_yyddmm_round_dates_has_its_rounds_dated(cli, tmp_path):
    # 132: `11.25.02  11.26.02  11.26.02  11.26.02  11.27.02  11.27.02` with 042 25.02.2011, 052 27.02.2011:
    # YY.DD.MM. 34 players; the round blocks name an opponent 194 times (97 games, each on two lines)
    # and 10 blocks are `      -   ` with no opponent (rounds a player missed: byes).
    # The file carries no ids: its players are found in the registry by name.
    registry = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[n, f"Player {n}"] for n in range(1, 35)])
    w = tmp_path / "w.duckdb"
    out = cli("run", "--players", registry, "--games", TRF / "icu_bunratty_masters_2011_yyddmm.tab",
              "--warehouse", w, "--out", tmp_path / "out", "--no-reports").output
    assert "read as YY/DD/MM (11.25.02 = 2011-02-25)" in out and "no round dates" not in out
    got = stored(w)
    assert (got["games"], got["rejects"], sum(got["byes"].values())) == (97, 0, 10)
    assert got["dates"] == {1: dt.date(2011, 2, 25), 2: dt.date(2011, 2, 26), 3: dt.date(2011, 2, 26),
                            4: dt.date(2011, 2, 26), 5: dt.date(2011, 2, 27), 6: dt.date(2011, 2, 27)}


def test_team_tiebreak_file_starting_with_team_records_is_a_trf(cli, tmp_path):
    # Starts 062 072 082 142 152 192 212, nine 310 team lines, then 18 players over 7 rounds.
    # Each round one team of two has the bye (`0000 - U`: 2 a round, 14 in all); the other 16
    # players make 8 games a round: 56 games. No 042 and no 132: --date dates them.
    # Its players carry no id (T1B1 … T9B2: team, board): found in the registry by name.
    registry = write_rows(tmp_path / "players.csv", ["player_id", "name"],
                          [[10 * t + b, f"T{t}B{b}"] for t in range(1, 10) for b in (1, 2)])
    w = tmp_path / "w.duckdb"
    out = cli("run", "--players", registry, "--games", TRF / "fide_team_tiebreak_nocolor.trf", "--date", "2024-05-01",
              "--warehouse", w, "--out", tmp_path / "out", "--no-reports").output
    assert "FIDE TRF: 1 event" in out and "carry no TRF codes" not in out
    got = stored(w)
    assert (got["games"], got["rejects"], got["byes"]) == (56, 0, {"U": 14})


def test_half_point_byes_written_0000_dash_equals_are_byes(cli, tmp_path):
    # The Irish federation's sample (Gonzaga Classic): `0000 - =` three times (players 1, 8 and 10),
    # `0000 - +` once (player 11, round 5), and player 12's line stops after round 3 (rounds 4 and 5
    # blank: zero-point byes). 12 players × 5 rounds = 60 blocks − 6 without an opponent = 54 = 27 games.
    # (27 games, 3 of them forfeits: 4-11, 7-12 and 9-12.) Player 3 has no id: registered by name.
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", player_3(tmp_path), "--games", TRF / "icu_gonzaga_classic_half_byes.tab",
                 "--register-new", "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    assert result.exit_code == 0 and "read as half-point byes (H)" in result.output
    got = stored(w)
    assert (got["games"], got["rejects"], got["byes"]) == (27, 0, {"H": 3, "+": 1, "Z": 2})


def player_3(tmp_path: Path) -> Path:
    """The one player of the Gonzaga file without an id, in a registry, by name."""
    return write_rows(tmp_path / "players.csv", ["player_id", "name"], [[3, "Player 3"]])


def with_lines(source: Path, target: Path, change) -> Path:
    lines = source.read_text(encoding="latin-1").split("\n")
    target.write_text("\n".join(change(lines)), encoding="latin-1")
    return target


def test_column_rulers_and_placeholder_birth_dates_are_notes_not_rejects(cli, tmp_path):
    # Swiss-Manager's rulers above the player lines, and a birth date written `  .  .` (no date):
    # neither is a row to fix, so the file exits 0 with every game, and says what it skipped.
    def change(lines):
        rulers = ["         1         2         3         4         5         6         7         8         9",
                  "123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"]
        first = next(i for i, line in enumerate(lines) if line.startswith("001"))
        lines[first] = lines[first][:69] + "  .  .    " + lines[first][79:]
        return lines[:first] + rulers + lines[first:]

    trf = with_lines(TRF / "icu_gonzaga_classic_half_byes.tab", tmp_path / "ruled.trf", change)
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", player_3(tmp_path), "--games", trf, "--register-new", "--warehouse", w,
                 "--out", tmp_path / "out", "--no-reports")
    assert "lines 10-11: a column ruler (digits counting the columns), no record: skipped" in result.output
    assert (stored(w)["games"], stored(w)["rejects"]) == (27, 0)


def test_a_tab_in_a_player_line_is_named_once(cli, tmp_path):
    def change(lines):
        i = next(i for i, line in enumerate(lines) if line.startswith("001    2"))
        lines[i] = lines[i][:14] + "Player\t2" + lines[i][22:]
        return lines

    trf = with_lines(TRF / "icu_gonzaga_classic_half_byes.tab", tmp_path / "tab.trf", change)
    cli("ingest", "--players", player_3(tmp_path), trf, "--register-new", "--warehouse", tmp_path / "w.duckdb")
    result = cli("validate", "--warehouse", tmp_path / "w.duckdb", rejected=True)
    assert result.output.count("holds a tab") == 1  # one problem for the line, not one per field it shifts
    assert "line 11: holds a tab: a TRF line has fixed columns" in cli(
        "rejects", "--warehouse", tmp_path / "w.duckdb").output


def test_fide_run_on_tournament_files_alone_says_so_or_takes_the_printed_ratings(cli, tmp_path):
    report = TRF / "belgian_interclubs_fide_2024_r1_ddmmyy_excerpt.txt"
    w = tmp_path / "w.duckdb"
    plain = cli("run", "--system", "fide", "--games", report, "--register-new", "--warehouse", w,
                "--out", tmp_path / "out", "--no-reports").output
    assert "Note: no initial ratings were given: every player of the fide lists started unrated" in plain
    w2, out2 = tmp_path / "w2.duckdb", tmp_path / "out2"
    taken = cli("run", "--system", "fide", "--games", report, "--register-new", "--ratings-from-files",
                "--warehouse", w2, "--out", out2, "--no-reports").output
    assert "16 printed ratings taken as initial ratings" in taken and "Note: no initial ratings" not in taken
    # X1: the event (2024-09-29) is after the October list's closing date (28 September): list 2024-11.
    # Player 1 (2604, printed) beat player 4 (2518): D = 86, E = 0.62 (table 8.1.2, 84-91); K 10 (rated
    # 2400 or more, X5 rule 1): 10 × (1 − 0.62) = 3.8 → +4, 2608. Player 2 (2540) beat player 13 (2363):
    # D = 177, E = 0.73 (171-179); 10 × 0.27 = 2.7 → +3, 2543.
    import pandas as pd
    listed = pd.read_csv(out2 / "lists" / "2024-11.csv").set_index("player_id")
    assert (listed.loc[90001, "rating"], listed.loc[90002, "rating"]) == (2608, 2543)
    with duckdb.connect(str(w2), read_only=True) as con:  # marked: a ratings part of the tournament's submission
        assert con.execute("""select s.format, count(*) from initial_ratings r join source_files f using (file_id)
                              join submissions s using (submission_id) group by 1""").fetchall() == [("trf", 16)]


def test_opengotha_save_with_a_doctype_line_is_read_whole(cli, tmp_path):
    # The European Go Congress 2011 as OpenGotha ships it: `<!DOCTYPE Tournament SYSTEM "tournament.dtd">`
    # after the XML declaration. grep -c '<Player ' gives 760, grep -c '<Game ' 2708.
    egc = Path(__file__).parent / "fixtures" / "go" / "opengotha_egc2011_doctype.xml"
    w = tmp_path / "w.duckdb"
    out = cli("ingest", egc, "--register-new", "--warehouse", w).output
    assert "cannot tell what the file holds" not in out and "760 players" in out and "2708 games" in out
    assert "(18 not counted: 18 won by default, stored and never rated)" in out  # said once for the file
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select count(*) from staged_go_games").fetchall()[0][0] == 2708
    # Rated whole: grep -o 'result="[A-Z_]*"' | sort | uniq -c gives 1300 + 1390 games played and
    # 8 + 10 won by default (`_BYDEF`): stored as B+F and W+F, counted and never rated, as chess
    # forfeits (issue 50: they were open rejects no fix could take in).
    result = cli("run", "--system", "go-belgium", "--warehouse", w, "--out", tmp_path / "out", "--no-reports").output
    assert "read 2708 = accepted 2708 + rejected 0" in result and "read 760 = accepted 760" in result
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select winner, count(*) from go_games where winner like '%+F' group by 1 order by 1"
                           ).fetchall() == [("B+F", 8), ("W+F", 10)]
        assert con.execute("select sum(games_rated), sum(forfeits) from lists").fetchall() == [(2690, 18)]
        assert con.execute("select count(*) from go_game_sides g join go_games using (game_key) "
                           "where winner like '%+F'").fetchall() == [(0,)]


# ---------------------------------------------------------------------------
# Issue 51: rulers of every writer, games not played yet, ranks too wide


SWISS_MANAGER = TRF / "swiss_manager_two_rulers.trf"
ARMSTRONG = TRF / "icu_armstrong_cup_2011_zero_ruler.tab"


def swiss_manager_registry(tmp_path: Path) -> Path:
    """The Swiss-Manager file's players, `Player, 1` … `Player, 15`, found by name (its ids are 0)."""
    return write_rows(tmp_path / "players.csv", ["player_id", "name"], [[n, f"Player, {n}"] for n in range(1, 16)])


def test_swiss_managers_two_rulers_and_field_legend_are_skipped_never_rejected(cli, tmp_path):
    # Lines 13-14: `         1 …         9        10 …        16` and `1234567890…`; line 15: the legend
    # `DDD SSSS sTTT …`. The first ruler, whose tens go past 9, was an open reject no fix could take in.
    players, games = trf_counts(SWISS_MANAGER)
    assert (players, sum(games.values())) == (15, 44)
    w = tmp_path / "w.duckdb"
    out = cli("run", "--players", swiss_manager_registry(tmp_path), "--games", SWISS_MANAGER, "--warehouse", w,
              "--out", tmp_path / "out", "--no-reports").output
    assert "assumed: lines 13-14: a column ruler (digits counting the columns), no record: skipped" in out
    assert "assumed: line 15: the field legend (DDD SSSS sTTT …, each field's columns under its letter)" in out
    assert "not a TRF record" not in out
    got = stored(w)
    assert (got["games"], got["rejects"], got["by_round"]) == (44, 0, games)
    # Byes by eye: H for 3 (r5, r7), 9 (r3, r6), 12 (r1, r4); F for 12 (r2, r6); U for 4 (r4), 7 (r7),
    # 11 (r3), 13 (r5); Z for 3 (r6), 8 (r3, r4), 12 (r5, r7).
    assert got["byes"] == {"H": 6, "F": 2, "U": 4, "Z": 5}


def test_the_irish_rating_systems_zero_based_ruler_and_field_legend_are_skipped(cli, tmp_path):
    # Line 28: the legend; line 29: `0123456789…`, column 1 under 0. 160 players, 522 games over 11
    # rounds dated by 132 (YY.MM.DD). Player 77's id is written 0: found in the registry by name.
    players, games = trf_counts(ARMSTRONG)
    assert (players, sum(games.values())) == (160, 522)
    registry = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[77, "Player 77"]])
    w = tmp_path / "w.duckdb"
    out = cli("run", "--players", registry, "--games", ARMSTRONG, "--register-new", "--warehouse", w,
              "--out", tmp_path / "out", "--no-reports").output
    assert "assumed: line 29: a column ruler (digits counting the columns), no record: skipped" in out
    assert "assumed: line 28: the field legend" in out and "not a TRF record" not in out
    got = stored(w)
    assert (got["games"], got["rejects"], got["by_round"]) == (522, 0, games)
    # 132: 10.09.13  10.09.25  10.10.16 … 11.03.13.
    assert (got["dates"][1], got["dates"][2], got["dates"][11]) == (dt.date(2010, 9, 13), dt.date(2010, 9, 25),
                                                                    dt.date(2011, 3, 13))


def test_games_not_played_yet_are_counted_and_said_never_rejected(cli, tmp_path):
    # An in-tournament export (TRF-2026) of the Swiss-Manager file: round 7 paired, its results `*` on
    # both lines of each of its 6 games (1-9, 2-5, 4-6, 8-14, 10-11, 13-15); its byes (3 H, 7 U, 12 Z)
    # as they are.
    def pending(lines):
        return [line[:98 + 60] + "*" + line[99 + 60:] if line.startswith("001") and line[151:155].strip() != "0000"
                else line for line in lines]

    trf = with_lines(SWISS_MANAGER, tmp_path / "round7.trf", pending)
    players, games = trf_counts(trf)
    assert sum(games.values()) == 38 and 7 not in games  # 44 - 6
    w = tmp_path / "w.duckdb"
    out = cli("run", "--players", swiss_manager_registry(tmp_path), "--games", trf, "--warehouse", w,
              "--out", tmp_path / "out", "--no-reports").output
    assert ("assumed: 6 games of round 7 not played yet (result `*`, TRF-2026) on lines 16-17, 19-21, 23-26, "
            "28-30: no game, nothing stored or rated") in out
    got = stored(w)
    assert (got["games"], got["rejects"], got["by_round"]) == (38, 0, games)
    assert got["byes"] == {"H": 6, "F": 2, "U": 4, "Z": 5}  # the same as the finished file's


def wide_ranks(line: str, offset: int = 9990) -> str:
    """A lichess player line with `offset` added to its starting rank and opponents, each written as
    lichess's writer places a field: right-aligned to the field's last column, so that 10000 takes
    the column before the field (column 4 for the rank, the blank before each round block)."""
    if not line.startswith("001"):
        return line
    chars = list(line)

    def put(last: int, text: str) -> None:
        chars[last - len(text):last] = text

    put(8, str(int(line[4:8]) + offset))
    for at in range(91, len(line), 10):
        if line[at:at + 4].strip() not in ("", "0000"):
            put(at + 4, str(int(line[at:at + 4]) + offset))
    return "".join(chars)


def test_a_file_whose_ranks_overflow_their_four_columns_is_refused_in_one_sentence(tmp_path):
    # The lichess file's ranks 1-13 become 9991-10003: players 10-13 (lines 25-28) get ranks of 5
    # digits, which start in column 4; each was a "not a TRF record" reject, and the blocks naming
    # them were misread (`10000` in a 4-column field reads `0000`, no opponent).
    trf = with_lines(TRF / "lichess_swiss_2020_06.trf", tmp_path / "wide.trf", lambda ls: [wide_ranks(x) for x in ls])
    assert trf.read_text(encoding="latin-1").split("\n")[24].startswith("00110000 ")
    said = ratings(tmp_path, "ingest", trf, "--warehouse", "w.duckdb")
    sentence = ("wide.trf: line 25: starting rank 10000 has 5 digits, and the TRF field (columns 5-8) holds 1 to "
                "9999: 4 player lines (25-28) start in column 4, and their opponents' ranks overflow the round "
                "blocks' 4 columns too, so no game of the file can be read: export the event as files of at most "
                "9,999 players (a TRF per section or group), or its games as a CSV file")
    assert said.count(sentence) == 1 and "not a TRF record" not in said and "1 problems" in said
    # Every row the readable lines give is rejected with that sentence, and nothing is stored.
    assert " = accepted 0 + rejected " in ratings(tmp_path, "validate", "--warehouse", "w.duckdb", code=3)
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        assert con.execute("select distinct reason from rejects").fetchall() == [(sentence.removeprefix("wide.trf: "),)]
        assert con.execute("select count(*) from games").fetchall() == [(0,)]
        assert con.execute("select count(*) from byes").fetchall() == [(0,)]  # misread blocks, none kept
