"""DuckDB's memory limit (pipeline/warehouse.py): 150 MB a core, two at least, unless
RATINGS_DUCKDB_MEMORY says otherwise, so that a large run spills rather than grows and
DuckDB keeps no more of the warehouse than that; a value DuckDB cannot read is one
message naming the variable."""
from __future__ import annotations

import duckdb
import pytest

from pipeline.failures import failure_message
from pipeline.ingest.tables import ingest_file
from pipeline.warehouse import connect
from tests.conftest import write_rows


def limit(con) -> str:
    return con.execute("select current_setting('memory_limit')").fetchall()[0][0]


@pytest.mark.parametrize(("cores", "shown"), [
    (2, "286.1 MiB"),  # 2 × 150 MB = 3e8 bytes = 286.10 MiB, DuckDB's print cut to one decimal
    (1, "286.1 MiB"),  # two cores at least: one alone gets what two get
    (None, "286.1 MiB"),  # a machine that does not say: as one
    (8, "1.1 GiB"),  # 8 × 150 MB = 1.2e9 bytes = 1.118 GiB → 1.1
])
def test_the_default_limit_is_by_the_core(tmp_path, monkeypatch, cores, shown):
    monkeypatch.delenv("RATINGS_DUCKDB_MEMORY", raising=False)
    monkeypatch.setattr("pipeline.warehouse.os.cpu_count", lambda: cores)
    con = connect(tmp_path / "w.duckdb")
    assert limit(con) == shown
    con.close()


def test_a_given_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("RATINGS_DUCKDB_MEMORY", "4GB")  # 4e9 bytes = 3.725 GiB
    connect(tmp_path / "w.duckdb").close()
    con = connect(tmp_path / "w.duckdb", read_only=True)
    assert limit(con) == "3.7 GiB"
    con.close()


def test_a_size_duckdb_cannot_read_is_one_message(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("RATINGS_DUCKDB_MEMORY", "lots")
    result = cli("run", "--sample", "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out", ok=False)
    assert result.exit_code == 1
    assert "RATINGS_DUCKDB_MEMORY='lots': not a size DuckDB reads" in result.output
    assert "Traceback" not in result.output


def test_running_out_of_the_limit_is_one_message_that_names_it(cli, tmp_path, monkeypatch):
    # 1 MB is less than any run needs: the message says what to change, no traceback.
    monkeypatch.setenv("RATINGS_DUCKDB_MEMORY", "1MB")
    result = cli("run", "--sample", "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out", ok=False)
    assert result.exit_code == 1
    assert "the warehouse ran out of memory: DuckDB may use 1MB (RATINGS_DUCKDB_MEMORY); give it more" \
        in result.output
    assert "Traceback" not in result.output


class RunsOutWhileStaging:
    """A connection whose staging insert runs out of DuckDB's memory, as a large file
    does under a small limit."""

    def __init__(self, con):
        self.con = con

    def execute(self, sql, *args):
        if sql.startswith("insert into") and "staged_" in sql:
            raise duckdb.OutOfMemoryException("Out of Memory Error: could not allocate block of size 30.5 MiB")
        return self.con.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.con, name)


def test_memory_running_out_while_a_file_is_read_is_not_blamed_on_the_file(tmp_path):
    # Before, the ingest said "games.csv: not a readable CSV file (Out of Memory Error …)".
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [["2026-09-01", 1, 2, "1-0"]])
    con = connect(tmp_path / "w.duckdb")
    with pytest.raises(duckdb.OutOfMemoryException):
        ingest_file(RunsOutWhileStaging(con), games, "games", run_id=1, submission_id=1)
    assert "ran out of memory" in failure_message(duckdb.OutOfMemoryException("Out of Memory Error: x"))
