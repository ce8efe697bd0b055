"""A plain per-player Python implementation of the performance Elo: the independent
check of the pipeline's lists (tests/test_reference.py) and the benchmark's slow
baseline (bench/run.py).

Written from the rules (../shared/rules/performance-elo.md: seed 001, rulings
R1–R13), not from the pipeline: it imports nothing from `pipeline`, so a defect in
the pipeline's code cannot pass through it. The only thing it shares with the
pipeline is data, the D(P) table (the CSV shipped in the package, read by path).
Simple and obviously correct rather than fast: dicts, lists and loops over players
and games, no numpy and no DuckDB (pyarrow only reads Parquet input). Inputs are
assumed valid (the pipeline's validation is not repeated here).

    python bench/reference.py PLAYERS RATINGS GAMES [CALENDAR]
"""
from __future__ import annotations

import bisect
import csv
import datetime as dt
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

DP_TABLE = Path(__file__).resolve().parent.parent / "pipeline" / "systems" / "performance" / "performance-dp-table.csv"
GAP = 350.0            # compatibility range (seed II.2)
ENTRY = 8              # compatible games to enter the list; junior quota
SENIOR_QUOTA = 16      # senior quota
BRAKE = 16             # weight of Ei in the brake and the barycentre
FLOOR = 1000.0         # Pj is raised to 1000
BOUND = 470.0          # R5: D(P) bounded to ±470
JUNIOR_AGE = 20        # R2
START = 1500.0         # R7
TOLERANCE = 20.0       # R9: settled within 20 points
DECIMALS = 6           # R13: every threshold compared after rounding the gap to 6 decimals
MAX_ROUNDS = 25        # R9: at most 25 rounds with the range, after the first pass
SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "½-½": 0.5}  # forfeits (+/-, -/+, -/-) are absent: never rated


# ---------------------------------------------------------------- reading the inputs

def read_rows(path) -> list[dict]:
    """Rows of a CSV or Parquet file (format read from the content), column names lower-cased,
    blank cells as None."""
    path = Path(path)
    with open(path, "rb") as fh:
        magic = fh.read(4)
    if magic == b"PAR1":
        import pyarrow.parquet as pq
        table = pq.read_table(path)
        columns = {name.lower(): table.column(name).to_pylist() for name in table.column_names}
        n = table.num_rows
        return [{k: v[i] for k, v in columns.items()} for i in range(n)]
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    dialect = csv.Sniffer().sniff(text[:10000], delimiters=",;\t|")
    rows = []
    for r in csv.DictReader(text.splitlines(), dialect=dialect):
        rows.append({k.strip().lower(): (v.strip() if v is not None and v.strip() != "" else None)
                     for k, v in r.items()})
    return rows


def as_date(x) -> dt.date:
    return x if isinstance(x, dt.date) else dt.date.fromisoformat(str(x)[:10])


def as_float(x) -> float | None:
    return None if x is None or x == "" else float(x)


def read_dp_table() -> list[tuple[float, float]]:
    """The D(P) table; R5 keeps only the entries inside the ±470 bound (p = 0.05 … 0.95)."""
    with open(DP_TABLE, newline="") as fh:
        rows = [(float(r["p"]), float(r["dp"])) for r in csv.DictReader(fh)]
    return [(p, d) for p, d in rows if abs(d) <= BOUND]


TABLE = read_dp_table()
TABLE_P = [p for p, _ in TABLE]


# ---------------------------------------------------------------- the rules, one player at a time

def bonus(p: float) -> float:
    """D(P), R5: linear interpolation between whole percentages; bounded to ±470
    (P ≤ 0.05 → −470, P ≥ 0.95 → +470, so P = 0 and P = 1 are covered)."""
    if p <= TABLE_P[0]:
        return TABLE[0][1]
    if p >= TABLE_P[-1]:
        return TABLE[-1][1]
    j = bisect.bisect_right(TABLE_P, p) - 1  # TABLE_P[j] <= p < TABLE_P[j + 1]
    (p0, d0), (p1, d1) = TABLE[j], TABLE[j + 1]
    if p == p0:
        return d0
    return (d1 - d0) / (p1 - p0) * (p - p0) + d0


def compatible(score: float, own: float, opponent: float) -> bool:
    """Seed II.2: a draw always counts; a win if the opponent is less than 350 below,
    a loss if the opponent is less than 350 above. R13: the gap, from full-precision
    values, is rounded to 6 decimals before the test, so 12380/7 − 9930/7 is 350
    (not compatible) whichever way the float subtraction falls."""
    if score == 1.0:
        return round(own - opponent, DECIMALS) < GAP
    if score == 0.0:
        return round(opponent - own, DECIMALS) < GAP
    return True


