"""What a rating pass holds, and lets go (issue 53, item 7: Glicko-2's whole Belgian
history peaked at 2.1 GB where the glicko2 package needs 0.29 GB; bench/glicko2_memory.py):
a part's id held once, not once a row; the computed parts let go as DuckDB reads them;
the pages freed handed back to the system once a series is stored."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa

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


def test_storing_lets_the_computed_parts_go_and_stores_the_same_rows(cli, tmp_path):
    files = write_small_federation(tmp_path)
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "glicko2", "--players", files["players"], "--ratings", files["ratings"],
        "--games", files["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    con = connect(w)
    series = series_in(con, scenarios=False)[0]
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
