"""An independent check of `ratings run --system fide`: a small plain-Python FIDE
computation written from the rules (fide-elo.md: X1, X1a, X2, X3, the 400-point rule
with X4, table 8.1.2, X5 and K × n ≤ 700, X7), sharing no code with the pipeline (it
imports nothing from `pipeline`; table 8.1.2 is read as a data file), compared list
by list with what the pipeline publishes on a small hand-built season.

The season has rated players only (no newcomer's pool, no 1400 floor, no match with
an unrated player: those are tests/test_fide_rules.py's and tests/test_fide_events.py's),
fourteen monthly lists from October 2025 to November 2026, and the edges the rulings
name: an event that starts before 1 October 2025 and one that starts on it (X4), events
ending on a closing date and the day after (X1), an event that starts on a list's date
(X1a, X2), a league rated months after it started (X2), two events on one list with
18 games (X3, K × n ≤ 700), a junior turning 19 and a player completing 30 games (X5),
and last games exactly 12 months and 12 months and a day before a list (X7). It runs
twice: with FIDE's monthly calendar, and with a calendar file of the same windows,
whose lists X1a dates 3 days after their windows' ends (the same dates).
"""
from __future__ import annotations

import csv
import datetime as dt
import math
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.conftest import PROJECT_DIR, write_rows

# Table 8.1.2 as data: the file the rule set ships (the same rows as the rules' copy).
TABLE = PROJECT_DIR / "pipeline" / "systems" / "fide" / "fide-8.1.2-expected-score.csv"
CAP, EXEMPT_FROM, EXEMPT_SINCE = 400, 2650, dt.date(2025, 10, 1)  # the 400-point rule and X4
CLOSING = 3  # X1: a list closes 3 days before its date; X1a: it is dated 3 days after its window's end


# ---------------------------------------------------------------- the season

PLAYERS = [  # id, name, birth year, rating, rated games to date, highest published rating
    (1, "Alpha", 1990, 2700, 500, 2700),  # 2650+: X4
    (2, "Bravo", 1980, 2150, 200, 2150),  # last game 30 September 2025 (X7)
    (3, "Charlie", 1985, 2100, 200, 2100),  # last game 1 October 2025 (X7)
    (4, "Delta", 1980, 2050, 100, 2050),
    (5, "Echo", 1995, 1900, 25, 1900),  # K 40 until 30 games (X5); 18 games on one list (K × n)
    (6, "Foxtrot", 2007, 2000, 100, 2000),  # a junior in 2025 (18), not in 2026 (19): X5
    (7, "Golf", 1975, 2350, 300, 2410),  # once 2410, fallen back: K 10 (X5)
    (8, "Hotel", 1970, 1950, 100, 1950),
]

