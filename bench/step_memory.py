"""Benchmark: the peak memory of each step of a `ratings run`, in the process that runs it.

    python bench/step_memory.py [--tracemalloc] -- run --system glicko2 --players ... --warehouse ... --out ...

Runs `ratings` with the arguments after `--` in this process, each step's function wrapped:
ingest (`submit_tables`), validate (`validate_staged`), rate (`computed_lists`: the lists
computed), store: new lists (`store_new`: the lists never stored, written a batch at a
time as they are computed, nested in rate), store (`store`: the lists stored before,
compared with their revisions), the rest of rating
(`flow.rate` outside those two: the transaction's commit, the freed pages handed back) and
publish (`flow.publish`). At a step's start the kernel's high-water mark of resident memory
(`VmHWM`) is reset (`/proc/self/clear_refs`), at its end read: the step's own peak, a
nested step's apart (a step called several times: the largest). Beside it, sampled every
SAMPLE_SECONDS during the step, the largest of DuckDB's own count (`duckdb_memory()`, read
through a cursor of its own; by tag at its largest) and of Arrow's pool
(`pa.total_allocated_bytes()`); at its end, the resident memory; and, with `--tracemalloc`
(slower), Python's and NumPy's peak (tracemalloc). Linux only (`/proc`). Prints a table,
MB (10^6 bytes).
"""
from __future__ import annotations

import argparse
import functools
import threading
import time
import tracemalloc
from dataclasses import dataclass, field

import pyarrow as pa

import pipeline.flow
import pipeline.rate
import pipeline.rate.store
from pipeline.cli import main as ratings

STEPS = {  # step → (module, function): where the step's work is
    "ingest": (pipeline.flow, "submit_tables"),  # as flow.py calls them (it imports the names)
    "validate": (pipeline.flow, "validate_staged"),
    "rate": (pipeline.rate, "computed_lists"),
    "store": (pipeline.rate.store, "store"),
    "store: new lists": (pipeline.rate.store, "store_new"),
    "rate: commit, pages handed back": (pipeline.flow, "rate"),
    "publish": (pipeline.flow, "publish"),
}


SAMPLE_SECONDS = 0.05


def status_mb(field_name: str) -> float:
    """A /proc/self/status figure (kB) in MB."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith(field_name + ":"))
    return int(line.split()[1]) * 1024 / 1e6


def reset_peak() -> None:
    """The kernel's high-water mark of resident memory set to the resident memory now."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")


@dataclass
class Measure:
    """Each step's largest figures."""

    peak: dict[str, float] = field(default_factory=dict)
    sampled: dict[str, tuple[float, float]] = field(default_factory=dict)  # step → (DuckDB, Arrow's pool)
    tags: dict[str, list[tuple[str, float]]] = field(default_factory=dict)  # step → DuckDB's count at its largest
    after: dict[str, tuple[float, float | None]] = field(default_factory=dict)  # step → (RSS, tracemalloc peak)
    calls: dict[str, int] = field(default_factory=dict)
    stack: list[str] = field(default_factory=list)
    cursor: object = None  # a cursor of the run's connection, once a step has one

    def credit(self) -> None:
        """The high-water mark since the last reset, to the step running."""
        if self.stack:
            top = self.stack[-1]
            self.peak[top] = max(self.peak.get(top, 0.0), status_mb("VmHWM"))
        if tracemalloc.is_tracing():
            tracemalloc.reset_peak()
        reset_peak()

    def sample(self) -> None:
        """DuckDB's count and Arrow's pool, to the step running (the sampling thread)."""
        while True:
            time.sleep(SAMPLE_SECONDS)
            if not self.stack or self.cursor is None:
                continue
            top = self.stack[-1]
            tags = self.cursor.execute("select tag, memory_usage_bytes / 1e6 from duckdb_memory() "
                                       "where memory_usage_bytes > 0 order by 2 desc").fetchall()
            duck = sum(mb for _, mb in tags)
            seen = self.sampled.get(top, (0.0, 0.0))
            if duck > seen[0]:
                self.tags[top] = tags
            self.sampled[top] = (max(seen[0], duck), max(seen[1], pa.total_allocated_bytes() / 1e6))

    def wrapped(self, step: str, function):
        @functools.wraps(function)
        def measured(*args, **kwargs):
            if self.cursor is None and args and hasattr(args[0], "cursor"):
                self.cursor = args[0].cursor()
            self.credit()
            self.stack.append(step)
            try:
                return function(*args, **kwargs)
            finally:
                traced = tracemalloc.get_traced_memory()[1] / 1e6 if tracemalloc.is_tracing() else None
                self.credit()
                self.stack.pop()
                self.after[step] = (status_mb("VmRSS"), traced)
                self.calls[step] = self.calls.get(step, 0) + 1
        return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tracemalloc", action="store_true", help="Python's and NumPy's allocations traced too")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="`ratings` arguments, after --")
    args = parser.parse_args()
    measure = Measure()
    for step, (module, name) in STEPS.items():
        setattr(module, name, measure.wrapped(step, getattr(module, name)))
    threading.Thread(target=measure.sample, daemon=True).start()
    if args.tracemalloc:
        tracemalloc.start()
    reset_peak()
    try:
        ratings.main(args=[a for a in args.arguments if a != "--"], standalone_mode=False)
    finally:
        print(f"\n# ratings {' '.join(a for a in args.arguments if a != '--')}\n")
        print("| step | calls | peak MB | DuckDB MB, largest | Arrow pool MB, largest | after: RSS MB "
              "| tracemalloc peak MB |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for step in STEPS:
            if step in measure.calls:
                (rss, traced), (duck, arrow) = measure.after[step], measure.sampled.get(step, (0.0, 0.0))
                print(f"| {step} | {measure.calls[step]} | {measure.peak[step]:,.0f} | {duck:,.0f} | {arrow:,.0f} | "
                      f"{rss:,.0f} | {'' if traced is None else f'{traced:,.0f}'} |")
        print("\nDuckDB's count at its largest, by tag (MB):")
        for step, tags in measure.tags.items():
            print(f"- {step}: " + ", ".join(f"{tag} {mb:,.0f}" for tag, mb in tags if mb >= 1))


if __name__ == "__main__":
    main()
