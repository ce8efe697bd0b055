"""The parameter studies the warehouse holds: `ratings tunes` lists them or drops one
(pipeline/tune/study.py). A module of its own: `tune`, which searches, loads Optuna and
the stages (tune.py); listing the studies loads neither (tests/test_command_imports.py)."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline.commands.common import opened, recorded
from pipeline.commands.options import warehouse_option
from pipeline.listing import listing_format, print_records
from pipeline.tune.study import STUDY_COLUMNS, drop_study, study_listing


@click.command("tunes")
@click.option("--drop", metavar="NAME", default=None, help="Remove the study NAME and its trials.")
@listing_format
@warehouse_option
def tunes(drop: str | None, warehouse: Path, wait: float, fmt: str) -> None:
    """List the parameter studies: rule set, parameters searched, trials, the best
    feasible trial's training and test scores; or drop one (--drop NAME).

    Example: ratings tunes
    """
    if drop is not None:
        with opened(warehouse, wait) as con, recorded(con, "tunes", {"drop": drop}):
            trials = drop_study(con, drop)
        click.echo(f"Study {drop} dropped ({trials} trials).")
        return
    with opened(warehouse, wait, read_only=True) as con:
        found = study_listing(con)
    print_records(STUDY_COLUMNS, found, fmt,
                  "no study (make one: ratings tune NAME --system RULE_SET --space FILE.toml)")


COMMANDS = (tunes,)
