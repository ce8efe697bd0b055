"""DuckDB's memory limit (pipeline/warehouse.py): 1.5 GB unless RATINGS_DUCKDB_MEMORY
says otherwise, so that a large run spills rather than grows; a value DuckDB cannot
read is one message naming the variable."""
from __future__ import annotations

from pipeline.warehouse import connect


def limit(con) -> str:
    return con.execute("select current_setting('memory_limit')").fetchall()[0][0]


def test_the_default_limit_and_a_given_one(tmp_path, monkeypatch):
    monkeypatch.delenv("RATINGS_DUCKDB_MEMORY", raising=False)
    con = connect(tmp_path / "w.duckdb")
    # 1500 MB = 1.5e9 bytes, which DuckDB prints in GiB, cut to one decimal: 1.397 → 1.3.
    assert limit(con) == "1.3 GiB"
    con.close()
    monkeypatch.setenv("RATINGS_DUCKDB_MEMORY", "4GB")  # 4e9 bytes = 3.725 GiB
    con = connect(tmp_path / "w.duckdb", read_only=True)
    assert limit(con) == "3.7 GiB"
    con.close()


def test_a_size_duckdb_cannot_read_is_one_message(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("RATINGS_DUCKDB_MEMORY", "lots")
    result = cli("run", "--sample", "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out", ok=False)
    assert result.exit_code == 1
    assert "RATINGS_DUCKDB_MEMORY='lots': not a size DuckDB reads" in result.output
    assert "Traceback" not in result.output
