"""The strongest peers beside our rule sets on the Belgian history: Whole History Rating
(the `whr` package), OpenSkill and the `glicko2` package, each game predicted only from
the games before its window, scored by `ratings evaluate` beside the performance Elo,
FIDE and Glicko-2 series (issue 53, item 4). Needs the `peers` extra:
pip install -e '.[peers]'.

    python bench/peers.py [--belgium DIR] [--work DIR] [--since 2010-01-01 --until 2022-12-31]
                          [--split 2018-01-01] [--fresh]

1. The history's games up to --until are rated by each rule set from an empty warehouse
   (`ratings run --system X --no-reports`, a child process each: its wall time and peak
   memory), and the three series put in one warehouse to score (kept in --work and
   reused with the times measured, unless --fresh).
2. The windows to forecast are the performance series' list windows that meet
   [--since, --until]; each peer, in a child process of its own (bench/peer_forecasts.py,
   its time and peak memory), writes --work/forecasts/<peer>.parquet (game_id,
   probability): for each window it takes in every game before window_start, predicts
   the window's games, then goes on (no game is predicted from its own window).
3. `ratings evaluate` scores the three series and the forecasts files on the games every
   source forecasts, from --since to the day before --split and from --split to --until,
   and one table is printed: each source's log-loss by its own forecast and by the
   logistic yardstick (a rating's 1 / (1 + 10^(-D/400)); none for a forecasts file),
   Brier (own forecast), games, time and peak memory.

A part of the history in about a minute (three windows of 1990):

    python bench/peers.py --since 1990-01-01 --until 1990-12-31 --work /tmp/peers-1990
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from belgium_inputs import write_belgium_inputs  # noqa: E402
from run import measured  # noqa: E402

SYSTEMS = ("performance", "fide", "glicko2")
# A forecasts file is scored under its file's stem: the package's Glicko-2 is named
# apart from our series `glicko2`.
PEERS = {"whr": "whr", "openskill": "openskill", "glicko2-package": "glicko2"}
OPENSKILL_PREDICT_WIN = "openskill-predict-win"
RATINGS = Path(sys.executable).parent / "ratings"


def history_inputs(src: Path, work: Path, until: dt.date) -> dict[str, Path]:
    """The pipeline's input files of the Belgian history, its games cut at `until`."""
    files = write_belgium_inputs(src, work / "inputs")
    cut = work / "inputs" / f"games-to-{until}.parquet"
    duckdb.execute(f"""copy (select * from read_parquet('{files["games"]}') where date <= date '{until}'
                             order by game_id) to '{cut}' (format parquet)""")
    return {**files, "games": cut}


def rated_warehouse(files: dict[str, Path], work: Path, fresh: bool) -> tuple[Path, dict[str, tuple[float, float]]]:
    """One warehouse of the three series, and each rule set's (seconds, peak MB) rating the
    history alone from an empty warehouse; kept in `work` with the times measured."""
    games = files["games"].stem
    warehouse, timings = work / f"rated-{games}.duckdb", work / f"rated-{games}.json"
    if warehouse.exists() and timings.exists() and not fresh:
        return warehouse, {system: tuple(cost) for system, cost in json.loads(timings.read_text()).items()}
    runs = work / "runs"
    shutil.rmtree(runs, ignore_errors=True)
    runs.mkdir(parents=True)
    costs = {}
    for system in SYSTEMS:
        seconds, peak, _ = measured([str(RATINGS), "run", "--system", system, "--players", str(files["players"]),
                                     "--ratings", str(files["ratings"]), "--games", str(files["games"]),
                                     "--warehouse", str(runs / f"{system}.duckdb"),
                                     "--out", str(runs / f"{system}-out"), "--no-reports"])
        costs[system] = (round(seconds, 1), round(peak))
        print(f"  ratings run --system {system}: {seconds:.1f} s, {peak:.0f} MB", file=sys.stderr)
    warehouse.unlink(missing_ok=True)
    shutil.copyfile(runs / f"{SYSTEMS[0]}.duckdb", warehouse)
    for system in SYSTEMS[1:]:
        subprocess.run([RATINGS, "run", "--system", system, "--warehouse", warehouse,
                        "--out", work / f"rated-{games}-out", "--no-reports"], check=True, stdout=subprocess.DEVNULL)
    timings.write_text(json.dumps(costs))
    shutil.rmtree(runs)  # the timed runs' warehouses and lists: gigabytes, read by nothing after
    return warehouse, costs


def forecast_windows(warehouse: Path, since: dt.date, until: dt.date, out: Path) -> list[list[str]]:
    """The performance series' windows that meet [since, until], written to `out`."""
    con = duckdb.connect(str(warehouse), read_only=True)
    query = f"""select window_start, window_end from lists where series = 'performance'
                and window_end >= date '{since}' and window_start <= date '{until}' order by window_start"""
    con.execute(f"copy ({query}) to '{out}' (format parquet)")
    return [[str(start), str(end)] for start, end in con.execute(query).fetchall()]


def glicko2_period_months(warehouse: Path) -> int:
    """Our Glicko-2 rule set's rating period, as its series was rated."""
    con = duckdb.connect(str(warehouse), read_only=True)
    return int(con.execute("""select any_value(parameters->>'period_months') from lists
                              where series = 'glicko2'""").fetchone()[0])


