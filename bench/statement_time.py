"""Every SQL statement a `ratings` command sends through its warehouse connection,
timed: the command runs in this process with the connection wrapped, and the slowest
statements are printed at the end, with the sum and the count.

    python bench/statement_time.py -- validate --warehouse staged.duckdb
    python bench/statement_time.py --top 10 -- run --system fide --players ... --no-reports

Only `execute` is timed: a relation made by `sql` runs where it is read (its rows
fetched), so it is counted, not timed (bench/step_time.py times the step that reads it).
Python's own share is the command's time less the sum.
"""
from __future__ import annotations

import argparse
import time

from step_time import replace_everywhere, run_ratings


class TimedConnection:
    """A DuckDB connection whose `execute` calls are timed; anything else is passed on."""

    def __init__(self, con):
        self._con, self.statements, self.relations = con, [], 0

    def execute(self, sql, *args, **kwargs):
        started = time.perf_counter()
        try:
            return self._con.execute(sql, *args, **kwargs)
        finally:
            self.statements.append((time.perf_counter() - started, " ".join(str(sql).split())))

    def sql(self, *args, **kwargs):
        self.relations += 1
        return self._con.sql(*args, **kwargs)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self._con.__exit__(*exc)

    def __getattr__(self, name):
        return getattr(self._con, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=25, help="how many of the slowest statements to print")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the ratings command and its options")
    args = parser.parse_args()
    from pipeline import warehouse

    opened: list[TimedConnection] = []
    original = warehouse.connect

    def timed_connect(*a, **k):
        opened.append(TimedConnection(original(*a, **k)))
        return opened[-1]

    replace_everywhere("connect", original, timed_connect)
    started = time.perf_counter()
    run_ratings(args.command)
    total = time.perf_counter() - started
    statements = [s for con in opened for s in con.statements]
    for seconds, sql in sorted(statements, key=lambda s: -s[0])[:args.top]:
        print(f"{seconds:8.3f}  {sql[:110]}")
    print(f"{sum(s for s, _ in statements):.3f} s in {len(statements)} statements "
          f"({sum(c.relations for c in opened)} relations made by sql(), not timed); the command {total:.3f} s")


if __name__ == "__main__":
    main()
