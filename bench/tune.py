"""What a study's trial costs beside the rate stage it repeats: the Belgian history
(data/belgium) rated by `ratings run --no-reports` (its Rate stage timed by
the command itself), then `ratings tune` on the same warehouse, each trial's seconds
as the study records them (rated, scored, drift read, rolled back).

    python bench/tune.py data/belgium [--system performance] [--trials 50] [--repeat 3] [--work DIR]

Prints one row per rule set: the rate stage (the median of --repeat runs), the
trials' median and slowest, their ratio to the rate stage, the whole study's wall
time and peak memory. The space is
the README's worked study (quota, brake, range, start) for the national Elo, K for FIDE.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from belgium_inputs import write_belgium_inputs  # noqa: E402
from run import measured  # noqa: E402

SPACES = {
    "performance": ("[senior_quota]\nlow = 4\nhigh = 32\n[brake_weight]\nlow = 8\nhigh = 48\n"
                    "[compatibility_gap]\nlow = 200.0\nhigh = 800.0\nstep = 50.0\n"
                    "[start_value]\nlow = 1000.0\nhigh = 1800.0\nstep = 100.0\n"),
    "fide": "[k_standard]\nlow = 5\nhigh = 60\n",
}


def rate_stage(files: dict[str, Path], system: str, warehouse: Path, work: Path) -> float:
    """The Rate stage's seconds of a run from an empty warehouse, as the run prints them."""
    warehouse.unlink(missing_ok=True)
    _, _, out = measured([str(Path(sys.executable).parent / "ratings"), "run", "--system", system,
                          "--players", str(files["players"]), "--ratings", str(files["ratings"]),
                          "--games", str(files["games"]), "--warehouse", str(warehouse),
                          "--out", str(work / f"out-{system}"), "--no-reports"])
    return float(re.search(r"^\s+Rate took ([\d.]+) s$", out, flags=re.M).group(1))


def study(system: str, trials: int, warehouse: Path, work: Path) -> dict:
    space = work / f"{system}.toml"
    space.write_text(SPACES[system])
    wall, rss, _ = measured([str(Path(sys.executable).parent / "ratings"), "tune", "bench", "--system", system,
                             "--space", str(space), "--trials", str(trials), "--train-until", "2010-01",
                             "--seed", "1", "--warehouse", str(warehouse), "--out", str(work / f"tune-{system}")])
    with duckdb.connect(str(warehouse), read_only=True) as con:
        seconds = [s for (s,) in con.execute("""select seconds from study_trials
                                                where study = 'bench' and refused is null and seconds > 0""").fetchall()]
        done = con.execute("select count(*) from study_trials where study = 'bench'").fetchall()[0][0]
    return {"wall": wall, "rss": rss, "seconds": seconds, "trials": done}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("belgium", type=Path)
    parser.add_argument("--system", action="append", choices=sorted(SPACES))
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the rate stage (their median is shown)")
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="tune-bench-"))
    files = write_belgium_inputs(args.belgium, work / "belgium")
    print(f"{'rule set':<12} {'rate stage':>10} {'trials':>7} {'rated':>6} {'median':>7} {'slowest':>8} "
          f"{'median/rate':>11} {'study wall':>10} {'peak MiB':>9}")
    for system in args.system or ["performance"]:
        warehouse = work / f"{system}.duckdb"
        rate = statistics.median(rate_stage(files, system, warehouse, work) for _ in range(args.repeat))
        found = study(system, args.trials, warehouse, work)
        median = statistics.median(found["seconds"])
        print(f"{system:<12} {rate:>9.2f}s {found['trials']:>7} {len(found['seconds']):>6} {median:>6.2f}s "
              f"{max(found['seconds']):>7.2f}s {median / rate:>11.2f} {found['wall']:>9.1f}s {found['rss']:>9.0f}")


if __name__ == "__main__":
    main()
