"""Benchmark: a Go federation's site (issue 52): `ratings site` in four languages on a
warehouse of the repository's real Go files (tests/fixtures/go/: three World Amateur
Championships, the EGC 2011, French and Turkish tournaments, 1979 ... 2024), under
each Go rule set: the whole build, a re-run with nothing changed, the site's size.

    python bench/go_site.py                 # both Go rule sets, 3 builds each
    python bench/go_site.py --repeat 5 --system go-belgium

Prints one table; measured, never asserted.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
GO = HERE.parent / "tests" / "fixtures" / "go"
RATINGS = str(Path(sys.executable).parent / "ratings")
FILES = {"go-belgium": ("egd_wagc_1979.txt", "egd_wagc_1996.txt", "egd_wagc_2021.txt", "opengotha_export_2017.h9",
                        "opengotha_juvisy_2019.h9", "opengotha_simpleswiss_excerpt.xml",
                        "pairgoth_bosp2024_excerpt.tour", "opengotha_egc2011_doctype.xml"),
         "go-ffg1984": ("opengotha_juvisy_2019.tou", "opengotha_export_2017.h9")}


def ratings(folder: Path, *args, codes=(0,)) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([RATINGS, *map(str, args)], cwd=folder, capture_output=True, text=True)
    if done.returncode not in codes:
        sys.exit(f"ratings {' '.join(map(str, args))} failed:\n{done.stdout}{done.stderr}")
    return time.perf_counter() - start, done.stdout


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--system", choices=sorted(FILES), action="append")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    print("| rule set | events | players | games | pages (4 languages) | MB | build s (median of "
          f"{options.repeat}) | re-run, nothing changed s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for system in options.system or sorted(FILES):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            for name in FILES[system]:
                shutil.copyfile(GO / name, folder / name)
            games = [a for name in FILES[system] for a in ("--games", name)]
            # exit status 3: the 2021 file's double loss by default is rejected (not counted)
            ratings(folder, "run", "--system", system, *games, "--register-new", "--warehouse", "w.duckdb",
                    "--out", "out", "--no-reports", codes=(0, 3))
            builds, said = [], ""
            for _ in range(options.repeat):
                shutil.rmtree(folder / "site", ignore_errors=True)
                took, said = ratings(folder, "site", "--out", "site", "--warehouse", "w.duckdb")
                builds.append(took)
            again, _ = ratings(folder, "site", "--out", "site", "--warehouse", "w.duckdb")
            counts = subprocess.run([RATINGS, "query", "--warehouse", "w.duckdb", "--format", "csv",
                                     "select (select count(*) from lists), (select count(*) from players), "
                                     "(select count(*) from go_games)"], cwd=folder, capture_output=True,
                                    text=True).stdout.strip().splitlines()[-1].split(",")
            pages = said.split(" pages")[0].rsplit(", ", 1)[-1]
            print(f"| {system} | {counts[0]} | {counts[1]} | {counts[2]} | {pages} | "
                  f"{size(folder / 'site') / 1e6:.1f} | {statistics.median(builds):.2f} | {again:.2f} |")


if __name__ == "__main__":
    main()
