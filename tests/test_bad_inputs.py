"""The corpus of malformed game files (tests/bad_inputs/): each one is either
ingested cleanly, partly rejected with reasons, or stopped with a clear error
naming the file; and the rest of the data is never affected."""
from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import copy_built, write_rows

CORPUS = Path(__file__).parent / "bad_inputs"

# file: (outcome, rows kept, rows rejected, a text the output or the rejects must hold)
EXPECTED = {
    "empty.csv": ("error", 0, 0, "empty.csv: the file is empty"),
    "binary.csv": ("error", 0, 0, "binary.csv: binary content"),
    "header_only.csv": ("clean", 0, 0, "read 0 = accepted 0 + rejected 0"),
    "pipe_delimited.csv": ("clean", 2, 0, "read 2 = accepted 2"),
    "latin1.csv": ("clean", 2, 0, "read 2 = accepted 2"),
    "utf8_bom.csv": ("clean", 2, 0, "read 2 = accepted 2"),
    "crlf.csv": ("clean", 2, 0, "read 2 = accepted 2"),
    "quoted_commas.csv": ("clean", 2, 0, "read 2 = accepted 2"),
    "extra_columns.csv": ("clean", 2, 0, "read 2 = accepted 2"),
    # issue 37: a table in the wrong layout is refused whole, naming what it lacks and what it has
    "missing_columns.csv": ("error", 0, 0, ("missing_columns.csv: given as a games file, it lacks the column result; "
                                            "it has date, white_id, black_id: nothing of it is taken in")),
    "not_a_table.csv": ("error", 0, 0, ("not_a_table.csv: given as a games file, it lacks the columns date, "
                                        "white_id, black_id, result; it has this is not a table at all")),
    "huge_ids.csv": ("partly rejected", 1, 2, "white_id: not a whole-number id of at most 15 digits"),
    "bad_dates.csv": ("partly rejected", 1, 3, "date: not a calendar date (2026-02-30)"),
    "bad_results.csv": ("partly rejected", 1, 3, "result: unknown code (got '1-1')"),
    "self_play.csv": ("partly rejected", 1, 1, "a player plays against themself (player 1)"),
    "duplicates.csv": ("partly rejected", 2, 1, "duplicate game: same as row 1 of this file"),
    "unknown_player.csv": ("partly rejected", 1, 1, "black_id: 99 is not in the player registry"),
    "ragged_rows.csv": ("partly rejected", 2, 1, "result: missing value"),
    # issue 13: every line counted, one delimiter and one encoding per file, values compared parsed
    "mixed_delimiters.csv": ("error", 0, 0, ("mixed_delimiters.csv: line 4 uses ';' where the header uses a tab: "
                                             "one delimiter per file")),
    "hash_line.csv": ("partly rejected", 2, 1, "date: unparseable date (expected YYYY-MM-DD) (got '#2026-10-02')"),
    "mixed_encoding.csv": ("error", 0, 0, ("mixes encodings: line 2 is UTF-8 ('è' written as 2 bytes), line 3 is not "
                                           "UTF-8 (byte 0xE8, 'è' in Latin-1/CP1252?)")),
    "cp1252.csv": ("clean", 2, 0, "encoding: CP1252 (Windows), not Latin-1: line 2 holds byte 0x80"),
    "padded_self_play.csv": ("partly rejected", 1, 2, "a player plays against themself (player 3)"),
    "equal_after_parsing.csv": ("partly rejected", 2, 1, "duplicate game: same as row 1 of this file"),
    "truncated.parquet": ("error", 0, 0, "truncated.parquet: not a readable Parquet file"),
}


def test_the_corpus_is_complete():
    assert sorted(p.name for p in CORPUS.iterdir() if p.suffix in (".csv", ".parquet")) == sorted(EXPECTED)


@pytest.fixture
def registry(published_once, tmp_path):
    """A warehouse holding the small federation's registry, ratings and games (a copy,
    for this test to write in, of the one the session rated once)."""
    return copy_built(published_once, tmp_path, ["w.duckdb"])[0]


