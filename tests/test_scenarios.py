"""Scenarios: a rule set with other parameters, rated beside the official lists on the
same games, never published, recomputed when the games change, dropped on request."""
from __future__ import annotations

import duckdb
import pytest

from pipeline.simulate import simulate
from tests.conftest import cli_runner, copy_built, write_rows

# The columns that say what a list is (not when or in which run it was computed).
LIST_FIGURES = ("list_id", "position", "revision", "window_start", "window_end", "games_rated", "forfeits",
                "players_rated", "new_players", "estimated_players", "rounds_used", "players_still_moving",
                "unanchored_players", "parameters")


@pytest.fixture(scope="module")
def federation(tmp_path_factory):
    """A simulated federation of 300 players over three windows, and a rules file
    lowering the senior quota from 16 to 12."""
    folder = tmp_path_factory.mktemp("federation")
    files = simulate(300, 3, 7, folder / "sim")
    (folder / "quota12.toml").write_text("senior_quota = 12\n")
    return files, folder / "quota12.toml"


def _inputs(files):
    return ["--players", files["players"], "--ratings", files["ratings"], "--games", files["games"]]


@pytest.fixture(scope="module")
def with_scenario_once(federation, tmp_path_factory):
    files, rules = federation
    folder = tmp_path_factory.mktemp("with_scenario")
    cli = cli_runner()
    w = folder / "w.duckdb"
    cli("run", *_inputs(files), "--warehouse", w, "--out", folder / "out", "--no-reports")
    result = cli("scenario", "quota12", "--rules", rules, "--warehouse", w)
    assert "Rate scenario quota12" in result.output
    return folder


@pytest.fixture
def with_scenario(with_scenario_once, tmp_path):
    """The warehouse with the scenario quota12 (and out/ beside it): a copy for this test
    of the one the module made once."""
    return copy_built(with_scenario_once, tmp_path)[0]


def _rows(w, sql, params):
    con = duckdb.connect(str(w), read_only=True)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def _lists(w, series):
    return _rows(w, f"select {', '.join(LIST_FIGURES)} from lists left join performance_lists using (series, list_id) "
                 "where series = ? order by position", [series])


def _states(w, series):
    return _rows(w, "select list_id, player_id, p.rating, p.archive_performance, p.archive_games, c.rule, "
                    "c.unrounded, c.performance, c.games from (player_state natural left join performance_state) p "
                    "left join (calculations natural left join performance_calculations) c "
                    "using (series, list_id, player_id) where series = ? "
                    "order by list_id, player_id", [series])


def test_a_scenario_gives_the_lists_of_a_warehouse_run_with_its_rules(cli, federation, with_scenario, tmp_path):
    files, rules = federation
    second = tmp_path / "second.duckdb"
    cli("run", *_inputs(files), "--rules", rules, "--warehouse", second, "--out", tmp_path / "out2", "--no-reports")
    assert _lists(with_scenario, "quota12") == _lists(second, "performance")
    assert _states(with_scenario, "quota12") == _states(second, "performance")
    # Not vacuous: the lower quota changes some rating of the official lists.
    assert _states(with_scenario, "quota12") != _states(with_scenario, "performance")


def test_scenarios_are_listed_and_never_published(cli, with_scenario, tmp_path):
    listed = cli("scenarios", "--warehouse", with_scenario).output
    assert "quota12" in listed and "senior_quota = 12" in listed and "performance" in listed
    out = tmp_path / "published"
    cli("publish", "--warehouse", with_scenario, "--out", out, "--no-reports")
    assert sorted(p.name for p in out.iterdir()) == ["lists", "state"]  # no quota12/ beside them
    refused = cli("publish", "--system", "quota12", "--warehouse", with_scenario, "--out", out, ok=False)
    assert refused.exit_code != 0 and "Traceback" not in refused.output


