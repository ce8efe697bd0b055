"""Each command loads what it uses: the commands that only read the warehouse, record
a correction, or publish what it holds never load pandas (0.3-0.45 s of a 0.4 s command) nor
Pandera; validating a games file, or a registry without titles, loads neither (the models run
compiled); rating loads pandas. Each command runs as the `ratings` script runs it, in
a process of its own, which says at its exit what it loaded."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import copy_built, write_rows, write_small_federation

PROBE = ("import atexit, sys; sys.modules.setdefault('hypothesis', None); "  # as pipeline.cli.entry does
         "atexit.register(lambda: print('loaded:', *sorted(m for m in ('pandas', 'pandera') if m in sys.modules), "
         "file=sys.stderr)); sys.argv = ['ratings', *sys.argv[1:]]; from pipeline.cli import entry; entry()")


def loaded(folder, *args, status: int = 0) -> set[str]:
    """What a command (its arguments) loaded of pandas and Pandera; it must exit with
    `status`. It runs in `folder`, so that `python -c` imports the installed package, not
    the checkout's."""
    done = subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], capture_output=True, text=True, cwd=folder,
                          check=False)
    assert done.returncode == status, done.stderr
    line = [x for x in done.stderr.splitlines() if x.startswith("loaded:")][-1]
    return set(line.split()[1:])


@pytest.fixture
def built(published_once, tmp_path):
    return copy_built(published_once, tmp_path)


@pytest.mark.parametrize("command", [
    ["submissions"], ["revisions"], ["corrections"], ["scenarios"], ["rejects"],
    ["query", "select count(*) from games"],
    ["correct", "1", "--list", "2027-01", "--rating", "1850", "--reason", "appeal upheld"],
    ["publish", "--out", "OUT"],  # the lists, states and report pages
    ["publish", "--out", "NEW"],  # every list and every page written anew (the pages' charts included)
])
def test_reading_and_publishing_commands_load_neither_pandas_nor_pandera(built, command, tmp_path):
    w, out = built
    folders = {"OUT": str(out), "NEW": str(tmp_path / "new")}
    assert loaded(tmp_path, *[folders.get(a, a) for a in command], "--warehouse", w) == set()
    if "NEW" in command:
        assert len(list((tmp_path / "new").glob("*/index.html"))) >= 2  # the pages were written, not skipped



def test_the_audit_places_the_games_as_rating_does_so_it_loads_pandas_but_not_pandera(built, tmp_path):
    # lists_on_withdrawn_games recomputes every list's input signature through its rule set's periods.
    w, _ = built
    assert loaded(tmp_path, "audit", "--warehouse", w) == {"pandas"}


def test_taking_in_a_table_loads_neither_but_a_tournament_report_loads_pandas(built, tmp_path):
    # A late result as a table: staged by DuckDB alone. A TRF file: its reader builds frames.
    w, _ = built
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"], [["2027-02-15", 4, 3, "1-0"]])
    assert loaded(tmp_path, "ingest", "--games", late, "--warehouse", w) == set()
    trf = Path(__file__).parent / "fixtures" / "trf" / "lichess_swiss_2020_06.trf"
    assert "pandas" in loaded(tmp_path, "ingest", "--games", trf, "--register-new", "--warehouse", w)

def test_validating_a_games_file_loads_neither(built, tmp_path):
    # The models' checks run compiled (pipeline/validate/model_checks.py): SQL, no frame.
    w, _ = built
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"],
                      [["2027-02-15", 4, 3, "1-0"], ["2027-02-16", 4, 4, "1-0"], ["2027-02-30", 3, 4, "x"]])
    assert loaded(tmp_path, "ingest", "--games", late, "--warehouse", w) == set()
    # two rows rejected (exit 3): the probe saw the checks run
    assert loaded(tmp_path, "validate", "--warehouse", w, status=3) == set()


def test_validating_a_registry_loads_neither_unless_a_title_is_split(built, tmp_path):
    # The writers' own checks of what a list's line cannot hold run on the registry: Arrow
    # kernels given Arrow scalars made from their bytes (pipeline/formats/cells.py,
    # arrow_scalar), since pyarrow loads pandas to convert a Python value. The one part of
    # them that needs pandas splits a title field into FIDE's three title columns.
    w, _ = built
    header = ["player_id", "name", "birth_year", "club", "title"]
    plain = write_rows(tmp_path / "plain.csv", header, [[9, "Nine New", 1990, "Club A", ""],
                                                        [10, "Ten\tTab", 1991, "Club A", ""]])
    assert loaded(tmp_path, "ingest", "--players", plain, "--warehouse", w) == set()
    assert loaded(tmp_path, "validate", "--warehouse", w, status=3) == set()  # the tab rejected
    titled = write_rows(tmp_path / "titled.csv", header, [[11, "Eleven New", 1990, "Club A", "IM WGM"]])
    assert loaded(tmp_path, "ingest", "--players", titled, "--warehouse", w) == set()
    assert loaded(tmp_path, "validate", "--warehouse", w) == {"pandas"}


def test_rating_loads_pandas_so_the_probe_can_tell(tmp_path):
    # The control: a run validates (the models compiled, no Pandera) and rates (pandas), and the probe sees it.
    files = write_small_federation(tmp_path)
    assert loaded(tmp_path, "run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
                  "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out") == {"pandas"}


NUMERIC = ("import atexit, sys; atexit.register(lambda: print('loaded:', *sorted(m for m in ('numpy', 'pyarrow') "
           "if m in sys.modules), file=sys.stderr)); sys.argv = ['ratings', *sys.argv[1:]]; "
           "from pipeline.cli import entry; entry()")


@pytest.mark.parametrize("command", [["submissions"], ["corrections"], ["scenarios"]])
def test_listing_commands_load_neither_numpy_nor_arrow(built, command, tmp_path):
    # They print a query's rows through DuckDB alone. flow.py imports the stages at its top; console.py
    # takes Reporter from reporter.py, not flow.py, which loaded numpy, Arrow and the stages (bench/README.md).
    w, _ = built
    done = subprocess.run([sys.executable, "-c", NUMERIC, *command, "--warehouse", str(w)], capture_output=True,
                          text=True, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert [x for x in done.stderr.splitlines() if x.startswith("loaded:")][-1] == "loaded:"


def test_listing_the_studies_loads_no_optuna(built, tmp_path):
    # tune/study.py keeps the studies `ratings tunes` lists (and the CLI's errors name); what asks
    # Optuna for the next parameters is tune/search.py, imported by `ratings tune` alone.
    w, _ = built
    probe = NUMERIC.replace("('numpy', 'pyarrow')", "('optuna',)")
    done = subprocess.run([sys.executable, "-c", probe, "tunes", "--warehouse", str(w)], capture_output=True,
                          text=True, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert [x for x in done.stderr.splitlines() if x.startswith("loaded:")][-1] == "loaded:"
