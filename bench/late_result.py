"""Benchmark: one late result on the whole Belgian history, with the publication
record (published_files: the lists that kept their revision are left alone) against
the same run with the record emptied (every list built again and compared with its
files, as before layout 7).

    python bench/late_result.py                      # both rule sets, 3 repeats
    python bench/late_result.py --system fide --repeat 5
    python bench/late_result.py --reports            # the HTML pages too (their bytes compared)

For each rule set: the history rated and published once (`ratings run --no-reports`,
or with its reports with --reports), then, from copies of that warehouse and folder,
alternately, `ratings run --games late.csv` (the same) with the record and without it. The late game is the history's
last game again, between the same players on the same day, in an event of its own:
it revises the last list only. Prints one table (medians and ranges of the run's wall
time and of its publication stage, files written) and whether both ways leave the
same bytes in the output folder.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from belgium_inputs import write_belgium_inputs
from run import ROOT, measured

RATINGS = str(Path(sys.executable).parent / "ratings")


def digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def late_game(warehouse: Path, path: Path) -> Path:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        date, white, black = con.execute(
            "select date, white_id, black_id from games order by date desc, game_id desc limit 1").fetchall()[0]
    path.write_text(f"date,white_id,black_id,result,event\n{date},{white},{black},1-0,Late club game\n")
    return path


def late_run(base: Path, work: Path, late: Path, record: bool, reports: bool) -> tuple[float, float, int]:
    """Seconds of the run and of its publication, and the files it wrote. The run is in
    `work`, where the history was first published (the record is by folder), put back
    from the copy `base` each time."""
    shutil.rmtree(work)
    shutil.copytree(base, work)
    if not record:
        with duckdb.connect(str(work / "w.duckdb")) as con:
            con.execute("delete from published_files")
    seconds, _, out = measured([RATINGS, "run", "--games", str(late), "--warehouse", str(work / "w.duckdb"),
                                "--out", str(work / "out"), *([] if reports else ["--no-reports"])])
    publish = float(re.search(r"^\s+Publish took ([\d.]+) s$", out, flags=re.MULTILINE)[1])
    written = re.search(r"(\d+) files written", out)
    return seconds, publish, int(written[1]) if written else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--belgium", type=Path, default=ROOT / "data" / "belgium")
    parser.add_argument("--system", choices=["performance", "fide"], action="append")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reports", action="store_true", help="the HTML pages too, first and late runs")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-late-") as scratch:
        scratch = Path(scratch)
        files = write_belgium_inputs(args.belgium, scratch / "belgium")
        for system in args.system or ["performance", "fide"]:
            work, base = scratch / system / "work", scratch / system / "base"
            work.mkdir(parents=True)
            measured([RATINGS, "run", "--system", system, "--players", str(files["players"]),
                      "--ratings", str(files["ratings"]), "--games", str(files["games"]),
                      "--warehouse", str(work / "w.duckdb"), "--out", str(work / "out"),
                      *([] if args.reports else ["--no-reports"])])
            shutil.copytree(work, base)
            late = late_game(base / "w.duckdb", scratch / system / "late.csv")
            runs: dict[bool, list[tuple[float, float, int]]] = {True: [], False: []}
            outputs = {}
            for _ in range(args.repeat):
                for record in (False, True):
                    runs[record].append(late_run(base, work, late, record, args.reports))
                    outputs[record] = digests(work / "out")
            same = outputs[True] == outputs[False]
            lists = len(list((base / "out" / "state").glob("*.parquet")))
            for record in (False, True):
                total, publish, written = zip(*runs[record])
                rows.append((system, lists, "with the record" if record else "record emptied", total, publish,
                             written[-1], same))
    print(f"# one late result on the Belgian history, {'with the reports' if args.reports else '--no-reports'}, "
          f"{args.repeat} runs each, alternately\n")
    print("| rule set | lists | publication | run median s | run range s | publish median s | files written "
          "| same bytes |")
    print("|---|---:|---|---:|---:|---:|---:|---|")
    for system, lists, how, total, publish, written, same in rows:
        print(f"| {system} | {lists} | {how} | {statistics.median(total):.2f} | {min(total):.2f}–{max(total):.2f} "
              f"| {statistics.median(publish):.2f} | {written} | {'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
