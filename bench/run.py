"""Benchmark: the pipeline against a bare DuckDB pass and a plain per-player Python
implementation, on synthetic federations and on the whole Belgian history.

    python bench/run.py                      # 100k and 1M games, Belgium
    python bench/run.py --sizes 100k,1m,10m  # add 10 M games (Parquet input, ~10 minutes)
    python bench/run.py --floor              # also `ratings run` with its defaults (reports) beside the
                                             # floor (bench/floor/performance_floor.py, the same work bare)
    python bench/run.py --floor --repeat 3   # each of those two three times, alternately: medians
    python bench/run.py --sizes '' --floor --repeat 3   # the Belgian history alone (both rule sets)
    python bench/run.py --floor --no-fide    # without the FIDE case (the slowest: about 45 s a repeat)

Prints one table: per-stage wall time (as `ratings run --no-reports` reports it: the
HTML pages are not part of the comparison), peak memory of
the `ratings run` process, games per second, estimation rounds, the bare pass, the
reference implementation, and the ratios. Each command runs in its own process.

With --floor, each case also runs `ratings run` with its defaults (the HTML reports
included) beside its floor, bench/floor/performance_floor.py: the same work done bare
(its lists and states are the pipeline's, byte for byte: tests/test_performance_floor.py).
Both are processes of their own, timed from start to exit, so the ratio compares like with
like (the run's figure includes Python's start and imports, and so does the floor's);
"floor work s" is the floor's own total without its start, as the script prints it.
The Belgian history is also rated under FIDE's rules (412 monthly lists): a row
`Belgium 1988-2022, FIDE` whose stages are those of `ratings run --system fide
--no-reports`, and whose floor columns set `ratings run --system fide` with its defaults
beside its floor, bench/floor/fide_floor.py. --repeat N runs each run and its floor N
times, alternately, and keeps the medians. Then, for every case, a table of the phases
side by side: ingest and validation against the floor's typed read, rating against
placing, rating and storing, publication with the reports against the floor's files and
pages, and the rest (Python's start and imports, the warehouse's creation and its last
checkpoint). --no-fide leaves the FIDE case out. A floor writes into an empty folder each
time, as the run does.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SIZES = {"100k": 8_000, "1m": 80_000, "10m": 800_000}  # players; 6 lists give ~12.5 games per player
LISTS = 6


def measured(cmd: list[str]) -> tuple[float, float, str]:
    """Run a command in a child process: wall seconds, peak RSS (MiB), stdout."""
    probe = ("import resource, subprocess, sys, json, time; t = time.perf_counter(); "
             "p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
             "print(json.dumps({'s': time.perf_counter() - t, 'rss': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,"
             " 'out': p.stdout, 'err': p.stderr, 'rc': p.returncode}))")
    done = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True, check=True)
    info = json.loads(done.stdout)
    if info["rc"] != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{info['err'][-3000:]}")
    return info["s"], info["rss"] / 1024, info["out"]


def bare_pass(games: Path) -> float:
    """The floor: read the games once, group by player, sum the scores."""
    con = duckdb.connect()
    source = f"read_parquet('{games}')" if games.suffix == ".parquet" else f"read_csv('{games}')"
    sql = f"""select player, sum(score) from (
        select white_id as player, case result when '1-0' then 1 when '0-1' then 0 else 0.5 end as score from {source}
        union all
        select black_id, case result when '1-0' then 0 when '0-1' then 1 else 0.5 end from {source}
    ) group by player"""
    start = time.perf_counter()
    con.execute(sql).fetchall()
    return time.perf_counter() - start


def pipeline_run(files: dict[str, Path], work: Path, reports: bool = False, system: str | None = None) -> dict:
    cmd = [str(Path(sys.executable).parent / "ratings"), "run", "--players", str(files["players"]),
           "--ratings", str(files["ratings"]), "--games", str(files["games"]),
           "--warehouse", str(work / "bench.duckdb"), "--out", str(work / "out"),
           *([] if reports else ["--no-reports"]), *(["--system", system] if system else [])]
    (work / "bench.duckdb").unlink(missing_ok=True)
    shutil.rmtree(work / "out", ignore_errors=True)
    seconds, rss, out = measured(cmd)
    stages = {m[0].lower(): float(m[1]) for m in re.findall(r"^\s+(\w+) took ([\d.]+) s$", out, flags=re.M)}
    con = duckdb.connect(str(work / "bench.duckdb"), read_only=True)
    # the estimation's rounds are the performance Elo's own table (layout 9): none under FIDE's rules
    rounds_of = ("(select max(rounds_used) from performance_lists)"
                 if con.execute("select 1 from duckdb_tables() where table_name = 'performance_lists'").fetchall()
                 else "null")
    games, rounds, lists = con.execute(
        f"select sum(games_rated), {rounds_of}, count(*) from lists").fetchall()[0]
    return {"total": seconds, "rss": rss, "games": games, "rounds": rounds, "lists": lists, **stages}


def floor_run(script: str, files: dict[str, Path], work: Path) -> tuple[dict, float]:
    """A floor (bench/floor/), reports included, into an empty folder: its phases (its
    JSON) and its process's wall time."""
    shutil.rmtree(work / "floor", ignore_errors=True)
    seconds, _, out = measured([sys.executable, str(HERE / "floor" / script), str(files["players"]),
                                str(files["ratings"]), str(files["games"]), str(work / "floor")])
    return json.loads(out), seconds


