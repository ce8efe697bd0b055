"""A rule set from an installed package that fails (issue 50): it is named, with its
package; it registers nothing; it blocks no other rule set's run, audit or publication;
what it returns is checked (NaN ratings, columns of different lengths); a rule set whose
name is not a plain name is refused when it loads; and a warehouse whose rule set package
is gone still runs, audits and publishes the others, and can drop its lists.

The failing rule sets are the toy's (tests/toy_rule_set/) with one fault each, in a
package of their own (`failing-rules`), built and installed apart as a federation's
would be; every command runs from the console script, as a user runs it."""
from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import duckdb
import numpy as np
import pytest

from pipeline.systems import IGNORE_INSTALLED
from tests.as_user import completed
from tests.conftest import write_rows, write_small_federation

TOY = Path(__file__).parent / "toy_rule_set"

PYPROJECT = """[build-system]
requires = ["setuptools>=61", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "failing-rules"
version = "0.1.0"

[project.entry-points."ratings.rule_sets"]
elo-flaky = "failing_rules.flaky"
elo-short = "failing_rules.short"
elo-nan = "failing_rules.nan"
"../escape" = "failing_rules.escape"

[tool.setuptools]
packages = ["failing_rules"]
"""

# Each fault a module of its own (a rule set's module defines RULE_SET), on the toy's rules
# and its own table (the toy's schema.sql).
MODULES = {
    "__init__.py": '''
from pathlib import Path

import plain_elo


class Faulty(plain_elo.PlainElo):
    def schema(self):
        return (Path(plain_elo.__file__).parent / "schema.sql").read_text()
''',
    "flaky.py": '''
import os

from failing_rules import Faulty


class Flaky(Faulty):
    """The toy, which fails whenever ELO_FAIL is set (as a package's bug meets some data)."""
    name = "elo-flaky"

    def rate_period(self, state, games, period, fixes):
        if os.environ.get("ELO_FAIL"):
            return 1 / 0
        return super().rate_period(state, games, period, fixes)


RULE_SET = Flaky
''',
    "short.py": '''
from failing_rules import Faulty


class Short(Faulty):
    """Its list's ratings one shorter than its players."""
    name = "elo-short"

    def rate_period(self, state, games, period, fixes):
        outcome = super().rate_period(state, games, period, fixes)
        outcome.rows["player_state"]["rating"] = outcome.rows["player_state"]["rating"][1:]
        return outcome


RULE_SET = Short
''',
    "nan.py": '''
import numpy as np

from failing_rules import Faulty


class Nan(Faulty):
    """Every rating NaN (a parameter read as NaN, say): the toy keeps no row for them."""
    name = "elo-nan"

    def rate_period(self, state, games, period, fixes):
        outcome = super().rate_period(state, games, period, fixes)
        outcome.state.rating[:] = np.nan
        keep = ~np.isnan(outcome.rows["player_state"]["rating"] * np.nan)
        outcome.rows["player_state"] = {k: v if k == "list_id" else v[keep]
                                        for k, v in outcome.rows["player_state"].items()}
        return outcome


RULE_SET = Nan
''',
    "escape.py": '''
from failing_rules import Faulty


class Escape(Faulty):
    name = "../escape"


RULE_SET = Escape
''',
}


def _install(source: Path, target: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(target), str(source)], check=True, capture_output=True)


