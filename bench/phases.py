"""Benchmark: the steps every run repeats over the whole history, whatever it took in,
timed on a built warehouse (opened read-only): for each official series, the list
reports' predictive figures (pipeline.publish.report.list_accuracy: every game scored
by the list in force on its day) and, for a FIDE series, the placement of every game
in its event (pipeline.systems.fide.events.place_fide_games, rulings X1-X3, X6).

    python bench/phases.py WAREHOUSE [--repeat 4]

Prints one table (median and range of the seconds) and, for each step, a hash of what
it computed, the same in every repeat (checked), so that two commits can be compared
on their results as well as their time. For FIDE on the Belgian history, build the
warehouse as bench/list_formats.py says.
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import time

from rated_warehouse import official_series

from pipeline.publish.report import list_accuracy
from pipeline.systems.fide.events import place_fide_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse")
    parser.add_argument("--repeat", type=int, default=4)
    args = parser.parse_args()
    con, official = official_series(parser, args.warehouse)

    def figures(series):
        scores = list_accuracy(con, series)
        return hashlib.sha256(repr(sorted((k, sorted(v.items())) for k, v in scores.items())).encode()).hexdigest()

    def placement(series):
        place_fide_games(con, series.rule_set.parameters.closing_days)
        total = con.execute("""select sum(hash(game_key, list_id, event_key, placement, start_list, first_day,
                                              match, after_decided)) from placed_games""").fetchall()[0][0]
        return hashlib.sha256(str(total).encode()).hexdigest()

    steps = [(f"{s.name}: predictive figures", figures, s) for s in official]
    steps += [(f"{s.name}: event placement", placement, s) for s in official if s.rule_set.name == "fide"]
    print(f"# {args.warehouse}, {args.repeat} runs each\n")
    print("| step | median s | range s | result hash |")
    print("|---|---:|---:|---|")
    for label, step, series in steps:
        seconds, results = [], set()
        for _ in range(args.repeat):
            started = time.perf_counter()
            results.add(step(series))
            seconds.append(time.perf_counter() - started)
        same = next(iter(results))[:12] if len(results) == 1 else "DIFFERS between runs"
        print(f"| {label} | {statistics.median(seconds):.2f} | {min(seconds):.2f}–{max(seconds):.2f} | {same} |")


if __name__ == "__main__":
    main()