EVENTS = {  # name: [(date, white, black, result)]
    # 20–21 September 2025: the October list (window 30 August – 28 September), the first.
    "September weekend": [("2025-09-20", 4, 7, "1-0"), ("2025-09-20", 8, 4, "1/2-1/2"),
                          ("2025-09-21", 7, 8, "1/2-1/2")],
    # Starts 28 September 2025, before X4's date: everyone capped. Ends 30 September: rated on
    # the list of 1 November (the October list closed on 28 September), from the initial ratings.
    "Autumn GM": [("2025-09-28", 1, 4, "1-0"), ("2025-09-29", 6, 4, "1-0"), ("2025-09-29", 2, 4, "1/2-1/2"),
                  ("2025-09-30", 1, 2, "1-0")],
    # On 1 October 2025: the real difference for a 2650+ player (X4); the list of 1 October
    # (which rated Delta's "September weekend") is in force (X1a, X2).
    "October open": [("2025-10-01", 1, 3, "1-0"), ("2025-10-01", 3, 4, "1/2-1/2"), ("2025-10-01", 6, 1, "0-1")],
    # 20–22 November: the December list (window 30 October – 28 November).
    "November weekend": [("2025-11-20", 4, 5, "1/2-1/2"), ("2025-11-21", 5, 8, "1-0"), ("2025-11-22", 8, 4, "0-1")],
    # 5 November – 20 December: rated on the January list, from the November list (X2),
    # although the December list changed 4, 5 and 8 meanwhile. Echo plays 10 games.
    "Club league": [("2025-11-05", 5, 4, "1-0"), ("2025-11-05", 6, 8, "1/2-1/2"),
                    ("2025-11-12", 6, 5, "0-1"), ("2025-11-12", 4, 8, "1-0"),
                    ("2025-11-19", 5, 8, "1/2-1/2"), ("2025-11-19", 4, 6, "0-1"),
                    ("2025-11-26", 4, 5, "1/2-1/2"), ("2025-11-26", 8, 6, "1-0"),
                    ("2025-12-03", 5, 6, "1-0"), ("2025-12-03", 8, 4, "1/2-1/2"),
                    ("2025-12-10", 8, 5, "0-1"), ("2025-12-10", 6, 4, "1/2-1/2"),
                    ("2025-12-13", 5, 4, "0-1"),
                    ("2025-12-17", 6, 5, "1/2-1/2"), ("2025-12-17", 4, 8, "1-0"),
                    ("2025-12-19", 5, 8, "1-0"),
                    ("2025-12-20", 4, 5, "1/2-1/2"), ("2025-12-20", 6, 8, "0-1")],
    # 11–14 December, from the December list; also on the January list: Echo's 8 more games.
    "December open": [("2025-12-11", 5, 7, "0-1"), ("2025-12-11", 8, 5, "1/2-1/2"),
                      ("2025-12-12", 7, 5, "1/2-1/2"), ("2025-12-12", 5, 8, "1-0"),
                      ("2025-12-13", 5, 7, "0-1"), ("2025-12-13", 8, 5, "0-1"),
                      ("2025-12-14", 7, 5, "1-0"), ("2025-12-14", 5, 8, "1/2-1/2"), ("2025-12-14", 7, 8, "1-0")],
    # Ends 29 January 2026, the February list's closing date: on the February list (X1).
    "Winter weekend": [("2026-01-27", 5, 7, "1/2-1/2"), ("2026-01-28", 7, 8, "1-0"), ("2026-01-29", 8, 5, "1/2-1/2")],
    # Ends 30 January, a day after it: on the March list (X1).
    "Late January": [("2026-01-28", 4, 6, "0-1"), ("2026-01-29", 6, 7, "1/2-1/2"), ("2026-01-30", 7, 4, "1/2-1/2")],
    # Starts 1 March 2026, the March list's date: that list (which rated "Late January") is in force (X1a, X2).
    "March open": [("2026-03-01", 6, 7, "1-0"), ("2026-03-01", 4, 8, "1/2-1/2"), ("2026-03-02", 7, 4, "1-0"),
                   ("2026-03-02", 8, 6, "0-1"), ("2026-03-03", 6, 4, "1/2-1/2"), ("2026-03-03", 7, 8, "1/2-1/2")],
    "Autumn 2026": [("2026-09-01", 4, 5, "1-0"), ("2026-09-03", 5, 8, "1/2-1/2"), ("2026-09-05", 8, 4, "0-1")],
    "October 2026": [("2026-10-10", 4, 7, "1/2-1/2"), ("2026-10-10", 7, 8, "1-0"), ("2026-10-10", 8, 4, "1/2-1/2")],
}

SCORE = {"1-0": Fraction(1), "0-1": Fraction(0), "1/2-1/2": Fraction(1, 2)}


def season_files(folder: Path) -> dict[str, Path]:
    players = write_rows(folder / "players.csv", ["player_id", "name", "birth_year"],
                         [[p, name, born] for p, name, born, *_ in PLAYERS])
    ratings = write_rows(folder / "ratings.csv", ["player_id", "rating", "games_total", "peak_rating"],
                         [[p, rating, total, peak] for p, _, _, rating, total, peak in PLAYERS])
    games = write_rows(folder / "games.csv", ["date", "white_id", "black_id", "result", "event"],
                       [[d, w, b, r, name] for name, games in EVENTS.items() for d, w, b, r in games])
    return {"players": players, "ratings": ratings, "games": games}


# ---------------------------------------------------------------- the rules, in plain Python

def read_table() -> list[tuple[int, float, Fraction, Fraction]]:
    """Table 8.1.2: (difference from, to, expected score of the higher rated, of the lower)."""
    with open(TABLE, newline="") as fh:
        return [(int(r["diff_from"]), math.inf if r["diff_to"] == "" else int(r["diff_to"]),
                 Fraction(r["expected_higher"]), Fraction(r["expected_lower"])) for r in csv.DictReader(fh)]


def expected(d: int, table) -> Fraction:
    """E(D) read in table 8.1.2 at |D| (whole ratings: a whole difference), the higher
    rated player's column for D ≥ 0."""
    for low, high, higher, lower in table:
        if low <= abs(d) <= high:
            return higher if d >= 0 else lower
    raise AssertionError(d)