def peer_forecasts(peer: str, games: Path, windows_file: Path, windows: list, period_months: int,
                   work: Path, fresh: bool) -> tuple[Path, tuple[float, float]]:
    """The peer's forecasts file and its child's (seconds, peak MB); kept in `work` for the
    same games and windows."""
    folder = work / "forecasts"
    folder.mkdir(parents=True, exist_ok=True)
    out, note = folder / f"{peer}.parquet", folder / f"{peer}.json"
    asked = {"games": str(games), "windows": windows, "period_months": period_months}
    if out.exists() and note.exists() and not fresh:
        kept = json.loads(note.read_text())
        if kept["asked"] == asked:
            return out, tuple(kept["cost"])
    seconds, peak, said = measured([sys.executable, str(HERE / "peer_forecasts.py"), PEERS[peer], str(games),
                                    str(windows_file), str(out), "--period-months", str(period_months)])
    print(f"  {peer}: {seconds:.1f} s, {peak:.0f} MB  {said.strip()}", file=sys.stderr)
    cost = (round(seconds, 1), round(peak))
    note.write_text(json.dumps({"asked": asked, "cost": cost, "said": json.loads(said.splitlines()[-1])}))
    return out, cost


def scores(warehouse: Path, forecasts: list[Path], since: dt.date, until: dt.date) -> dict[str, dict]:
    """`ratings evaluate`'s whole-history row of each source over [since, until]."""
    command = [RATINGS, "evaluate", "--warehouse", warehouse, "--since", str(since), "--until", str(until),
               "--format", "csv"]
    for system in SYSTEMS:
        command += ["--system", system]
    for path in forecasts:
        command += ["--forecasts", path]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench/peers.py: ratings evaluate failed ({done.returncode}):\n{done.stderr.strip()}")
    return {row["source"]: row for row in csv.DictReader(io.StringIO(done.stdout)) if not row["list_id"]}


def figure(row: dict, column: str, places: int = 4) -> str:
    value = row.get(column) or ""
    return f"{float(value):.{places}f}" if value else "—"


def table(periods: list[tuple[dt.date, dt.date]], scored: list[dict[str, dict]],
          costs: dict[str, tuple[float, float]]) -> str:
    """One Markdown table: a row a source, each period's figures, then time and memory."""
    header = ["source"]
    for first, last in periods:
        span = f"{first.year}–{last.year}" if first.year != last.year else f"{first.year}"
        header += [f"{span} log-loss", "yardstick", "Brier", "games"]
    header += ["time (s)", "peak memory (MB)"]
    lines = ["| " + " | ".join(header) + " |", "|---" + "|---:" * (len(header) - 1) + "|"]
    for source in [*SYSTEMS, *PEERS, OPENSKILL_PREDICT_WIN]:
        cells = [source]
        for rows in scored:
            row = rows.get(source, {})
            cells += [figure(row, "own_log_loss"), figure(row, "log_loss") if source in SYSTEMS else "—",
                      figure(row, "own_brier"), f"{int(row['games']):,}" if row.get("games") else "—"]
        seconds, peak = costs.get(source, costs["openskill"])
        cells += [f"{seconds:.1f}", f"{peak:,.0f}"] if source in costs else ["(openskill's)", "(openskill's)"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def scoring_periods(since: dt.date, until: dt.date, split: dt.date) -> list[tuple[dt.date, dt.date]]:
    periods = [(since, min(until, split - dt.timedelta(days=1))), (max(since, split), until)]
    return [(first, last) for first, last in periods if first <= last]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    repository_data = HERE.parent / "data" / "belgium"
    parser.add_argument("--belgium", type=Path, default=repository_data,
                        help=f"the Belgian history's folder (default: {repository_data})")
    parser.add_argument("--work", type=Path, default=Path("/tmp/peers-bench"), help="inputs, warehouses, forecasts")
    parser.add_argument("--since", type=dt.date.fromisoformat, default=dt.date(2010, 1, 1),
                        help="the first day of the games scored")
    parser.add_argument("--until", type=dt.date.fromisoformat, default=dt.date(2022, 12, 31),
                        help="the last day of the games rated and scored")
    parser.add_argument("--split", type=dt.date.fromisoformat, default=dt.date(2018, 1, 1),
                        help="the first day of the second period scored")
    parser.add_argument("--fresh", action="store_true", help="rate and forecast again, keeping nothing")
    args = parser.parse_args()
    if not (args.belgium / "games.parquet").exists():
        sys.exit(f"bench/peers.py: no games.parquet in {args.belgium}: give the Belgian history's folder with --belgium")
    args.work.mkdir(parents=True, exist_ok=True)
    files = history_inputs(args.belgium.resolve(), args.work, args.until)
    warehouse, costs = rated_warehouse(files, args.work, args.fresh)
    windows_file = args.work / f"windows-{args.since}-{args.until}.parquet"
    windows = forecast_windows(warehouse, args.since, args.until, windows_file)
    if not windows:
        first, last = duckdb.sql(f"select min(date), max(date) from read_parquet('{files['games']}')").fetchall()[0]
        sys.exit(f"bench/peers.py: no list of the performance series has a window between {args.since} and "
                 f"{args.until}: the games rated run from {first} to {last}")
    period_months = glicko2_period_months(warehouse)
    forecasts = []
    for peer in PEERS:
        path, costs[peer] = peer_forecasts(peer, files["games"], windows_file, windows, period_months,
                                           args.work, args.fresh)
        forecasts.append(path)
    # The package's own predict_win, written by the OpenSkill child beside the model's probability.
    forecasts.append(forecasts[1].with_name(f"{OPENSKILL_PREDICT_WIN}.parquet"))
    periods = scoring_periods(args.since, args.until, args.split)
    scored = [scores(warehouse, forecasts, first, last) for first, last in periods]
    print(f"The Belgian history, {len(windows)} windows from {windows[0][0]} to {windows[-1][1]}, each game "
          f"predicted from the games before its window; scored by `ratings evaluate` on the games every source "
          f"forecasts (log-loss and Brier of its own forecast; yardstick: the logistic of a rating).")
    print(table(periods, scored, costs))


if __name__ == "__main__":
    main()
