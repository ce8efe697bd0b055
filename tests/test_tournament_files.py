"""Tournament files through the pipeline (issue 5): TRF and SWAR reports taken in
by content, their players matched to the registry, bad lines rejected with their
line numbers; and the lists exported for pairing programs."""
from __future__ import annotations

import duckdb
import pandas as pd

from pipeline.formats.trf import trf_text
from tests.conftest import write_rows
from tests.test_trf import BELGIAN, TINY


def _games(warehouse) -> set[tuple]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return set(con.execute("select white_id, black_id, result, round::integer, date from games").fetchall())


def test_a_simulated_open_written_as_trf_comes_back_as_the_same_games(cli, tmp_path):
    from pipeline.simulate import generate

    tables = {k: v.to_pandas() for k, v in generate(200, 1, 1).items()}
    games = tables["games"].astype({"event": str, "result": str})
    event = games[games["event"].str.startswith("Open")]["event"].value_counts().index[0]
    ev = games[games["event"] == event]
    ids = pd.unique(pd.concat([ev["white_id"], ev["black_id"]]))
    # The registry knows each player's FIDE id (5,000,000 + player_id): the TRF carries only those.
    registry = tables["players"].assign(fide_id=lambda p: p["player_id"] + 5_000_000,
                                        birth_year=lambda p: p["birth_year"].astype("Int64"))
    registry.to_csv(tmp_path / "players.csv", index=False)
    tables["ratings"].astype({"archive_games": "Int64"}).to_csv(tmp_path / "ratings.csv", index=False)
    entrants = registry.set_index("player_id").loc[ids].reset_index().assign(id=lambda p: p["fide_id"])
    fide = ev.assign(white_id=ev["white_id"] + 5_000_000, black_id=ev["black_id"] + 5_000_000)
    trf = tmp_path / "open-report.txt"  # not named .trf: the content says what it is
    trf.write_text(trf_text(event, min(ev["date"]), entrants.drop(columns="player_id"), fide), encoding="utf-8")

    w = tmp_path / "w.duckdb"
    out = cli("run", "--players", tmp_path / "players.csv", "--ratings", tmp_path / "ratings.csv", "--games", trf,
              "--warehouse", w, "--out", tmp_path / "out", "--no-reports").output
    forfeits = int(ev["result"].isin(["+/-", "-/+", "-/-"]).sum())
    assert (f"FIDE TRF: 1 event ({event}), {len(entrants)} players ({len(entrants)} in the registry, 0 new), "
            f"{len(ev)} games ({forfeits} forfeits)") in out
    expected = set(zip(ev["white_id"], ev["black_id"], ev["result"], ev["round"], pd.to_datetime(ev["date"]).dt.date))
    assert _games(w) == expected  # in registry ids, the same games, forfeits kept
    with duckdb.connect(str(w), read_only=True) as con:
        # Rounds a player sat out are zero-point byes: kept, never games.
        assert con.execute("select count(*) from byes").fetchall()[0][0] == len(ids) * ev["round"].max() - 2 * len(ev)
        assert con.execute("select count(*) from lists").fetchall()[0][0] == 1  # and the games were rated


def _tiny_registry(tmp_path, players=range(1, 9)):
    """Players 1..8 of tests/test_trf.py's TINY file, whose lines carry FIDE ids 101..108."""
    return write_rows(tmp_path / "players.csv", ["player_id", "name", "fide_id"],
                      [[i, f"Registered {i}", 100 + i] for i in players])


def test_bad_lines_and_unknown_players_are_rejected_with_their_line_and_the_rest_is_rated(cli, tmp_path):
    tiny = tmp_path / "tiny.trf"
    tiny.write_text("\n".join(TINY), encoding="utf-8")
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", _tiny_registry(tmp_path), "--games", tiny, "--warehouse", w,
                 "--out", tmp_path / "out", "--no-reports", rejected=True)
    # The file's 7 games (tests/test_trf.py) and 8 bad lines make 15 rows. Players 9 and 10 are
    # not in the registry: their 2 games are rejected too, 5 games are kept.
    assert "10 players (8 in the registry, 0 new), 7 games (3 forfeits), 6 byes, 10 problems" in result.output
    assert "tiny.trf, line 11: round 1: unknown result code 'X'" in result.output
    assert "tiny.trf, line 13: 'Nine, I' (starting rank 9) is not in the player registry" in result.output
    assert "read 15 = accepted 5 + rejected 10" in result.output
    with duckdb.connect(str(w), read_only=True) as con:
        reasons = [r[0] for r in con.execute("select reason from rejects order by row_number").fetchall()]
        assert "line 15: player line too short (25 characters): the fixed fields need 84" in reasons
        assert any(r.startswith("line 13: white: 'Nine, I'") for r in reasons)
        assert con.execute("select count(*) from players").fetchall()[0][0] == 8  # nobody created silently
    assert "ok     rows_conserved" in cli("audit", "--warehouse", w).output


