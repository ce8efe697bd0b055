"""One interface for a rule set, one pipeline for all of them (issue 14): a rule set
added through the registry alone runs end to end; two rule sets share a warehouse
and give the lists they give alone; parameters come from a file; names of rule sets
become code in pipeline/systems/ only; commands start without pandas."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from pipeline import systems
from tests.conftest import PROJECT_DIR, copy_built, write_rows
from tests.test_submissions import query

TOY = Path(__file__).parent / "toy_rule_set"


@pytest.fixture
def plain_elo(tmp_path, monkeypatch):
    """The toy rule set, copied to a folder of its own and registered: nothing else knows it."""
    folder = tmp_path / "federation_rules"
    shutil.copytree(TOY, folder)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setitem(systems.REGISTRY, "plain-elo", "plain_elo")
    return "plain-elo"


def test_a_rule_set_added_through_the_registry_runs_end_to_end(cli, plain_elo, small_federation, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", plain_elo, "--players", small_federation["players"], "--ratings",
        small_federation["ratings"], "--games", small_federation["games"], "--warehouse", w, "--out", out)
    first = pd.read_csv(out / "lists" / "2026-Q3.csv").set_index("player_id")["rating"]
    # 2026-Q3 (July–September), K 20, each game from the ratings at the start of the quarter:
    # 5 (1400) beats 1 (1800): E = 1 / (1 + 10^(400/400)) = 1/11, +20 × 10/11 = +18.18 → 1418.
    # 6 (new, 1500) draws 2 (1700) and beats 3 (1600): E = 1/(1 + 10^0.5) = 0.24025 and
    #   1/(1 + 10^0.25) = 0.35993; 20 × (0.25975 + 0.64007) = +18.00 → 1518.
    # 7 and 8 (new, 1500 both) : E = 0.5, 7 wins: 1510 and 1490.
    assert (first[5], first[6], first[7], first[8]) == (1418, 1518, 1510, 1490)
    assert (out / "lists" / "2026-Q3-r1.csv").is_file() and (out / "state" / "2026-Q3.parquet").is_file()
    # A late game revises the quarter it falls in; the revision says why.
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"], [["2026-11-15", 4, 3, "1-0"]])
    cli("run", "--games", late, "--warehouse", w, "--out", out)
    assert query(w, "select list_id, revision, reason from list_revisions where revision > 1 order by 1") == [
        ("2026-Q4", 2, "late games: submission 4 (late.csv)"),
        ("2027-Q1", 2, "follows from the revision of an earlier list")]
    assert (out / "diffs" / "2026-Q4-r2.csv").is_file()
    # 3 left 2026-Q3 at 1597 (draw 1500: −0.140, win 1700: +0.640, loss to 6 at 1500: −0.640; × 20 = −2.80);
    # in Q4 it loses to 4 (1500 after Q3): E = 1 / (1 + 10^(−97/400)) = 0.63605, 20 × −0.63605 → 1584.278.
    card = cli("explain", 3, "--list", "2026-Q4", "--warehouse", w).output
    assert "from 1597, 1 games, score 0: 1584.278 → 1584" in card
    cli("export", "history", "--warehouse", w, "--out", tmp_path / "history")
    assert sorted(p.name for p in (tmp_path / "history").iterdir()) == [
        "list_id=2026-Q3", "list_id=2026-Q4", "list_id=2027-Q1"]
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_the_rows_a_rule_set_returns_become_one_table_as_given():
    """pipeline.rate.periods.to_arrow: the parts of every list, one table; NumPy's
    fixed-width text taken a part at a time (each as wide as its longest value), a part
    of no rows adding none, NaN stored as NULL."""
    import numpy as np

    from pipeline.rate.periods import to_arrow

    parts = [
        {"list_id": "2027-01", "player_id": np.array([1, 2]), "rule": np.array(["rated", "no game counted"]),
         "performance": np.array([1650.0, np.nan])},
        {"list_id": "2027-05", "player_id": np.array([], dtype=np.int64), "rule": np.array([], dtype="<U1"),
         "performance": np.array([])},
        {"list_id": "2027-09", "player_id": np.array([3]), "rule": np.array(["correction: appeal à Liège"]),
         "performance": np.array([1700.5])},
    ]
    table = to_arrow(parts)
    assert table.column("rule").type == "string"
    assert table.to_pylist() == [
        {"list_id": "2027-01", "player_id": 1, "rule": "rated", "performance": 1650.0},
        {"list_id": "2027-01", "player_id": 2, "rule": "no game counted", "performance": None},
        {"list_id": "2027-09", "player_id": 3, "rule": "correction: appeal à Liège", "performance": 1700.5},
    ]
    # Text given otherwise (objects, as the Go rule sets give it) is read as before.
    mixed = [dict(parts[0], rule=parts[0]["rule"].astype(object)), parts[2]]
    assert to_arrow(mixed).column("rule").to_pylist() == ["rated", "no game counted", "correction: appeal à Liège"]
    # Python strings in every part (as the FIDE and Go rule sets give their rules), a part
    # of no rows among them: a chunk a part that has rows, the same values.
    as_objects = [dict(p, rule=p["rule"].astype(object)) for p in parts]
    rules = to_arrow(as_objects).column("rule")
    assert rules.type == "string" and rules.num_chunks == 2
    assert rules.to_pylist() == ["rated", "no game counted", "correction: appeal à Liège"]
    # Objects that read as two Arrow types (a text, then a part of None alone) are concatenated.
    nulls = [as_objects[0], dict(parts[2], rule=np.array([None], dtype=object))]
    assert to_arrow(nulls).column("rule").to_pylist() == ["rated", "no game counted", None]


def test_a_text_column_of_the_games_is_read_as_one_string_a_value():
    """pipeline.ruleset.games.column: the games' text columns a rule set carries (FIDE's
    start lists) as the cells' values, nulls as None, whatever the chunks and the
    string type; each distinct value one Python string, hashed once by what follows."""
    import numpy as np
    import pyarrow

    from pipeline.ruleset.games import column

    chunks = pyarrow.chunked_array([pyarrow.array(["2019-01", None, "2019-02"]), pyarrow.array(["2019-02", "2019-01"])])
    for text in (chunks, chunks.cast(pyarrow.large_string())):
        values = column(pyarrow.table({"start_list": text}), "start_list", object)
        assert values.dtype == object and values.tolist() == ["2019-01", None, "2019-02", "2019-02", "2019-01"]
        assert values[0] is values[4] and values[2] is values[3]
    empty = pyarrow.table({"start_list": pyarrow.array([], type=pyarrow.string())})
    assert column(empty, "start_list", object).tolist() == []
    # Numbers are read as before, in the type asked for.
    assert column(pyarrow.table({"day": [3, 1]}), "day", np.int64).tolist() == [3, 1]


def test_two_rule_sets_in_one_warehouse_give_the_lists_they_give_alone(cli, small_federation, tmp_path):
    files = ["--players", small_federation["players"], "--ratings", small_federation["ratings"],
             "--games", small_federation["games"]]
    both = tmp_path / "both"
    cli("run", *files, "--warehouse", tmp_path / "both.duckdb", "--out", both, "--no-reports")
    cli("run", "--system", "fide", "--warehouse", tmp_path / "both.duckdb", "--out", both, "--no-reports")
    for system, folder in (("performance", both), ("fide", both / "fide")):
        alone = tmp_path / f"alone-{system}"
        cli("run", "--system", system, *files, "--warehouse", tmp_path / f"{system}.duckdb", "--out", alone,
            "--no-reports")
        published = sorted(p.relative_to(alone) for p in alone.glob("[ls]*/*") if p.is_file())
        assert published and published == sorted(p.relative_to(folder) for p in folder.glob("[ls]*/*")
                                                  if p.is_file())
        for name in published:
            assert (alone / name).read_bytes() == (folder / name).read_bytes(), (system, name)
    assert query(tmp_path / "both.duckdb", "select series, position from series order by 2") == [
        ("performance", 1), ("fide", 2)]


def test_parameters_from_a_file_are_checked_stored_and_recompute_the_lists(cli, small_federation, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    files = ["--players", small_federation["players"], "--ratings", small_federation["ratings"],
             "--games", small_federation["games"], "--warehouse", w, "--out", out, "--no-reports"]
    (tmp_path / "typo.toml").write_text("senior_qouta = 12\n")
    refused = cli("run", *files, "--rules", tmp_path / "typo.toml", ok=False)
    assert refused.exit_code == 1 and "senior_qouta: not a parameter of the performance rules" in refused.output
    (tmp_path / "wrong.toml").write_text("senior_quota = 12.5\n")
    refused = cli("run", *files, "--rules", tmp_path / "wrong.toml", ok=False)
    assert "senior_quota = 12.5: the performance rules take a whole number (default 16)" in refused.output
    (tmp_path / "quota.toml").write_text("# a lower senior quota, as proposed\nsenior_quota = 3\n")
    cli("run", *files, "--rules", tmp_path / "quota.toml")
    # With a senior quota of 3, 3 (1600: draw 1500, win 1700, loss to 6 at 1843; Pj = 1681 ≥ 1600)
    # meets it with 3 games: Ej = Pj = 1681 → 1680 (the default gives the barycentre, 1620).
    assert pd.read_csv(out / "lists" / "2027-01.csv").set_index("player_id").loc[3, "rating"] == 1680
    assert '"senior_quota": 3' in query(w, "select parameters from lists where list_id = '2027-01'")[0][0]
    assert '"senior_quota": 3' in query(w, "select parameters from series")[0][0]
    # Back to the defaults: every list recomputed, the revisions say why.
    (tmp_path / "defaults.toml").write_text("senior_quota = 16\n")
    cli("rate", "--rules", tmp_path / "defaults.toml", "--warehouse", w)
    assert query(w, "select reason from list_revisions where list_id = '2027-01' and revision = 2") == [
        ("the rule set's parameters changed (--rules)",)]


def test_no_module_outside_the_rule_sets_names_one():
    names = [re.escape(n) for n in systems.names()]
    pattern = re.compile(r"""["'](%s)["']""" % "|".join(names))
    offenders = []
    for path in sorted((PROJECT_DIR / "pipeline").rglob("*.py")) + sorted((PROJECT_DIR / "sql").rglob("*.sql")):
        # sql/migrations/ records past layouts: layout 9 moved the columns each rule set had then.
        if (PROJECT_DIR / "pipeline" / "systems") in path.parents or (PROJECT_DIR / "sql" / "migrations") in path.parents:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(PROJECT_DIR)}:{number}: {line.strip()}")
    assert offenders == []


