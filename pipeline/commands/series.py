"""The warehouse's series, each rule set's official lists and the scenarios beside them:
`ratings series` lists them (and drops those whose rule set is gone), `scenario` rates
the games under other parameters, `scenarios` lists those (pipeline/flow.py,
pipeline/rate/series.py). Listing them reads the warehouse with DuckDB alone
(tests/test_command_imports.py)."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline import flow
from pipeline.commands.common import opened, recorded
from pipeline.commands.options import read_rules, system_option, warehouse_option
from pipeline.console import ConsoleReporter
from pipeline.listing import listing_format, print_rows
from pipeline.rate.series import (
    SCENARIO_COLUMNS,
    SERIES_COLUMNS,
    drop_scenario,
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
    print_rows(SERIES_COLUMNS, [[f[c] for c in SERIES_COLUMNS] for f in found], fmt,
               "no series yet (ratings run computes the first)")


@click.command("scenario")
@click.argument("name")
@click.option("--rules", type=click.Path(exists=True, dir_okay=False, path_type=Path), callback=read_rules,
              metavar="FILE.toml", help="The parameters that differ from the rule set's (e.g. senior_quota = 12).")
@system_option
@click.option("--from", "from_list", metavar="LIST_ID", help="Recompute from this list (default: what changed).")
@click.option("--drop", is_flag=True, help="Remove the scenario and everything computed for it.")
@warehouse_option
def scenario_command(name: str, rules: dict | None, system: str | None, from_list: str | None, drop: bool,
                     warehouse: Path, wait: float) -> None:
    """Rate the warehouse's games under a rule set with other parameters, stored as
    the scenario NAME beside the official lists: never published, recomputed like
    any list when the games change (`ratings rate`), compared with `ratings compare`.

    Given again with other --rules, the scenario takes them and every list is recomputed.

    Example: ratings scenario quota12 --rules quota12.toml && ratings compare performance quota12
    """
    if drop:
        if rules is not None or system is not None or from_list is not None:
            raise click.UsageError("--drop takes no other option")
        with opened(warehouse, wait) as con, recorded(con, "scenario", {"drop": name}), transaction(con):
            lists = drop_scenario(con, name)
        click.echo(f"Scenario {name} dropped ({lists} lists).")
        return
    if rules is None:
        raise click.UsageError("give --rules FILE.toml (the parameters the scenario changes), or --drop")
    reporter = ConsoleReporter()
    with opened(warehouse, wait) as con, recorded(con, "scenario", {"name": name, "rules": rules}) as run_id, \
            flow.timed(reporter, "Rate"):
        flow.run_scenario(con, run_id, reporter, name, system, rules, from_list)


@click.command("scenarios")
@listing_format
@warehouse_option
def list_scenarios(warehouse: Path, wait: float, fmt: str) -> None:
    """List the scenarios: rule set, the parameters each changes, lists computed.

    Example: ratings scenarios
    """
    with opened(warehouse, wait, read_only=True) as con:
        found = scenario_listing(con)
    print_rows(SCENARIO_COLUMNS, [[f[c] for c in SCENARIO_COLUMNS] for f in found], fmt,
               "no scenario (make one: ratings scenario NAME --rules FILE.toml)")


COMMANDS = (series_command, scenario_command, list_scenarios)
