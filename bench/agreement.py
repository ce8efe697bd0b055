"""Does the pipeline agree with the plain per-player implementation on every player
state of the real Belgian history? (issue 15: with the 25 rounds of R9, it should.)

Rates the whole history (bench/belgium_inputs.py) with `ratings run` and with
bench/reference.py, and compares, list by list, every player's state after the
list: the published rating, or the archives (performance to 6 decimals, games).

    python bench/agreement.py data/belgium
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
from belgium_inputs import write_belgium_inputs  # noqa: E402
from reference import reference_lists  # noqa: E402


def main(src: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        files = write_belgium_inputs(src, tmp / "inputs")
        w = tmp / "w.duckdb"
        start = time.perf_counter()
        subprocess.run([str(Path(sys.executable).parent / "ratings"), "run", "--players", files["players"],
                        "--ratings", files["ratings"], "--games", files["games"], "--warehouse", w,
                        "--out", tmp / "out", "--no-reports"], check=True, capture_output=True,
                       env={"RATINGS_TODAY": "2023-12-31", "PATH": "/usr/bin:/bin"})
        pipeline_s = time.perf_counter() - start
        with duckdb.connect(str(w), read_only=True) as con:
            pipeline = {(l, p): (r, None if pa is None else round(pa, 6), na or None) for l, p, r, pa, na in
                        con.execute("""select list_id, player_id, s.rating, p.archive_performance, p.archive_games
                                       from player_state s left join performance_state p
                                         using (series, list_id, player_id)
                                       where series = 'performance'""").fetchall()}
        start = time.perf_counter()
        states: dict = {}
        reference_lists(files["players"], files["ratings"], files["games"], states=states)
        reference_s = time.perf_counter() - start
    reference = {(l, p): (r, None if pa is None else round(pa, 6), na) for l, rows in states.items()
                 for p, (r, pa, na) in rows.items()}
    differ = sorted(k for k in pipeline.keys() | reference.keys() if pipeline.get(k) != reference.get(k))
    lists = len({k[0] for k in reference})
    print(f"{len(reference):,} player states of {lists} lists (reference), {len(pipeline):,} (pipeline); "
          f"{len(differ):,} differ")
    for key in differ[:10]:
        print(f"  {key}: pipeline {pipeline.get(key)}, reference {reference.get(key)}")
    print(f"pipeline {pipeline_s:.1f} s, reference {reference_s:.1f} s")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
