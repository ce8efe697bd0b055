"""The README's season, command by command, run once (a session's fixture, tests/workflows/conftest.py)
for the tests that check each line (test_season.py) and the record's workflows that start
from the season published (test_record.py).

The files are a simulated federation's season (tests/workflows/inputs.py): the registry
with each player's FIDE id, the initial ratings, three opens as arbiters' TRF files, the
league's table with two clerk's typos (row 4: a player id with a digit too many; row 8:
the 31st of November), the league's corrected file, and a friendly club match. Each line
runs as the README prints it, by a shell, in the season's folder, on January 5th 2027
(list 2027-01 rates the games of 2026-09-01 ... 2026-12-31).

The officer's fix of the two typos (between lines 4 and 5) is what the league's corrected
file says too: the true id and the true day."""
from __future__ import annotations

import csv
import shutil
from dataclasses import dataclass
from pathlib import Path

from tests.workflows.helpers import shell, user_env
from tests.workflows.inputs import GAME_COLUMNS, read_csv, write_season

TODAY = "2027-01-05"
SEASON = (
    "ratings ingest registry.csv ratings.csv && ratings validate       # the registry first: tournament files are matched against it",
    "ratings ingest autumn/*.trf league.csv friendly.csv               # each file a submission, staged",
    "ratings validate                                                  # every row stored or rejected, with its reason",
    "ratings rejects --out fix.csv                                     # the open rejects, in their input layout",
    "ratings ingest fix.csv                                            # the corrected rows close their rejects",
    "ratings ingest league-v2.csv --replaces league.csv                # a corrected file replaces the first, and the fixes of its rows",
    'ratings withdraw friendly.csv --reason "not a rated event"        # a whole file withdrawn',
    "ratings run                                                       # rate every list whose window has closed, publish",
    'ratings correct 12345 --list 2027-01 --rating 1850 --reason "appeal upheld"',
    "ratings run --format csv,parquet,txt,swiss-manager                # the correction applied, the pairing files written",
    "ratings audit && ratings revisions --list 2027-01                 # the record checked; who changed, and why",
)
EVERY_FORMAT = "csv,parquet,txt,swiss-manager"


@dataclass
class Season:
    folder: Path
    files: dict
    steps: dict  # the README's line number (1 to 11): what it did


def fix_typos(fix: Path, truth: list[list[str]], columns: list[str] = GAME_COLUMNS) -> None:
    """The officer corrects each row of fix.csv, as in a spreadsheet, keeping its `file`
    and `row` (which reject it fixes): the values are the true ones (rows of `columns`,
    game_id first)."""
    header, rows = read_csv(fix)
    true_by_id = {row[0]: dict(zip(columns, row)) for row in truth}
    for row in rows:
        values = true_by_id[row[header.index("game_id")]]
        for column in columns:
            row[header.index(column)] = values[column]
    with open(fix, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows([header, *rows])


def run_season(folder: Path) -> Season:
    """The season's files written in folder, then the README's lines, each kept with what it
    did whatever its exit status."""
    files = write_season(folder)
    env = user_env(today=TODAY)
    steps = {}
    for number, line in enumerate(SEASON, start=1):
        steps[number] = shell(line, folder, env=env, expect=None)
        if number == 4 and (folder / "fix.csv").is_file():
            shutil.copyfile(folder / "fix.csv", folder / "fix-as-written.csv")
            fix_typos(folder / "fix.csv", files["typos"])
    return Season(folder, files, steps)
