"""Real tournament files as their writers write them (issue 37), read whole through the CLI: the
round dates of tag 132 in the orders real writers use, a team tie-break file whose first
records are team tags, half-point byes written `0000 - =`, column rulers, placeholder
birth dates and tabs. Each fixture's origin is in tests/fixtures/trf/README.md; each count
below was made by hand on the fixture (the commands are beside them)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb

from tests.conftest import write_rows

TRF = Path(__file__).parent / "fixtures" / "trf"


def stored(w) -> dict:
    with duckdb.connect(str(w), read_only=True) as con:
        return {
            "games": con.execute("select count(*) from games").fetchall()[0][0],
            "rejects": con.execute("select count(*) from rejects where status = 'open'").fetchall()[0][0],
            "byes": dict(con.execute("select code, count(*) from byes group by code").fetchall()),
            "dates": dict(con.execute("select round::integer, min(date) from games group by 1").fetchall()),
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
