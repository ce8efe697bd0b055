"""What a rule set declares is read for its own series only (issue 38): a warehouse holding
the FIDE lists beside the performance Elo's keeps the performance site's active players as
they were (the site once probed player_state for FIDE's `inactive` column, null for the
performance series, and took every performance player for active)."""
from __future__ import annotations

import json

import duckdb

from pipeline.rate.series import chosen
from pipeline.site.data import site_data
from tests.conftest import write_rows


def active_by_list(w, series: str) -> dict[str, set[int]]:
    """The active players of each list that has some, as the site's JSON of the list says."""
    with duckdb.connect(str(w)) as con:
        api = site_data(con, chosen(con, series), card_lists=0).api
    active = {}
    for path, text in api.items():
        if path.startswith("lists/"):
            data = json.loads(text)
            k = data["columns"].index("active")
            if ids := {r[0] for r in data["rows"] if r[k]}:
                active[data["list_id"]] = ids
    return active


def test_fide_beside_the_performance_elo_leaves_its_active_players_alone(cli, tmp_path):
    # Three rated seniors; Dora (4) is rated but never plays. The site's own rule for the
    # performance Elo: active = a rated game in the 12 months up to the list's window end.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[1, "Anna", 1980], [2, "Bert", 1980], [3, "Cara", 1980], [4, "Dora", 1980]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700], [3, 1600], [4, 1500]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"],
                       [["2026-09-05", 1, 2, "1-0"], ["2026-09-06", 2, 3, "1-0"], ["2026-10-03", 3, 1, "1/2-1/2"]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w, "--out", out,
        "--no-reports")
    assert active_by_list(w, "performance") == {"2027-01": {1, 2, 3}}  # Dora: no game, not active
    cli("run", "--system", "fide", "--warehouse", w, "--out", out, "--no-reports")
    assert active_by_list(w, "performance") == {"2027-01": {1, 2, 3}}  # the FIDE lists change nothing here
    # FIDE's own flag (B02 7.2.2, X7) decides for its series: on the list of 2026-11 (dated 1 November,
    # the event ended 6 September) Dora has no rated game in the history, so she counts as last active
    # when the history began (its first window, from 2026-08-30): within 12 months, active.
    with duckdb.connect(str(w)) as con:
        flags = dict(con.execute("""select player_id, inactive from fide_state
                                    where series = 'fide' and list_id = '2026-11'""").fetchall())
    assert flags == {1: False, 2: False, 3: False, 4: False}
    assert active_by_list(w, "fide")["2026-11"] == {1, 2, 3, 4}


def test_the_help_lists_the_rule_sets_of_the_registry(cli, monkeypatch):
    # The CLI names no rule set itself (issue 38): `ratings --help` and every --system help are
    # filled from the registry when shown, so one registered from outside is listed too.
    import ast

    from pipeline import systems
    from tests.conftest import PROJECT_DIR

    monkeypatch.setitem(systems.REGISTRY, "plain-elo", "plain_elo")
    monkeypatch.setitem(systems.SUMMARIES, "plain-elo", "a plain Elo, K = 20, game by game")
    for args in (["--help"], ["run", "--help"], ["rate", "--help"], ["publish", "--help"]):
        shown = " ".join(cli(*args).output.split())
        assert "plain-elo (a plain Elo, K = 20, game by game)" in shown, args
        assert "performance (the national performance Elo, three lists a year, the default)" in shown, args
    explained = " ".join(cli("explain", "--help").output.split())  # the cards: each rule set's page of the manual
    assert "Under FIDE rules" not in explained and "1984 rules" not in explained
    sources = [PROJECT_DIR / "pipeline" / "cli.py", *(PROJECT_DIR / "pipeline" / "commands").glob("*.py")]
    texts = [node.value for source in sources for node in ast.walk(ast.parse(source.read_text()))
             if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    named = [line for text in texts for line in text.splitlines()
             if any(name in line for name in ("go-belgium", "go-ffg1984", "--system fide")) and "Example:" not in line]
    assert named == []
