"""docs/scenarios.md's worked example, its commands as printed, on the embedded sample
written as the Belgian history's files (belgium/players.parquet, ratings, games, and the
federation's own lists as federation.parquet: the excerpt of tests/fixtures/belgium): the
national lists, FIDE's beside them, four scenarios, their comparison with the federation's
lists and the seven sources scored. Then what the manual promises of them: a rerun writes
the same bytes, a scenario is never published and follows a late game, the listings' CSV
holds only the listing, a scenario is dropped."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.workflows.helpers import (
    audit_ok,
    commands,
    copied,
    digests,
    evaluated,
    in_manual,
    query,
    said,
    shell,
    user_env,
)
from tests.workflows.inputs import write_csv, write_sample_parquet

WORKED = """\
ratings run --players belgium/players.parquet --ratings belgium/ratings.parquet \\
            --games belgium/games.parquet --warehouse be.duckdb --out be --no-reports      # 15 s
ratings run --system fide --warehouse be.duckdb --out be --no-reports                      # 34 s
echo 'senior_quota = 12' > quota12.toml; echo 'start_value = 1200' > start1200.toml
echo 'brake_weight = 32' > brake32.toml; echo 'compatibility_gap = 500' > gap500.toml
for s in quota12 start1200 brake32 gap500; do ratings scenario $s --rules $s.toml --warehouse be.duckdb; done  # 6-7.5 s each
ratings scenarios --warehouse be.duckdb
ratings compare performance belgium/federation.parquet --warehouse be.duckdb               # 15 s
ratings evaluate --system performance --system fide --scenario quota12 --scenario start1200 \\
    --scenario brake32 --scenario gap500 --ratings belgium/federation.parquet \\
    --warehouse be.duckdb --out be-eval                                                    # 48 s, 7 sources
"""
SCENARIOS = ("quota12", "start1200", "brake32", "gap500")
SOURCES = ("brake32", "federation", "fide", "gap500", "performance", "quota12", "start1200")


@pytest.fixture(scope="module")
def worked(tmp_path_factory) -> tuple[Path, list]:
    folder = tmp_path_factory.mktemp("scenarios")
    write_sample_parquet(folder)
    return folder, [shell(line, folder, expect=None) for line in commands(WORKED)]


def test_the_commands_are_the_manuals():
    assert in_manual("docs/scenarios.md", WORKED)


def test_the_worked_example_runs_as_printed(worked):
    folder, done = worked
    failed = [d for d in done if d.returncode != 0]
    assert not failed, said(failed[0]) if failed else ""
    assert {p.name for p in (folder / "be" / "fide" / "lists").iterdir()} >= {"2019-09.csv", "2019-09.parquet"}
    listed = done[5].stdout.splitlines()
    assert [line.split()[0] for line in listed[1:]] == list(SCENARIOS)
    assert "senior_quota = 12" in listed[1] and "compatibility_gap = 500" in listed[4]
    compared = folder / "reports" / "compare-performance-federation"
    assert {"index.html", "lists.csv", "cohorts.csv", "drift.csv", "accuracy.csv"} <= {p.name for p in compared.iterdir()}
    scored = evaluated(done[-1].stdout)
    assert sorted(scored) == sorted(SOURCES)  # seven sources, on the same games
    assert len({words[1] for words in scored.values()}) == 1
    assert {"accuracy.csv", "calibration.csv"} <= {p.name for p in (folder / "be-eval").iterdir()}
    # Scenarios are never published: the official series only, in be/ and be/fide/.
    assert sorted(p.name for p in (folder / "be").iterdir()) == ["fide", "lists", "state"]
    audit_ok(folder, "--warehouse", "be.duckdb")


def test_a_comparison_and_an_evaluation_run_again_write_the_same_bytes(worked, tmp_path):
    folder = copied(worked[0], tmp_path / "again")
    compared = folder / "reports" / "compare-performance-federation"
    before, scored = digests(compared), digests(folder / "be-eval")
    shell(commands(WORKED)[6], folder)
    shell(commands(WORKED)[7], folder)
    assert digests(compared) == before and digests(folder / "be-eval") == scored


def test_listings_in_csv_hold_only_the_listing_and_a_scenario_is_dropped(worked, tmp_path):
    folder = copied(worked[0], tmp_path / "listings")
    env = user_env(RATINGS_WAREHOUSE="be.duckdb")
    cohorts = shell("ratings compare performance quota12 --table cohorts --format csv", folder, env=env)
    assert cohorts.stdout.splitlines()[0].startswith("decade,") and "Compare took" in cohorts.stderr
    refused = shell("ratings site --out site --system quota12", folder, expect=1, env=env)
    assert ("quota12 is a scenario, and scenarios are never published: look at it with "
            "`ratings compare performance quota12`") in said(refused)
    shell("ratings scenario quota12 --drop", folder, env=env)
    assert [line.split()[0] for line in shell("ratings scenarios", folder, env=env).stdout.splitlines()[1:]] \
        == list(SCENARIOS[1:])
    audit_ok(folder, "--warehouse", "be.duckdb")


def test_a_late_game_revises_the_scenarios_too(worked, tmp_path):
    folder = copied(worked[0], tmp_path / "late")
    write_csv(folder / "late.csv", ["date", "white_id", "black_id", "result"], [["2019-08-30", 13815, 6220, "1-0"]])
    shell("ratings run --games late.csv --warehouse be.duckdb --out be --no-reports", folder)
    revised = query(folder / "be.duckdb", "select series, revision, reason from list_revisions "
                                          "where list_id = '2019-09' and revision > 1 order by series")
    assert {series for series, _, _ in revised} >= {"performance", *SCENARIOS}
    assert all(reason == "late games: submission 4 (late.csv)" for _, _, reason in revised)
    audit_ok(folder, "--warehouse", "be.duckdb")


GLICKO2 = """\
ratings run --players belgium/players.parquet --ratings belgium/ratings.parquet \\
    --games belgium/games.parquet --warehouse be.duckdb --out out --no-reports     # 30 s
ratings run --system fide --warehouse be.duckdb --out out --no-reports             # 49 s
ratings run --system glicko2 --warehouse be.duckdb --out out --no-reports          # 58 s (rate 9.4 s)
ratings evaluate --system performance --system fide --system glicko2 \\
    --ratings belgium/federation.parquet --warehouse be.duckdb --out be-eval       # 40 s
"""


def test_glicko2_beside_the_others_as_its_page_shows(worked, tmp_path):
    """docs/glicko2.md's commands after its first (which writes the Belgian history's files:
    here the sample's), on the warehouse of the worked example: its files already taken in,
    its lists up to date, Glicko-2 added and the four sources scored on the same games."""
    assert in_manual("docs/glicko2.md", GLICKO2)
    folder = copied(worked[0], tmp_path / "glicko2")
    done = [shell(line, folder) for line in commands(GLICKO2)]
    assert "already taken in" in done[0].stdout
    assert (folder / "out" / "glicko2" / "lists" / "2019-09.csv").is_file()
    scored = evaluated(done[-1].stdout)
    assert sorted(scored) == ["federation", "fide", "glicko2", "performance"]
    assert len({words[1] for words in scored.values()}) == 1
    audit_ok(folder, "--warehouse", "be.duckdb")
