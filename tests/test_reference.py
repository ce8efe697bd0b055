"""The plain per-player reference (bench/reference.py) gives exactly the pipeline's lists.

An independent check: the reference imports nothing from `pipeline` (the first test
says so by reading its imports), it is written from the rulings R1–R13 of
performance-elo.md, and its own tests below check it against the rules' worked
example and hand computations without the pipeline. The tests that compare it with
the pipeline run `ratings run` through the CLI on the embedded sample (a real
season), a simulated federation and small hand-built seasons.
"""
from __future__ import annotations

import ast
import csv
import datetime as dt
from pathlib import Path

import duckdb
import pytest

from bench import reference
from bench.reference import compatible, performance, rate_list, reference_lists
from pipeline.config import SAMPLE_FILES
from tests.conftest import PROJECT_DIR, write_rows

COLUMNS = ("player_id", "rating", "previous_rating", "change", "games", "status")


def published_lists(out: Path) -> dict[str, list[dict]]:
    """OUT/lists/<list_id>.csv as rows of the compared columns (blank cells → None)."""
    lists = {}
    for path in sorted((out / "lists").glob("????-??.csv")):
        with open(path, newline="", encoding="utf-8") as fh:
            lists[path.stem] = [
                {c: (r[c] if c == "status" else None if r[c] == "" else int(r[c])) for c in COLUMNS}
                for r in csv.DictReader(fh)
            ]
    return lists


def run_pipeline(cli, tmp_path: Path, files: dict[str, Path]) -> dict[str, list[dict]]:
    out = tmp_path / "out"
    calendar = ["--calendar", files["calendar"]] if "calendar" in files else []
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"], *calendar,
        "--warehouse", tmp_path / "w.duckdb", "--out", out, "--no-reports")
    return published_lists(out)


def assert_same_lists(reference: dict[str, list[dict]], pipeline: dict[str, list[dict]]) -> None:
    assert list(reference) == sorted(pipeline)  # the same lists, in calendar order
    for list_id, rows in reference.items():
        ref = {r["player_id"]: r for r in rows}
        pipe = {r["player_id"]: r for r in pipeline[list_id]}
        differing = sorted(p for p in ref.keys() | pipe.keys() if ref.get(p) != pipe.get(p))
        assert not differing, (list_id, [(ref.get(p), pipe.get(p)) for p in differing[:5]])
        assert rows == pipeline[list_id], list_id  # same order too: rating desc, then id