def test_register_new_adds_the_files_players_with_their_id(cli, tmp_path):
    tiny = tmp_path / "tiny.trf"
    tiny.write_text("\n".join(TINY), encoding="utf-8")
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", _tiny_registry(tmp_path), "--games", tiny, "--register-new", "--warehouse", w,
                 "--out", tmp_path / "out", "--no-reports", rejected=True)
    assert "10 players (8 in the registry, 2 new)" in result.output
    assert "read 15 = accepted 7 + rejected 8" in result.output  # only the bad lines are left
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select player_id, name, birth_year, extra->>'fide_id' from players where player_id > 100 "
                           "order by 1").fetchall() == [(109, "Nine, I", 1990, "109"), (110, "Ten, J", 1990, "110")]


def test_ingest_reads_what_each_file_is_from_its_content(cli, tmp_path):
    # A SWAR report named .txt, with its players registered from their national ids,
    # and a games table named .dat: neither is given a kind.
    late = write_rows(tmp_path / "late.dat", ["date", "white_id", "black_id", "result"],
                      [["2023-09-24", 90001, 90003, "1-0"]])
    w = tmp_path / "w.duckdb"
    out = cli("ingest", BELGIAN, "--register-new", "--warehouse", w).output
    assert ("SWAR (Belgian TRF): 1 event (Belgian Interclubs 2023 - 2024 - Round 1), 12 players "
            "(0 in the registry, 12 new), 6 games (0 forfeits), 0 byes, 0 problems") in out
    assert "read 12 = accepted 12 + rejected 0" in cli("validate", "--warehouse", w).output
    assert "games     " in cli("ingest", late, "--warehouse", w).output
    cli("validate", "--warehouse", w)
    assert (90001, 90003, "1-0", None, pd.Timestamp("2023-09-24").date()) in {
        (a, b, r, None, d) for a, b, r, _, d in _games(w)}
    assert len(_games(w)) == 7
    unknown = write_rows(tmp_path / "what.csv", ["a", "b"], [[1, 2]])
    refused = cli("ingest", unknown, "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "cannot tell what the file holds from its columns (a, b)" in refused.output


def test_lists_for_pairing_programs(cli, small_federation, tmp_path):
    # Player 7, unrated, has a club's estimate of 1200 in the registry (R12): printed 1199.
    players = pd.read_csv(small_federation["players"]).assign(
        estimated_rating=lambda p: p["player_id"].map({7: 1200}), sex=["F", "M", "F", "M", "F", "M", "M", "F"],
        federation="BEL")
    players.to_csv(tmp_path / "players2.csv", index=False)
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", tmp_path / "players2.csv", "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", w, "--out", out, "--no-reports",
        "--format", "csv,txt,swiss-manager")
    assert not list((out / "lists").glob("*.parquet"))  # only what was asked for
    txt = (out / "lists" / "2027-01.txt").read_text()
    lines = txt.splitlines()
    assert lines[0].startswith("ID Number      Name") and "JAN27" in lines[0]
    rated = pd.read_csv(out / "lists" / "2027-01.csv")
    # The rated players in the list's order, then the estimate.
    assert [int(line[:15]) for line in lines[1:]] == [*rated["player_id"], 7]
    assert lines[-1][113:117] == "1199" and lines[-1][15:26] == "Gus School "
    sm = (out / "lists" / "2027-01-swiss-manager.csv").read_text().splitlines()
    assert sm[0] == '"ID_No";"Name";"Sex";"Fed";"Clubnumber";"ClubName";"Birthday";"Rtg_Nat";"Fide_No";"Rtg_Int";"Title"'
    assert sm[-1] == '"7";"Gus School";"M";"BEL";"";"";"";"1199";"";"";""'
    for text in (txt, "\n".join(sm)):  # birth years never leave the warehouse
        assert not any(str(y) in text for y in (1980, 1975, 1990, 1985, 2012, 2000, 2015))
    refused = cli("publish", "--format", "csv,pdf", "--warehouse", w, "--out", out, ok=False)
    assert refused.exit_code == 2 and "pdf: choose among csv, parquet, txt, swiss-manager" in refused.output
