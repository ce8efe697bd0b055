"""The contracts a rule set meets where an outside one meets them (issue 54, item 2): when it
is loaded (its own tables made by the schema.sql found along its class hierarchy, no shared
table altered, its methods taking what the pipeline passes) and when it runs (the figures
of each list, its own tables' grain audited). Each failure is one message naming the rule
set and where it comes from.

The rule sets here are the toy's (tests/toy_rule_set/, copied, untouched) and small ones
written by each test in a folder of its own, registered as `systems.register` would (the
module named as where it comes from), never a file of the project."""
from __future__ import annotations

import shutil
import textwrap
import typing
from pathlib import Path

import duckdb
import pytest

from pipeline import systems
from pipeline.ruleset.figures import LIST_FIGURES
from pipeline.ruleset.interface import RuleSet, SeriesOfLists
from tests.test_submissions import query

TOY = Path(__file__).parent / "toy_rule_set"


@pytest.fixture
def outside(tmp_path, monkeypatch):
    """A function registering a rule set `name` defined by `source`, a module `module` of a
    package folder of its own (beside the toy, which it may import), with `files` (name ->
    text) beside it, as `systems.register` does; the registry as it was afterwards."""
    folder = tmp_path / "federation_rules"
    shutil.copytree(TOY, folder)
    monkeypatch.syspath_prepend(str(folder))

    def add(name: str, module: str, source: str, files: dict[str, str] | None = None) -> str:
        package = folder / module
        package.mkdir()
        (package / "__init__.py").write_text(textwrap.dedent(source))
        for file, text in (files or {}).items():
            (package / file).write_text(text)
        monkeypatch.setitem(systems.REGISTRY, name, module)
        monkeypatch.setitem(systems.SUMMARIES, name, "")
        monkeypatch.setitem(systems.ORIGINS, name, f"the module {module}")
        return name

    return add


def run(cli, federation, w, name, ok=True):
    return cli("run", "--system", name, "--players", federation["players"], "--ratings", federation["ratings"],
               "--games", federation["games"], "--warehouse", w, "--out", w.parent / "out", "--no-reports", ok=ok)


def test_a_missing_figure_is_one_message_naming_the_rule_set(cli, outside, small_federation, tmp_path):
    # Before: "Constraint Error: NOT NULL constraint failed: lists.new_players".
    name = outside("elo-nofigure", "nofigure", '''
        import plain_elo


        class NoFigure(plain_elo.PlainElo):
            name = "elo-nofigure"

            def rate_period(self, state, games, period, fixes):
                outcome = super().rate_period(state, games, period, fixes)
                del outcome.figures["new_players"]
                return outcome


        RULE_SET = NoFigure
        ''')
    result = run(cli, small_federation, tmp_path / "w.duckdb", name, ok=False)
    assert result.exit_code == 1 and "Traceback" not in result.output and "Constraint Error" not in result.output
    assert ("the elo-nofigure lists were not computed: the rule set elo-nofigure (the module nofigure) returned "
            "figures without new_players for 2026-Q3 (a list's figures are games_rated, forfeits, players_rated, "
            "new_players, pipeline.ruleset.figures.ListFigures)") in result.output
    assert query(tmp_path / "w.duckdb", "select count(*) from series") == [(0,)]  # nothing registered


def test_a_figure_that_is_not_a_count_is_refused(cli, outside, small_federation, tmp_path):
    name = outside("elo-halfgame", "halfgame", '''
        import plain_elo


        class HalfGame(plain_elo.PlainElo):
            name = "elo-halfgame"

            def rate_period(self, state, games, period, fixes):
                outcome = super().rate_period(state, games, period, fixes)
                outcome.figures["games_rated"] = 2.5
                return outcome


        RULE_SET = HalfGame
        ''')
    result = run(cli, small_federation, tmp_path / "w.duckdb", name, ok=False)
    assert result.exit_code == 1 and ("the rule set elo-halfgame (the module halfgame) returned games_rated = 2.5 "
                                      "as a figure for 2026-Q3: a figure of a list is a whole number, 0 or more"
                                      ) in result.output


def test_a_subclass_of_a_shipped_rule_set_keeps_its_tables(cli, outside, small_federation, tmp_path):
    # Before: "Table with name glicko2_state does not exist" (schema.sql was looked up beside the
    # subclass's module only).
    name = outside("my-glicko", "my_glicko", '''
        from pipeline.systems.glicko2 import Glicko2


        class MyGlicko(Glicko2):
            name = "my-glicko"


        RULE_SET = MyGlicko
        ''')
    w = tmp_path / "w.duckdb"
    run(cli, small_federation, w, name)
    # Its lists' own columns are in Glicko-2's own table, under its series.
    assert query(w, "select count(*) > 0, count(*) = count(deviation) from glicko2_state where series = 'my-glicko'"
                 ) == [(True, True)]
    assert query(w, "select count(*) from glicko2_state") == query(
        w, "select count(*) from player_state where series = 'my-glicko'")


def test_own_tables_no_schema_makes_are_refused_when_loaded(cli, outside, small_federation, tmp_path):
    name = outside("elo-tableless", "tableless", '''
        import plain_elo


        class Tableless(plain_elo.PlainElo):
            """The toy's code, with its own table declared under another name, which nothing makes."""
            name = "elo-tableless"
            extensions = {"player_state": "tableless_state"}

            def schema(self):
                return None


        RULE_SET = Tableless
        ''')
    expected = ("the rule set elo-tableless (the module tableless) cannot be loaded: it declares its own tables "
                "(tableless_state) and no schema.sql makes them")
    with pytest.raises(systems.RuleSetRefused, match=r"elo-tableless \(the module tableless\) cannot be loaded"):
        systems.rule_set_class(name)
    result = run(cli, small_federation, tmp_path / "w.duckdb", name, ok=False)
    assert result.exit_code == 1 and expected in result.output and "Traceback" not in result.output