def test_the_reading_commands_take_a_scenario(cli, with_scenario, tmp_path):
    player, list_id = _rows(with_scenario, "select player_id, list_id from calculations where series = 'quota12' "
                                           "and games > 0 order by list_id, player_id limit 1", [])[0]
    card = cli("explain", player, "--list", list_id, "--system", "quota12", "--warehouse", with_scenario).output
    assert f"{player}" in card and list_id in card
    cli("export", "history", "--system", "quota12", "--warehouse", with_scenario, "--out", tmp_path / "history")
    assert len(list((tmp_path / "history").iterdir())) == 3


def test_a_late_game_recomputes_the_scenario_too(cli, federation, with_scenario, tmp_path):
    files, _ = federation
    first_list, start = _rows(with_scenario, "select list_id, window_start from lists where series = 'quota12' "
                                             "order by position limit 1", [])[0]
    a, b = _rows(with_scenario, "select player_id from calculations where series = 'quota12' and list_id = ? "
                                "and games > 0 order by player_id limit 2", [first_list])
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"],
                      [[start.isoformat(), a[0], b[0], "1-0"]])
    result = cli("run", "--games", late, "--warehouse", with_scenario, "--out", tmp_path / "out", "--no-reports")
    assert "Rate scenario quota12" in result.output
    revised = _rows(with_scenario, "select revision, reason from list_revisions where series = 'quota12' "
                                   "and list_id = ? order by revision", [first_list])
    assert [r[0] for r in revised] == [1, 2] and "game" in revised[1][1]


def test_a_dropped_scenario_leaves_nothing(cli, with_scenario):
    assert "dropped (3 lists)" in cli("scenario", "quota12", "--drop", "--warehouse", with_scenario).output
    for table in ("series", "lists", "player_state", "calculations", "list_revisions"):
        assert _rows(with_scenario, f"select count(*) from {table} where series = 'quota12'", []) == [(0,)], table
    assert _lists(with_scenario, "performance")  # the official lists stay
    assert "no scenario" in cli("scenarios", "--warehouse", with_scenario).output
    refused = cli("scenario", "performance", "--drop", "--warehouse", with_scenario, ok=False)
    assert refused.exit_code == 1 and "official lists" in refused.output


def test_a_scenario_refused_at_its_rating_leaves_nothing(cli, federation, with_scenario):
    _, rules = federation
    refused = cli("scenario", "late", "--rules", rules, "--from", "1999-01", "--warehouse", with_scenario, ok=False)
    assert refused.exit_code == 1 and "no list '1999-01'" in refused.output
    assert _rows(with_scenario, "select series from series where scenario", []) == [("quota12",)]


@pytest.mark.parametrize("name, rules, message", [
    ("Quota 12", "senior_quota = 12", "lower-case letters"),
    ("fide", "senior_quota = 12", "names a rule set's official lists"),
    ("q", "senior_quotaa = 12", "senior_quotaa: not a parameter of the performance rules"),
    ("q", "senior_quota = 'twelve'", "senior_quota"),
])
def test_a_scenario_refused_says_why(cli, with_scenario, tmp_path, name, rules, message):
    (tmp_path / "r.toml").write_text(rules + "\n")
    refused = cli("scenario", name, "--rules", tmp_path / "r.toml", "--warehouse", with_scenario, ok=False)
    assert refused.exit_code == 1 and message in refused.output and "Traceback" not in refused.output
    assert _rows(with_scenario, "select count(*) from series where scenario", []) == [(1,)]


def test_evaluate_and_compare_read_the_scenario(cli, with_scenario, tmp_path):
    printed = cli("evaluate", "--warehouse", with_scenario).output  # no source named: every series
    lines = {line.split()[0]: line for line in printed.splitlines() if line.endswith(" its own")}
    assert set(lines) == {"performance", "quota12"}
    games = {name: line.split()[1] for name, line in lines.items()}
    assert games["performance"] == games["quota12"]  # scored on the same games
    compared = cli("compare", "performance", "quota12", "--warehouse", with_scenario, "--out", tmp_path / "c")
    # The three lists and the initial ratings (the list in force before the first window).
    assert "4 lists of performance compared with quota12's" in compared.output