def test_the_reference_imports_nothing_from_the_pipeline():
    # The independence the other tests rest on: were it to import the pipeline's rules
    # (as it did its R2 season), a defect there would be in both and no comparison fails.
    tree = ast.parse((PROJECT_DIR / "bench" / "reference.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported and not any(name.split(".")[0] in {"pipeline", "bench", "tests"} for name in imported), imported
    assert imported <= {"__future__", "bisect", "csv", "datetime", "math", "sys", "time", "collections",
                        "pathlib", "pyarrow.parquet"}


def test_the_reference_alone_gives_the_rules_worked_example():
    # performance-elo.md, "Worked example": senior 1 (1650) beats 1500, 1720, 1600, 1250,
    # draws 1690, loses to 1800 and 2100. The win 400 below and the loss 450 above do not
    # count (the 350 rule): Nj = 5, Sc = 3.5, P = 0.70, Ea = (1500 + 1720 + 1600 + 1690
    # + 1800) / 5 = 1662, D(0.70) = 149 (table), Pj = 1811 > Ei with 5 < 16 (senior):
    # Ej = (1811 × 5 + 1650 × 11) / 16 = 27205 / 16 = 1700.3125 → 1700 (R3).
    opponents = {2: 1500.0, 3: 1720.0, 4: 1600.0, 5: 1250.0, 6: 1690.0, 7: 1800.0, 8: 2100.0}
    scores = {2: 1.0, 3: 1.0, 4: 1.0, 5: 1.0, 6: 0.5, 7: 0.0, 8: 0.0}
    games = [(1, p, s) for p, s in scores.items()]
    rated = {1: 1650.0, **opponents}
    nj, pj = performance([(p, s) for p, s in scores.items()], rated, 1650.0)
    assert (nj, pj) == (5, 1811.0)
    new_rated, archives, card = rate_list(games, rated, {}, {1: 1980}, 2027)  # born 1980: a senior (R2)
    assert new_rated[1] == 1700 and card[1] == (7, 5) and archives == {}
    # With no birth year he is a senior too (R2): the same barycentre, 1700.
    assert rate_list(games, rated, {}, {}, 2027)[0][1] == 1700


@pytest.mark.parametrize("score, own, opponent, counts", [
    # R13's example: 12380/7 beats 9930/7, 350 above. As floats the two quotients differ by
    # 350.0 exactly, but the estimate made as Ea + D(P) = 10800/7 + 1580/7 is
    # 1768.5714285714284 (tests/fixtures/estimation-divergence), 349.9999999999998 above: 350.
    (1.0, 12380 / 7, 9930 / 7, False),
    (1.0, 1542.857142857143 + 225.71428571428567, 9930 / 7, False),
    # R13: a gap within a millionth of 350 is 350, which is not below 350.
    (1.0, 1800.0, 1450.0000001, False),  # 349.9999999 → 350.0 at 6 decimals: does not count
    (1.0, 1800.0, 1449.9999996, False),  # 350.0000004 → 350.0
    (1.0, 1800.0, 1450.0000004, False),  # 349.9999996 → 350.0
    (1.0, 1800.0, 1450.000001, True),  # 349.999999 stays 349.999999 < 350: counts
    (0.0, 1450.0000004, 1800.0, False),  # the same for a loss, the gap the other way
    (0.0, 1450.000001, 1800.0, True),
    (0.5, 1000.0, 2900.0, True),  # a draw always counts
])
def test_the_reference_compares_the_350_gap_at_6_decimals(score, own, opponent, counts):
    assert compatible(score, own, opponent) is counts


def test_the_reference_reads_the_season_from_the_list_id():
    # R2a: 2026-05 and 2026-09 end the season 2026, 2027-01 (games of Sep–Dec 2026) 2027,
    # and a calendar's list 2026-09 whose window runs to 3 September is still in 2026.
    assert [reference.season_end_year(x) for x in ("2026-05", "2026-09", "2027-01")] == [2026, 2026, 2027]
    # R1's nominal windows over a season's games: the lists 2026-09 (May–Aug), 2027-01, 2027-05.
    assert reference.nominal_calendar(dt.date(2026, 8, 31), dt.date(2027, 1, 1)) == [
        ("2026-09", dt.date(2026, 5, 1), dt.date(2026, 8, 31)),
        ("2027-01", dt.date(2026, 9, 1), dt.date(2026, 12, 31)),
        ("2027-05", dt.date(2027, 1, 1), dt.date(2027, 4, 30)),
    ]


def shifted_season(tmp_path: Path) -> dict[str, Path]:
    """Player 1, born 2007 and rated 1500, scores 6 / 8 against eight players rated 1500 in
    the list 2026-09, whose calendar window is shifted to end on 3 September 2026 (R1)."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[1, "Junior", 2007]] + [[p, f"Senior {p}", 1980] for p in range(2, 10)])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[p, 1500] for p in range(1, 10)])
    results = ["1-0"] * 5 + ["1/2-1/2"] * 2 + ["0-1"]
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"],
                       [[f"2026-09-0{1 + k % 3}", 1, k + 2, r] for k, r in enumerate(results)])
    calendar = write_rows(tmp_path / "calendar.csv", ["list_id", "window_start", "window_end"],
                          [["2026-09", "2026-05-01", "2026-09-03"]])
    return {"players": players, "ratings": ratings, "games": games, "calendar": calendar}


def test_the_reference_keeps_a_shifted_list_in_its_season(tmp_path):
    # R2a: list 2026-09 is in the season ending 2026 although its window ends in September,
    # so player 1 (2026 − 2007 = 19 < 20, R2) is a junior: quota 8. All 8 games count
    # (everyone at 1500, no gap reaches 350): Sc = 5 + 2 × 0.5 = 6, P = 0.75, Ea = 1500,
    # D(0.75) = 193 (table), Pj = 1693 ≥ Ei and Nj = 8 ≥ 8: Ej = Pj = 1693 → 1690 (R3).
    # Read as the season ending 2027 (the window's end after August) he would be a senior
    # (20): the barycentre (1693 × 8 + 1500 × 8) / 16 = 1596.5 → 1600.
    files = shifted_season(tmp_path)
    lists = reference_lists(files["players"], files["ratings"], files["games"], files["calendar"])
    assert list(lists) == ["2026-09"]
    assert {r["player_id"]: r["rating"] for r in lists["2026-09"]}[1] == 1690


def test_the_pipeline_keeps_a_shifted_list_in_its_season(cli, tmp_path):
    # The same season through `ratings run` (R2a): the pipeline must give 1690 too, and
    # every other player the reference's rating.
    files = shifted_season(tmp_path)
    pipeline = run_pipeline(cli, tmp_path, files)
    assert {r["player_id"]: r["rating"] for r in pipeline["2026-09"]}[1] == 1690
    assert_same_lists(reference_lists(files["players"], files["ratings"], files["games"], files["calendar"]),
                      pipeline)


def oscillating_season(tmp_path: Path) -> dict[str, Path]:
    """Two unrated players in the list 2027-01: 1 beats 3 (1550) and 5 (1540), draws 4
    (1870) and beats 2; 2 meets seven rated players. Found by a search for a gap that
    the estimation brings within a millionth of 350."""
    rated = {3: 1550, 4: 1870, 5: 1540, 6: 1490, 7: 1400, 8: 1250, 9: 1310, 10: 1360, 11: 1380, 12: 1540}
    games = [(1, 3, "1-0"), (1, 4, "1/2-1/2"), (1, 5, "1-0"), (2, 6, "1/2-1/2"), (2, 7, "0-1"), (2, 8, "1/2-1/2"),
             (2, 9, "1-0"), (2, 10, "1-0"), (2, 11, "1/2-1/2"), (2, 12, "1-0"), (1, 2, "1-0")]
    return {
        "players": write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                              [[p, f"Player {p}", 1980] for p in range(1, 13)]),
        "ratings": write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[p, r] for p, r in rated.items()]),
        "games": write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"],
                            [["2026-10-03", w, b, r] for w, b, r in games]),
    }


def test_the_reference_decides_a_gap_within_a_millionth_of_350_as_350(tmp_path):
    # Player 1's estimate oscillates (R8, R9). Near 1910 only the draw with 4 counts
    # (3 and 5 are 360 and 370 below: wins that do not count): Pj = 1870 + D(0.5) = 1870.
    # Near 1890 the wins over 3 (340 below) and 5 (just under 350) count too: Nj = 3,
    # P = 2.5/3, Ea = (1550 + 1540 + 1870) / 3 = 1653.333, D = 273 + (284 − 273)/3 =
    # 276.667 (R5), Pj = 1930. Each gap is ≥ 20, so each round takes the mean:
    # e(even) = (e(odd) + 1870)/2, e(odd) = (e(even) + 1930)/2, whose fixed points are
    # 1890 and 1910; from e2 = 1888.5 the distance shrinks by 4 every two rounds:
    # e24 = 1890 − 1.5 / 4^11 = 1889.99999964..., 350 − 3.6e-7 above 5's 1540.
    # R13: that gap is 350 at 6 decimals, so in round 25 the win over 5 does not count:
    # Nj = 2 (3 and 4), P = 0.75, Ea = 1710, Pj = 1710 + 193 = 1903, 13 from the
    # estimate: settled. R10: Pa = 1889.99999964, Na = 2 (Nj < 8: archived, R6).
    # Player 5 has no compatible game (the loss is 350 above him, R4 at the final
    # estimate): keeps 1540. Without R13 the win would count in round 25 (Pj = 1930,
    # 40 from the estimate): 1 would move on to (e24 + 1930) / 2 = 1909.9999998 and be
    # archived with Na = 1 (only the draw is compatible with it), which is what tells.
    files = oscillating_season(tmp_path)
    states: dict = {}
    lists = reference_lists(files["players"], files["ratings"], files["games"], states=states)
    assert {r["player_id"]: r["rating"] for r in lists["2027-01"]}[5] == 1540
    rating, pa, na = states["2027-01"][1]
    assert rating is None and pa == pytest.approx(1890 - 1.5 / 4 ** 11, abs=1e-9) and na == 2


def test_the_pipeline_decides_a_gap_within_a_millionth_of_350_as_350(cli, tmp_path):
    # The same season through `ratings run` (R13): 5 keeps 1540, 1 is archived at the
    # same estimate with 2 games (not at 1910 with 1), and the estimation ran 25 rounds.
    files = oscillating_season(tmp_path)
    pipeline = run_pipeline(cli, tmp_path, files)
    assert {r["player_id"]: r["rating"] for r in pipeline["2027-01"]}[5] == 1540
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        archived = con.execute("select archive_performance, archive_games from performance_state "
                               "where series = 'performance' and player_id = 1").fetchall()
        rounds = con.execute("select rounds_used from performance_lists where series = 'performance'").fetchall()
    assert archived[0][0] == pytest.approx(1890 - 1.5 / 4 ** 11, abs=1e-9) and archived[0][1] == 2
    assert rounds == [(25,)]
    assert_same_lists(reference_lists(files["players"], files["ratings"], files["games"]), pipeline)


DIVERGENCE = PROJECT_DIR / "tests" / "fixtures" / "estimation-divergence"


def test_reference_matches_the_pipeline_on_the_estimation_divergence_case(cli, tmp_path):
    # The shared case of issue 36 (its README): 47,156 games of list 2021-01 where
    # 177665's first estimate 12380/7 beats 113531's 9930/7, a win exactly 350 above that
    # does not count (R13), though Ea + D(P) in floating point makes the gap
    # 349.9999999999998. The archives below are the other independent implementation's,
    # as that README gives them; the reference must give them, and the pipeline every
    # player state the reference gives (archives to 6 decimals).
    files = {"players": DIVERGENCE / "players.csv", "ratings": DIVERGENCE / "initial.csv",
             "games": DIVERGENCE / "games.csv"}
    states: dict = {}
    reference = reference_lists(files["players"], files["ratings"], files["games"], states=states)
    after = states["2021-01"]
    assert {p: (after[p][0], round(after[p][1], 3), after[p][2]) for p in (177665, 104676, 165436, 196292)} == {
        177665: (None, 1836.158, 3), 104676: (None, 1710.029, 6), 165436: (None, 1655.763, 6),
        196292: (None, 1619.848, 6)}
    assert_same_lists(reference, run_pipeline(cli, tmp_path, files))
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        pipeline = {p: (r, None if pa is None else round(pa, 6), na or None) for p, r, pa, na in con.execute(
            "select player_id, rating, archive_performance, archive_games from player_state "
            "natural left join performance_state "
            "where series = 'performance' and list_id = '2021-01'").fetchall()}
    expected = {p: (r, None if pa is None else round(pa, 6), na) for p, (r, pa, na) in after.items()}
    differ = sorted(p for p in pipeline.keys() | expected.keys() if pipeline.get(p) != expected.get(p))
    assert len(expected) > 17_000 and not differ, [(p, expected.get(p), pipeline.get(p)) for p in differ[:5]]


def test_reference_matches_the_pipeline_on_a_simulated_federation(cli, tmp_path):
    # `ratings simulate`: 5,000 players over 6 lists (about 64,000 games), with newcomers,
    # archives, unanchored school groups (R11) and estimations that reach the 25 rounds
    # (R9) with players still moving: the cases the small seasons cannot show at scale.
    sim = tmp_path / "sim"
    cli("simulate", "--players", 5000, "--lists", 6, "--seed", 3, "--out", sim)
    files = {name: sim / f"{name}.csv" for name in ("players", "ratings", "games")}
    pipeline = run_pipeline(cli, tmp_path, files)
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        rounds, moving, unanchored = con.execute(
            "select max(rounds_used), max(players_still_moving), sum(unanchored_players) from performance_lists").fetchall()[0]
    assert rounds == 25 and moving > 0 and unanchored > 0  # the data reaches the cases it is here for
    states: dict = {}
    reference = reference_lists(files["players"], files["ratings"], files["games"], states=states)
    assert len(reference) == 6 and sum(len(rows) for rows in reference.values()) > 20_000
    assert_same_lists(reference, pipeline)
    assert any(pa is not None for state in states.values() for _, pa, _ in state.values())  # archives (R6) too


def test_reference_matches_the_pipeline_on_the_embedded_sample(cli, tmp_path):
    files = dict(SAMPLE_FILES)
    pipeline = run_pipeline(cli, tmp_path, files)
    reference = reference_lists(files["players"], files["ratings"], files["games"])
    assert list(reference) == ["2019-01", "2019-05", "2019-09"]
    assert sum(len(rows) for rows in reference.values()) > 40_000
    assert_same_lists(reference, pipeline)


def test_reference_matches_the_pipeline_on_a_small_federation(cli, small_federation, tmp_path):
    files = small_federation
    pipeline = run_pipeline(cli, tmp_path, files)
    reference = reference_lists(files["players"], files["ratings"], files["games"])
    assert_same_lists(reference, pipeline)
    # The hand computation of tests/test_pipeline_end_to_end.py: 6 is only archived,
    # 7 and 8 (a school pair) are unanchored (R11) and get nothing.
    assert [(r["player_id"], r["rating"], r["games"], r["status"]) for r in reference["2027-01"]] == [
        (1, 1780, 3, "played"), (2, 1660, 3, "played"), (3, 1620, 3, "played"),
        (4, 1500, 2, "played"), (5, 1450, 1, "played"),
    ]
    second = {r["player_id"]: r for r in reference["2027-05"]}
    assert second[1]["rating"] == 1770 and second[3]["rating"] == 1630
    assert second[2]["status"] == "did not play" and second[2]["change"] == 0


@pytest.mark.parametrize("calendar", [True, False])
def test_reference_follows_a_calendar_file(cli, small_federation, tmp_path, calendar):
    """With a calendar file (R1) the windows are data; without it, the nominal ones."""
    files = dict(small_federation)
    args = []
    if calendar:
        files["calendar"] = tmp_path / "calendar.csv"
        files["calendar"].write_text("list_id,window_start,window_end\n"
                                     "2026-10,2026-09-01,2026-09-20\n"
                                     "2027-02,2026-09-21,2027-01-31\n")
        args = ["--calendar", files["calendar"]]
    out = tmp_path / "out"
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
        *args, "--warehouse", tmp_path / "w.duckdb", "--out", out)
    reference = reference_lists(files["players"], files["ratings"], files["games"], files.get("calendar"))
    assert list(reference) == (["2026-10", "2027-02"] if calendar else ["2027-01", "2027-05"])
    assert_same_lists(reference, published_lists(out))