def test_a_schema_that_alters_a_shared_table_is_refused_when_loaded(cli, outside, small_federation, tmp_path):
    # Before: the rule set ran, and player_state had its column for every series.
    name = outside("elo-alter", "alter", '''
        import plain_elo


        class Alter(plain_elo.PlainElo):
            name = "elo-alter"


        RULE_SET = Alter
        ''', {"schema.sql": "create table if not exists plain_elo_state (series varchar, list_id varchar, "
                            "player_id bigint, games integer);\n-- its games kept beside the rating\n"
                            "ALTER TABLE Player_State ADD COLUMN games integer;\n"})
    result = run(cli, small_federation, tmp_path / "w.duckdb", name, ok=False)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert ("the rule set elo-alter (the module alter) cannot be loaded: its schema.sql alters Player_State, a "
            "table every rule set shares (sql/schema.sql)") in result.output
    assert "games" not in [c for (c,) in query(tmp_path / "w.duckdb", "select column_name from duckdb_columns() "
                                                                       "where table_name = 'player_state'")]


@pytest.mark.parametrize("module, ddl, verb", [
    ("drops", "drop table if exists calculations", "drops calculations"),
    ("replaces", "create or replace table lists as select 1 as x", "replaces lists")])
def test_a_schema_that_drops_or_replaces_a_shared_table_is_refused(outside, module, ddl, verb):
    name = outside("elo-drop", module, '''
        import plain_elo


        class Drop(plain_elo.PlainElo):
            name = "elo-drop"


        RULE_SET = Drop
        ''', {"schema.sql": (TOY / "plain_elo" / "schema.sql").read_text() + ddl + ";\n"})
    with pytest.raises(systems.RuleSetRefused, match=f"its schema.sql {verb}, a table every rule set shares"):
        systems.rule_set_class(name)


def test_a_method_that_cannot_take_what_the_pipeline_passes_is_refused(outside):
    name = outside("elo-nofixes", "nofixes", '''
        import plain_elo


        class NoFixes(plain_elo.PlainElo):
            name = "elo-nofixes"

            def rate_period(self, state, games, period):
                return super().rate_period(state, games, period, None)


        RULE_SET = NoFixes
        ''')
    with pytest.raises(systems.RuleSetRefused) as refused:
        systems.rule_set_class(name)
    assert str(refused.value) == (
        "the rule set elo-nofixes (the module nofixes) cannot be loaded: its rate_period cannot take what the "
        "pipeline passes: rate_period(self, state, games, period, fixes), as pipeline.ruleset.interface.RuleSet "
        "declares it")


def test_a_duplicate_row_of_an_own_table_fails_the_audit(cli, outside, small_federation, tmp_path):
    # Before: the player was twice in the published state file, and `ratings audit` said ok.
    name = outside("plain-elo", "plain_elo_again", "from plain_elo import RULE_SET\n")
    w = tmp_path / "w.duckdb"
    run(cli, small_federation, w, name)
    assert "FAILED" not in cli("audit", "--warehouse", w).output
    with duckdb.connect(str(w)) as con:
        con.execute("insert into plain_elo_state select * from plain_elo_state where list_id = '2026-Q3' "
                    "and player_id = 5")
        con.execute("insert into plain_elo_state values ('plain-elo', '2026-Q3', 999, 1)")  # no such player_state row
    audit = cli("audit", "--warehouse", w, ok=False)
    assert audit.exit_code == 1
    assert "FAILED own_tables_grain: 2 rows" in audit.output
    assert ("plain_elo_state: series plain-elo, list_id 2026-Q3, player_id 5, copies 2: more than one row of a key "
            "of player_state") in audit.output
    assert "plain_elo_state: series plain-elo, list_id 2026-Q3, player_id 999: no row of player_state" in audit.output


def test_a_refused_rule_set_blocks_no_other_rule_sets_initial_columns(cli, outside, small_federation, tmp_path):
    # Validation judges every registered rule set's initial columns: one refused when it is
    # loaded declares none, and Glicko-2's are checked all the same (before: the refusal stopped
    # the validation of every ratings file with a column of its own).
    outside("elo-nofixes", "nofixes_again", '''
        import plain_elo


        class NoFixes(plain_elo.PlainElo):
            name = "elo-nofixes"

            def rate_period(self, state, games, period):
                return super().rate_period(state, games, period, None)


        RULE_SET = NoFixes
        ''')
    ratings = tmp_path / "glicko.csv"
    ratings.write_text("player_id,rating,deviation\n1,1800,80\n2,1700,900\n")
    w = tmp_path / "w.duckdb"
    result = cli("run", "--system", "glicko2", "--players", small_federation["players"], "--ratings", ratings,
                 "--games", small_federation["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports",
                 rejected=True)
    assert "elo-nofixes" not in result.output
    # 900 is outside Glicko-2's deviations (its own model): row 2 rejected with its reason, row 1 taken in.
    assert [r for (r,) in query(w, "select row_number from rejects")] == [2]
    assert "deviation" in query(w, "select reason from rejects")[0][0]


def test_the_shipped_rule_sets_meet_their_contracts():
    for name in systems.names():
        systems.rule_set_class(name)  # RuleSetRefused otherwise


def test_a_card_is_annotated_with_what_it_is_given():
    # The pipeline passes a card its series (pipeline.rate.series.Series), not the series' name.
    for method in (RuleSet.card, RuleSet.cards, RuleSet.card_data, RuleSet.whatif):
        assert typing.get_type_hints(method, localns={"Card": object})["series"] is SeriesOfLists
    assert LIST_FIGURES == ("games_rated", "forfeits", "players_rated", "new_players")
