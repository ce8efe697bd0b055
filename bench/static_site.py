"""Benchmark: `ratings site` on a rated warehouse (by default the Belgian history,
rated here once), in four languages: its size and time, the re-run after one late
result (what it rewrites and how long it takes), and what a visitor's browser loads
for a ranking's first page and for a player page (raw and gzip, as a web host sends
them).

    python bench/static_site.py                                   # the Belgian history, rated into a temp folder
    python bench/static_site.py --warehouse W.duckdb --system performance
    python bench/static_site.py --warehouse W.duckdb --lang en --repeat 3
    python bench/static_site.py --warehouse W.duckdb --memory      # the site written to /dev/shm (no disk)

Prints one table. The targets (issue 40) are beside the figures; they are measured,
never asserted. A whole build is into an empty folder with nothing kept beside it; the
re-runs take what the run before kept (.site.site-cache.duckdb, beside the site).
"""
from __future__ import annotations

import argparse
import gzip
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from belgium_inputs import write_belgium_inputs  # noqa: E402
from late_result import late_game  # noqa: E402  (the history's last game again)

RATINGS = str(Path(sys.executable).parent / "ratings")


def ratings(*args) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([RATINGS, *map(str, args)], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"ratings {' '.join(map(str, args))} failed:\n{done.stdout}{done.stderr}")
    return time.perf_counter() - start, done.stdout


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def weight(site: Path, files: list[Path]) -> tuple[int, int]:
    """Bytes a browser loads for a page and what it asks for: raw and gzip (level 6)."""
    raw = [(site / f).read_bytes() for f in files]
    return sum(map(len, raw)), sum(len(gzip.compress(b, 6)) for b in raw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warehouse", type=Path, help="a rated warehouse (default: the Belgian history, rated here)")
    parser.add_argument("--belgium", type=Path, default=HERE.parent / "data" / "belgium",
                        help="the Belgian history's folder (without --warehouse)")
    parser.add_argument("--system", default="performance")
    parser.add_argument("--lang", default="en,fr,nl,de")
    parser.add_argument("--repeat", type=int, default=1, help="whole builds timed (the median is shown)")
    parser.add_argument("--memory", action="store_true",
                        help="write the site to /dev/shm: the pages' own cost, without the disk's")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-site-"))
    site = (Path(tempfile.mkdtemp(prefix="bench-site-", dir="/dev/shm")) if args.memory else work) / "site"
    try:
        if args.warehouse is None:
            inputs = write_belgium_inputs(args.belgium, work / "belgium")
            warehouse = work / "w.duckdb"
            ratings("run", "--players", inputs["players"], "--ratings", inputs["ratings"], "--games", inputs["games"],
                    "--warehouse", warehouse, "--out", work / "out", "--no-reports")
        else:
            warehouse = work / "w.duckdb"
            shutil.copy(args.warehouse, warehouse)
        times = []
        for _ in range(args.repeat):
            # a whole build: into an empty folder, nothing kept beside it (.site.site-cache.duckdb)
            shutil.rmtree(site, ignore_errors=True)
            for kept in site.parent.glob(f".{site.name}.site-cache.duckdb*"):
                kept.unlink()
            seconds, printed = ratings("site", "--out", site, "--lang", args.lang, "--system", args.system,
                                       "--warehouse", warehouse)
            times.append(seconds)
        pages = int(re.search(r"([\d,]+) pages", printed).group(1).replace(",", ""))
        total = size(site)
        same, printed_same = ratings("site", "--out", site, "--lang", args.lang, "--system", args.system,
                                     "--warehouse", warehouse)
        ratings("run", "--games", late_game(warehouse, work / "late.csv"), "--warehouse", warehouse,
                "--out", work / "out", "--no-reports", "--system", args.system)
        late, printed_late = ratings("site", "--out", site, "--lang", args.lang, "--system", args.system,
                                     "--warehouse", warehouse)
        changed = re.search(r"([\d,]+) files changed, ([\d,]+) unchanged", printed_late).group(0)
        lang = args.lang.split(",")[0]
        with duckdb.connect(str(warehouse), read_only=True) as con:
            latest, player = con.execute(
                """select list_id, arg_max(player_id, games) from rating_history
                   where series = ? and list_id = (select max(list_id) from rating_history where series = ?)
                   group by list_id""", [args.system, args.system]).fetchall()[0]
        common = [Path("site.css"), Path("site.js"), Path(lang) / "labels.js"]
        ranking = weight(site, [Path(lang) / "lists" / f"{latest}.html", *common])
        player_page = weight(site, [Path(lang) / "players" / f"{player}.html", *common,
                                    Path("api/v1/players") / f"{player}.json"])
        parts = {name: size(site / name) for name in ("api", "downloads")}
        parts["pages"] = total - sum(parts.values())
        rows = [
            ("site, whole build", f"{statistics.median(times):.1f} s", "≤ 20 s", ""),
            ("site, size", f"{total / 1e6:.0f} MB", "≤ 250 MB",
             f"{pages:,} pages; pages {parts['pages'] / 1e6:.0f} MB, api {parts['api'] / 1e6:.0f} MB, "
             f"downloads {parts['downloads'] / 1e6:.1f} MB"),
            ("re-run, nothing new", f"{same:.1f} s", "", re.search(r"[\d,]+ files changed", printed_same).group(0)),
            ("re-run after one late result", f"{late:.1f} s", "≤ 5 s", changed),
            (f"ranking {latest}, first load", f"{ranking[0] / 1e3:.0f} kB ({ranking[1] / 1e3:.0f} kB gzip)",
             "≤ 150 kB", "HTML, CSS, script, labels"),
            (f"player {player}, first load", f"{player_page[0] / 1e3:.0f} kB ({player_page[1] / 1e3:.0f} kB gzip)",
             "≤ 60 kB", "HTML, CSS, script, labels, the player's JSON"),
        ]
        where = "in memory (/dev/shm)" if args.memory else "on disk"
        print(f"| {args.system}, {args.lang}, site {where} | measured | target | detail |")
        print("|---|---:|---:|---|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if args.memory:
            shutil.rmtree(site.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