def reference_run(files: dict[str, Path]) -> float:
    seconds, _, _ = measured([sys.executable, str(HERE / "reference.py"), str(files["players"]),
                              str(files["ratings"]), str(files["games"])])
    return seconds


def simulated(size: str, work: Path) -> dict[str, Path]:
    sys.path.insert(0, str(ROOT))
    from pipeline.simulate import simulate
    fmt = "parquet" if size == "10m" else "csv"
    return simulate(SIZES[size], LISTS, seed=1, out=work / size, fmt=fmt)


def belgium(src: Path, work: Path) -> dict[str, Path]:
    sys.path.insert(0, str(HERE))
    from belgium_inputs import write_belgium_inputs
    return write_belgium_inputs(src, work / "belgium")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100k,1m", help="comma-separated: 100k, 1m, 10m")
    parser.add_argument("--belgium", type=Path, default=ROOT / "data" / "belgium")
    parser.add_argument("--reference-up-to", default="1m", help="largest size the plain implementation runs on")
    parser.add_argument("--floor", action="store_true",
                        help="also time `ratings run` with its defaults (reports) and the standalone floor")
    parser.add_argument("--repeat", type=int, default=1,
                        help="with --floor: run both that many times, alternately, and keep the medians")
    parser.add_argument("--no-fide", action="store_true",
                        help="with --floor: leave out the FIDE case (`ratings run --system fide` beside its floor)")
    args = parser.parse_args()
    sizes = [s for s in args.sizes.split(",") if s]
    ref_limit = list(SIZES).index(args.reference_up_to)
    rows, phases = [], []
    with tempfile.TemporaryDirectory(prefix="ratings-bench-") as tmp:
        work = Path(tmp)
        cases = [(f"synthetic {s}", simulated(s, work), list(SIZES).index(s) <= ref_limit) for s in sizes]
        if args.belgium.exists():
            cases.append(("Belgium 1988-2022", belgium(args.belgium, work), True))
        for name, files, with_reference in cases:
            print(f"… {name}", file=sys.stderr)
            bare = bare_pass(files["games"])
            run = pipeline_run(files, work)
            ref = reference_run(files) if with_reference else None
            floor = with_floor(files, work, args.repeat) if args.floor else None
            rows.append((name, files["games"].suffix[1:], run, bare, ref, floor))
            if floor:
                phases.append((name, *floor))
        if args.floor and not args.no_fide and args.belgium.exists():
            name, files = "Belgium 1988-2022, FIDE", cases[-1][1]
            print(f"… {name}", file=sys.stderr)
            bare = bare_pass(files["games"])
            run = pipeline_run(files, work, system="fide")
            floor = with_floor(files, work, args.repeat, "fide")
            rows.append((name, files["games"].suffix[1:], run, bare, None, floor))
            phases.append((name, *floor))
    print_table(rows)
    for case in phases:
        print()
        print_phases(*case)
    print()
    print(f"`ratings --help`: {help_seconds():.2f} s (median of 5)")


