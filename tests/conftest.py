"""Shared fixtures: small input files written on the fly, and the CLI runner."""
from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.systems import IGNORE_INSTALLED


def write_rows(path: Path, header: list[str], rows: list[list]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    return path


PROJECT_DIR = Path(__file__).resolve().parents[1]  # the checkout (README.md, bench/): the package may be installed

# The fixtures' seasons run to 2028: "today" is set after them, so that no game of
# theirs is "in the future" (pipeline.config.today); the tests of that rule set their own.
TODAY = "2030-06-30"


def pytest_configure(config):
    os.environ["RATINGS_TODAY"] = TODAY  # module-scoped fixtures and subprocesses see it too
    # The project tests itself: a rule set installed beside it is not loaded (its tests that
    # install one give their `ratings` an environment without this).
    os.environ[IGNORE_INSTALLED] = "1"


@pytest.fixture
def cli():
    """Run `ratings ...` in-process; fails the test on a non-zero exit unless told
    otherwise (`rejected=True`: exit status 3, rows were rejected; `ok=False`: any)."""
    return cli_runner()


def cli_runner():
    """The `cli` fixture's function, for module-scoped fixtures too."""
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True, rejected: bool = False):
        result = runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
        if rejected:
            assert result.exit_code == 3, result.output
        elif ok:
            assert result.exit_code == 0, result.output
        return result

    return invoke


@pytest.fixture
def small_federation(tmp_path: Path) -> dict[str, Path]:
    """Four rated seniors, one junior, two newcomers, a school pair, one season."""
    return write_small_federation(tmp_path)


def write_small_go_club(folder: Path) -> dict[str, Path]:
    """A small Go club's files (players, events, games): two 20 kyu members and an NC
    player, two club nights and a two-day open (tests/test_go_pipeline.py works its
    ratings out by hand)."""
    players = write_rows(folder / "players.csv", ["player_id", "name", "grade"], [
        [1, "Anna", "20k"], [2, "Bram", "20k"], [3, "Cleo", "NC"]])
    events = write_rows(folder / "events.csv", ["event_id", "name", "start_date", "end_date", "class", "board_size"], [
        ["club-1", "Club night 1", "2026-01-10", "2026-01-10", "C", 19],
        ["club-2", "Club night 2", "2026-01-11", "2026-01-11", "C", 19],
        ["open-1", "Spring open", "2026-03-01", "2026-03-02", "B", 19]])
    games = write_rows(folder / "games.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap"], [
        ["club-1", "2026-01-10", 1, 2, "B", 0],
        ["club-2", "2026-01-11", 2, 1, "W", 1],
        ["open-1", "2026-03-01", 3, 2, "B", 0],
        ["open-1", "2026-03-02", 1, 3, "B", 0]])
    return {"players": players, "events": events, "games": games}


def write_small_federation(tmp_path: Path) -> dict[str, Path]:
    """The `small_federation` fixture's files, written in a folder (for module-scoped fixtures too)."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year", "club", "email"], [
        [1, "Anna Rated", 1980, "Club A", "a@example.org"],
        [2, "Bert Rated", 1975, "Club A", "b@example.org"],
        [3, "Cara Rated", 1990, "Club B", ""],
        [4, "Dirk Rated", 1985, "Club B", ""],
        [5, "Eva Junior", 2012, "Club B", ""],
        [6, "Finn New", 2000, "", ""],
        [7, "Gus School", 2015, "", ""],
        [8, "Hana School", 2015, "", ""],
    ])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "archive_performance", "archive_games"], [
        [1, 1800, "", ""], [2, 1700, "", ""], [3, 1600, "", ""], [4, 1500, "", ""], [5, 1400, "", ""],
    ])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event", "round"], [
        ["2026-09-05", 1, 2, "1-0", "Club cup", 1],
        ["2026-09-05", 3, 4, "1/2-1/2", "Club cup", 1],
        ["2026-09-12", 2, 3, "0-1", "Club cup", 2],
        ["2026-09-12", 4, 1, "0-1", "Club cup", 2],
        ["2026-09-19", 5, 1, "1-0", "Club cup", 3],
        ["2026-09-19", 6, 2, "½-½", "Club cup", 3],
        ["2026-09-26", 6, 3, "1-0", "Club cup", 4],
        ["2026-09-26", 7, 8, "1-0", "School day", 1],
        ["2026-10-03", 6, 4, "+/-", "Club cup", 5],
        ["2027-01-09", 1, 3, "1/2-1/2", "Winter open", 1],
    ])
    return {"players": players, "ratings": ratings, "games": games}


@pytest.fixture
def published(cli, small_federation, tmp_path) -> tuple[Path, Path]:
    """The small federation rated and published once: (warehouse, output folder)."""
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", w, "--out", out)
    return w, out


@pytest.fixture(scope="session")
def published_once(tmp_path_factory) -> Path:
    """`published` made once a session (once a worker under pytest-xdist) in a folder of
    its own: its input files, w.duckdb and out/. Tests get copies of it (`copy_built`),
    never the folder itself; a module whose tests never give the small federation's files
    again (nor compare paths with them) overrides `published` with such a copy."""
    folder = tmp_path_factory.mktemp("published")
    files = write_small_federation(folder)
    cli_runner()("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
                 "--warehouse", folder / "w.duckdb", "--out", folder / "out")
    return folder


def copy_built(built: Path, tmp_path: Path, names=("w.duckdb", "out")) -> tuple[Path, ...]:
    """Copies of what a module- or session-scoped fixture built once (a warehouse, an
    output folder...), under the same names in this test's folder, for the test to write in."""
    copies = []
    for name in names:
        source, copy = built / name, tmp_path / name
        if source.is_dir():
            shutil.copytree(source, copy)
        else:
            assert not Path(f"{source}.wal").exists(), f"{source} is still open"  # the file is all of it
            shutil.copyfile(source, copy)
        copies.append(copy)
    return tuple(copies)
