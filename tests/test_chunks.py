"""Validation reads staged rows in chunks: the result must not depend on the chunk size."""
from __future__ import annotations

import duckdb

from pipeline import validate
from tests.conftest import write_rows


def test_chunked_validation_finds_the_same_rejects(cli, small_federation, tmp_path, monkeypatch):
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-09-05", 1, 2, "1-0"], ["2026-09-05", 1, 2, "1-0"], ["2026-13-01", 1, 2, "1-0"],
        ["2026-09-06", 3, 4, "2-0"], ["2026-09-07", 3, 4, "0-1"], ["2026-09-07", 4, 4, "0-1"],
        ["2026-09-08", 5, 6, "1-0"],
    ])
    outcomes = []
    for chunk in (2, 1000):
        monkeypatch.setattr(validate, "CHUNK_ROWS", chunk)
        w = tmp_path / f"w{chunk}.duckdb"
        cli("run", "--players", small_federation["players"], "--games", games, "--warehouse", w,
            "--out", tmp_path / f"out{chunk}", rejected=True)
        con = duckdb.connect(str(w), read_only=True)
        outcomes.append(con.execute("select row_number, reason from rejects order by 1").fetchall())
    assert outcomes[0] == outcomes[1]
    assert [r for r, _ in outcomes[0]] == [2, 3, 4, 6]