def difference(own: int, opponent: int, started: dt.date) -> int:
    """The 400-point rule; X4: from 1 October 2025 (the event's first day) a player rated
    2650 or more uses the real difference."""
    d = own - opponent
    if started >= EXEMPT_SINCE and own >= EXEMPT_FROM:
        return d
    return max(-CAP, min(CAP, d))


def k_of(rating: int, total: int, peak: int, born: int, year: int) -> int:
    """X5, the first that applies: 10 once the published rating has ever reached 2400;
    40 before 30 rated games; 40 for a junior (until the end of the year of the 18th
    birthday) never rated 2300; else 20."""
    if peak >= 2400:
        return 10
    if total < 30:
        return 40
    if year - born <= 18 and max(peak, rating) < 2300:
        return 40
    return 20


def half_away(x: Fraction) -> int:
    """A whole number, 0.5 away from zero (exact: the sums are fractions)."""
    return int(math.copysign(math.floor(abs(x) + Fraction(1, 2)), x))


def monthly_lists(first: dt.date, last: dt.date) -> list[tuple[str, dt.date, dt.date]]:
    """FIDE's monthly lists (list id, date, closing date) from the one whose window holds
    `first` to the one whose window holds `last`: dated the 1st, closing 3 days before (X1)."""
    lists, year, month = [], first.year, first.month
    while True:
        date = dt.date(year, month, 1)
        closing = date - dt.timedelta(days=CLOSING)
        if closing >= first:
            lists.append((f"{year}-{month:02d}", date, closing))
            if closing >= last:
                return lists
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


