"""Every SQL stage declares its grain in its header; the grain must be unique."""
from __future__ import annotations

import re

import duckdb
import pytest

from pipeline.config import SQL_DIR
from pipeline.warehouse import stage, stage_sql

# Stages that read the transient tables of one recomputation (new_*, changed), or
# that hold rows only once a list is revised: their grain is checked in
# tests/test_revisions.py, where they run.
TRANSIENT = {"30_rating_changes", "31_changed_lists", "32_revision_reasons", "52_published_changes"}
STAGES = sorted(p.stem for p in SQL_DIR.glob("[0-9]*.sql") if p.stem not in TRANSIENT)


def grain_of(name: str) -> list[str]:
    header = (SQL_DIR / f"{name}.sql").read_text()
    match = re.search(r"^-- grain: (.+)$", header, flags=re.M)
    assert match, f"sql/{name}.sql has no grain line"
    return [c.strip() for c in match.group(1).split(",")]


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory, small_federation_module):
    from click.testing import CliRunner

    from pipeline.cli import main
    tmp = tmp_path_factory.mktemp("grain")
    files = small_federation_module
    result = CliRunner().invoke(main, ["run", "--players", str(files["players"]), "--ratings", str(files["ratings"]),
                                       "--games", str(files["games"]), "--warehouse", str(tmp / "w.duckdb"),
                                       "--out", str(tmp / "out")])
    assert result.exit_code == 0, result.output
    con = duckdb.connect(str(tmp / "w.duckdb"))
    # What pipeline/rate/ and pipeline/publish/ give the stages: the series, its parameters,
    # its calendar windows, the periods to rate.
    from pipeline import systems
    con.execute("set variable series = 'performance'")
    con.execute("set variable parameters = '{}'")
    con.execute("set variable estimates = true")
    systems.rule_set("performance").place_games(con)  # series_calendar and placed_games
    from pipeline.rate.series import own_views, series_in
    own_views(con, series_in(con)[0])  # series_player_state: the state with the rule set's own columns
    con.register("lists_to_rate", stage(con, "20_lists").df())
    con.execute("set variable periods_are = 'windows'")  # the corrections in force, as the signatures read them
    con.execute(f"create temp table corrections_in_force as {stage_sql('corrections_in_force')}")
    return con


@pytest.fixture(scope="module")
def small_federation_module(tmp_path_factory):
    from tests.conftest import small_federation
    return small_federation.__wrapped__(tmp_path_factory.mktemp("fed"))


@pytest.mark.parametrize("name", STAGES)
def test_grain_is_unique(warehouse, name):
    keys = grain_of(name)
    rel = stage(warehouse, name)
    assert rel.shape[0] > 0, f"sql/{name}.sql returned nothing on the small federation"
    dupes = warehouse.sql(f"select {', '.join(keys)}, count(*) from rel group by all having count(*) > 1").fetchall()
    assert dupes == []


@pytest.mark.parametrize("path", sorted(SQL_DIR.rglob("*.sql")), ids=lambda p: p.name)
def test_every_sql_file_says_what_it_reads(path):
    if path.name in ("schema.sql", "views.sql") or path.parent.name == "migrations":
        return  # definitions, not stages
    text = path.read_text()
    assert re.search(r"^-- inputs: ", text, flags=re.M) and re.search(r"^-- grain: ", text, flags=re.M)