FLOORS = {None: "performance_floor.py", "fide": "fide_floor.py"}


def with_floor(files: dict[str, Path], work: Path, repeat: int, system: str | None = None) -> tuple[dict, dict, float]:
    """`ratings run` (under `system`) with its defaults and its floor, alternately
    `repeat` times (a shared machine's load moves both alike, one after the other): the
    run whose total is the median, the floor's median phases (each phase's median,
    `total` the median total) and its median process time."""
    runs, floors = [], []
    for _ in range(max(1, repeat)):
        runs.append(pipeline_run(files, work, reports=True, system=system))
        floors.append(floor_run(FLOORS[system], files, work))
    runs.sort(key=lambda r: r["total"])
    phases = {k: statistics.median(f[0][k] for f in floors) for k in floors[0][0] if k not in ("rejected", "lists")}
    return runs[len(runs) // 2], phases, statistics.median(f[1] for f in floors)


def print_phases(name: str, run: dict, floor: dict, floor_process: float) -> None:
    """`ratings run` (its defaults) and its floor, phase by phase."""
    run_parts = {"read": run.get("ingest", 0) + run.get("validate", 0), "rate": run.get("rate", 0),
                 "publish": run.get("publish", 0)}
    floor_parts = {"read": floor["read and check"], "rate": floor["place"] + floor["rate"] + floor["store"],
                   "publish": floor["publish"] + floor["reports"]}
    run_parts["rest"] = run["total"] - sum(run_parts.values())
    floor_parts["rest"] = floor_process - floor["total"]
    run_parts["total"], floor_parts["total"] = run["total"], floor_process
    head = (f"| {name} | ingest + validate s (floor: read and check) "
            "| rate s (floor: place, rate, store) | publish s, reports included (floor: publish, reports) "
            "| start and the rest s | process s |")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    print("| `ratings run` | " + " | ".join(f"{run_parts[k]:.2f}" for k in run_parts) + " |")
    print("| floor | " + " | ".join(f"{floor_parts[k]:.2f}" for k in floor_parts) + " |")
    print("| run / floor | " + " | ".join(f"{run_parts[k] / floor_parts[k]:.1f}×" if floor_parts[k] > 0 else "–"
                                       for k in run_parts) + " |")
    print()
    print("Floor phases (medians, s): " + ", ".join(f"{k} {v:.2f}" for k, v in floor.items()))


def help_seconds() -> float:
    return statistics.median(measured([str(Path(sys.executable).parent / "ratings"), "--help"])[0] for _ in range(5))


def print_table(rows) -> None:
    print(f"# ratings benchmark, {dt.date.today()}, {platform.machine()}, {os.cpu_count()} cores, "
          f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, Python {platform.python_version()}, "
          f"duckdb {duckdb.__version__}")
    print()
    head = ("| case | input | games | lists | ingest s | validate s | rate s | publish s | run s | peak MiB "
            "| games/s | max rounds | bare pass s | run / bare | rate / bare | reference s | reference / run "
            "| run with reports s | floor s | floor work s | run with reports / floor | reference / run with reports |")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for name, fmt, r, bare, ref, floor in rows:
        ref_cells = f"{ref:.1f} | {ref / r['total']:.1f}×" if ref else "– | –"
        if floor:
            with_reports, phases, process = floor
            floor_cells = (f"{with_reports['total']:.2f} | {process:.2f} | {phases['total']:.2f} "
                           f"| {with_reports['total'] / process:.1f}×")
            floor_cells += f" | {ref / with_reports['total']:.1f}×" if ref else " | –"
        else:
            floor_cells = "– | – | – | – | –"
        print(f"| {name} | {fmt} | {r['games']:,} | {r['lists']} | {r.get('ingest', 0):.2f} | {r.get('validate', 0):.2f} "
              f"| {r.get('rate', 0):.2f} | {r.get('publish', 0):.2f} | {r['total']:.2f} | {r['rss']:.0f} "
              f"| {r['games'] / r['total']:,.0f} | {r['rounds']} | {bare:.2f} | {r['total'] / bare:.1f}× "
              f"| {r.get('rate', 0) / bare:.1f}× | {ref_cells} | {floor_cells} |")


if __name__ == "__main__":
    main()