@pytest.fixture
def published(published_once, tmp_path):
    """Here a copy of the small federation the session rated and published once
    (tests/conftest.py): no test of this file gives its input files again."""
    return copy_built(published_once, tmp_path)


@pytest.mark.parametrize("args", [["--help"], ["query", "select 1"], ["run", "--help"]])
def test_commands_start_without_pandas(args, published):
    w, _ = published
    code = ("import sys; from pipeline.cli import main\n"
            f"try:\n    main({[*args, *(['--warehouse', str(w)] if args[0] == 'query' else [])]!r})\n"
            "except SystemExit:\n    pass\n"
            "loaded = [m for m in ('pandas', 'pandera', 'matplotlib') if m in sys.modules]\n"
            "print('LOADED', loaded)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "LOADED []" in result.stdout, result.stdout + result.stderr


def test_the_console_script_hides_hypothesis_from_pandera(published, tmp_path):
    """`ratings` validates without Pandera loading hypothesis (0.4 s a command); the
    run is a real one: a rule set's own initial column (Glicko-2's deviation) is checked
    by its Pandera model, so Pandera is loaded and checks the rows (the input models run
    compiled, without it)."""
    w, _ = published
    players = write_rows(tmp_path / "late_players.csv", ["player_id", "name"], [[990001, "Late, Player"]])
    ratings = write_rows(tmp_path / "late_ratings.csv", ["player_id", "rating", "deviation"],
                         [[990001, 1500, -5]])
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('LOADED', [m for m in ('pandera', 'hypothesis') if sys.modules.get(m)]))\n"
            "from pipeline.cli import entry\n"
            f"sys.argv = ['ratings', 'run', '--players', {str(players)!r}, '--ratings', {str(ratings)!r}, "
            f"'--warehouse', {str(w)!r}, '--out', {str(tmp_path / 'out')!r}, '--no-reports']\n"
            "entry()")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 3, result.stdout + result.stderr  # the deviation of -5 is rejected
    said = result.stdout + result.stderr
    assert "deviation" in said and "glicko2" in said, said
    assert "LOADED ['pandera']" in result.stdout, result.stdout + result.stderr


