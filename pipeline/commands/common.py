"""What the commands share when they run: the warehouse opened, the run recorded, who
does it, the input files given, the exit status of a run with rejects (what validating
says of held files and possible duplicates: notices.py)."""
from __future__ import annotations

import contextlib
import getpass
import os
from collections.abc import Iterator
from pathlib import Path

import click

from pipeline import config
from pipeline.outputs import submitted_files
from pipeline.warehouse import connect, run_record

REJECTED = 3  # the exit status of validate and run when rows were rejected or a file is held


@contextlib.contextmanager
def opened(warehouse: Path, wait: float, read_only: bool = False) -> Iterator:
    """The warehouse (a clear message when it cannot be opened: pipeline.warehouse)."""
    config.today()  # a bad RATINGS_TODAY is refused before any work, not in the middle of a run
    con = connect(warehouse, read_only=read_only, wait=wait)
    with con:
        yield con


@contextlib.contextmanager
def recorded(con, command: str, arguments: dict, by: str | None = None) -> Iterator[int]:
    """The command's run, recorded in `runs` (pipeline.warehouse.run_record): its run_id."""
    with run_record(con, command, arguments, by) as run_id:
        yield run_id


def who(by: str | None) -> str:
    """Who is doing it: --by, else the operating system's user."""
    if by:
        return by
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no user name in the environment nor in the password database
        return os.environ.get("USER") or "unknown"


def input_files(players, ratings, calendar, games, events=(), unnamed=()) -> list[tuple[str | None, Path]]:
    """The input files with their kind (None: to be read from the content)."""
    chosen = {"players": players, "ratings": ratings, "calendar": calendar, "games": games, "events": events}
    return [(kind, Path(p)) for kind in config.KINDS if kind in chosen for p in chosen[kind]] + \
        [(None, Path(p)) for p in unnamed]


def exit_rejected(rejected: int, held: int = 0) -> None:
    """Exit status 3 when rows were rejected and their rejects are open, or a file is held
    (notices.warn_held), so that scripts can tell; a closed reject is never examined again, so it
    never counts here."""
    if rejected:
        _say_rejected(rejected)
    if rejected or held:
        click.get_current_context().exit(REJECTED)


def _say_rejected(rejected: int) -> None:
    click.echo(f"{rejected} rows rejected: `ratings rejects --out FILE.csv` writes them out to be fixed; "
               "one no fix can take in is closed with `ratings rejects --close SUBMISSION:ROW --reason TEXT`",
               err=True)


def exit_failed(failed: list[str], others: str, rejected: int = 0) -> None:
    """Exit status 1 when a rule set failed (pipeline/rate/contract.py), each failure one
    line, once the others' lists were `others` ("rated", "rated and published"); the
    rows rejected said too."""
    if not failed:
        return
    if rejected:
        _say_rejected(rejected)
    raise click.ClickException("\n".join(failed) + f"\n(every other rule set's lists were {others})")


def refuse_overwriting(con, out_file: Path, warehouse: Path) -> None:
    """A query's output never lands on the warehouse (or its write-ahead log) or on an input file."""
    target = Path(out_file).resolve()
    protected = {Path(warehouse).resolve(), Path(f"{warehouse}.wal").resolve()}
    protected |= submitted_files(con)
    if target in protected:
        raise click.ClickException(f"{out_file}: refused, it is the warehouse or one of its input files")
