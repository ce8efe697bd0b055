"""A rule set owns its tables, its periods and its initial columns (issue 38): the toy
rule set packaged apart and installed (a federation's own wheel, found through its entry
point) runs every command from the console script; a calendar file does not replace the
periods of a rule set whose periods are its rules, and the run says who took it; the
shared tables hold only what every rule set has; a warehouse of the layout before is
migrated with nothing lost."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from pipeline.systems import IGNORE_INSTALLED
from tests.conftest import PROJECT_DIR, write_rows

TOY = Path(__file__).parent / "toy_rule_set"
CORE_STATE = ["series", "list_id", "player_id", "rating"]


def _query(w: Path, sql: str, params=None) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


@pytest.fixture(scope="module")
def toy_installed(tmp_path_factory) -> dict[str, str]:
    """The toy rule set built and installed into a folder of its own, as `pip install` of a
    federation's package would: its entry point in its dist-info, nothing in pipeline/."""
    folder = tmp_path_factory.mktemp("toy")
    shutil.copytree(TOY, folder / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    target = folder / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(target), str(folder / "src")], check=True, capture_output=True)
    assert (target / "plain_elo" / "schema.sql").is_file()  # the wheel carries its schema
    # Its rule set loaded, as a federation's machine loads it (the suite ignores installed ones).
    return {k: v for k, v in os.environ.items() if k != IGNORE_INSTALLED} | {"PYTHONPATH": str(target),
                                                                            "RATINGS_WAREHOUSE": ""}


def ratings(env: dict, *args, ok: int = 0) -> subprocess.CompletedProcess:
    """The `ratings` console script of this environment (the installed wheel, in CI)."""
    script = Path(sys.executable).parent / "ratings"
    done = subprocess.run([str(script), *map(str, args)], capture_output=True, text=True, env=env)
    assert done.returncode == ok, done.stdout + done.stderr
    return done


def test_a_rule_set_installed_from_its_own_wheel_runs_every_command(toy_installed, small_federation, tmp_path):
    env = toy_installed
    assert "plain-elo" in ratings(env, "--help").stdout  # listed from its entry point
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    # The toy's own initial column: games before the history. 2 has 40, 3 none given; 9 is
    # refused by the toy's own model (ge=0), 10 by its type (not an integer).
    initial = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_before"], [
        [1, 1800, 10], [2, 1700, 40], [3, 1600, ""], [4, 1500, 0], [5, 1400, -3], [6, "", "many"]])
    done = ratings(env, "run", "--system", "plain-elo", "--players", small_federation["players"],
                   "--ratings", initial, "--games", small_federation["games"], "--warehouse", w, "--out", out,
                   ok=3)
    reasons = dict(_query(w, "select row_number, reason from rejects order by 1"))
    # Rows are numbered from the first after the header: player 5 is row 5.
    assert reasons[5] == "games_before: greater_than_or_equal_to(0) for the plain-elo rules ('-3')"
    assert reasons[6].startswith("games_before: not a whole number for the plain-elo rules ('many')")
    assert "rounds" not in done.stdout  # the performance Elo's figures are not a generic heading
    # The toy's own table holds its column, the shared one does not.
    assert [c for (c,) in _query(w, "select column_name from duckdb_columns() where table_name = 'player_state' "
                                    "order by column_index")] == CORE_STATE
    # 2026-Q3 (July-September): 1 played 3 games (10 + 3), 2 played 3 (40 + 3), 6 (new) 2
    # (its forfeit of 3 October is in Q4, and never rated).
    games = dict(_query(w, "select player_id, games from plain_elo_state where list_id = '2026-Q3'"))
    assert (games[1], games[2], games[6]) == (13, 43, 2)
    # A late game: its quarter revised; the card reads the toy's own table.
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"], [["2026-11-15", 4, 3, "1-0"]])
    ratings(env, "run", "--games", late, "--warehouse", w, "--out", out, "--no-reports", ok=0)
    assert _query(w, "select revision from lists where list_id = '2026-Q4'") == [(2,)]
    card = ratings(env, "explain", 3, "--list", "2026-Q4", "--warehouse", w).stdout
    assert "(4 games to date)" in card  # 3 games in Q3, the late one in Q4; no games_before given
    site = tmp_path / "site"
    ratings(env, "site", "--out", site, "--lang", "en", "--warehouse", w)
    assert (site / "en" / "index.html").is_file()
    scores = tmp_path / "scores"
    ratings(env, "evaluate", "--system", "plain-elo", "--warehouse", w, "--out", scores)
    assert (scores / "accuracy.csv").is_file()
    assert "FAILED" not in ratings(env, "audit", "--warehouse", w).stdout


