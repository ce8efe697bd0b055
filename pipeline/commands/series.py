"""The warehouse's series: `ratings series` lists each rule set's official lists and the
scenarios beside them (and drops those whose rule set is gone), `scenarios` the scenarios
(pipeline/rate/series.py). Listing them reads the warehouse with DuckDB alone
(tests/test_command_imports.py); `scenario`, which rates, lives with `rate` (lists.py)."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline.commands.common import opened, recorded
from pipeline.commands.options import warehouse_option
from pipeline.listing import listing_format, print_records
from pipeline.rate.series import (
    SCENARIO_COLUMNS,
    SERIES_COLUMNS,
    drop_series,
    scenario_listing,
    series_listing,
)
from pipeline.warehouse import transaction


@click.command("series")
@click.option("--drop", metavar="NAME", help="Remove a scenario, or the lists of a rule set that cannot be loaded "
                                           "(its package uninstalled or broken), and everything computed for them.")
@listing_format
@warehouse_option
def series_command(drop: str | None, fmt: str, warehouse: Path, wait: float) -> None:
    """List the warehouse's series (each rule set's official lists, and the scenarios):
    the rule set, its lists, the package it comes from or why it cannot be loaded.

    A series whose rule set cannot be loaded is left as it is by every command, which
    says so; --drop removes it. The official lists of a rule set that loads are a
    record: they are never dropped.

    Example: ratings series --drop plain-elo
    """
    if drop is not None:
        with opened(warehouse, wait) as con, recorded(con, "series", {"drop": drop}), transaction(con):
            lists = drop_series(con, drop)
        click.echo(f"Series {drop} dropped ({lists} lists).")
        return
    with opened(warehouse, wait, read_only=True) as con:
        found = series_listing(con)
    print_records(SERIES_COLUMNS, found, fmt, "no series yet (ratings run computes the first)")


@click.command("scenarios")
@listing_format
@warehouse_option
def list_scenarios(warehouse: Path, wait: float, fmt: str) -> None:
    """List the scenarios: rule set, the parameters each changes, lists computed.

    Example: ratings scenarios
    """
    with opened(warehouse, wait, read_only=True) as con:
        found = scenario_listing(con)
    print_records(SCENARIO_COLUMNS, found, fmt, "no scenario (make one: ratings scenario NAME --rules FILE.toml)")


COMMANDS = (series_command, list_scenarios)
