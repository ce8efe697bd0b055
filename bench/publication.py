"""Benchmark: publication of a warehouse's first rule set (the lists and states, the
reports aside), written by one thread against the pipeline's threads
(pipeline.publish.WRITERS), alternately, each time into an empty folder.

    python bench/publication.py WAREHOUSE [--repeat 3] [--format csv,parquet]

Prints one table (median and range of the seconds, files written) and whether the
two folders hold the same bytes. The warehouse is opened read-only. For FIDE on the
Belgian history, build it as bench/list_formats.py says.
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import tempfile
import time
from pathlib import Path

from rated_warehouse import official_series

from pipeline.publish import FORMATS, WRITERS, publish_series


def digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--format", default="csv,parquet", help=f"of {', '.join(FORMATS)}")
    args = parser.parse_args()
    formats = tuple(args.format.split(","))
    if not set(formats) <= set(FORMATS):
        parser.error(f"--format: choose among {', '.join(FORMATS)}")
    con, official = official_series(parser, args.warehouse)
    series = official[0]
    seconds: dict[int, list[float]] = {1: [], WRITERS: []}
    written, folders = {}, {}
    with tempfile.TemporaryDirectory(prefix="bench-publication-") as scratch:
        for i in range(args.repeat):
            for writers in (1, WRITERS):
                out = Path(scratch) / f"{writers}-{i}"
                started = time.perf_counter()
                written[writers] = publish_series(con, out, series, formats, writers=writers, record=False).written
                seconds[writers].append(time.perf_counter() - started)
                folders[writers] = out
        same = digests(folders[1]) == digests(folders[WRITERS])
    print(f"# publication of {series.name}, --format {args.format}, {args.repeat} runs each, alternately\n")
    print("| threads | median s | range s | files written |")
    print("|---:|---:|---:|---:|")
    for writers, times in seconds.items():
        print(f"| {writers} | {statistics.median(times):.2f} | {min(times):.2f}–{max(times):.2f} | {written[writers]} |")
    print(f"\nthe same bytes in both folders: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