def performance(sides: list[tuple[int, float]], value: dict[int, float], own: float | None):
    """(Nj, Pj) over one player's games; `value` holds each opponent's rating (R4);
    with `own` given only the games compatible with it count, else all games (R7 round 1).
    Pj = Ea + D(Sc/Nj), raised to 1000; None when no game counts.
    The sums use math.fsum, so they are exact and do not depend on the order of the games."""
    opponents, scores = [], []
    for opponent, score in sides:
        if own is None or compatible(score, own, value[opponent]):
            opponents.append(value[opponent])
            scores.append(score)
    nj = len(scores)
    if nj == 0:
        return 0, None
    ea = math.fsum(opponents) / nj
    p = math.fsum(scores) / nj
    return nj, max(ea + bonus(p), FLOOR)


def published(x: float) -> float:
    """R3: nearest ten, 5 going up, after rounding to 3 decimals."""
    return math.floor(round(x, 3) / 10 + 0.5) * 10


def anchored_players(games, rated: dict[int, float]) -> set[int]:
    """R11: players connected through the window's played games to a player rated on the
    previous list (breadth-first search from every rated player who played)."""
    neighbours = defaultdict(set)
    for white, black, _ in games:
        neighbours[white].add(black)
        neighbours[black].add(white)
    seen = {p for p in neighbours if p in rated}
    queue = list(seen)
    while queue:
        p = queue.pop()
        for q in neighbours[p]:
            if q not in seen:
                seen.add(q)
                queue.append(q)
    return seen


def estimate_unrated(sides, rated, archives, estimated) -> dict[int, float]:
    """R7–R10: the iterative estimation of the unrated players in `estimated`."""
    # R7: start from Pa (archives) or 1500; the first pass is without the compatibility
    # range, unrated opponents at their start value; its performance is the first estimate.
    start = {p: (archives[p][0] if p in archives else START) for p in estimated}
    value = {**rated, **start}
    estimate = {p: performance(sides[p], value, None)[1] for p in estimated}
    for _ in range(MAX_ROUNDS):  # R9: up to 25 rounds after the first pass
        value = {**rated, **estimate}  # R4: unrated opponents at their current estimate
        new, moving = {}, 0
        for p in estimated:  # R8: every performance from the previous round's estimates ...
            nj, pj = performance(sides[p], value, estimate[p])
            if nj == 0 or round(abs(pj - estimate[p]), DECIMALS) < TOLERANCE:  # R9 settled; R13 rounding
                new[p] = estimate[p]
            else:
                new[p] = (estimate[p] + pj) / 2
                moving += 1
        estimate = new  # ... then all updated at once (Jacobi)
        if moving == 0:  # R9: stop after the first round where everyone is settled
            break
    return estimate


def nominal_calendar(first_day: dt.date, last_day: dt.date) -> list[tuple[str, dt.date, dt.date]]:
    """R1's default windows covering first_day … last_day, in order: the January list
    rates 1 Sep – 31 Dec of the year before, May 1 Jan – 30 Apr, September 1 May – 31 Aug."""
    windows = []
    for year in range(first_day.year, last_day.year + 2):  # a January list rates the year before
        for list_id, start, end in ((f"{year}-01", dt.date(year - 1, 9, 1), dt.date(year - 1, 12, 31)),
                                    (f"{year}-05", dt.date(year, 1, 1), dt.date(year, 4, 30)),
                                    (f"{year}-09", dt.date(year, 5, 1), dt.date(year, 8, 31))):
            if end >= first_day and start <= last_day:
                windows.append((list_id, start, end))
    return sorted(windows, key=lambda w: w[1])


def season_end_year(list_id: str) -> int:
    """R2a: a list's season is the one ending in its list id's year (2026-09 → 2026,
    2027-01 → 2027), whatever its window (a calendar file may shift it by days)."""
    return int(list_id[:4])


