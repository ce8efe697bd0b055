"""How long `ratings --help`, `ratings query --help` and `ratings run --help` take to start, each
run as a user runs it (a process of its own), N times: the median and the spread (the fastest
and the slowest). With --before a checkout (a `git archive` of another commit unpacked), that
checkout's `pipeline` is measured too, its starts alternating with the installed one's so that a
busy machine slows both alike: it is imported instead of the installed one (PYTHONPATH comes
before the editable install), by the same interpreter and packages.

    python bench/cli_start.py [--runs 10] [--before /tmp/before] [--warehouse w.duckdb]

With --warehouse, two commands that run are timed too: a query and `ratings submissions`.

Each command runs as the console script runs it (pipeline.cli.entry), in a scratch folder so
that the current folder's `pipeline` is not imported by accident."""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = (["--help"], ["query", "--help"], ["run", "--help"])
SCRIPT = "import sys; sys.argv = ['ratings', *sys.argv[1:]]; from pipeline.cli import entry; entry()"


def start_time(args: list[str], env: dict[str, str], folder: str) -> float:
    """The wall-clock seconds of one start of `ratings ARGS`, a process of its own."""
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", SCRIPT, *args], env=env, cwd=folder, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


def summary(times: list[float]) -> str:
    return f"{statistics.median(times):.3f} ({min(times):.3f}-{max(times):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--before", help="a checkout whose pipeline/ is measured beside the installed one")
    parser.add_argument("--warehouse", help="a warehouse: a query and `ratings submissions` on it are timed too")
    given = parser.parse_args()
    envs = {"after": dict(os.environ)}
    if given.before:
        envs = {"before": dict(os.environ, PYTHONPATH=given.before), **envs}
    with tempfile.TemporaryDirectory() as folder:
        for env in envs.values():  # bytecode compiled before the first measure
            start_time(["--help"], env, folder)
        print("| command | " + " | ".join(f"{name}: median (fastest-slowest), s" for name in envs) + " |")
        print("|---|" + "---:|" * len(envs))
        ran = ([["query", "select count(*) from games", "--warehouse", given.warehouse],
                ["submissions", "--warehouse", given.warehouse]] if given.warehouse else [])
        for args in [*COMMANDS, *ran]:
            times = {name: [] for name in envs}
            for _ in range(given.runs):
                for name, env in envs.items():
                    times[name].append(start_time(args, env, folder))
            given_args = args[:args.index("--warehouse")] if "--warehouse" in args else args
            shown = " ".join(a if " " not in a else f'"{a}"' for a in given_args)
            print(f"| `ratings {shown}` | " + " | ".join(summary(t) for t in times.values()) + " |")


if __name__ == "__main__":
    main()