def test_a_calendar_file_leaves_the_periods_of_a_rule_set_that_owns_them(toy_installed, small_federation, tmp_path):
    env = toy_installed
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    calendar = write_rows(tmp_path / "calendar.csv", ["list_id", "window_start", "window_end"], [
        ["2027-01", "2026-09-01", "2026-12-31"], ["2027-05", "2027-01-01", "2027-04-30"]])
    files = ["--players", small_federation["players"], "--ratings", small_federation["ratings"],
             "--games", small_federation["games"], "--calendar", calendar]
    first = ratings(env, "run", *files, "--warehouse", w, "--out", out, "--no-reports").stdout
    assert "the calendar file's windows are the periods of performance" in first
    second = ratings(env, "run", "--system", "plain-elo", "--warehouse", w, "--out", out, "--no-reports").stdout
    assert "plain-elo kept its own periods (they are part of the rules)" in second
    # The performance lists are the file's four-month windows; the toy's stay quarters.
    assert _query(w, "select list_id, window_start::varchar, window_end::varchar from lists "
                     "where series = 'performance' order by position") == [
        ("2027-01", "2026-09-01", "2026-12-31"), ("2027-05", "2027-01-01", "2027-04-30")]
    assert [r[0] for r in _query(w, "select list_id from lists where series = 'plain-elo' order by position")] == [
        "2026-Q3", "2026-Q4", "2027-Q1"]


LAYOUT_8_PERFORMANCE = """
alter table player_state add column archive_performance double;
alter table player_state add column archive_games integer;
alter table calculations add column junior boolean;
alter table calculations add column performance double;
"""


def test_a_warehouse_of_layout_8_is_migrated_with_each_rule_sets_columns_kept(tmp_path):
    """Layout 8 kept the rule sets' columns in the shared tables: migrated, the values are
    in the rule set's own tables (its revisions too), the shared tables lose them."""
    from pipeline import warehouse

    w = tmp_path / "old.duckdb"
    with duckdb.connect(str(w)) as con:  # layout 8, as layout 6's schema.sql, 7.sql and 8.sql made it
        con.execute((PROJECT_DIR / "tests" / "fixtures" / "schema_layout6.sql").read_text())
        for n in (7, 8):
            con.execute((warehouse.SQL_DIR / "migrations" / f"{n}.sql").read_text())
        con.execute("insert into warehouse_version values (8)")
        con.execute(LAYOUT_8_PERFORMANCE)
        con.execute("insert into series values ('performance', 'performance', false, '{}', 10, 1, 1)")
        con.execute("""insert into lists (series, list_id, position, revision, input_signature, window_start,
                       window_end, run_id, games_rated, forfeits, players_rated, new_players, rounds_used)
                       values ('performance', '2027-01', 0, 2, 1, '2026-09-01', '2026-12-31', 1, 10, 0, 5, 1, 3)""")
        con.execute("insert into player_state values ('performance', '2027-01', 6, null, 1843.5, 2)")
        con.execute("create table player_state_revisions as select 1 as revision, * from player_state")
    with pytest.raises(warehouse.WarehouseLayout, match="ratings validate"):
        warehouse.connect(w, read_only=True)  # readers join the own tables: migrated first
    warehouse.connect(w).close()
    assert _query(w, "select * from performance_state") == [("performance", "2027-01", 6, 1843.5, 2)]
    assert _query(w, "select * from performance_state_revisions") == [(1, "performance", "2027-01", 6, 1843.5, 2)]
    assert _query(w, "select rounds_used from performance_lists") == [(3,)]
    assert [c for (c,) in _query(w, "select column_name from duckdb_columns() where table_name = 'player_state' "
                                    "order by column_index")] == CORE_STATE
    # No series of the other rule sets: their tables are not made.
    tables = {t for (t,) in _query(w, "select table_name from duckdb_tables()")}
    assert "fide_state" not in tables and "go_state" not in tables
    assert _query(w, "select max(version) from warehouse_version") == [(warehouse.WAREHOUSE_VERSION,)]


def test_no_rule_set_alters_a_shared_table():
    """Each rule set's schema.sql makes its own tables only (RuleSet.extensions)."""
    from pipeline import systems

    for name in systems.names():
        schema = systems.rule_set_class(name)().schema() or ""
        assert "alter table" not in schema.lower(), name