def table_counts(w: Path) -> dict[str, int]:
    con = duckdb.connect(str(w), read_only=True)
    return {t: con.execute(f"select count(*) from {t}").fetchall()[0][0]
            for t in ("players", "initial_ratings", "games", "rejects")}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_malformed_file(cli, registry, name, tmp_path):
    outcome, kept, rejected, says = EXPECTED[name]
    before = table_counts(registry)
    result = cli("ingest", "--games", CORPUS / name, "--warehouse", registry, ok=False)
    if outcome == "error":
        assert result.exit_code == 1 and says in result.output
        assert table_counts(registry) == before  # nothing half-stored
        return
    assert result.exit_code == 0, result.output
    checked = cli("validate", "--warehouse", registry, rejected=rejected > 0)
    con = duckdb.connect(str(registry), read_only=True)
    reasons = " ".join(r for (r,) in con.execute(
        "select reason from rejects join source_files using (file_id) where path like ?", [f"%{name}"]).fetchall())
    assert says in result.output + checked.output + reasons
    after = table_counts(registry)
    assert after["games"] - before["games"] == kept
    assert after["rejects"] - before["rejects"] == rejected
    assert after["players"] == before["players"] and after["initial_ratings"] == before["initial_ratings"]
    # The earlier games are untouched, and the new rows add up.
    assert con.execute("""select count(*) from games g join source_files f using (file_id)
                          where f.path like '%games.csv'""").fetchall() == [(10,)]
    assert con.execute("select rows_read = rows_accepted + rows_rejected from source_files where path like ?",
                       [f"%{name}"]).fetchall() == [(True,)]


def test_quoted_commas_and_accents_survive(cli, registry):
    for name in ("quoted_commas.csv", "latin1.csv"):
        cli("ingest", "--games", CORPUS / name, "--warehouse", registry)
    cli("validate", "--warehouse", registry)
    con = duckdb.connect(str(registry), read_only=True)
    events = {e for (e,) in con.execute("select event from games where event is not null").fetchall()}
    assert {"Open, Brussels", 'Club "A", round 2', "Échecs en fête", "Liège"} <= events


FIELD = st.one_of(st.text(max_size=12), st.sampled_from(["", "1-0", "0-1", "½-½", "2026-09-05", "2026-02-30",
                                                         "1", "2", "99", "-3", "1e3", "=1+1", "\"", ","]))


# 20 files of 6 to 30 rows: as many random rows as 40 files of 1 to 15 gave (204
# against 215 on average, at least 162 against 102, fifteen draws each), in half the
# runs: a run's fixed cost, not its rows, is what the test spends (20.6 -> 9.5 s).
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(FIELD, min_size=4, max_size=4), min_size=6, max_size=30))
def test_random_malformed_rows_are_accepted_or_rejected_never_lost(cli, small_federation, tmp_path_factory, rows):
    tmp = tmp_path_factory.mktemp("fuzz")
    games = write_rows(tmp / "games.csv", ["date", "white_id", "black_id", "result"], rows)
    w = tmp / "w.duckdb"
    result = cli("run", "--players", small_federation["players"], "--games", games,
                 "--warehouse", w, "--out", tmp / "out", ok=False)
    if result.exit_code not in (0, 3):  # only a file-level problem may stop the run, with a message naming the file
        assert "games.csv" in result.output
        return
    con = duckdb.connect(str(w), read_only=True)
    read, accepted, rejected = con.execute(
        "select rows_read, rows_accepted, rows_rejected from source_files where kind = 'games'").fetchall()[0]
    assert read == accepted + rejected
    assert con.execute("select count(*) from games").fetchall()[0][0] == accepted
    assert con.execute("select count(*) from rejects r join source_files f using (file_id) "
                       "where f.kind = 'games' and r.reason <> ''").fetchall()[0][0] == rejected


EVENT = "Championnat interclubs FRBE-KBSB 2026-2027, division 3, série B, Brussels"  # 80 bytes (é: 2)


@pytest.mark.slow
def test_a_200_mb_file_with_one_bad_row_at_the_end(cli, registry, tmp_path):
    big = tmp_path / "big.csv"
    rows = 2_100_000  # of about 100 bytes, as long event names make them: more than 200 MB
    con = duckdb.connect()
    # Unique games between players 1..8 (round = row number), then one bad result at the very end.
    con.execute(f"""copy (
        select (date '2026-09-01' + (i % 120)::integer)::varchar as date, 1 + i % 8 as white_id,
               1 + (i + 1 + (i // 8) % 7) % 8 as black_id,
               ['1-0', '0-1', '1/2-1/2'][1 + i % 3] as result, '{EVENT}' as event, i as round
        from range({rows}) t(i)
        union all select '2026-10-01', 1, 2, '1-1', '{EVENT}', -1
    ) to '{big}' (header)""")
    assert big.stat().st_size > 200 * 10**6
    cli("ingest", "--games", big, "--warehouse", registry)
    con = duckdb.connect(str(registry), read_only=True)
    # Each row staged with its number in the file (its round + 1): none moved, none lost.
    assert con.execute("select count(*) filter (where row_number = round::bigint + 1), max(row_number) "
                       "from staged_games").fetchall() == [(rows, rows + 1)]
    con.close()
    result = cli("validate", "--warehouse", registry, rejected=True)
    assert f"read {rows + 1} = accepted {rows} + rejected 1" in result.output
    assert f"big.csv, row {rows + 1}: result: unknown code (got '1-1')" in result.output
