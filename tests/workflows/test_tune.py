"""Parameter studies as the README and docs/tune.md print them, on a simulated federation
whose lists run from 2009-01 to 2010-09 (the studies train until the list of January 2010
and drift is measured over two decades): the study, its resumption, its listing, the best
trial kept as a scenario and compared; FIDE's K searched on a grid; the five sources scored
after 2010."""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from tests.workflows.helpers import audit_ok, commands, copied, evaluated, in_manual, query, said, shell
from tests.workflows.inputs import simulated

README = """\
ratings tune national --system performance --space national.toml --train-until 2010-01 --max-drift 40 --seed 1
ratings tune national --keep best          # the best feasible trial as the scenario `national`
"""
FIRST = """\
ratings tune national --system performance --space national.toml \\
    --train-until 2010-01 --max-drift 40 --trials 50 --seed 1
ratings tunes                                  # the studies, their best feasible trial
ratings tune national --keep best              # that trial as the scenario `national`
ratings compare performance national           # and everything scenarios offer
"""
WORKED = """\
ratings tune national --system performance --space national.toml --train-until 2010-01 \\
    --max-drift 40 --trials 50 --seed 1 --warehouse be.duckdb
ratings tune fide-k --system fide --space fide-k.toml --train-until 2010-01 --max-drift 40 --warehouse be.duckdb
ratings tune national --keep best --warehouse be.duckdb
ratings tune fide-k --keep best --warehouse be.duckdb
ratings evaluate --system performance --system fide --scenario national --scenario fide-k \\
    --ratings belgium/federation.parquet --since 2010-01-01 --warehouse be.duckdb
"""
# docs/tune.md's space, as printed.
NATIONAL = """\
[senior_quota]          # whole numbers where the parameter is a whole number
low = 4
high = 32
[compatibility_gap]     # numbers where it is a number
low = 200.0
high = 800.0
step = 50.0             # optional: low, low + step, ...; `log = true` searches a log scale
[brake_weight]
choices = [8, 16, 32]   # or a list of values (the only way to search a switch)
"""
# The README's grid of FIDE's K for the established players under 2400.
FIDE_K = "[k_standard]\nchoices = [10, 15, 20, 25, 30, 40]\n"


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> tuple[Path, object]:
    """The federation rated under the national rules and FIDE's, in the default warehouse,
    and the README's study made on it (its first line)."""
    folder = tmp_path_factory.mktemp("tune")
    simulated(folder, players=300, lists=6, first_list="2009-01")
    shell("ratings run --players sim/players.csv --ratings sim/ratings.csv --games sim/games.csv --no-reports",
          folder)
    shell("ratings run --system fide --no-reports", folder)
    (folder / "national.toml").write_text(NATIONAL)
    (folder / "fide-k.toml").write_text(FIDE_K)
    return folder, shell(commands(README)[0], folder)


def trials(path: Path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def figures(rows: list[dict]) -> list[dict]:
    """A study's trials without the time each took."""
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


def test_the_commands_are_the_manuals():
    assert in_manual("README.md", README) and in_manual("docs/tune.md", FIRST) and in_manual("docs/tune.md", WORKED)
    assert in_manual("docs/tune.md", NATIONAL)


def test_the_readmes_study_goes_on_with_the_same_trials_and_its_best_is_kept(history, tmp_path):
    folder = copied(history[0], tmp_path / "readme")
    study = history[1]
    assert "trial 50/50" in study.stdout and "best feasible: trial" in study.stdout
    out = folder / "data" / "tune-national"
    assert {"trials.csv", "trials.parquet", "front.csv", "front.parquet", "best.toml", "index.html"} \
        <= {p.name for p in out.iterdir()}
    first = trials(out / "trials.csv")
    assert len(first) == 50 and {t["state"] for t in first} <= {"feasible", "infeasible", "refused"}
    # docs/tune.md's first command is the same study (--trials 50 its default): it goes on, and
    # has nothing left to do; its trials are those made, figure for figure.
    again = shell(commands(FIRST)[0], folder)
    assert "trial 1/50" not in again.stdout
    assert figures(trials(out / "trials.csv")) == figures(first)
    listed = shell(commands(FIRST)[1], folder)
    assert listed.stdout.splitlines()[1].split()[0] == "national"
    shell(commands(README)[1], folder)  # docs/tune.md's third line is the same command
    assert "national" in shell("ratings scenarios", folder).stdout
    shell(commands(FIRST)[3], folder)
    assert (folder / "reports" / "compare-performance-national" / "index.html").is_file()
    # The study kept nothing it rated: the official lists are those of before.
    assert query(folder / "data" / "warehouse.duckdb", "select count(*) from list_revisions where revision > 1") \
        == [(0,)]
    audit_ok(folder)


def test_the_worked_studies_national_and_fide_k_scored_after_2010(history, tmp_path):
    folder = copied(history[0], tmp_path / "worked")
    shutil.move(folder / "data" / "warehouse.duckdb", folder / "be.duckdb")
    # The federation's own lists: here the national lists, written out as a file of ratings.
    (folder / "belgium").mkdir()
    shell("ratings query \"select player_id, list_id, rating, window_end from rating_history "
          "join list_summary using (series, list_id) where series = 'performance'\" "
          "--out belgium/federation.parquet --warehouse be.duckdb", folder)  # dated by its windows (the window rule)
    done = [shell(line, folder) for line in commands(WORKED)]
    assert "trial 1/50" not in done[0].stdout  # the README's study, gone on with: nothing left to do
    grid = trials(folder / "tune-fide-k" / "trials.csv")
    assert sorted(int(t["k_standard"]) for t in grid) == [10, 15, 20, 25, 30, 40]  # the grid, each point once
    assert "k_standard = " in (folder / "tune-fide-k" / "best.toml").read_text()
    scored = evaluated(done[-1].stdout)
    assert sorted(scored) == ["federation", "fide", "fide-k", "national", "performance"]
    assert len({words[1] for words in scored.values()}) == 1
    assert "Evaluate took" in said(done[-1])
    audit_ok(folder, "--warehouse", "be.duckdb")
