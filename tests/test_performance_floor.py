"""The performance Elo's floor (bench/floor/performance_floor.py) does the work of
`ratings run` bare: the same lists, byte for byte, and the same states.

Not an independent check of the rules: the floor rates with the pipeline's own array
functions (rate_list, published, nominal_calendar), so a defect in them is in both and
this test still passes. What it checks is that the floor does the same work as the
pipeline, so that timing one against the other is fair (bench/run.py --floor). The rules
are checked independently by tests/test_reference.py (bench/reference.py imports
nothing from the pipeline)."""
from __future__ import annotations

import duckdb

from bench.floor.performance_floor import main as performance_floor
from tests.test_fide_floor import assert_floor_files_are_the_pipelines

# The states as published (the performance Elo's RuleSet.published_state)
STATE = "list_id, player_id, rating::integer, archive_performance, nullif(archive_games, 0)"


def test_the_performance_floor_writes_the_pipelines_lists(cli, small_federation, tmp_path):
    # The small federation, and a game of a later season after an empty window (a list
    # with no game, whose players keep their published ratings), and a forfeit.
    games = small_federation["games"]
    with open(games, "a", encoding="utf-8") as fh:
        fh.write("2027-10-10,1,2,1-0,,\n2027-10-11,3,4,+/-,,\n")
    out, warehouse, floor = tmp_path / "out", tmp_path / "w.duckdb", tmp_path / "floor"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", games, "--warehouse", warehouse, "--out", out, "--no-reports")
    result = performance_floor(str(small_federation["players"]), str(small_federation["ratings"]), str(games),
                               str(floor), True)

    with duckdb.connect(str(warehouse), read_only=True) as con:
        lists = [r[0] for r in con.execute("select list_id from lists order by position").fetchall()]
        pipeline_state = con.execute(f"select {STATE} from player_state natural left join performance_state "
                                     "order by all").fetchall()
    with duckdb.connect(str(floor / "floor.duckdb"), read_only=True) as con:
        floor_state = con.execute(f"select {STATE} from player_state order by all").fetchall()
    assert result["lists"] == len(lists) > 3 and result["rejected"] == 0
    assert {"read and check", "place", "rate", "store", "publish", "reports", "total"} <= set(result)
    assert floor_state == pipeline_state and any(r[3] is not None for r in floor_state)  # archives too
    assert_floor_files_are_the_pipelines(floor, out, lists)
