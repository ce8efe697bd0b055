"""What a rating pass holds, and lets go (issue 53, item 7: Glicko-2's whole Belgian
history peaked at 2.1 GB where the glicko2 package needs 0.29 GB; bench/glicko2_memory.py):
a part's id held once, not once a row; the computed parts let go as DuckDB reads them;
the pages freed handed back to the system once a series is stored."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import pipeline.rate
import pipeline.rate.store

from pipeline.rate import computed_lists
from pipeline.rate.periods import to_arrow
from pipeline.rate.series import series_in
from pipeline.rate.store import store
from pipeline.warehouse import connect, scalar, transaction
from tests.conftest import write_small_federation


def test_a_parts_id_is_held_once_not_once_a_row():
    table = to_arrow([{"list_id": "2026-10", "player_id": np.array([1, 2, 3])},
                      {"list_id": "2026-11", "player_id": np.array([1, 2])},
                      {"list_id": "2026-12", "player_id": np.array([], dtype=np.int64)}])
    ids = table.column("list_id")
    assert ids.to_pylist() == ["2026-10"] * 3 + ["2026-11"] * 2  # the same values
    assert pa.types.is_dictionary(ids.type) and ids.type.index_type == pa.int8()  # a byte a row
    assert [chunk.dictionary.to_pylist() for chunk in ids.chunks] == [["2026-10"], ["2026-11"], ["2026-12"]]


def _glicko2_rated(cli, tmp_path):
    """The small federation rated under Glicko-2: a connection to its warehouse, and the series."""
    files = write_small_federation(tmp_path)
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "glicko2", "--players", files["players"], "--ratings", files["ratings"],
        "--games", files["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    con = connect(w)
    return con, series_in(con, scenarios=False)[0]


def test_storing_lets_the_computed_parts_go_and_stores_the_same_rows(cli, tmp_path):
    con, series = _glicko2_rated(cli, tmp_path)
    rows = "select sum(hash(s)), count(*) from glicko2_state s"
    before = con.execute(rows).fetchall()
    revisions = scalar(con, "select count(*) from list_revisions")
    run_id = scalar(con, "select max(run_id) from runs")
    frames = computed_lists(con, run_id, series, from_list="2026-10", show_progress=False).frames
    assert {len(parts) for parts in frames.values()} == {5}  # lists 2026-10 to 2027-02
    with transaction(con):
        revised = store(con, series.name, frames, run_id, series.rule_set.extensions)
    assert frames == {}  # each table's parts let go once read
    assert revised == {} and scalar(con, "select count(*) from list_revisions") == revisions  # nothing changed
    assert con.execute(rows).fetchall() == before


def test_the_pages_freed_are_handed_back_to_the_system():
    """A list's columns (15,000 numbers: 120 KB, the C library's heap) freed, one in fifty
    kept: the heap keeps the pages between them until release_freed_memory hands them back."""
    script = """
import gc
import numpy as np
from pipeline.rate.memory import release_freed_memory

def resident():
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS")) / 1024

