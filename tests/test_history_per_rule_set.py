"""A history bound is a rule set's, not the warehouse's (issue 50): in a warehouse holding
the FIDE lists beside the performance lists, a late game inside the performance history
but before the first FIDE list is stored and rated by the performance lists, and kept out
of the FIDE lists with its reason (excluded_games); each rule set gets exactly the lists
and states a warehouse of its own gives."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.as_user import completed
from tests.conftest import write_rows
from tests.test_submissions import query

GAMES = ["date", "white_id", "black_id", "result", "event", "round"]
# The performance Elo's first list, 2027-01, rates the games from 2026-09-01 (R1). FIDE's
# first list is the one after the first event ends (X1): Autumn ends 2026-10-11, in the
# window of list 2026-11 (2026-09-29 … 2026-10-29: monthly, closing 3 days before the 1st),
# so FIDE's history starts with the events ending from 2026-09-29.
SEASON = [["2026-10-10", 1, 2, "1-0", "Autumn", 1], ["2026-10-11", 3, 4, "1-0", "Autumn", 2],
          ["2027-02-06", 2, 3, "1-0", "Winter", 1], ["2027-02-07", 4, 1, "0-1", "Winter", 2]]
# A September rapid reported late: one game of 2026-09-10, inside the performance history
# (2026-09-01 …) and in an event ending before FIDE's (2026-09-29 …).
LATE = [["2026-09-10", 1, 3, "0-1", "September rapid", 1]]
FIDE_REASON = ("date: 2026-09-10 is in an event ending 2026-09-10, before the history of the fide lists starts "
               "(the first list, 2026-11, rates the events ending from 2026-09-29)")


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    return {
        "players": write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                              [[p, f"Player {p}", 1980] for p in range(1, 5)]),
        "ratings": write_rows(tmp_path / "ratings.csv", ["player_id", "rating"],
                              [[1, 1800], [2, 1700], [3, 1600], [4, 1500]]),
        "season": write_rows(tmp_path / "season.csv", GAMES, SEASON),
        "late": write_rows(tmp_path / "late.csv", GAMES, LATE),
    }


def _first_run(cli, files, w: Path, out: Path, *system: str):
    return cli("run", *system, "--players", files["players"], "--ratings", files["ratings"],
               "--games", files["season"], "--warehouse", w, "--out", out, "--no-reports")


def _series_rows(w: Path, series: str) -> dict[str, list]:
    """The series' lists, states and calculations with its rule set's own columns (its
    extension tables), without what only says which run made them."""
    own = {"performance": ("performance_lists", "performance_state", "performance_calculations"),
           "fide": ("fide_lists", "fide_state", "fide_calculations")}[series]
    return {
        "lists": query(w, f"""select * exclude (series, run_id, registry_version) from lists
                              left join {own[0]} using (series, list_id) where series = ? order by position""",
                       [series]),
        "states": query(w, f"""select * exclude (series) from player_state left join {own[1]}
                               using (series, list_id, player_id) where series = ? order by all""", [series]),
        "calculations": query(w, f"""select * exclude (series) from calculations left join {own[2]}
                                     using (series, list_id, player_id) where series = ? order by all""", [series]),
    }


def _published(folder: Path) -> dict[str, bytes]:
    """The published lists and states, by name: the bytes a user gets."""
    return {f"{p.parent.name}/{p.name}": p.read_bytes()
            for sub in ("lists", "state") for p in sorted((folder / sub).glob("*")) if p.is_file()}


def test_each_rule_set_gets_the_lists_a_warehouse_of_its_own_gives(cli, files, tmp_path):
    # The shared warehouse: the performance lists, then the FIDE lists beside them, then the late game.
    shared, shared_out = tmp_path / "shared.duckdb", tmp_path / "shared"
    _first_run(cli, files, shared, shared_out)
    cli("run", "--system", "fide", "--warehouse", shared, "--out", shared_out, "--no-reports")
    taken = cli("run", "--games", files["late"], "--warehouse", shared, "--out", shared_out, "--no-reports").output
    assert "read 1 = accepted 1 + rejected 0" in taken
    assert (f"the fide lists do not rate 1 of these games, filed before their history (row 1: {FIDE_REASON}); the "
            "warehouse's other lists rate them: `ratings rejects --excluded` lists them") in taken
    # A warehouse of each rule set alone, given the same files: the FIDE one refuses the game.
    fide, fide_out = tmp_path / "fide.duckdb", tmp_path / "fide"
    _first_run(cli, files, fide, fide_out, "--system", "fide")
    refused = cli("run", "--games", files["late"], "--warehouse", fide, "--out", fide_out, "--no-reports",
                  rejected=True).output
    assert f"row 1: {FIDE_REASON}" in refused
    national, national_out = tmp_path / "national.duckdb", tmp_path / "national"
    _first_run(cli, files, national, national_out)
    cli("run", "--games", files["late"], "--warehouse", national, "--out", national_out, "--no-reports")

    assert _series_rows(shared, "fide") == _series_rows(fide, "fide")
    assert _series_rows(shared, "performance") == _series_rows(national, "performance")
    assert _published(shared_out / "fide") == _published(fide_out)
    assert _published(shared_out) == _published(national_out)
    # The late game is in the performance list 2027-01 (revised: 3 games; 2027-05 follows from
    # it) and in no FIDE list.
    assert query(shared, "select list_id, revision, games_rated from lists where series = 'performance' "
                         "order by position") == [("2027-01", 2, 3), ("2027-05", 2, 2)]
    assert query(shared, "select sum(games_rated) from lists where series = 'fide'") == [(4,)]
    # Nothing lost: stored once, rated by one series, kept out of the other with why.
    assert query(shared, "select series, reason from excluded_games") == [("fide", FIDE_REASON)]
    listed = cli("rejects", "--excluded", "--format", "csv", "--warehouse", shared).output
    assert listed.splitlines()[1] == f'fide,4,late.csv,4,1,2026-09-10,1,3,0-1,"{FIDE_REASON}"'
    audit = cli("audit", "--warehouse", shared).output
    assert "FAILED" not in audit and "ok     excluded_games_held" in audit
    assert ("note   the fide lists do not rate 1 stored game, filed before their history: `ratings rejects "
            "--excluded` lists them") in audit


def test_a_game_before_every_series_history_is_rejected(cli, files, tmp_path):
    # 2026-08-20: before the performance history (2026-09-01 …) and FIDE's: no series rates it.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _first_run(cli, files, w, out)
    cli("run", "--system", "fide", "--warehouse", w, "--out", out, "--no-reports")
    early = write_rows(tmp_path / "early.csv", GAMES, [["2026-08-20", 1, 3, "0-1", "Summer rapid", 1]])
    result = cli("run", "--games", early, "--warehouse", w, "--out", out, "--no-reports", rejected=True).output
    assert ("row 1: date: 2026-08-20 is before the history of the performance lists starts (the first list, 2027-01, "
            "rates the games from 2026-09-01); date: 2026-08-20 is in an event ending 2026-08-20, before the history "
            "of the fide lists starts (the first list, 2026-11, rates the events ending from 2026-09-29)") in result
    assert query(w, "select count(*) from excluded_games") == [(0,)]


def test_a_scenario_of_a_rule_set_rates_what_its_official_lists_rate(cli, files, tmp_path):
    # A FIDE scenario (K 30 for newcomers) made after the late game is kept out of the FIDE lists is kept out of it
    # too: a scenario is its rule set with other parameters, on the games its lists rate.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    _first_run(cli, files, w, out)
    cli("run", "--system", "fide", "--warehouse", w, "--out", out, "--no-reports")
    cli("run", "--games", files["late"], "--warehouse", w, "--out", out, "--no-reports")
    rules = tmp_path / "k30.toml"
    rules.write_text("k_new = 30\n")
    cli("scenario", "k30", "--system", "fide", "--rules", rules, "--warehouse", w)
    assert query(w, "select list_id from lists where series = 'k30' order by position") == \
        query(w, "select list_id from lists where series = 'fide' order by position")
    assert query(w, "select series from excluded_games order by 1") == [("fide",), ("k30",)]
    cli("scenario", "k30", "--drop", "--warehouse", w)
    assert query(w, "select series from excluded_games") == [("fide",)]


def test_as_a_user_runs_it_the_late_game_is_stored_and_said(files, tmp_path):
    # The console script in a fresh interpreter, in a scratch folder (its default warehouse
    # and output folder), as the README's season runs.
    def ratings(*args: str) -> subprocess.CompletedProcess:
        return completed(tmp_path, *args, code=None)

    first = ratings("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["season"],
                    "--no-reports")
    assert first.returncode == 0, first.stderr
    assert ratings("run", "--system", "fide", "--no-reports").returncode == 0
    late = ratings("run", "--games", files["late"], "--no-reports")
    assert late.returncode == 0 and "Traceback" not in late.stderr, late.stderr
    assert "read 1 = accepted 1 + rejected 0" in late.stdout
    assert "the fide lists do not rate 1 of these games, filed before their history" in late.stdout
    listed = ratings("rejects")
    assert listed.returncode == 0 and "no rejected row is open" in listed.stdout
    assert ("Stored games not rated, filed before the history of a rule set's lists: 1 by the fide lists (the "
            "warehouse's other lists rate them); `ratings rejects --excluded` lists them") in listed.stderr
    assert FIDE_REASON in ratings("rejects", "--excluded").stdout
    audit = ratings("audit")
    assert audit.returncode == 0 and "FAILED" not in audit.stdout
    assert "note   the fide lists do not rate 1 stored game" in audit.stdout
    refused = ratings("rejects", "--excluded", "--closed")
    assert refused.returncode == 2 and "give it without --out, --closed, --all or --warnings" in refused.stderr