def fide_lists(lists: list[tuple[str, dt.date, dt.date]]) -> dict[str, dict]:
    """Every list of the season: list id -> {"rows": player -> (rating, previous, games,
    status), "state": player -> (rating, games total, peak, K next, inactive or None),
    "events": the events it rates, "starts": each of them -> the list in force at its start}."""
    table = read_table()
    born = {p: b for p, _, b, *_ in PLAYERS}
    initial = {p: (rating, total, peak) for p, _, _, rating, total, peak in PLAYERS}
    spans = {name: (min(dt.date.fromisoformat(g[0]) for g in games), max(dt.date.fromisoformat(g[0]) for g in games))
             for name, games in EVENTS.items()}
    # X1: the first list whose closing date is on or after the event's last day.
    rated_on = {name: next(list_id for list_id, _, closing in lists if closing >= last)
                for name, (_, last) in spans.items()}
    # X2: the list published on or before the event's first day (none in the season: the initial ratings).
    start_of = {name: max((list_id for list_id, date, _ in lists if date <= first), default=None)
                for name, (first, _) in spans.items()}
    state = dict(initial)  # player -> (rating, rated games, peak): after the list before
    kept = {None: dict(initial)}  # each list's state, for the events that start from it (X2)
    last_game: dict[int, dt.date] = {}
    out = {}
    for list_id, date, _ in lists:
        events = [name for name in EVENTS if rated_on[name] == list_id]
        n = defaultdict(int)  # X3: K × n ≤ 700 counts every game rated on the list
        for name in events:
            for day, w, b, _ in EVENTS[name]:
                n[w] += 1
                n[b] += 1
                last_game[w] = last_game[b] = max(last_game.get(w, dt.date.min), dt.date.fromisoformat(day))
        gain = defaultdict(Fraction)
        for name in events:
            start, first = kept[start_of[name]], spans[name][0]
            k = {p: min(k_of(*start[p], born[p], first.year), 700 // n[p]) for p in n}  # one K an event (X2)
            for _, w, b, result in EVENTS[name]:
                for p, q, s in ((w, b, SCORE[result]), (b, w, 1 - SCORE[result])):
                    gain[p] += k[p] * (s - expected(difference(start[p][0], start[q][0], first), table))
        previous = state
        state = {}
        for p, (rating, total, peak) in previous.items():
            after = rating + half_away(gain[p])  # X3: the list's change, rounded once
            assert after >= 1400  # the season stays above the 1400 floor (not checked here)
            state[p] = (after, total + n[p], max(peak, after))
        kept[list_id] = state
        # X7: active with a rated game on or after the list's date minus 12 months.
        since = date.replace(year=date.year - 1)
        out[list_id] = {
            "rows": {p: (state[p][0], previous[p][0], n[p], "played" if n[p] else "did not play") for p in state},
            "state": {p: (*state[p], k_of(*state[p], born[p], date.year),
                          None if p not in last_game else last_game[p] < since) for p in state},
            "events": events, "starts": {name: start_of[name] for name in events}}
    return out


def season_lists(calendar: bool) -> list[tuple[str, dt.date, dt.date]]:
    days = [dt.date.fromisoformat(g[0]) for games in EVENTS.values() for g in games]
    lists = monthly_lists(min(days), max(days))
    if calendar:  # X1a: a calendar file's list is dated 3 days after its window's end
        return [(list_id, closing + dt.timedelta(days=CLOSING), closing) for list_id, _, closing in lists]
    return lists


# ---------------------------------------------------------------- the computation alone, by hand

def test_the_independent_computation_gives_the_hand_computed_values():
    lists = fide_lists(season_lists(calendar=False))
    assert list(lists) == [f"2025-{m}" for m in ("10", "11", "12")] + [f"2026-{m:02d}" for m in range(1, 12)]
    # X1: the October list (closing 28 September) rates the September weekend, not
    # "Autumn GM", which ends on 30 September.
    assert lists["2025-10"]["events"] == ["September weekend"]
    assert lists["2025-11"]["events"] == ["Autumn GM", "October open"]
    assert "Winter weekend" in lists["2026-02"]["events"]  # ends 29 January, the closing date
    assert "Late January" in lists["2026-03"]["events"]  # ends 30 January, a day later
    # X2: the league from the November list; X1a: events starting on a list's date from that list.
    assert lists["2025-11"]["starts"] == {"Autumn GM": None, "October open": "2025-10"}
    assert lists["2026-01"]["starts"] == {"Club league": "2025-11", "December open": "2025-12"}
    assert lists["2026-04"]["starts"] == {"March open": "2026-03"}

    # Alpha (2700, K 10: peak ≥ 2400) on the November list, n = 4, all from the initial ratings:
    #   "Autumn GM" (started 28 September, before X4's date): beats 2050 (650 → 400, E 0.92)
    #   and 2150 (550 → 400, E 0.92): +0.08 + 0.08;
    #   "October open" (1 October: real differences): beats 2100 (600, E 0.98: row 560–619)
    #   and 2000 (700, E 0.99: row 620–735): +0.02 + 0.01.
    #   10 × 0.19 = 1.9 → +2 → 2702 (capped in both: 10 × 0.32 → +3; exempt in both: 10 × 0.07 → +1).
    assert lists["2025-11"]["rows"][1] == (2702, 2700, 4, "played")
    # Foxtrot (2000; 2025 − 2007 = 18: junior, never 2300, 100 games: K 40, X5 line 3):
    #   beats 2050 (D −50, E 0.43: +0.57), loses to Alpha (D −700 capped, E 0.08: −0.08)
    #   40 × 0.49 = 19.6 → +20 → 2020.
    assert lists["2025-11"]["rows"][6] == (2020, 2000, 2, "played")
    assert lists["2025-12"]["state"][6][3] == 40 and lists["2026-01"]["state"][6][3] == 20  # 19 in 2026
    # Echo: 25 rated games on the November and December lists (2 more on December's: 27),
    # so both January events give K 40 (X5 line 2); 10 + 8 = 18 games on the January list:
    # 40 × 18 = 720 > 700, K = ⌊700 / 18⌋ = 38 (X3 counts both events). Then 45 games: K 20.
    assert lists["2026-01"]["rows"][5][2] == 18
    assert lists["2025-12"]["state"][5][1] == 27 and lists["2026-01"]["state"][5][1:4:2] == (45, 20)
    # Golf: once 2410 (peak), rated 2350: K 10 whatever else (X5 line 1).
    assert lists["2025-12"]["state"][7][3] == 10
    # X7 on the list of 1 October 2026 (12 months: from 1 October 2025): Charlie's last game
    # is of 1 October 2025 (active), Bravo's of 30 September 2025 (inactive); on the list of
    # 1 November 2026 both are inactive. Delta played in September 2026: active.
    assert [lists["2026-10"]["state"][p][4] for p in (2, 3, 4)] == [True, False, False]
    assert [lists["2026-11"]["state"][p][4] for p in (2, 3, 4)] == [True, True, False]


def test_an_event_starting_on_a_lists_date_starts_from_that_list():
    lists = fide_lists(season_lists(calendar=False))
    rating = {list_id: {p: lists[list_id]["state"][p][0] for p in (4, 6, 7, 8)} for list_id in lists}
    # "Late January" (28–30 January: the March list, X1), from the January list in force on
    # 28 January (4: 2041, 6: 1935, 7: 2336; the February list changed only 7 and 8).
    # Foxtrot (K 20: 19 in 2026) beats 4, D = −106, E 0.36 (row 99–106): +0.64; draws 7,
    #   D = −401 → −400, E 0.08: +0.42; 20 × 1.06 = 21.2 → +21: 1935 → 1956.
    # Delta (K 20) loses to 6, E 0.64: −0.64; draws 7, D = −295, E 0.15: +0.35;
    #   20 × −0.29 = −5.8 → −6: 2041 → 2035.
    # Golf (K 10) draws 6 (D 401 → 400, E 0.92: −0.42) and 4 (D 295, E 0.85: −0.35);
    #   10 × −0.77 = −7.7 → −8: 2334 (February) → 2326.
    assert (rating["2026-01"], rating["2026-02"][7]) == ({4: 2041, 6: 1935, 7: 2336, 8: 1907}, 2334)
    assert rating["2026-03"] == {4: 2035, 6: 1956, 7: 2326, 8: 1911}
    # "March open" starts on 1 March, the March list's date: from the March list (X1a, X2).
    # Foxtrot beats 7 (D = 1956 − 2326 = −370, E 0.10: +0.90), beats 8 (D = 45, E 0.56:
    #   +0.44), draws 4 (D = −79, E 0.39: +0.11); 20 × 1.45 = 29: 1956 → 1985 (April list).
    # From the February list instead (a list dated a day late) it would be vs 7 D = −399
    #   (E 0.08: +0.92), vs 8 D = 24 (E 0.53: +0.47), vs 4 D = −106 (E 0.36: +0.14):
    #   20 × 1.53 = 30.6 → +31: 1987.
    assert lists["2026-04"]["rows"][6] == (1985, 1956, 3, "played")


# ---------------------------------------------------------------- the pipeline against it

def published(out: Path) -> tuple[dict, dict]:
    """OUT/lists/<id>.csv as player -> (rating, previous, games, status), and
    OUT/state/<id>.parquet as player -> (rating, games total, peak, K, inactive)."""
    rows, states = {}, {}
    for path in sorted((out / "lists").glob("????-??.csv")):
        with open(path, newline="", encoding="utf-8") as fh:
            rows[path.stem] = {int(r["player_id"]): (int(r["rating"]), int(r["previous_rating"]), int(r["games"]),
                                                     r["status"]) for r in csv.DictReader(fh)}
        table = pq.read_table(out / "state" / f"{path.stem}.parquet").to_pylist()
        states[path.stem] = {r["player_id"]: (r["rating"], r["games_total"], r["peak_rating"], r["k"], r["inactive"])
                             for r in table}
    return rows, states


@pytest.fixture(scope="module", params=["monthly calendar", "calendar file"])
def season(request, tmp_path_factory):
    """The season through `ratings run --system fide`, once a calendar: (independent lists, published)."""
    from tests.conftest import cli_runner

    folder = tmp_path_factory.mktemp("fide-season")
    files = season_files(folder)
    calendar = request.param == "calendar file"
    lists = season_lists(calendar)
    args = []
    if calendar:
        windows = [[list_id, (lists[i - 1][2] if i else closing - dt.timedelta(days=31)) + dt.timedelta(days=1),
                    closing] for i, (list_id, _, closing) in enumerate(lists)]
        args = ["--calendar", write_rows(folder / "calendar.csv", ["list_id", "window_start", "window_end"], windows)]
    cli_runner()("run", "--system", "fide", "--players", files["players"], "--ratings", files["ratings"],
                 "--games", files["games"], *args, "--warehouse", folder / "w.duckdb", "--out", folder / "out",
                 "--no-reports")
    return fide_lists(lists), published(folder / "out")


def test_the_pipeline_publishes_the_same_lists(season):
    expected_lists, (rows, _) = season
    assert list(rows) == list(expected_lists)
    for list_id, computed in expected_lists.items():
        differ = {p: (computed["rows"].get(p), rows[list_id].get(p))
                  for p in computed["rows"].keys() | rows[list_id].keys()
                  if computed["rows"].get(p) != rows[list_id].get(p)}
        assert not differ, (list_id, differ)  # player: (independent, pipeline)


def test_the_pipeline_keeps_the_same_states(season):
    # rating, games total, peak, the K of the events that start from the list (X5) and
    # the inactive flag (X7), where the flag is known: the players' last rated games are
    # in the season (the rules say nothing of the activity before it).
    expected_lists, (_, states) = season
    for list_id, computed in expected_lists.items():
        got = states[list_id]
        assert set(got) == set(computed["state"]), list_id
        differ = {p: (want, got[p]) for p, want in computed["state"].items()
                  if want[:4] != got[p][:4] or (want[4] is not None and want[4] != got[p][4])}
        assert not differ, (list_id, differ)  # player: (independent, pipeline)
