"""Issue 50, guard rails at intake, each as a rating officer meets it through `ratings`
run in a scratch folder: a header is data, never SQL; a file mixing CR LF and LF is
read; a published list is never taken for a registry, and a registry file that would
blank what the registry holds is refused; any staged submission can be withdrawn; a
corrected file given without --replaces is held, nothing of it rated, until the officer
says which it is."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import duckdb

from tests.conftest import write_rows

RATINGS = [str(Path(sys.executable).parent / "ratings")]


def ratings(folder: Path, *args, code: int = 0) -> subprocess.CompletedProcess:
    """`ratings ARGS` as the officer runs it, in `folder`; its exit status checked."""
    done = subprocess.run([*RATINGS, *map(str, args)], cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == code, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done


def query(w: Path, sql: str, params=None) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


# ---------------------------------------------------------------------------
# 1. A header is the file's text


def test_a_french_header_is_kept_in_the_registrys_extra_columns(tmp_path):
    # "club d'origine" was pasted into SQL as '...': the file refused as "not a readable CSV".
    players = write_rows(tmp_path / "joueurs.csv", ["player_id", "name", "club d'origine"],
                         [[1, "Anne", "Liège"], [2, "Bruno", "Namur"]])
    ratings(tmp_path, "ingest", "--players", players, "--warehouse", "w.duckdb")
    ratings(tmp_path, "validate", "--warehouse", "w.duckdb")
    stored = query(tmp_path / "w.duckdb", "select player_id, extra from players order by player_id")
    assert [(p, json.loads(e)) for p, e in stored] == [(1, {"club d'origine": "Liège"}),
                                                        (2, {"club d'origine": "Namur"})]


def test_a_header_written_as_sql_is_a_column_name_and_reads_no_file(tmp_path):
    # The header closed the string and called read_text: the host's name was stored in
    # players.extra under the key "x". Now the whole header is one key, its cell the value.
    secret = tmp_path / "secret.txt"
    secret.write_text("the content of a local file")
    hostile = f"x', (select content from read_text('{secret}')), 'y"
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", hostile], [[1, "Anne", "a"]])
    starting = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", hostile], [[1, 1800, "b"]])
    ratings(tmp_path, "ingest", "--players", players, "--ratings", starting, "--warehouse", "w.duckdb")
    ratings(tmp_path, "validate", "--warehouse", "w.duckdb")
    w = tmp_path / "w.duckdb"
    assert [json.loads(e) for (e,) in query(w, "select extra from players")] == [{hostile: "a"}]
    assert [json.loads(e) for (e,) in query(w, "select extra from initial_ratings")] == [{hostile: "b"}]
    assert not query(w, "select 1 from player_versions where extra::varchar like '%content of a local%'")


# ---------------------------------------------------------------------------
# 4. Lines ending in CR LF and in LF


def test_a_registry_mixing_crlf_and_lf_is_read_row_for_row(tmp_path):
    # Saved on Windows, two rows added on a Mac: DuckDB refused it "when sniffing". Row 3
    # (line 4) has no id: rejected with its own row number, the others stored, in Latin-1 too.
    for encoding in ("utf-8", "latin-1"):
        folder = tmp_path / encoding
        folder.mkdir()
        (folder / "players.csv").write_bytes(
            "player_id,name,club\r\n1,Anne,Liège\r\n2,Bruno,Gent\nx,Nobody,Gent\r\n4,Dora,Namur\n".encode(encoding))
        said = ratings(folder, "ingest", "--players", "players.csv", "--warehouse", "w.duckdb").stdout
        assert "line endings mixed: CR LF (first: line 1) and LF (first: line 3); each read as a line break" in said
        checked = ratings(folder, "validate", "--warehouse", "w.duckdb", code=3).stdout
        assert "read 4 = accepted 3 + rejected 1" in checked
        w = folder / "w.duckdb"
        assert query(w, "select player_id, name, club from players order by 1") == [
            (1, "Anne", "Liège"), (2, "Bruno", "Gent"), (4, "Dora", "Namur")]
        assert query(w, "select row_number from rejects") == [(3,)]


def test_a_games_file_mixing_crlf_and_lf_is_rated_in_a_run(tmp_path, small_federation):
    # In a run each file is staged in a table of its own, read in parallel: the same copy.
    text = small_federation["games"].read_bytes().decode()
    lines = text.split("\n")
    mixed = "".join(line + ("\r\n" if k % 2 else "\n") for k, line in enumerate(lines[:-1]))
    (tmp_path / "games-mixed.csv").write_bytes(mixed.encode())
    said = ratings(tmp_path, "run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                   "--games", "games-mixed.csv", "--warehouse", "w.duckdb", "--out", "out", "--no-reports").stdout
    assert "line endings mixed" in said and "read 10 = accepted 10 + rejected 0" in said