base = resident()
columns = [np.ones(15_000) for _ in range(4_000)]  # 480 MB
kept = columns[::50]
del columns
gc.collect()
held = resident()
release_freed_memory()
print(base, held, resident())
"""
    base, held, after = map(float, subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                                  check=True).stdout.split())
    assert held - base > 300  # freed, still held: the 470 MB let go are the process's
    assert after - base < 50  # handed back: about the 10 MB kept


def _two_runs(cli, tmp_path, folder: str, system: str) -> Path:
    """The small federation rated under `system` in two runs: all but three games, then
    those three (a late game of September, which revises the lists stored, and the games
    of October and January, whose lists are new); the warehouse."""
    files = write_small_federation(tmp_path)
    header, *rows = files["games"].read_text().splitlines()
    (tmp_path / folder).mkdir()
    # each folder's files named alike: a revision's reason names the submission's file
    first, second = tmp_path / folder / "games-1.csv", tmp_path / folder / "games-2.csv"
    first.write_text("\n".join([header, *rows[:8]]) + "\n")
    second.write_text("\n".join([header, "2026-09-26,5,8,0-1,School day,2", *rows[8:]]) + "\n")
    w = tmp_path / folder / "w.duckdb"
    cli("run", "--system", system, "--players", files["players"], "--ratings", files["ratings"], "--games", first,
        "--warehouse", w, "--out", tmp_path / folder / "out", "--no-reports")
    cli("run", "--games", second, "--warehouse", w, "--out", tmp_path / folder / "out", "--no-reports")
    return w


def _results(w: Path) -> dict[str, list]:
    """Every row a rating pass writes, in one order (a revision's time apart)."""
    con = connect(w, read_only=True)
    series = series_in(con, scenarios=False)[0]
    tables = ["lists", "player_state", "calculations", "rating_changes", *series.rule_set.extensions.values()]
    tables += [t for (t,) in con.execute("select table_name from duckdb_tables() where table_name like '%_revisions' "
                                         "and table_name <> 'list_revisions'").fetchall()]
    rows = {t: con.execute(f"select * from {t} order by all").fetchall() for t in tables}
    rows["list_revisions"] = con.execute("select * exclude (computed_at) from list_revisions order by all").fetchall()
    con.close()
    return rows


@pytest.mark.parametrize("system", ["performance", "fide", "glicko2"])
def test_new_lists_written_as_computed_are_the_rows_the_store_writes(cli, tmp_path, monkeypatch, system):
    """Issue 53, item 7: the lists a series never held are written a batch at a time as
    they are computed (here a list a batch), never held whole; what is stored is what the
    store wrote of them when it took every list at the end (each list's rows, its
    revision 1, "first computed"), beside the lists a late game revises."""
    batches = []
    original = pipeline.rate.store.store_new

    def counted(con, series, computed, *args):
        batches.append([part["list_id"] for part in computed["lists"]])
        return original(con, series, computed, *args)

    monkeypatch.setattr(pipeline.rate, "NEW_ROWS", 1)
    monkeypatch.setattr(pipeline.rate.store, "store_new", counted)
    streamed = _results(_two_runs(cli, tmp_path, "streamed", system))
    monkeypatch.undo()

    whole = pipeline.rate.computed_lists

    def held(con, run_id, series, from_list=None, show_progress=None, write_new=None):
        return whole(con, run_id, series, from_list, show_progress)  # the store takes every list at the end

    monkeypatch.setattr(pipeline.rate, "computed_lists", held)
    at_the_end = _results(_two_runs(cli, tmp_path, "held", system))
    assert streamed == at_the_end
    assert batches and all(len(ids) == 1 for ids in batches)  # a list a batch, as computed
    revisions = {(list_id, revision, reason) for _, list_id, revision, _, _, _, reason in streamed["list_revisions"]}
    assert any(revision == 2 for _, revision, _ in revisions)  # the late game revised lists stored before
    assert {(list_id, 1, "first computed") for ids in batches for list_id in ids} <= revisions


def test_a_pass_hands_on_the_lists_after_the_last_one_it_holds(cli, tmp_path, monkeypatch):
    """The lists up to the last one the series holds stay in what the pass returns (the
    store compares them with their revisions); those after it, never held, are handed
    on in order, each batch once it has NEW_ROWS rows, the last one at the end."""
    con, series = _glicko2_rated(cli, tmp_path)
    run_id = scalar(con, "select max(run_id) from runs")
    handed = []
    monkeypatch.setattr(pipeline.rate, "NEW_ROWS", 1)
    con.execute("begin")  # taken back below: the two lists deleted are as if never computed
    con.execute("delete from lists where series = ? and list_id in ('2027-01', '2027-02')", [series.name])
    frames = computed_lists(con, run_id, series, "2026-10", False,
                            lambda new: handed.append([part["list_id"] for part in new["lists"]])).frames
    con.execute("rollback")
    assert [part["list_id"] for part in frames["lists"]] == ["2026-10", "2026-11", "2026-12"]
    assert handed == [["2027-01"], ["2027-02"]]
