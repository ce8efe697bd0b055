"""The FIDE floor (bench/floor/fide_floor.py) does the work of `ratings run --system fide`
bare: the same lists, byte for byte, and the same states, on tiny inputs.

Not an independent check of the rules: the floor rates with the pipeline's own
functions (event_sides, rate_sides, k_factor, list_date, the pool), so a defect in them
is in both and this test still passes. What it checks is that the floor does the same
work as the pipeline, so that timing one against the other is fair (bench/run.py
--floor). The FIDE rules are checked independently by tests/test_fide_independent.py."""
from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from bench.floor.fide_floor import main as fide_floor
from tests.conftest import write_rows

STATE = "list_id, player_id, rating, games_total, peak_rating, last_rated, k, inactive"


def fide_inputs(tmp_path: Path) -> dict[str, Path]:
    """K from the ratings' columns, newcomers pooled over months, a two-player match with
    an unrated player (X6), a league whose games span months (rated on the list after its
    last game, from the list in force at its first: X1, X2), a name back after more than
    90 days (another event), games without an event (one event a month), forfeits."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year", "club"], [
        [1, "One", 1980, "A"], [2, "Two", 1980, "A"], [3, "Three", 1980, ""], [4, "Four", 1980, "B"],
        [5, "Five Master", 1970, ""], [6, "Six New", 1990, ""], [7, "Seven Young", 2012, ""],
        [8, "Eight", 1980, ""], [9, "Nine New", 1990, ""], [10, "Ten New", 1995, ""]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_total", "peak_rating"], [
        [1, 2000, 100, 2000], [2, 2000, 100, ""], [3, 2100, "", ""], [4, 1900, 100, 1900],
        [5, 2390, 500, 2410], [7, 1800, 10, 1800], [8, 1600, "", ""]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event"], [
        ["2026-01-10", 1, 2, "1-0", "Club"], ["2026-01-10", 5, 4, "½-½", "Club"],
        ["2026-01-11", 7, 8, "1-0", "Club"],
        ["2026-01-17", 6, 1, "1-0", "Jan open"], ["2026-01-18", 2, 6, "1/2-1/2", "Jan open"],
        ["2026-01-19", 6, 3, "0-1", "Jan open"], ["2026-01-17", 9, 1, "0-1", "Jan open"],
        ["2026-01-18", 2, 9, "1/2-1/2", "Jan open"], ["2026-01-19", 9, 3, "0-1", "Jan open"],
        ["2026-01-20", 7, 10, "0-1", "Match"], ["2026-01-21", 10, 7, "1/2-1/2", "Match"],
        ["2026-02-07", 1, 4, "1-0", "League"], ["2026-03-14", 8, 2, "0-1", "League"],
        ["2026-03-21", 2, 8, "1-0", "League"],
        ["2026-04-11", 2, 1, "1/2-1/2", "League"], ["2026-04-11", 3, 4, "+/-", "League"],
        ["2026-03-07", 6, 4, "1-0", "Mar open"], ["2026-03-08", 8, 6, "0-1", "Mar open"],
        ["2026-03-08", 10, 8, "1-0", "Mar open"], ["2026-03-09", 10, 5, "0-1", "Mar open"],
        ["2026-03-09", 5, 8, "0-1", "Mar open"], ["2026-03-10", 8, 1, "1-0", "Mar open"],
        ["2026-03-11", 3, 8, "0-1", "Mar open"],
        ["2026-04-02", 9, 8, "1-0", ""], ["2026-04-03", 9, 2, "0-1", ""], ["2026-04-20", 9, 4, "1/2-1/2", ""],
        ["2026-04-21", 3, 5, "-/-", ""],
        ["2026-09-05", 1, 2, "0-1", "Club"], ["2026-09-05", 6, 8, "1-0", "Club"],
        ["2026-09-06", 10, 9, "1-0", "Club"], ["2026-09-06", 7, 3, "0-1", "Club"]])
    return {"players": players, "ratings": ratings, "games": games}


@pytest.fixture(params=["fide", "small federation"])
def inputs(request, tmp_path, small_federation):
    return fide_inputs(tmp_path) if request.param == "fide" else small_federation


def test_the_fide_floor_writes_the_pipelines_lists(cli, inputs, tmp_path):
    out, warehouse, floor = tmp_path / "out", tmp_path / "w.duckdb", tmp_path / "floor"
    cli("run", "--system", "fide", "--players", inputs["players"], "--ratings", inputs["ratings"],
        "--games", inputs["games"], "--warehouse", warehouse, "--out", out, "--no-reports")
    result = fide_floor(str(inputs["players"]), str(inputs["ratings"]), str(inputs["games"]), str(floor), True)

    with duckdb.connect(str(warehouse), read_only=True) as con:
        lists = [r[0] for r in con.execute("select list_id from lists where series = 'fide' order by position").fetchall()]
        pipeline_state = con.execute(f"select {STATE} from player_state natural left join fide_state "
                                     "where series = 'fide' order by all").fetchall()
    with duckdb.connect(str(floor / "floor.duckdb"), read_only=True) as con:
        floor_state = con.execute(f"select {STATE} from player_state order by all").fetchall()
    assert result["lists"] == len(lists) > 1 and result["rejected"] == 0
    assert {"read and check", "place", "rate", "store", "publish", "reports", "total"} <= set(result)
    assert floor_state == pipeline_state and any(r[2] is not None for r in floor_state)
    assert_floor_files_are_the_pipelines(floor, out, lists)


def assert_floor_files_are_the_pipelines(floor: Path, out: Path, lists: list[str]) -> None:
    """Five files a list: the revision and the latest as CSV (the same bytes) and Parquet
    (the same table), the state after it (the same table); and a page a list."""
    names = sorted(p.name for p in (out / "lists").iterdir())
    assert names == sorted(p.name for p in (floor / "lists").iterdir())
    assert len(names) == 4 * len(lists)
    for name in names:
        if name.endswith(".csv"):
            assert (floor / "lists" / name).read_bytes() == (out / "lists" / name).read_bytes(), name
        else:
            assert pq.read_table(floor / "lists" / name).equals(pq.read_table(out / "lists" / name)), name
    for list_id in lists:
        assert pq.read_table(floor / "state" / f"{list_id}.parquet").equals(
            pq.read_table(out / "state" / f"{list_id}.parquet")), list_id
        assert (floor / list_id / "index.html").read_text().startswith("<!doctype html>")
