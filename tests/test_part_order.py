"""A run stages each file's rows in a table of their own, read in parallel, and numbers
them by their place in it (pipeline/ingest/tables.py: ingest_file; pipeline/validate:
staged_rows): every stored row and every reject keeps its line's number, in a file big
enough for DuckDB to read it in several pieces at once."""
from __future__ import annotations

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from tests.conftest import write_rows

ROWS = 1_200_000  # 37 MB of CSV: beyond one of DuckDB's CSV buffers (32 MB), read on both cores in pieces


def games(n: int) -> dict[str, list]:
    """Game k (k = 1 .. n) is the file's row k: its game_id says so. 499 players, a year of
    days; every 100,000th is a player against themself, to be rejected with its row."""
    white = [k % 499 + 1 for k in range(1, n + 1)]
    black = [w if k % 100_000 == 0 else (k * 7 + 3) % 499 + 1 for k, w in enumerate(white, start=1)]
    black = [b % 499 + 1 if b == w and k % 100_000 else b for k, (w, b) in enumerate(zip(white, black), start=1)]
    days = [str(d) for d in pa.array(range(20454, 20454 + 360), pa.int32()).cast(pa.date32()).to_pylist()]
    return {"date": [days[k % 360] for k in range(1, n + 1)], "white_id": white, "black_id": black,
            "result": ["1-0" if k % 2 else "0-1" for k in range(1, n + 1)],
            "game_id": [f"g{k}" for k in range(1, n + 1)]}


def registry(tmp_path):
    return write_rows(tmp_path / "players.csv", ["player_id", "name"], [[k, f"P{k}"] for k in range(1, 500)])


def check_numbered(w) -> None:
    con = duckdb.connect(str(w), read_only=True)
    stored = con.execute("select count(*), count(*) filter (where game_id = 'g' || row_number) from games").fetchall()
    rejected = con.execute("""select list(row_number order by row_number) from rejects r
                              join source_files f using (file_id) where f.kind = 'games'""").fetchall()[0][0]
    con.close()
    assert rejected == list(range(100_000, ROWS + 1, 100_000))
    assert stored == [(ROWS - len(rejected), ROWS - len(rejected))]


def test_a_big_csv_file_keeps_its_line_numbers(cli, tmp_path):
    players = registry(tmp_path)
    columns = games(ROWS)
    lines = ["date,white_id,black_id,result,game_id"]
    lines += [",".join(map(str, row)) for row in zip(*columns.values())]
    path = tmp_path / "games.csv"
    path.write_text("\n".join(lines) + "\n")
    assert path.stat().st_size > 32 << 20
    cli("run", "--players", players, "--games", path, "--warehouse", tmp_path / "w.duckdb",
        "--out", tmp_path / "out", "--no-reports", rejected=True)
    check_numbered(tmp_path / "w.duckdb")


def test_a_parquet_file_of_many_row_groups_keeps_its_row_numbers(cli, tmp_path):
    players = registry(tmp_path)
    path = tmp_path / "games.parquet"
    pq.write_table(pa.table(games(ROWS)), path, row_group_size=20_000)
    cli("run", "--players", players, "--games", path, "--warehouse", tmp_path / "w.duckdb",
        "--out", tmp_path / "out", "--no-reports", rejected=True)
    check_numbered(tmp_path / "w.duckdb")