@pytest.fixture(scope="module")
def packages(tmp_path_factory) -> dict[str, str]:
    """The toy's wheel and the failing rules' wheel, each installed in a folder of its own:
    PYTHONPATH with both, or with neither (the packages uninstalled)."""
    folder = tmp_path_factory.mktemp("packages")
    shutil.copytree(TOY, folder / "toy", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    _install(folder / "toy", folder / "toy-site")
    (folder / "failing" / "failing_rules").mkdir(parents=True)
    (folder / "failing" / "pyproject.toml").write_text(PYPROJECT)
    for name, text in MODULES.items():
        (folder / "failing" / "failing_rules" / name).write_text(text.lstrip())
    _install(folder / "failing", folder / "failing-site")
    return {"installed": os.pathsep.join(str(folder / f) for f in ("toy-site", "failing-site")), "gone": ""}


def ratings(folder: Path, path: str, *args, ok: int = 0, fail: bool = False) -> subprocess.CompletedProcess:
    """`ratings` in `folder` with the packages of PYTHONPATH `path`; ELO_FAIL set when `fail`."""
    # The test's own path kept after the packages' (the pipeline under test, when given there).
    env = os.environ | {"PYTHONPATH": os.pathsep.join(p for p in (path, os.environ.get("PYTHONPATH")) if p),
                        "RATINGS_WAREHOUSE": ""}
    env.pop("ELO_FAIL", None)
    env.pop(IGNORE_INSTALLED, None)  # its packages' rule sets loaded, as a federation's machine loads them
    if fail:
        env["ELO_FAIL"] = "1"
    return completed(folder, *args, code=ok, env=env)


def _query(w: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql).fetchall()


@pytest.fixture
def federation(tmp_path) -> Path:
    """The small federation's files, a late game beside them, in a scratch folder."""
    write_small_federation(tmp_path)
    write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"], [["2026-11-15", 4, 3, "1-0"]])
    return tmp_path


FILES = ["--players", "players.csv", "--ratings", "ratings.csv", "--games", "games.csv"]
OUT = ["--warehouse", "w.duckdb", "--out", "out", "--no-reports"]


def test_a_rule_set_that_fails_at_its_first_run_registers_nothing(packages, federation):
    installed = packages["installed"]
    ratings(federation, installed, "run", *FILES, *OUT)
    failed = ratings(federation, installed, "run", "--system", "elo-flaky", *OUT, ok=1, fail=True)
    assert ("Error: the elo-flaky lists were not computed: the rule set elo-flaky (the package failing-rules "
            "0.1.0) failed on 2026-Q3: ZeroDivisionError: division by zero") in failed.stderr
    assert "every other rule set's lists were rated and published" in failed.stderr
    w = federation / "w.duckdb"
    assert _query(w, "select series from series") == [("performance",)]
    assert _query(w, "select count(*) from duckdb_tables() where table_name = 'plain_elo_state'") == [(0,)]
    assert not (federation / "out" / "elo-flaky").exists()
    # Nothing of it stays to fail the next runs: a late game revises the official lists.
    ratings(federation, installed, "run", "--games", "late.csv", *OUT)
    assert _query(w, "select revision from lists where list_id = '2027-01'") == [(2,)]


def test_a_rule_set_that_fails_later_blocks_no_other(packages, federation):
    installed, w = packages["installed"], federation / "w.duckdb"
    ratings(federation, installed, "run", *FILES, *OUT)
    ratings(federation, installed, "run", "--system", "elo-flaky", *OUT)
    failed = ratings(federation, installed, "run", "--games", "late.csv", *OUT, ok=1, fail=True)
    assert "the elo-flaky lists were not computed" in failed.stderr and "ZeroDivisionError" in failed.stderr
    # The official lists took the late game and were published; the failing series is as it was.
    assert _query(w, "select series, list_id, revision from lists where revision > 1 order by 1, 2") == [
        ("performance", "2027-01", 2), ("performance", "2027-05", 2)]
    assert (federation / "out" / "lists" / "2027-01-r2.csv").is_file()
    assert "Publish elo-flaky" in failed.stdout  # its lists as they were, still published
    assert "FAILED" not in ratings(federation, installed, "audit", "--warehouse", "w.duckdb").stdout
    ratings(federation, installed, "site", "--lang", "en", "--out", "site", "--warehouse", "w.duckdb")
    # Mended, it catches up: the quarter of the late game is revised.
    ratings(federation, installed, "run", *OUT)
    assert _query(w, "select list_id, revision from lists where series = 'elo-flaky' and revision > 1 order by 1") == [
        ("2026-Q4", 2), ("2027-Q1", 2)]


@pytest.mark.parametrize("system, what", [
    # 8 players have a state after 2026-Q3 (1 to 8): the toy keeps their 8 ids and 7 ratings.
    ("elo-short", "returned player_state columns of different lengths (player_id 8, rating 7, games 8) for 2026-Q3"),
    # Players 1 to 5 start rated (the initial ratings); every rating NaN leaves no one on the list.
    ("elo-nan", "returned no rating (every rating NaN, or no row) for 2026-Q3, though 5 players were rated "
                "before it: the list would be published empty"),
])
def test_what_a_rule_set_returns_is_checked(packages, federation, system, what):
    installed, w = packages["installed"], federation / "w.duckdb"
    ratings(federation, installed, "run", *FILES, *OUT)
    failed = ratings(federation, installed, "run", "--system", system, "--games", "late.csv", *OUT, ok=1)
    assert f"the {system} lists were not computed: the rule set {system} (the package failing-rules 0.1.0) " \
           f"{what}" in failed.stderr
    assert _query(w, "select series from series") == [("performance",)]
    assert _query(w, "select max(revision) from lists") == [(2,)]  # the late game taken by the official lists
    assert not (federation / "out" / system).exists()


def test_a_rule_set_whose_name_is_not_a_plain_name_is_refused(packages, federation):
    installed = packages["installed"]
    assert "escape" not in ratings(federation, installed, "--help").stdout
    refused = ratings(federation, installed, "run", "--system", "../escape", *FILES, *OUT, ok=2)
    assert ("the rule set '../escape' of the package failing-rules 0.1.0 is refused: its name is not a plain name "
            "(lower-case letters, digits, _ and -, at most 40), and it names the lists' folder") in refused.stderr
    assert not (federation / "escape").exists() and not (federation / "out").exists()


def test_a_warehouse_whose_rule_set_package_is_gone_runs_the_others_and_drops_it(packages, federation):
    installed, gone, w = packages["installed"], packages["gone"], federation / "w.duckdb"
    ratings(federation, installed, "run", *FILES, *OUT)
    ratings(federation, installed, "run", "--system", "plain-elo", *OUT)
    # The packages uninstalled: the official lists still take a late game and are published.
    run = ratings(federation, gone, "run", "--games", "late.csv", *OUT)
    said = ("the plain-elo lists are left as they are: no rule set 'plain-elo': the rule sets are performance, "
            "fide, go-belgium, go-ffg1984, glicko2; install its package again, or drop them: "
            "ratings series --drop plain-elo")
    assert f"Note: {said}" in run.stdout
    assert _query(w, "select series, list_id, revision from lists where revision > 1 order by 2") == [
        ("performance", "2027-01", 2), ("performance", "2027-05", 2)]
    audit = ratings(federation, gone, "audit", "--warehouse", "w.duckdb", ok=1)
    assert "FAILED series_rule_sets: 1 rows" in audit.stdout and said in audit.stdout
    assert audit.stdout.count("  ok ") == 9  # every other audit ran (own_tables_grain of the others)
    ratings(federation, gone, "site", "--lang", "en", "--out", "site", "--warehouse", "w.duckdb")
    refused = ratings(federation, gone, "explain", 3, "--list", "2026-Q4", "--system", "plain-elo",
                      "--warehouse", "w.duckdb", ok=1)
    assert said in refused.stderr
    listed = ratings(federation, gone, "series", "--format", "csv", "--warehouse", "w.duckdb").stdout
    assert listed.splitlines()[:2] == ["series,rule_set,kind,lists,from",
                                       "performance,performance,official,2,the pipeline's own"]
    assert listed.splitlines()[2] == ("plain-elo,plain-elo,official,3,\"cannot be loaded: no rule set 'plain-elo': "
                                      "the rule sets are performance, fide, go-belgium, go-ffg1984, glicko2\"")
    kept = ratings(federation, gone, "series", "--drop", "performance", "--warehouse", "w.duckdb", ok=1)
    assert "'performance' is the official lists of the rule set performance, which is installed" in kept.stderr
    dropped = ratings(federation, gone, "series", "--drop", "plain-elo", "--warehouse", "w.duckdb")
    assert dropped.stdout == "Series plain-elo dropped (3 lists).\n"
    assert _query(w, "select series from series") == [("performance",)]
    assert _query(w, "select count(*) from plain_elo_state") == [(0,)]
    assert "FAILED" not in ratings(federation, gone, "audit", "--warehouse", "w.duckdb").stdout


# What checked_outcome refuses, rule by rule, on a list 2027-01 of four players: 1, 2 and 4
# rated before it (1500, 1600, 1700), 3 not; player 1 played (a calculation), the others did not.
IDS, BEFORE = np.array([1, 2, 3, 4]), np.array([1500.0, 1600.0, np.nan, 1700.0])
STATE = {"list_id": "2027-01", "player_id": np.array([1, 2, 4]), "rating": np.array([1510.0, 1600.0, 1700.0])}
PLAYED = {"list_id": "2027-01", "player_id": np.array([1]), "rating": np.array([1510.0])}


@pytest.mark.parametrize("after, rows, what", [
    # as it should be: 1 moved, 2 and 4 kept their ratings
    ([1510, 1600, np.nan, 1700], {"player_state": STATE, "calculations": PLAYED}, None),
    # a player who played may leave the list (FIDE's floor, B02 7.2.1): 1 unrated after its games
    ([np.nan, 1600, np.nan, 1700], {"player_state": dict(STATE, player_id=np.array([2, 4]),
                                                         rating=np.array([1600.0, 1700.0])),
                                    "calculations": PLAYED}, None),
    # 2 did not play, and lost its rating to NaN
    ([1510, np.nan, np.nan, 1700], {"player_state": STATE, "calculations": PLAYED},
     "NaN as the rating of 1 player for 2027-01, rated before it and without a game in it (player 2 had 1600)"),
    ([1510, 1600, np.nan, 1700], {"player_state": dict(STATE, rating=np.array([np.inf, 1600.0, 1700.0]))},
     "infinite values of player_state.rating (1 player) for 2027-01"),
    ([1510, 1600, np.nan, 1700], {"player_state": STATE, "games": {"list_id": "2027-01", "x": np.array([1])}},
     "rows of games, a table it does not own (its tables: player_state, calculations) for 2027-01"),
    ([1510, 1600, np.nan, 1700], {"player_state": dict(STATE, list_id="2027-05")},
     "player_state rows of the list '2027-05' for 2027-01"),
    ([1510, 1600, 1700], {"player_state": STATE}, "a state of 3 ratings for 4 players for 2027-01"),
    # everyone played and every rating is NaN: the list would hold no one
    ([np.nan] * 4, {"player_state": dict(STATE, rating=np.full(3, np.nan)),
                    "calculations": dict(PLAYED, player_id=IDS, rating=np.full(4, np.nan))},
     "no rating (every rating NaN, or no row) for 2027-01, though 3 players were rated before it: the list would be "
     "published empty"),
])
def test_what_the_pipeline_refuses_to_store(after, rows, what):
    from pipeline import systems
    from pipeline.rate.contract import RuleSetFailed, checked_outcome
    from pipeline.rate.series import Series
    from pipeline.ruleset.interface import Outcome, Period

    series = Series("performance", systems.rule_set("performance"), 1)
    period = Period(0, "2027-01", dt.date(2026, 9, 1), dt.date(2026, 12, 31))
    figures = {"games_rated": 3, "forfeits": 0, "players_rated": 3, "new_players": 0, "rounds_used": 1,
               "players_still_moving": 0}  # the four of every list, and the performance Elo's own
    outcome = Outcome(SimpleNamespace(ids=IDS, rating=np.array(after, dtype=float)), rows, figures, None)
    if what is None:
        assert checked_outcome(series, period, IDS, BEFORE, outcome, ("player_state", "calculations")) is outcome
        return
    with pytest.raises(RuleSetFailed) as refused:
        checked_outcome(series, period, IDS, BEFORE, outcome, ("player_state", "calculations"))
    assert str(refused.value) == ("the performance lists were not computed: the rule set performance (the pipeline's "
                                  f"own) returned {what}")


def test_a_series_whose_name_is_not_a_plain_name_publishes_nothing_outside_out(cli, small_federation, tmp_path):
    """A warehouse written by other means, its FIDE series renamed ../x: read, its name is
    refused as a rule set's would be, nothing is written outside --out, and it can be dropped."""
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    files = ["--players", small_federation["players"], "--ratings", small_federation["ratings"], "--games",
             small_federation["games"]]
    cli("run", *files, "--warehouse", w, "--out", out, "--no-reports")
    cli("run", "--system", "fide", "--warehouse", w, "--out", out, "--no-reports")
    with duckdb.connect(str(w)) as con:
        for (table,) in con.execute("""select distinct c.table_name from duckdb_columns() c
                                       join duckdb_tables() t using (schema_name, table_name)
                                       where c.column_name = 'series' and c.schema_name = 'main'""").fetchall():
            con.execute(f"update \"{table}\" set series = '../x' where series = 'fide'")
    published = cli("publish", "--warehouse", w, "--out", out)
    assert "the ../x lists are left as they are: its name '../x' is not a plain name" in published.output
    assert not (tmp_path / "x").exists()
    assert cli("series", "--drop", "../x", "--warehouse", w).output == "Series ../x dropped (5 lists).\n"
