"""The lists: `ratings rate` computes them, `publish` writes them, `export history` writes
the whole history for other tools (pipeline/flow.py, pipeline/publish/); whose they are,
`series`, is series.py."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline import flow
from pipeline.commands.common import exit_failed, opened, recorded
from pipeline.commands.notices import warn_held
from pipeline.commands.options import (
    publication_options,
    read_rules,
    rules_option,
    series_option,
    system_option,
    warehouse_option,
    with_dialect,
)
from pipeline.console import ConsoleReporter
from pipeline.ingest.submissions import staged_parts
from pipeline.publish import write_dataset
from pipeline.publish.history import history as history_of
from pipeline.rate.series import chosen, drop_scenario
from pipeline.warehouse import transaction


@click.command()
@warehouse_option
@click.option("--from", "from_list", metavar="LIST_ID",
              help="Recompute this list and every later one (default: from the first list whose games "
                   "or corrections changed since it was computed).")
@system_option
@rules_option
def rate(warehouse: Path, wait: float, from_list: str | None, system: str | None, rules: dict | None) -> None:
    """Compute the lists of every rule set of the warehouse (and --system's, made when
    new), in order, each from the one before.

    Late games and corrections are noticed: the first list they touch and every
    later one are recomputed; a list whose result changes gets a new revision.

    Example: ratings rate --from 2027-01 --warehouse w.duckdb
    """
    reporter = ConsoleReporter()
    with opened(warehouse, wait) as con, recorded(con, "rate", {"from": from_list}) as run_id, \
            flow.timed(reporter, "Rate"):
        rating = flow.rate(con, run_id, reporter, system, rules, from_list)
        staged = staged_parts(con)
        warn_held(con)  # a held file's games are not rated: said, with the ways on
        if staged:  # rate reads what was taken in; a file only staged waits for validation
            click.echo(f"  {staged} staged file part{'s are' if staged > 1 else ' is'} not taken in yet: "
                       "`ratings validate` (or `ratings run`) takes them in")
        exit_failed(rating.failed, "rated")


@click.command()
@warehouse_option
@publication_options
@system_option
def publish(warehouse: Path, wait: float, out: Path, reports: bool, formats: tuple[str, ...], csv_dialect: str,
            system: str | None) -> None:
    """Write the computed lists (CSV, Parquet; FIDE TXT and Swiss-Manager CSV on request)
    and states (Parquet) of every rule set of the warehouse (or --system's) to OUT.

    The TXT and Swiss-Manager files are for pairing programs: every rated player and,
    under a rule set that publishes them, the registry's estimated ratings of unrated
    players, printed ending in 9 (R12). Birth dates are never written; the birth year only in
    these two, when ratings.toml says publish_birth_year = true. ratings.toml's
    federation = "BEL" fills their Fed column where the registry gives none.

    Example: ratings publish --format csv,parquet,txt,swiss-manager --warehouse w.duckdb --out lists/
    """
    reporter = ConsoleReporter()
    with opened(warehouse, wait) as con, recorded(con, "publish", {"out": out}), flow.timed(reporter, "Publish"):
        exit_failed(flow.publish(con, out, reporter, with_dialect(formats, csv_dialect), reports, system), "published")


@click.group()
def export() -> None:
    """Export the warehouse for other tools.

    Example: ratings export history --out history/
    """


@export.command("history")
@warehouse_option
@series_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the dataset (one sub-folder per list).")
def export_history(warehouse: Path, wait: float, system: str | None, out: Path) -> None:
    """Write the whole rating history of a rule set (default: the warehouse's first) as
    a Parquet dataset partitioned by list (list_id=YYYY-MM/…), for pandas, Polars, R or
    DuckDB; under the Go rule sets, the go_history view partitioned by event (event_id=…/).

    Example: ratings export history --out history/
    """
    with opened(warehouse, wait, read_only=True) as con:
        history, key = history_of(con, chosen(con, system))
    try:
        write_dataset(history, out, key)
    except FileExistsError as err:
        raise click.ClickException(str(err)) from err
    parts = len(set(history.column(key).to_pylist()))
    click.echo(f"{history.num_rows} rows of {parts} {'lists' if key == 'list_id' else 'events'} written to {out}")


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


COMMANDS = (rate, publish, export, scenario_command)