def test_each_rule_set_checks_the_initial_ratings_it_reads_by_its_own_rules(cli, plain_elo, small_federation,
                                                                             tmp_path, monkeypatch):
    # Ruling R14: validation takes any rating in the input range; a rule set that starts from any
    # number (here the toy, told so) rates from 1505.5, and the performance Elo, which starts from
    # whole numbers, refuses it for its own lists alone, when it would rate from it.
    monkeypatch.setattr(systems.rule_set_class(plain_elo), "initial_rating_rule", None)
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, "1505.5"], [2, 1700]])
    w = tmp_path / "w.duckdb"
    cli("run", "--system", plain_elo, "--players", small_federation["players"], "--ratings", ratings,
        "--games", small_federation["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    lists = query(w, "select series, list_id, revision from lists order by all")
    assert ("plain-elo", "2026-Q3", 1) in lists
    # Added as official lists: refused before anything is kept, and the warehouse holds no such series.
    refused = cli("run", "--system", "performance", "--warehouse", w, "--out", tmp_path / "out", ok=False)
    assert refused.exit_code == 1, refused.output
    assert ("Error: ratings.csv, row 1: rating 1505.5 refused: the performance rules start from a whole number, "
            "whatever its last digit (R14); nothing of the run was taken in") in refused.output
    # As a scenario (no validation): refused when it would rate from the initial ratings.
    rules = tmp_path / "quota12.toml"
    rules.write_text("senior_quota = 12\n")
    refused = cli("scenario", "whole", "--system", "performance", "--rules", rules, "--warehouse", w, ok=False)
    assert refused.exit_code == 1, refused.output
    assert ("Error: ratings.csv, row 1: rating 1505.5 refused: the performance rules start from a whole number, "
            "whatever its last digit (R14); nothing was rated for the whole lists") in refused.output
    assert query(w, "select series from series") == [("plain-elo",)]
    assert query(w, "select series, list_id, revision from lists order by all") == lists
