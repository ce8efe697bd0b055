"""One step of a `ratings` command timed inside it: the command runs in this process
with the function named wrapped, and each call's seconds are printed at the end.

    python bench/step_time.py pipeline.rate.store:store -- run --system fide \\
        --players belgium/players.parquet --ratings belgium/ratings.parquet \\
        --games belgium/games.parquet --warehouse fide.duckdb --out fide/ --no-reports
    python bench/step_time.py pipeline.systems.fide.events:fide_period_games -- run --system fide ...

The function is replaced in its module and in every module that imported it by name
(bench/run.py times whole stages; this, one step of one, as the README's figures say).
"""
from __future__ import annotations

import argparse
import functools
import importlib
import statistics
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", help="module:function, e.g. pipeline.rate.store:store")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the ratings command and its options")
    args = parser.parse_args()
    module_name, _, name = args.step.partition(":")
    try:
        original = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError) as err:
        parser.error(f"{args.step}: {err}")
    seconds: list[float] = []

    @functools.wraps(original)
    def timed(*a, **k):
        started = time.perf_counter()
        try:
            return original(*a, **k)
        finally:
            seconds.append(time.perf_counter() - started)

    replace_everywhere(name, original, timed)
    run_ratings(args.command)
    print(f"{args.step}: {calls_said(seconds)}")


def calls_said(seconds: list[float]) -> str:
    """The calls' time in all, then each call's (up to ten) or the median and the longest."""
    total = f"{len(seconds)} call(s), {sum(seconds):.3f} s in all"
    if len(seconds) <= 10:
        return total + ": " + ", ".join(f"{s:.3f}" for s in seconds) + " s"
    return total + f"; median {statistics.median(seconds):.4f} s, longest {max(seconds):.4f} s"


def replace_everywhere(name: str, original, replacement) -> None:
    """`original` replaced by `replacement` in every module that holds it under `name`:
    its own and those that imported it by name (those imported later take the replacement)."""
    import pipeline.cli  # noqa: F401  (the command's modules, imported before they are searched)

    for module in list(sys.modules.values()):
        if getattr(module, name, None) is original:
            setattr(module, name, replacement)


def run_ratings(command: list[str]) -> None:
    """`ratings COMMAND...` in this process as the console script runs it (a leading `--`
    dropped); a non-zero exit is said."""
    from pipeline.cli import entry

    sys.argv = ["ratings", *(command[1:] if command[:1] == ["--"] else command)]
    try:
        entry()
    except SystemExit as done:
        if done.code not in (0, None):
            print(f"ratings exited with status {done.code}", file=sys.stderr)


if __name__ == "__main__":
    main()