def rate_list(games, rated, archives, birth_year, season_end):
    """One list from the previous one.

    games: the window's played games (white, black, white score);
    rated: player -> published rating on the previous list (or the initial ratings);
    archives: unrated player -> (Pa, Na).
    Returns the new rated dict, the new archives, and per player who played (played, Nj).
    """
    sides = defaultdict(list)  # player -> [(opponent, score)]
    for white, black, s in games:
        sides[white].append((black, s))
        sides[black].append((white, 1.0 - s))
    anchored = anchored_players(games, rated)
    estimated = sorted(p for p in sides if p not in rated and p in anchored)  # R11
    estimate = estimate_unrated(sides, rated, archives, estimated)
    value = {**rated, **estimate}  # R4: previous rating, or the final estimate

    new_rated, new_archives, card = {}, dict(archives), {}
    for p, ei in rated.items():
        if p not in sides:
            new_rated[p] = published(ei)  # did not play: keeps Ei (rounded, R3)
            continue
        nj, pj = performance(sides[p], value, ei)
        by = birth_year.get(p)
        junior = by is not None and season_end - by < JUNIOR_AGE  # R2 (season: R2a); no birth year = senior
        quota = ENTRY if junior else SENIOR_QUOTA
        if nj == 0:
            ej = ei  # no compatible game
        elif pj < ei:
            ej = (BRAKE * ei + nj * pj) / (BRAKE + nj)  # the brake
        elif nj >= quota:
            ej = pj  # quota met
        else:
            ej = (pj * nj + (BRAKE - nj) * ei) / BRAKE  # barycentre completed to 16
        new_rated[p] = published(ej)
        card[p] = (len(sides[p]), nj)
    for p in sides:
        if p in rated:
            continue
        if p not in estimate:  # R11: unanchored, nothing (earlier archives kept)
            card[p] = (len(sides[p]), 0)
            continue
        pj = estimate[p]  # R10: Pj is the final estimate, Nj the games compatible with it
        nj, _ = performance(sides[p], value, pj)
        card[p] = (len(sides[p]), nj)
        if nj == 0:
            continue  # no compatible game: archives unchanged
        pa, na = archives.get(p, (0.0, 0))
        if nj >= ENTRY:
            new_rated[p] = published(pj)  # first rating, the past forgotten
            new_archives.pop(p, None)
        elif nj + na >= ENTRY:
            new_rated[p] = published((pj * nj + pa * na) / (nj + na))  # first rating with archives
            new_archives.pop(p, None)
        else:
            new_archives[p] = ((pj * nj + pa * na) / (nj + na), nj + na)  # R6 archives (unrounded)
    return new_rated, new_archives, card


# ---------------------------------------------------------------- every list in order

def reference_lists(players_path, ratings_path, games_path, calendar_path=None,
                    states: dict | None = None) -> dict[str, list[dict]]:
    """Every published list, in calendar order: list_id -> rows (player_id, rating,
    previous_rating, change, games, status) sorted by rating descending, then player_id;
    `states`, when given, receives every player's state after each list: list_id ->
    player -> (rating, archived performance, archived games)."""
    birth_year = {int(r["player_id"]): (int(float(r["birth_year"])) if r.get("birth_year") is not None else None)
                  for r in read_rows(players_path)}
    rated, archives = {}, {}
    for r in read_rows(ratings_path):
        p, rating = int(r["player_id"]), as_float(r.get("rating"))
        if rating is not None:
            rated[p] = rating
        elif r.get("archive_games") is not None and int(float(r["archive_games"])) > 0:
            archives[p] = (float(r["archive_performance"]), int(float(r["archive_games"])))
    all_games = [(as_date(r["date"]), int(r["white_id"]), int(r["black_id"]), SCORES.get(r["result"]))
                 for r in read_rows(games_path)]

    # R1: the calendar is data; the nominal windows by default.
    if calendar_path is not None:
        windows = [(r["list_id"], as_date(r["window_start"]), as_date(r["window_end"]))
                   for r in read_rows(calendar_path)]
    else:
        dates = [g[0] for g in all_games]  # forfeits too: they are in their window, never rated
        windows = nominal_calendar(min(dates), max(dates))
    windows.sort(key=lambda w: w[1])
    starts = [w[1] for w in windows]

    # A game belongs to the list whose window holds its date (R1); forfeits are not rated.
    games_of = defaultdict(list)
    holding = set()
    for day, white, black, score in all_games:
        i = bisect.bisect_right(starts, day) - 1
        if i >= 0 and day <= windows[i][2]:
            holding.add(i)
            if score is not None:
                games_of[i].append((white, black, score))
    # Lists run from the first window holding a game to the last, each from the previous.
    lists = {}
    for i in range(min(holding), max(holding) + 1):
        list_id = windows[i][0]
        new_rated, archives, card = rate_list(games_of[i], rated, archives, birth_year, season_end_year(list_id))
        if states is not None:  # every player's state after the list: rating, or archives
            states[list_id] = {p: (r, None, None) for p, r in new_rated.items()} | \
                {p: (None, pa, na) for p, (pa, na) in archives.items()}
        rows = []
        for p, rating in new_rated.items():
            played, nj = card.get(p, (0, 0))
            previous = None if p not in rated else math.floor(rated[p] + 0.5)  # round(), half away from 0
            rows.append({
                "player_id": p, "rating": int(rating),
                "previous_rating": previous,
                "change": None if previous is None else int(rating) - previous,
                "games": nj,
                "status": "new" if previous is None else ("played" if played > 0 else "did not play"),
            })
        rows.sort(key=lambda r: (-r["rating"], r["player_id"]))
        lists[list_id] = rows
        rated = new_rated
    return lists


if __name__ == "__main__":
    t0 = time.perf_counter()
    result = reference_lists(*sys.argv[1:5])
    print(f"{len(result)} lists in {time.perf_counter() - t0:.1f} s")
