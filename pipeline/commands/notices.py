"""What validating and rating say besides their report: each file held (its games that
look like corrections of another file's) and the possible duplicate games, warnings on
the error stream (pipeline/validate/holds.py, duplicates.py), not rejects."""
from __future__ import annotations

import click

from pipeline.validate.duplicates import warning
from pipeline.validate.holds import held_messages


def warn_held(con) -> int:
    """Each held file in one message (its games that look like corrections, what of, the
    ways on); returns how many are held."""
    said = held_messages(con)
    for text in said:
        click.echo(text, err=True)
    return len(said)


def warn_duplicates(con) -> None:
    """Possible duplicate games are taken in and rated: a warning, not a reject, and no exit status."""
    if text := warning(con):
        click.echo(text, err=True)