def test_games_reach_a_rule_set_with_their_day_and_key_in_the_documented_order():
    import numpy as np

    from pipeline.ruleset.games import WindowGames

    games = WindowGames(np.array([1, 1, 1]), np.array([0, 0, 1]), np.array([1, 1, 2]), np.array([1.0, 1.0, 0.5]),
                        np.array([0]), {"day": np.array([20, 10, 10]), "game_key": np.array([5, 9, 7])})
    # Played order: day 10 (keys 7 then 9), then day 20.
    assert games.chronological().tolist() == [2, 1, 0]


def test_window_games_always_carry_day_and_key(small_federation, tmp_path, cli):
    w = tmp_path / "w.duckdb"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"], "--games",
        small_federation["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    from pipeline import warehouse
    from pipeline.rate import periods_of
    from pipeline.rate.series import series_in

    con = warehouse.connect(w, read_only=True)
    series = series_in(con)[0]
    con.execute("set variable series = 'performance'")
    periods = periods_of(con, series)
    games = series.rule_set.period_games(con, "performance", periods).of(0)
    assert set(games.extra) >= {"day", "game_key"}
    days = pd.to_datetime(games.extra["day"][games.chronological()], unit="D")
    assert list(days) == sorted(days) and len(days) == 8  # 2026-09-05 ... 2026-09-26: the window's 8 played
    con.close()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def shared_and_alone(tmp_path_factory):
    """The small federation rated by performance, FIDE, Glicko-2 and a scenario in one
    warehouse, and by each alone in a warehouse of its own: each series' published files
    and site."""
    from tests.conftest import cli_runner, write_small_federation

    cli = cli_runner()
    root = tmp_path_factory.mktemp("shared")
    fed = write_small_federation(root)
    files = ["--players", fed["players"], "--ratings", fed["ratings"], "--games", fed["games"]]
    (root / "quota3.toml").write_text("senior_quota = 3\n")
    shared, alone = {}, {}
    w = root / "shared.duckdb"
    for system in ("performance", "fide", "glicko2"):
        cli("run", "--system", system, *files, "--warehouse", w, "--out", root / "shared-out", "--no-reports")
    cli("scenario", "quota3", "--rules", root / "quota3.toml", "--warehouse", w)
    for system in ("performance", "fide", "glicko2"):
        folder = root / "shared-out" if system == "performance" else root / "shared-out" / system
        cli("site", "--system", system, "--lang", "en", "--out", root / f"shared-site-{system}", "--warehouse", w)
        shared[system] = (_files(folder / "lists") | {f"state/{k}": v for k, v in _files(folder / "state").items()},
                          _files(root / f"shared-site-{system}"))
        own = root / f"{system}.duckdb"
        cli("run", "--system", system, *files, "--warehouse", own, "--out", root / f"{system}-out", "--no-reports")
        cli("site", "--system", system, "--lang", "en", "--out", root / f"{system}-site", "--warehouse", own)
        alone[system] = (_files(root / f"{system}-out" / "lists")
                         | {f"state/{k}": v for k, v in _files(root / f"{system}-out" / "state").items()},
                         _files(root / f"{system}-site"))
    return shared, alone, w


@pytest.mark.parametrize("system", ["performance", "fide", "glicko2"])
def test_each_series_of_a_shared_warehouse_publishes_what_it_publishes_alone(shared_and_alone, system):
    shared, alone, _ = shared_and_alone
    published, site = shared[system]
    assert published and published == alone[system][0]
    assert site and site.keys() == alone[system][1].keys()
    differ = [name for name in site if site[name] != alone[system][1][name]]
    assert differ == []


def test_the_shared_tables_hold_only_what_every_rule_set_has(shared_and_alone):
    _, _, w = shared_and_alone
    columns = {t: [c for (c,) in _query(w, "select column_name from duckdb_columns() where table_name = ? "
                                           "order by column_index", [t])] for t in ("player_state", "calculations")}
    assert columns["player_state"] == CORE_STATE
    assert columns["calculations"] == ["series", "list_id", "player_id", "previous_rating", "games_played", "games",
                                       "score", "rule", "unrounded", "rating"]
    # Each rule set's own rows are its series' alone (the scenario's are the performance Elo's).
    assert _query(w, "select distinct series from performance_state order by 1") == [("performance",), ("quota3",)]
    assert _query(w, "select distinct series from fide_state") == [("fide",)]
    assert _query(w, "select distinct series from glicko2_state") == [("glicko2",)]
