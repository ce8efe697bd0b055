"""What a rating pass holds, and lets go (issue 53, item 7: Glicko-2's whole Belgian
history peaked at 2.1 GB where the glicko2 package needs 0.29 GB; bench/glicko2_memory.py):
a part's id held once, not once a row; the computed parts let go as DuckDB reads them;
the lists written a batch at a time as they are computed, the same rows as at once; the
pages freed handed back to the system once a series is stored."""
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


def _three_runs(cli, tmp_path, folder: str, system: str) -> Path:
    """The small federation rated under `system` in three runs: all but three games; those
    three (a late game of September, which revises the list stored, and the games of
    October and January, whose lists are new); one more late game of September, which
    revises every list, now all stored; the warehouse."""
    files = write_small_federation(tmp_path)
    header, *rows = files["games"].read_text().splitlines()
    (tmp_path / folder).mkdir()
    # each folder's files named alike: a revision's reason names the submission's file
    runs = [rows[:8], ["2026-09-26,5,8,0-1,School day,2", *rows[8:]], ["2026-09-27,7,5,1-0,School day,3"]]
    w = tmp_path / folder / "w.duckdb"
    for k, games in enumerate(runs, 1):
        path = tmp_path / folder / f"games-{k}.csv"
        path.write_text("\n".join([header, *games]) + "\n")
        first = ("--system", system, "--players", files["players"], "--ratings", files["ratings"]) if k == 1 else ()
        cli("run", *first, "--games", path, "--warehouse", w, "--out", tmp_path / folder / "out", "--no-reports")
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
def test_lists_written_a_batch_at_a_time_are_the_rows_written_at_once(cli, tmp_path, monkeypatch, system):
    """Issue 53, item 7: a rating pass writes its lists a batch at a time as it computes
    them (here a list a batch), never the whole history at once. What is stored is what
    one `store` of every list wrote (here: one batch of the lists the series held, one of
    those it never held, both through `store`): every row, each revision and its reason,
    "follows from the revision of an earlier list" for the lists after one an earlier
    batch revised."""
    batches = []
    real_store, real_new = pipeline.rate.store.store, pipeline.rate.store.store_new

    def counted(function, held):
        def call(con, series, computed, *args):
            batches.append(([part["list_id"] for part in computed["lists"]], held))
            return function(con, series, computed, *args)
        return call

    monkeypatch.setattr(pipeline.rate, "NEW_ROWS", 1)
    monkeypatch.setattr(pipeline.rate.store, "store", counted(real_store, True))
    monkeypatch.setattr(pipeline.rate.store, "store_new", counted(real_new, False))
    a_list_a_batch = _results(_three_runs(cli, tmp_path, "batches", system))
    monkeypatch.undo()

    monkeypatch.setattr(pipeline.rate, "NEW_ROWS", 10**9)
    monkeypatch.setattr(pipeline.rate.store, "store_new", real_store)  # new lists too, as every list was
    at_once = _results(_three_runs(cli, tmp_path, "at-once", system))
    assert a_list_a_batch == at_once
    assert all(len(ids) == 1 for ids, _ in batches)  # a list a batch, as computed
    assert {held for _, held in batches} == {True, False}  # lists held before and lists new to the series
    reasons = {(list_id, revision): reason for _, list_id, revision, _, _, _, reason in a_list_a_batch["list_revisions"]}
    assert {reasons[(ids[0], 1)] for ids, held in batches if not held} == {"first computed"}
    # submissions 1-3: the registry, the ratings and the first games; 5: the third run's
    assert "late games: submission 5 (games-3.csv)" in reasons.values()
    if system == "glicko2":  # each list's ratings carry into the next: the late game changes every one after it
        assert {reason for (list_id, revision), reason in reasons.items() if revision == 2 and list_id != "2026-10"} \
            == {"follows from the revision of an earlier list"}  # each a batch after the one 2026-10 was in


def test_a_pass_hands_on_its_lists_in_order_the_held_ones_apart(cli, tmp_path, monkeypatch):
    """The lists up to the last one the series holds (a revision compares them with it)
    and those after it, never held, go in batches of their own, in order, each batch once
    it has NEW_ROWS rows; none is kept in what the pass returns."""
    con, series = _glicko2_rated(cli, tmp_path)
    run_id = scalar(con, "select max(run_id) from runs")
    handed = []
    monkeypatch.setattr(pipeline.rate, "NEW_ROWS", 1)
    con.execute("begin")  # taken back below: the two lists deleted are as if never computed
    con.execute("delete from lists where series = ? and list_id in ('2027-01', '2027-02')", [series.name])
    frames = computed_lists(con, run_id, series, "2026-10", False,
                            lambda batch, held: handed.append(([p["list_id"] for p in batch["lists"]], held))).frames
    con.execute("rollback")
    assert all(parts == [] for parts in frames.values())
    assert handed == [(["2026-10"], True), (["2026-11"], True), (["2026-12"], True),
                      (["2027-01"], False), (["2027-02"], False)]
    monkeypatch.setattr(pipeline.rate, "NEW_ROWS", 10**9)  # a batch is as large as it may be: the held ones apart
    handed.clear()
    con.execute("begin")
    con.execute("delete from lists where series = ? and list_id in ('2027-01', '2027-02')", [series.name])
    computed_lists(con, run_id, series, "2026-10", False,
                   lambda batch, held: handed.append(([p["list_id"] for p in batch["lists"]], held)))
    con.execute("rollback")
    assert handed == [(["2026-10", "2026-11", "2026-12"], True), (["2027-01", "2027-02"], False)]
