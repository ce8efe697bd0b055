"""Benchmark: the files pairing programs load (FIDE's TXT, Swiss-Manager's CSV),
written for every list of a warehouse's first rule set.

    python bench/list_formats.py WAREHOUSE [--federation BEL] [--birth-year]

Prints one table: the lists' query (sql/53_pairing_lists.sql), then each
format's median and largest time a list, and the total. The warehouse is
opened read-only. For FIDE on the Belgian history (the largest case: 412 lists
of up to 12,565 players), build it first:

    python bench/belgium_inputs.py data/belgium belgium/
    ratings run --system fide --players belgium/players.parquet --ratings belgium/ratings.parquet \\
        --games belgium/games.parquet --warehouse fide.duckdb --out fide/ --no-reports
"""
from __future__ import annotations

import argparse
import statistics
import time

from rated_warehouse import official_series

from pipeline.config import PairingSettings
from pipeline.formats.list_files import fide_list_text, swiss_manager_csv
from pipeline.publish import by_key, pairing_lists


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse")
    parser.add_argument("--federation", default=None, help="fills Fed where a player has none")
    parser.add_argument("--birth-year", action="store_true",
                        help="the birth year in B-day and Birthday, as ratings.toml's publish_birth_year = true")
    args = parser.parse_args()
    con, official = official_series(parser, args.warehouse)
    series = official[0]
    con.execute("set variable series = ?", [series.name])  # as pipeline.publish.publish_series sets them
    con.execute("set variable estimates = ?", [series.rule_set.publishes_estimates])
    started = time.perf_counter()
    lists = by_key(pairing_lists(con, series.rule_set, PairingSettings(publish_birth_year=args.birth_year)))
    query = time.perf_counter() - started
    times: dict[str, list[float]] = {"txt": [], "swiss-manager": []}
    for list_id, table in lists.items():
        started = time.perf_counter()
        fide_list_text(table, list_id, federation=args.federation)
        between = time.perf_counter()
        swiss_manager_csv(table, federation=args.federation)
        times["txt"].append(between - started)
        times["swiss-manager"].append(time.perf_counter() - between)
    largest = max(t.num_rows for t in lists.values())
    print(f"# pairing programs' lists, {series.name} ({series.rule_set.name}): {len(lists)} lists, "
          f"up to {largest:,} players; the lists' query {query:.2f} s\n")
    print("| format | median ms a list | largest ms | total s |")
    print("|---|---:|---:|---:|")
    for name, seconds in times.items():
        print(f"| {name} | {statistics.median(seconds) * 1000:.1f} | {max(seconds) * 1000:.1f} | {sum(seconds):.2f} |")


if __name__ == "__main__":
    main()
