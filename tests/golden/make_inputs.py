"""Write the golden inputs (tests/golden/<system>/input/): run once, then committed.

    python tests/golden/make_inputs.py

The inputs are committed as files; this script only records how they were
made (a seeded random generator for the bulk of the results, hand-placed games
for the branches each golden case is there to exercise; see README.md). It
writes the inputs only, never the expected outputs (that is regenerate.py), and
changing it changes every golden: run it only when an input must change, then
regenerate and review both diffs.

Names follow the embedded sample's convention: a player is called
"Player <membership number>".
"""
from __future__ import annotations

import csv
import datetime as dt
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import pandas as pd  # noqa: E402

from pipeline.formats.trf import trf_text  # noqa: E402


def write(path: Path, header: list[str], rows: list[list]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(["" if v is None else v for v in r] for r in rows)


def blank(v):
    return "" if v is None else v


class Results:
    """Chess results drawn from the gap in true strength (logistic, with draws)."""

    def __init__(self, seed: int, strength: dict[int, float], force: dict[int, str] | None = None):
        self.rng = random.Random(seed)
        self.strength = strength
        self.force = force or {}  # player -> "win" or "loss": the outcome of every game of that player

    def game(self, white: int, black: int) -> str:
        for player, outcome in self.force.items():
            if player in (white, black):
                self.rng.random()  # the draw is made anyway: forcing one player moves nobody else's results
                return "1-0" if (player == white) == (outcome == "win") else "0-1"
        e = 1 / (1 + 10 ** (-(self.strength[white] + 30 - self.strength[black]) / 400))
        draw = 0.30 * (1 - abs(2 * e - 1))
        u = self.rng.random()
        if u < e - draw / 2:
            return "1-0"
        if u < e + draw / 2:
            return "1/2-1/2"
        return "0-1"


def round_robin(ids: list[int]) -> list[list[tuple[int, int]]]:
    """Berger tables: rounds of (white, black), every pair once."""
    ids = list(ids)
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = ids[i], ids[n - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        ids = [ids[0], ids[-1], *ids[1:-1]]
    return rounds


def swiss(ids: list[int], rounds: int, results: Results, skip: dict[int, set[int]] | None = None,
          avoid: tuple[tuple[int, int], ...] = ()) -> list[list[tuple[int, int, str]]]:
    """A simple Swiss: players ordered by points then strength, each score group's top
    half paired with its bottom half (no repeat pairings; odd players float down),
    colours alternated."""
    points = {p: 0.0 for p in ids}
    met: dict[int, set[int]] = {p: set() for p in ids}
    for a, b in avoid:  # players kept apart (as if they had met)
        met[a].add(b), met[b].add(a)
    last: dict[int, str] = {}
    out = []
    for r in range(1, rounds + 1):
        present = [p for p in ids if r not in (skip or {}).get(p, set())]
        order = sorted(present, key=lambda p: (-points[p], -results.strength[p], p))
        pairs, left = [], order[:]
        while len(left) > 1:
            group = [p for p in left if points[p] == points[left[0]]]
            if len(group) < 2:
                group = left[:2]
            a = left.pop(0)
            half = max(1, len(group) // 2)
            candidates = left[half - 1:] + left[:half - 1]
            b = next((x for x in candidates if x not in met[a]), candidates[0])
            left.remove(b)
            white, black = (b, a) if last.get(a) == "w" else (a, b)
            res = results.game(white, black)
            pairs.append((white, black, res))
            met[a].add(b), met[b].add(a)
            last[white], last[black] = "w", "b"
            points[white] += {"1-0": 1, "0-1": 0}.get(res, 0.5)
            points[black] += {"1-0": 0, "0-1": 1}.get(res, 0.5)
        out.append(pairs)
    return out


# ---------------------------------------------------------------------------
# The performance Elo: one season (lists 2026-01, 2026-05, 2026-09) and the
# first list of the next (2027-01).

ANTWERPEN, LIEGE, BRUGGE = "KBSK Antwerpen", "Cercle d'Échecs de Liège", "Brugse Schaakkring"


def performance(folder: Path) -> None:
    # id, birth_year, club, sex, rating, archive (Pa, Na), true strength, fide_id, estimated, title
    P = [
        # KBSK Antwerpen
        (13815, 1971, ANTWERPEN, "M", 2250, None, 2240, 205001, None, "FM"),
        (14298, 1983, ANTWERPEN, "M", 2010, None, 2000, 205002, None, None),
        (14304, 1990, ANTWERPEN, "M", 1880, None, 1900, 205003, None, None),
        (16714, 1966, ANTWERPEN, "F", 1760, None, 1740, 205004, None, None),
        (17751, 2010, ANTWERPEN, "M", 1450, None, 1760, None, None, None),  # junior, improving fast
        (20412, 1958, ANTWERPEN, "M", 1620, None, 1600, None, None, None),
        (27260, 1995, ANTWERPEN, "M", None, None, 1830, None, None, None),  # newcomer: estimation
        (22081, None, ANTWERPEN, "M", 1540, None, 1530, None, None, None),  # no birth year: senior
        # Cercle d'Échecs de Liège
        (11502, 1975, LIEGE, "M", 1900, None, 1700, 205011, None, None),  # plays far below: the brake
        (12190, 1988, LIEGE, "F", 1820, None, 1830, 205012, None, "WFM"),
        (15533, 2007, LIEGE, "M", 1700, None, 1760, None, None, None),  # junior this season, senior the next
        (18840, 1962, LIEGE, "M", 1580, None, 1590, None, None, None),
        (19376, 1999, LIEGE, "F", 1480, None, 1500, None, None, None),
        (27311, 1992, LIEGE, "M", None, None, 1650, None, None, None),  # newcomer: archived, then merged
        (25147, 1980, LIEGE, "M", None, (1580, 3), 1610, None, None, None),  # archives from before
        # Brugse Schaakkring
        (10283, 1949, BRUGGE, "M", 1830, None, 1820, 205021, None, None),
        (12655, 1979, BRUGGE, "M", 1700, None, 1710, None, None, None),
        (16022, 1985, BRUGGE, "F", 1650, None, 1640, None, None, None),
        (18127, 1955, BRUGGE, "M", 1000, None, 1000, None, None, None),  # the club's weakest
        (21904, 2001, BRUGGE, "M", 1390, None, 1400, None, None, None),
        (23390, 1970, BRUGGE, "M", 1260, None, 1250, None, None, None),
        (27402, 1987, BRUGGE, "M", None, None, 1350, None, None, None),  # the 25-round case (R9)
        # not in a club
        (24011, 2015, None, "M", None, None, 1100, None, None, None),  # school pair (R11)
        (24012, 2016, None, "F", None, None, 1050, None, None, None),
        (26008, 1993, None, "M", 2120, None, 2150, 205031, None, "IM"),
        (26119, 1997, None, "F", 1950, None, 1940, 205032, None, None),
        (26230, 2009, None, "M", 1560, None, 1600, None, None, None),  # junior
        (26341, 1978, None, "M", 1690, None, 1680, 205034, None, None),
        (26452, 1969, None, "M", 1800, None, 1790, 205035, None, None),
        (26563, 2011, None, "F", 1320, None, 1380, None, None, None),  # junior
        (27513, 2008, None, "M", None, None, 1570, None, 1543, None),  # club estimate 1543 (R12); plays
        (27624, 1990, None, "F", None, None, 1500, None, 1500, None),  # club estimate 1500 (R12); never plays
        (26674, 1961, None, "M", 1430, None, 1420, None, None, None),
        (26785, 1986, None, "M", 1610, None, 1600, None, None, None),  # rated, never plays
    ]
    strength = {p[0]: p[6] for p in P}
    res = Results(2026, strength)
    write(folder / "players.csv",
          ["player_id", "name", "birth_year", "club", "estimated_rating", "sex", "federation", "title", "fide_id",
           "email"],
          [[p[0], f"Player {p[0]}", blank(p[1]), blank(p[2]), blank(p[8]), p[3], "BEL", blank(p[9]), blank(p[7]),
            f"player{p[0]}@example.org"] for p in P])
    write(folder / "ratings.csv", ["player_id", "rating", "archive_performance", "archive_games"],
          [[p[0], blank(p[4]), *(p[5] if p[5] else ("", ""))] for p in P if p[4] is not None or p[5]])

    games: list[list] = []

    def club_rr(event: str, ids: list[int], first: dt.date, forfeit: int | None = None,
                into: list[list] | None = None) -> None:
        into = games if into is None else into
        for r, pairs in enumerate(round_robin(ids), 1):
            day = first + dt.timedelta(weeks=2 * (r - 1))
            for k, (w, b) in enumerate(pairs):
                result = "+/-" if forfeit == r and k == 0 else res.game(w, b)
                into.append([f"{event}-r{r}-{k + 1}", day.isoformat(), w, b, result, event, r])

    # List 2026-01 (games of 2025-09-01 … 2025-12-31).
    club_rr("Antwerpen club championship 2025", [13815, 14298, 14304, 16714, 17751, 20412, 27260, 22081],
            dt.date(2025, 9, 12))
    club_rr("Liège championnat 2025", [11502, 12190, 15533, 18840, 19376, 27311, 25147], dt.date(2025, 9, 19))
    club_rr("Brugge clubkampioenschap 2025", [10283, 12655, 16022, 21904, 23390, 18127], dt.date(2025, 9, 26),
            forfeit=3)
    hand = [
        # the junior and the newcomer of Antwerpen play the club cup: 8 games each
        ["cup-1", "2025-12-13", 26341, 17751, "0-1", "Antwerpen club cup", 1],
        ["cup-2", "2025-12-13", 27260, 26452, "1/2-1/2", "Antwerpen club cup", 1],
        ["cup-3", "2025-12-20", 27260, 26119, "1-0", "Antwerpen club cup", 2],
        ["cup-4", "2025-12-20", 17751, 26230, "1-0", "Antwerpen club cup", 2],
        ["cup-5", "2025-12-20", 26674, 17751, "0-1", "Antwerpen club cup", 2],
        # the 25-round case (R9): an unrated player beats a 1000 and loses to 1830 and 1700
        ["bcup-1", "2025-11-08", 27402, 18127, "1-0", "Brugge beker", 1],
        ["bcup-2", "2025-11-15", 10283, 27402, "1-0", "Brugge beker", 2],
        ["bcup-3", "2025-11-22", 27402, 12655, "0-1", "Brugge beker", 3],
        # a school day: two unrated juniors meet only each other (R11)
        ["school-1", "2025-10-15", 24011, 24012, "1-0", "School day Gent", 1],
        ["school-2", "2025-10-15", 24012, 24011, "1/2-1/2", "School day Gent", 2],
    ]
    games += hand
    # List 2026-05 (games of 2026-01-01 … 2026-04-30).
    club_rr("Antwerpen voorjaarstoernooi 2026", [13815, 14304, 17751, 20412, 27260, 26230], dt.date(2026, 1, 9))
    club_rr("Liège printemps 2026", [12190, 15533, 18840, 19376, 27311, 11502], dt.date(2026, 1, 16))
    games += [
        # the school pair's first junior meets rated juniors: archives
        ["youth-1", "2026-03-07", 24011, 26563, "0-1", "Youth cup Gent", 1],
        ["youth-2", "2026-03-07", 26230, 24011, "1-0", "Youth cup Gent", 2],
        ["youth-3", "2026-03-08", 24011, 17751, "0-1", "Youth cup Gent", 3],
        ["youth-4", "2026-03-08", 26563, 26230, "0-1", "Youth cup Gent", 4],
    ]
    write(folder / "games.csv", ["game_id", "date", "white_id", "black_id", "result", "event", "round"], games)

    # List 2026-09: a Swiss open in July 2026, as the arbiter's TRF: players with a FIDE id are
    # matched by it (the registry's fide_id), the others by name.
    open_ids = [26008, 13815, 26119, 14298, 12190, 26452, 10283, 14304, 17751, 15533, 26341, 16022,
                18840, 27260, 27513, 26230, 19376, 26674, 27402, 26563]
    skip = {26674: {3}, 26563: {3}}  # half-point byes in round 3
    rounds = swiss(open_ids, 5, res, skip)
    start = dt.date(2026, 7, 18)
    rows = []
    for r, pairs in enumerate(rounds, 1):
        for k, (w, b, result) in enumerate(pairs):
            if r == 4 and k == len(pairs) - 1:
                result = "-/+"  # a forfeit: stored, never rated
            rows.append({"white_id": w, "black_id": b, "result": result, "round": r,
                         "date": start + dt.timedelta(days=r - 1)})
    by_id = {p[0]: p for p in P}
    # The writer needs a unique id per player: those without a FIDE id get a placeholder,
    # blanked in the text below (a blank id: matched by name).
    no_fide = [i for i in open_ids if not by_id[i][7]]
    trf_id = {i: by_id[i][7] or 9_900_000 + no_fide.index(i) for i in open_ids}
    people = pd.DataFrame([{"id": trf_id[i], "name": f"Player {i}", "sex": by_id[i][3].lower(),
                            "title": by_id[i][9], "rating": by_id[i][4] or 0, "federation": "BEL",
                            "birth_year": by_id[i][1]} for i in open_ids])
    tr = pd.DataFrame(rows)
    tr["white_id"] = tr["white_id"].map(trf_id)
    tr["black_id"] = tr["black_id"].map(trf_id)
    byes = pd.DataFrame([{"id": trf_id[i], "round": 3, "code": "H"} for i in skip])
    text = trf_text("Open de Spa 2026", start, people, tr, byes=byes)
    for i in no_fide:
        text = text.replace(f"{trf_id[i]:>11}", " " * 11)
    (folder / "open-spa-2026.trf").write_bytes(text.encode("utf-8"))

    # List 2027-01 (games of 2026-09-01 … 2026-12-31): the Brugge club championship again.
    autumn: list[list] = []
    club_rr("Brugge clubkampioenschap 2026", [10283, 12655, 16022, 27402, 27513, 23390], dt.date(2026, 9, 25),
            into=autumn)
    write(folder / "games-autumn-2026.csv", ["game_id", "date", "white_id", "black_id", "result", "event", "round"],
          autumn)

    # Late results (the second run): the Antwerpen club cup's last round, handed in after the lists.
    write(folder.parent.parent / "performance-late" / "input" / "late-games.csv",
          ["game_id", "date", "white_id", "black_id", "result", "event", "round"], [
              ["cup-6", "2025-12-27", 17751, 13815, "1/2-1/2", "Antwerpen club cup", 3],
              ["cup-7", "2025-12-27", 27260, 14298, "1-0", "Antwerpen club cup", 3],
              ["cup-8", "2025-12-27", 11502, 16714, "0-1", "Antwerpen club cup", 3],
          ])


# ---------------------------------------------------------------------------
# The FIDE Elo: four monthly lists (2026-02 … 2026-05).

def fide(folder: Path) -> None:
    # id, birth_year, club, sex, title, fed, fide_id, rating, games_total, peak, strength
    P = [
        (31001, 1990, "KBSK Antwerpen", "M", "GM", "NED", 1000101, 2658, 900, 2701, 2650),  # 2650+: uncapped
        (31002, 1985, "KBSK Antwerpen", "M", "IM", "BEL", 1000102, 2415, 600, 2452, 2400),  # K 10
        (31003, 1979, "Cercle d'Échecs de Liège", "M", "FM", "BEL", 1000103, 2310, 400, 2390, 2300),  # K 20
        (31004, 2011, "Cercle d'Échecs de Liège", "M", None, "BEL", 1000104, 2150, 120, 2150, 2250),  # junior K 40
        (31005, 2008, "KBSK Antwerpen", "M", "CM", "BEL", 1000105, 2320, 200, 2330, 2330),  # 18, ≥ 2300: K 20
        (31006, 2007, "Brugse Schaakkring", "F", "WFM", "BEL", 1000106, 2060, 150, 2100, 2050),  # 19: K 20
        (31007, 1995, "Brugse Schaakkring", "M", None, "BEL", 1000107, 1980, 12, 1980, 2050),  # 12 games: K 40
        (31008, 1972, "Brugse Schaakkring", "M", None, "BEL", 1000108, 1890, 27, 1890, 1900),  # 27: K 40, then 20
        (31009, 1964, "KBSK Antwerpen", "M", None, "BEL", 1000109, 1850, None, None, 1840),  # no columns
        (31010, 1958, "Cercle d'Échecs de Liège", "M", None, "BEL", 1000110, 1760, 300, 1820, 1750),
        (31011, 1988, "KBSK Antwerpen", "F", None, "BEL", 1000111, 1710, 90, 1760, 1700),
        (31012, 2009, "Brugse Schaakkring", "M", None, "BEL", 1000112, 1650, 60, 1650, 1800),  # junior K 40
        (31013, 1969, "Cercle d'Échecs de Liège", "M", None, "BEL", 1000113, 1600, 250, 1700, 1580),
        (31014, 1981, "Brugse Schaakkring", "M", None, "BEL", 1000114, 1540, 80, 1600, 1530),
        (31015, 1950, "KBSK Antwerpen", "M", None, "BEL", 1000115, 1410, 70, 1520, 1300),  # falls below 1400
        (31016, 1975, "Cercle d'Échecs de Liège", "F", None, "BEL", 1000116, 1350, 40, 1450, 1350),  # idle < 1400
        (31017, 1983, "KBSK Antwerpen", "M", None, "BEL", 1000117, 2005, 310, 2080, 2000),
        (31018, 1977, "Brugse Schaakkring", "M", None, "BEL", 1000118, 1925, 180, 1990, 1930),
        (31019, 1993, "Cercle d'Échecs de Liège", "M", None, "BEL", 1000119, 1805, 75, 1830, 1800),
        (31020, 1966, "KBSK Antwerpen", "M", None, "BEL", 1000120, 1690, 420, 1790, 1680),
        (31021, 1971, "Brugse Schaakkring", "M", None, "BEL", 1000121, 1450, 140, 1510, 1440),
        (31022, 1999, "Cercle d'Échecs de Liège", "F", None, "BEL", 1000122, 1480, 45, 1480, 1500),
        # unrated
        (31101, 1998, "KBSK Antwerpen", "M", None, "BEL", 1000201, None, None, None, 1850),  # pooled over 2 months
        (31102, 2001, "Cercle d'Échecs de Liège", "F", None, "BEL", 1000202, None, None, None, 1900),  # 5 at once
        (31103, 1960, "Brugse Schaakkring", "M", None, "BEL", 1000203, None, None, None, 1250),  # Ru < 1400
        (31104, 2012, "Brugse Schaakkring", "M", None, "BEL", 1000204, None, None, None, 1700),  # 0 in 1st event
        (31105, 2013, None, "F", None, "BEL", 1000205, None, None, None, 1300),  # unrated opponents only
        (31106, 2013, None, "M", None, "BEL", 1000206, None, None, None, 1300),
        (31107, 1996, None, "M", None, "ENG", 1000207, None, None, None, 2500),  # strong: Ru capped at 2200
    ]
    strength = {p[0]: p[10] for p in P}
    # 31015 loses every game (falls below 1400); 31107 wins every game (Ru capped at 2200)
    res = Results(8, strength, force={31015: "loss", 31107: "win"})
    write(folder / "players.csv",
          ["player_id", "name", "birth_year", "club", "sex", "federation", "title", "fide_id"],
          [[p[0], f"Player {p[0]}", p[1], blank(p[2]), p[3], p[5], blank(p[4]), p[6]] for p in P])
    write(folder / "ratings.csv", ["player_id", "rating", "games_total", "peak_rating"],
          [[p[0], p[7], blank(p[8]), blank(p[9])] for p in P if p[7] is not None])

    games: list[list] = []

    def rr(event: str, ids: list[int], first: dt.date, days: int = 7) -> None:
        for r, pairs in enumerate(round_robin(ids), 1):
            day = first + dt.timedelta(days=days * (r - 1))
            for k, (w, b) in enumerate(pairs):
                games.append([f"{event}-r{r}-{k + 1}", day.isoformat(), w, b, res.game(w, b), event, r])

    # January 2026 (list 2026-02): a club championship; a newcomer starts pooling; one scores 0 in his first event.
    rr("Antwerpen championship 2026", [31002, 31009, 31011, 31017, 31020, 31015, 31101], dt.date(2026, 1, 6))
    games += [
        ["jan-cup-1", "2026-01-24", 31104, 31013, "0-1", "Brugge winter cup", 1],
        ["jan-cup-2", "2026-01-24", 31014, 31104, "1-0", "Brugge winter cup", 2],
        ["jan-cup-3", "2026-01-25", 31104, 31018, "0-1", "Brugge winter cup", 3],
        ["jan-cup-4", "2026-01-24", 31008, 31007, "1/2-1/2", "Brugge winter cup", 1],
        ["jan-cup-5", "2026-01-24", 31012, 31008, "1-0", "Brugge winter cup", 2],
        ["jan-cup-6", "2026-01-25", 31007, 31012, "1-0", "Brugge winter cup", 3],
        ["jan-cup-7", "2026-01-25", 31014, 31013, "+/-", "Brugge winter cup", 4],  # forfeit
        ["school-1", "2026-01-28", 31105, 31106, "1-0", "School championship", 1],
        ["school-2", "2026-01-28", 31106, 31105, "1/2-1/2", "School championship", 2],
    ]
    # February 2026 (list 2026-03): a weekend open, as a TRF.
    open_ids = [31001, 31003, 31004, 31005, 31006, 31007, 31008, 31009, 31010, 31012, 31013, 31014, 31018,
                31019, 31102, 31107]
    rounds = swiss(open_ids, 5, res, avoid=((31102, 31107),))  # the two newcomers meet only rated players
    start = dt.date(2026, 2, 13)
    rows = []
    for r, pairs in enumerate(rounds, 1):
        day = start + dt.timedelta(days=(r - 1) // 2)
        for w, b, result in pairs:
            rows.append({"white_id": w, "black_id": b, "result": result, "round": r, "date": day})
    by_id = {p[0]: p for p in P}
    fide_of = {p[0]: p[6] for p in P}
    people = pd.DataFrame([{"id": fide_of[i], "name": f"Player {i}", "sex": by_id[i][3].lower(),
                            "title": by_id[i][4], "rating": by_id[i][7] or 0, "federation": by_id[i][5],
                            "birth_year": by_id[i][1]} for i in open_ids])
    tr = pd.DataFrame(rows)
    tr["white_id"] = tr["white_id"].map(fide_of)
    tr["black_id"] = tr["black_id"].map(fide_of)
    (folder / "brussels-open-2026.trf").write_bytes(
        trf_text("Brussels Open 2026", start, people, tr).encode("utf-8"))
    # March 2026 (list 2026-04): interclub matches; the January newcomer completes his pool.
    games += [
        ["ic-1", "2026-03-08", 31101, 31010, "1-0", "Interclubs R6", 1],
        ["ic-2", "2026-03-08", 31014, 31101, "1/2-1/2", "Interclubs R6", 1],
        ["ic-3", "2026-03-22", 31101, 31019, "0-1", "Interclubs R7", 1],
        ["ic-4", "2026-03-08", 31104, 31020, "1-0", "Interclubs R6", 2],
        ["ic-5", "2026-03-22", 31011, 31104, "1/2-1/2", "Interclubs R7", 2],
        ["ic-6", "2026-03-08", 31002, 31017, "1/2-1/2", "Interclubs R6", 3],
        ["ic-7", "2026-03-22", 31018, 31009, "1-0", "Interclubs R7", 3],
        ["ic-8", "2026-03-08", 31015, 31014, "0-1", "Interclubs R6", 4],
        # a weak newcomer: a draw in his first event, then losses: Ru below 1400, not published
        ["ic-12", "2026-03-08", 31103, 31021, "1/2-1/2", "Interclubs R6", 6],
        ["ic-13", "2026-03-08", 31022, 31103, "1-0", "Interclubs R6", 7],
        ["ic-14", "2026-03-22", 31103, 31014, "0-1", "Interclubs R7", 6],
        ["ic-15", "2026-03-22", 31021, 31103, "1-0", "Interclubs R7", 7],
        ["ic-16", "2026-03-29", 31103, 31022, "0-1", "Interclubs R8", 6],
        ["ic-9", "2026-03-22", 31008, 31017, "0-1", "Interclubs R7", 4],
        ["ic-10", "2026-03-08", 31006, 31005, "1/2-1/2", "Interclubs R6", 5],
        ["ic-11", "2026-03-22", 31003, 31001, "0-1", "Interclubs R7", 5],
    ]
    # April 2026 (list 2026-05): the Brugge club championship.
    rr("Brugge championship 2026", [31007, 31008, 31012, 31014, 31018, 31021, 31104, 31013],
       dt.date(2026, 4, 2), days=3)
    write(folder / "games.csv", ["game_id", "date", "white_id", "black_id", "result", "event", "round"], games)


# ---------------------------------------------------------------------------
# Go.

def go_result(rng: random.Random, strength: dict[int, float], black: int, white: int, handicap: int) -> str:
    gap = strength[black] + (100 * handicap - 50 if handicap else 0) - strength[white]
    e = 1 / (1 + 10 ** (-gap / 250))
    return "B" if rng.random() < e else "W"


def middle(grade: str) -> float:
    """The middle of a grade in Go points: 1 dan 50, 5 kyu −450."""
    n, kind = int(grade[:-1]), grade[-1].lower()
    return 100.0 * n - 50 if kind == "d" else 50.0 - 100 * n


def go_handicap(grade_points: dict[int, float], black: int, white: int, cap: int = 9) -> int:
    diff = round((grade_points[white] - grade_points[black]) / 100)
    return max(0, min(cap, diff))


def go_belgium(folder: Path) -> None:
    # id, grade declared, club, true strength (points). Ids 1-8: the OpenGotha file's players.
    P = [
        (1, "3k", "Paris Go Club", -230), (2, "3k", "Lyon Go Club", -260), (3, "11k", "Agen", -1010),
        (4, "11k", "La Valette", -1090), (5, "7k", "Poitiers", -650), (6, "11k", "Nantes", -1080),
        (7, "5k", "Clermont", -490), (8, "10k", "Saint-Maur", -990),
        (11, "4d", "Brussels Go Club", 380), (12, "2d", "Brussels Go Club", 160), (13, "1d", "Gent Go Club", 40),
        (14, "1k", "Leuven Go Club", -40), (15, "2k", "Brussels Go Club", -150), (16, "4k", "Gent Go Club", -360),
        (17, "6k", "Leuven Go Club", -560), (18, "8k", "Brussels Go Club", -760), (19, "10k", "Gent Go Club", -950),
        (20, "12k", "Leuven Go Club", -1150), (21, "15k", "Brussels Go Club", -1000),  # plays far above: promoted
        (22, "18k", "Gent Go Club", -1760), (23, "20k", "Leuven Go Club", -1950), (24, "3d", "Liège Go", 200),
        (25, "2k", "Liège Go", -700),  # declared far too high: demoted
        (26, "NC", "Brussels Go Club", -1200),  # newcomer: first rating (G2)
        (27, "NC", "Gent Go Club", -900),  # newcomer who wins every game: best opponent + 100
        (28, None, "Leuven Go Club", -1700), (29, "NC", "Leuven Go Club", -1700),  # NC who only meet each other
        (30, "13k", "Liège Go", -1250), (31, "16k", "Liège Go", -1550),
    ]
    strength = {p[0]: p[3] for p in P}
    # handicaps are set from the declared grades (a newcomer's from what the organiser guesses)
    grade_points = {p[0]: middle(p[1]) if p[1] not in (None, "NC") else p[3] for p in P}
    rng = random.Random(19)
    write(folder / "players.csv", ["player_id", "name", "grade", "club"],
          [[p[0], f"Player {p[0]}", blank(p[1]), p[2]] for p in P])
    events = [
        ["bgc-2020-10", "Brussels club nights October 2020", "2020-10-06", "2020-10-27", "C", 19],
        ["gent-13x13-2020-11", "Gent 13x13 beginners day", "2020-11-07", "2020-11-07", "C", 13],
        ["leuven-9x9-2020-11", "Leuven 9x9 lightning", "2020-11-14", "2020-11-14", "C", 9],
        ["bgf-champ-2020", "Belgian Championship 2020", "2020-11-21", "2020-11-29", "A", 19],
        ["leuven-2021-02", "Leuven Winter Tournament 2021", "2021-02-13", "2021-02-14", "B", 19],
        ["teaching-2021-03", "Brussels teaching games", "2021-03-06", "2021-03-06", "D", 19],
        ["liege-2021-03", "Tournoi de Liège 2021", "2021-03-20", "2021-03-21", "B", 19],
    ]
    write(folder / "events.csv", ["event_id", "name", "start_date", "end_date", "class", "board_size"], events)
    games: list[list] = []

    def game(event, date, black, white, handicap=None, winner=None, weight=""):
        if handicap is None:
            handicap = go_handicap(grade_points, black, white)
        if winner is None:
            winner = go_result(rng, strength, black, white, handicap)
        games.append([event, date, black, white, winner, handicap, weight])

    # October club nights: handicap games between the Brussels members (and a visitor from Gent).
    for date, pairs in [("2020-10-06", [(15, 11), (18, 12), (21, 15), (25, 16)]),
                        ("2020-10-13", [(18, 15), (21, 12), (16, 11), (25, 15)]),
                        ("2020-10-20", [(21, 18), (15, 12), (16, 25)]), ("2020-10-27", [(16, 12), (21, 16), (14, 25)])]:
        for b, w in pairs:
            game("bgc-2020-10", date, b, w)
    # 13x13 day: two newcomers, beginners; the NC pair plays only each other.
    for b, w, h, win in [(27, 22, 0, "B"), (27, 23, 0, "B"), (20, 27, 0, "W"), (26, 22, 0, "W"), (26, 31, 0, "B"),
                         (23, 22, 1, "W"), (31, 23, 0, "B"), (29, 28, 0, "B"), (28, 29, 0, "jigo")]:
        game("gent-13x13-2020-11", "2020-11-07", b, w, h, win)
    # 9x9 lightning.
    for b, w in [(19, 17), (20, 19), (30, 20), (31, 30), (22, 31), (17, 20)]:
        game("leuven-9x9-2020-11", "2020-11-14", b, w, 0)
    # The championship: class A, even games, a round robin of six.
    champ = [11, 12, 13, 24, 14, 15]
    for r, pairs in enumerate(round_robin(champ), 1):
        for b, w in pairs:
            game("bgf-champ-2020", f"2020-11-{20 + r + (r > 3) * 4:02d}", b, w, 0)
    # Leuven winter: a handicap Swiss with a jigo, a one-stone game (G3) and a game with its own weight.
    leuven = [(16, 14, 2), (17, 13, 5), (18, 15, 5), (25, 16, 0), (19, 17, 3), (21, 18, 2), (20, 25, 4),
              (26, 19, 1), (30, 21, 2), (22, 20, 5), (27, 26, 3), (7, 16, 1), (5, 7, 2), (25, 5, 0)]
    for k, (b, w, h) in enumerate(leuven):
        date = "2021-02-13" if k < 7 else "2021-02-14"
        winner = "jigo" if k == 3 else None
        weight = "0.5" if k == 13 else ""
        game("leuven-2021-02", date, b, w, h, winner, weight)
    # Teaching games (class D: weight 0, nothing changes).
    for b, w in [(23, 11), (22, 12)]:
        game("teaching-2021-03", "2021-03-06", b, w, 9, "W")
    # Liège: the promoted player again, the demoted one, the first-rated newcomers.
    for b, w, h, d in [(21, 14, 8, "2021-03-20"), (25, 17, 0, "2021-03-20"), (26, 30, 0, "2021-03-20"),
                       (27, 19, 0, "2021-03-20"), (31, 24, 9, "2021-03-21"), (30, 25, 5, "2021-03-21"),
                       (21, 19, 0, "2021-03-21"), (17, 27, 0, "2021-03-21"), (29, 31, 0, "2021-03-21")]:
        game("liege-2021-03", d, b, w, h)
    for b, w, winner in [(25, 19, "W"), (18, 25, "B")]:  # the overrated 2 kyu loses even games to 8-10 kyu
        game("liege-2021-03", "2021-03-21", b, w, 0, winner)
    write(folder / "games.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap", "weight"], games)


def go_ffg1984(folder: Path) -> None:
    # Ids 1-22: the EGD file's players (its grades); then the Paris and Lyon club members.
    egd_grades = ["2d", "2d", "2k", "1d", "9k", "1k", "7k", "8k", "14k", "16k", "10k", "4k", "12k", "12k", "6k",
                  "9k", "3k", "14k", "13k", "16k", "19k", "17k"]
    P = [(i + 1, g, "Lyon Go Club") for i, g in enumerate(egd_grades)] + [
        (23, "3d", "Paris Go Club"), (24, "1d", "Paris Go Club"), (25, "2k", "Paris Go Club"),
        (26, "5k", "Paris Go Club"), (27, "8k", "Paris Go Club"), (28, "11k", "Paris Go Club"),
        (29, "15k", "Paris Go Club"), (30, "NC", "Paris Go Club"),  # no points: games ignored
        (31, "4k", "Lyon Go Club"), (32, "6k", "Lyon Go Club")]
    # Starting points (the federation's list): most players; 19, 21, 29 and 32 start at their grade's middle.
    start = {}
    for pid, grade, _ in P:
        if grade in (None, "NC") or pid in (19, 21, 29, 32):
            continue
        n, kd = int(grade[:-1]), grade[-1]
        middle = 100 * n - 50 if kd == "d" else 50 - 100 * n
        start[pid] = middle + ((pid * 37) % 60) - 30
    strength = {pid: start.get(pid, 50 - 100 * int(g[:-1]) if g and g[-1] == "k" else 0) for pid, g, _ in P}
    strength[30] = -600
    strength[27] = -500  # plays far above his points: upsets (cases 1.1, 1.2)
    rng = random.Random(1984)
    write(folder / "players.csv", ["player_id", "name", "grade", "club"],
          [[p[0], f"Player {p[0]}", blank(p[1]), p[2]] for p in P])
    write(folder / "ratings.csv", ["player_id", "rating"], [[pid, pts] for pid, pts in sorted(start.items())])
    events = [
        ["paris-2017-01", "Paris club league January 2017", "2017-01-10", "2017-01-31", "C", 19],
        ["lyon-13x13-2017-01", "Lyon 13x13 afternoon", "2017-01-21", "2017-01-21", "C", 13],
        ["paris-2017-03", "Tournoi de Paris 2017", "2017-03-04", "2017-03-05", "B", 19],
    ]
    write(folder / "events.csv", ["event_id", "name", "start_date", "end_date", "class", "board_size"], events)
    games: list[list] = []
    pts = {pid: strength[pid] for pid, _, _ in P}

    def game(event, date, black, white, handicap=None, winner=None):
        if handicap is None:
            handicap = go_handicap(pts, black, white)
        if winner is None:
            winner = go_result(rng, strength, black, white, handicap)
        games.append([event, date, black, white, winner, handicap])

    for date, pairs in [("2017-01-10", [(25, 23), (27, 24), (29, 26), (30, 28)]),
                        ("2017-01-17", [(26, 23), (28, 25), (27, 30), (29, 28)]),
                        ("2017-01-24", [(24, 23), (27, 25), (28, 26), (30, 29)]),
                        ("2017-01-31", [(25, 24), (27, 26), (29, 27), (30, 23)])]:
        for b, w in pairs:
            game("paris-2017-01", date, b, w)
    for b, w, h, win in [(21, 20, 0, None), (22, 21, 0, None), (19, 13, 0, None), (20, 22, 0, "jigo"),
                         (10, 9, 0, None), (18, 14, 0, None)]:
        game("lyon-13x13-2017-01", "2017-01-21", b, w, h, win)
    paris = [(27, 23, 0), (26, 24, 0), (31, 25, 0), (32, 26, 0), (28, 32, 4), (29, 31, 9), (30, 27, 0),
             (25, 1, 0), (27, 2, 0), (15, 26, 0), (7, 32, 0), (11, 28, 0), (12, 31, 0), (24, 4, 0)]
    for k, (b, w, h) in enumerate(paris):
        game("paris-2017-03", "2017-03-04" if k < 7 else "2017-03-05", b, w, h)
    write(folder / "games.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap"], games)


if __name__ == "__main__":
    performance(HERE / "performance" / "input")
    fide(HERE / "fide" / "input")
    go_belgium(HERE / "go-belgium" / "input")
    go_ffg1984(HERE / "go-ffg1984" / "input")
