"""Benchmark: the peak memory of a whole-history Glicko-2 run, ours beside the `glicko2`
package's (2.1.0, `pip install glicko2==2.1.0`: the `peers` extra) on the same games.

    python bench/glicko2_memory.py data/belgium [--work DIR] [--repeat 1]

(a) `ratings run --system glicko2` of the whole Belgian history (bench/belgium_inputs.py),
default parameters, in a child process; (b) the package over the same games, the same
periods (the rule set's `period_months`: the calendar months of its periods), the same tau,
initial values, tolerance and deviation cap, in a child process that loads neither the
pipeline nor pandas; each one's peak RSS (`/usr/bin/time -v`, else the child's
`getrusage(RUSAGE_CHILDREN).ru_maxrss` read by a wrapper) and wall time. Prints a table
(run, peak MB, time s, ratio to the package's peak) and checks that the two agree after
the last period: the same players rated, every exact rating within RATING_TOLERANCE, every
RD within DEVIATION_TOLERANCE, every volatility within VOLATILITY_TOLERANCE (else the
comparison is not on the same games, and the script fails).

Two things the driver adds to the package, both said here because they change what it
computes, never what it holds in memory:
- the package's step 5 reads μ² where Glickman (2013, step 5.1, f(x)) reads φ²
  (`Player._f`: `self.__rating**2`); the driver's Player reads φ², as our rules do;
- the package has no deviation cap; the driver's Player caps φ* at `max_deviation` (350,
  our default, Glickman 1999's rule), as step 6 of our rules does.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
GNU_TIME = "/usr/bin/time"
# After 411 monthly periods the two differ by the floating-point order of their sums (ours
# by player in a canonical order, the package's game by game) and by where each player's
# Illinois iteration stops (both at a bracket under epsilon = 1e-6 on ln σ²): measured
# 2026-12-06 on the Belgian history, well inside these.
RATING_TOLERANCE = 1e-3  # rating points
DEVIATION_TOLERANCE = 1e-3  # RD points
VOLATILITY_TOLERANCE = 1e-6


def peak_and_time(cmd: list[str], log: Path) -> tuple[float, float]:
    """Run `cmd` in a child process (its output to `log`): its peak RSS (MB, 10^6 bytes) and wall seconds."""
    with log.open("w") as out:
        if Path(GNU_TIME).is_file():
            started = time.perf_counter()
            done = subprocess.run([GNU_TIME, "-v", *cmd], stdout=out, stderr=subprocess.PIPE, text=True)
            seconds = time.perf_counter() - started
            out.write(done.stderr)
            found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
            kib = int(found.group(1)) if found else None
        else:
            probe = ("import json, resource, subprocess, sys; rc = subprocess.run(sys.argv[1:]).returncode; "
                     "print(json.dumps([rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]), file=sys.stderr)")
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", probe, *cmd], stdout=out, stderr=subprocess.PIPE, text=True)
            seconds = time.perf_counter() - started
            rc, kib = json.loads(done.stderr.strip().splitlines()[-1])
            out.write(done.stderr)
    if done.returncode != 0 or kib is None:
        said = next(iter(done.stderr.strip().splitlines()), "")  # the child's own message, before time's report
        raise SystemExit(f"{' '.join(cmd)} failed (exit {done.returncode}): {said} (all of it: {log})")
    return kib * 1024 / 1e6, seconds


def ours(files: dict[str, Path], work: Path) -> tuple[float, float, Path]:
    """`ratings run --system glicko2` of the whole history into a new warehouse: peak MB, seconds, the warehouse."""
    warehouse, out = work / "glicko2.duckdb", work / "out"
    warehouse.unlink(missing_ok=True)
    shutil.rmtree(out, ignore_errors=True)
    cmd = [str(Path(sys.executable).parent / "ratings"), "run", "--system", "glicko2",
           "--players", str(files["players"]), "--ratings", str(files["ratings"]), "--games", str(files["games"]),
           "--warehouse", str(warehouse), "--out", str(out), "--no-reports"]
    peak, seconds = peak_and_time(cmd, work / "ours.log")
    return peak, seconds, warehouse


def the_package(files: dict[str, Path], work: Path, rules) -> tuple[float, float, Path]:
    """The package over the same games in a child process (`--package`): peak MB, seconds, its final ratings."""
    final = work / "package.parquet"
    parameters = {"tau": rules.tau, "initial_rating": rules.initial_rating,
                  "initial_deviation": rules.initial_deviation, "initial_volatility": rules.initial_volatility,
                  "max_deviation": rules.max_deviation, "period_months": rules.period_months}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--package", str(files["games"]), str(files["ratings"]),
           str(final), json.dumps(parameters)]
    peak, seconds = peak_and_time(cmd, work / "package.log")
    return peak, seconds, final


def package_run(games: Path, ratings: Path, final: Path, parameters: dict) -> None:
    """The child: the Belgian games rated by the `glicko2` package, period by period, every
    game of a period from the ratings and RDs before it (Glickman 2013: the games of a period
    are simultaneous), written to `final` (player_id, rating, deviation, volatility)."""
    try:
        import glicko2  # the peers' package, absent from a plain install: imported by the child that needs it alone
    except ImportError:
        raise SystemExit("the glicko2 package is not installed: pip install glicko2==2.1.0 (the peers extra)") from None

    scale = 173.7178
    cap = parameters["max_deviation"]
    if getattr(glicko2.Player, "_newVol", None) is None or getattr(glicko2.Player, "_f", None) is None:
        raise SystemExit("glicko2: not the 2.1.0 package this driver was written for (pip install glicko2==2.1.0)")

    class Player(glicko2.Player):
        _tau = parameters["tau"]

        def _f(self, x, delta, v, a):  # Glickman 2013, step 5.1: φ², where the package reads μ²
            ex = math.exp(x)
            phi2 = self._Player__rd ** 2
            return ex * (delta ** 2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / self._tau ** 2

        def _preRatingRD(self):  # step 6, φ* capped at max_deviation as our rules' step 6
            phi_star = math.sqrt(self._Player__rd ** 2 + self.vol ** 2)
            self._Player__rd = phi_star if cap is None else min(phi_star, cap / scale)

    table = pq.read_table(games, columns=["date", "white_id", "black_id", "result"])
    day = pc.cast(table["date"], pa.timestamp("s"))
    month = pc.add(pc.multiply(pc.year(day), 12), pc.subtract(pc.month(day), 1))
    months = parameters["period_months"]
    # Periods of `months` months starting in January (our period_calendar), numbered from the first game's
    first = pc.min(month).as_py()
    first -= first % 12 % months
    period = pc.divide(pc.subtract(month, first), months)
    score = pc.if_else(pc.equal(table["result"], "1-0"), 1.0, pc.if_else(pc.equal(table["result"], "0-1"), 0.0, 0.5))
    games = pa.table({"period": period, "white": table["white_id"], "black": table["black_id"], "score": score})
    games = games.take(pc.sort_indices(games["period"]))
    del table, day, month, period, score
    sizes = pc.value_counts(games["period"])  # in order of first appearance: ascending
    starts = dict(zip(sizes.field("values").to_pylist(),
                      zip(pc.cumulative_sum(sizes.field("counts")).to_pylist(), sizes.field("counts").to_pylist())))

    initial = pq.read_table(ratings, columns=["player_id", "rating"])
    players = {pid: Player(rating, parameters["initial_deviation"], parameters["initial_volatility"])
               for pid, rating in zip(initial["player_id"].to_pylist(), initial["rating"].to_pylist())
               if rating is not None}
    for p in range(max(starts) + 1):  # a period without games too: every rated player's RD grows
        end, count = starts.get(p, (0, 0))
        one = games.slice(end - count, count)
        results: dict[int, tuple[list, list, list]] = {}
        for w, b, s in zip(one["white"].to_pylist(), one["black"].to_pylist(), one["score"].to_pylist()):
            results.setdefault(w, ([], [], []))[2].append(s)
            results[w][0].append(b)
            results.setdefault(b, ([], [], []))[2].append(1 - s)
            results[b][0].append(w)
        for pid in results:
            players.setdefault(pid, Player(parameters["initial_rating"], parameters["initial_deviation"],
                                           parameters["initial_volatility"]))
        before = {pid: (player.rating, player.rd) for pid, player in players.items()}
        for pid, player in players.items():
            if pid in results:
                opponents, _, outcomes = results[pid]
                player.update_player([before[o][0] for o in opponents], [before[o][1] for o in opponents], outcomes)
            else:
                player.did_not_compete()
    ids = sorted(players)
    pq.write_table(pa.table({"player_id": pa.array(ids, pa.int64()),
                             "rating": [players[i].rating for i in ids], "deviation": [players[i].rd for i in ids],
                             "volatility": [players[i].vol for i in ids]}), final)


def agreement(warehouse: Path, final: Path) -> dict[str, float]:
    """Ours and the package's after the last period: the largest differences; refused
    (SystemExit) when the players differ or a difference passes its tolerance."""
    import duckdb  # the parent's alone: the package's child never loads it

    con = duckdb.connect(str(warehouse), read_only=True)
    worst = con.execute("""
        with last as (select list_id from lists where series = 'glicko2' order by position desc limit 1),
             ours as (select player_id, exact_rating, deviation, volatility from glicko2_state
                      where series = 'glicko2' and list_id = (select list_id from last)),
             theirs as (select * from read_parquet(?))
        select count(*) filter (where o.player_id is null or t.player_id is null),
               count(*), max(abs(o.exact_rating - t.rating)), max(abs(o.deviation - t.deviation)),
               max(abs(o.volatility - t.volatility))
        from ours o full join theirs t using (player_id)""", [str(final)]).fetchone()
    con.close()
    unmatched, players, rating, deviation, volatility = worst
    found = {"players": players, "rating": rating, "deviation": deviation, "volatility": volatility}
    if unmatched or rating > RATING_TOLERANCE or deviation > DEVIATION_TOLERANCE or volatility > VOLATILITY_TOLERANCE:
        raise SystemExit(f"ours and the package's disagree after the last period ({unmatched} players on one side "
                         f"only; largest differences {found}): the comparison is not on the same games")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("belgium", type=Path, help="the Belgian history (data/belgium)")
    parser.add_argument("--work", type=Path, help="a folder for the inputs, warehouse and logs (default: a temporary one)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (the median is printed)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    # The parent alone loads the pipeline: the package's child (same file) must not pay for it.
    from belgium_inputs import write_belgium_inputs

    from pipeline.systems.glicko2.rules import RULES

    work = args.work or Path(tempfile.mkdtemp(prefix="glicko2-memory-"))
    work.mkdir(parents=True, exist_ok=True)
    files = write_belgium_inputs(args.belgium, work / "in")
    runs = {"ratings run --system glicko2": [], "glicko2 2.1.0 package": []}
    for _ in range(args.repeat):
        *ours_measure, warehouse = ours(files, work)
        runs["ratings run --system glicko2"].append(ours_measure)
        *theirs_measure, final = the_package(files, work, RULES)
        runs["glicko2 2.1.0 package"].append(theirs_measure)
    found = agreement(warehouse, final)
    medians = {name: (statistics.median(p for p, _ in m), statistics.median(s for _, s in m)) for name, m in runs.items()}
    base = medians["glicko2 2.1.0 package"][0]
    print(f"# the Belgian history, Glicko-2 with the defaults ({json.dumps(dataclasses.asdict(RULES))}), "
          f"{args.repeat} run(s) each, {os.cpu_count()} cores\n")
    print("| run | peak MB | time s | ratio |")
    print("|---|---:|---:|---:|")
    for name, (peak, seconds) in medians.items():
        print(f"| {name} | {peak:,.0f} | {seconds:.1f} | {peak / base:.2f}× |")
    print(f"\nAfter the last period, {found['players']:,} players on both sides; largest differences: rating "
          f"{found['rating']:.2e} (tolerance {RATING_TOLERANCE:g}), RD {found['deviation']:.2e} "
          f"({DEVIATION_TOLERANCE:g}), volatility {found['volatility']:.2e} ({VOLATILITY_TOLERANCE:g})")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--package"]:
        package_run(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), json.loads(sys.argv[5]))
    else:
        main()
