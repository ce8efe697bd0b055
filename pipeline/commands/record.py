"""The warehouse's record: the `submissions` taken in, the lists' `revisions`, and the
rating commission's corrections (`correct`, `corrections`; pipeline/ingest/submissions.py,
pipeline/revisions.py, pipeline/rate/corrections.py). Each reads the warehouse with DuckDB
alone (tests/test_command_imports.py)."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline.commands.common import opened, recorded, who
from pipeline.commands.options import by_option, one_line, series_option, system_option, warehouse_option
from pipeline.console import report_table
from pipeline.listing import listing_format
from pipeline.rate import corrections
from pipeline.rate.series import chosen, known_list
from pipeline.revisions import any_series, listing
from pipeline.warehouse import stage


@click.command("submissions")
@listing_format
@warehouse_option
def list_submissions(warehouse: Path, wait: float, fmt: str) -> None:
    """List every submission: who took it in and when, its status, its rows (read,
    stored, rejected, withdrawn), what it replaced or why it was withdrawn.

    Example: ratings submissions --warehouse w.duckdb
    """
    with opened(warehouse, wait, read_only=True) as con:
        report_table(stage(con, "submissions"), "no submission yet", fmt)


@click.command()
@click.option("--list", "list_id", metavar="LIST_ID", help="Only this list's revisions.")
@series_option
@listing_format
@warehouse_option
def revisions(list_id: str | None, system: str | None, warehouse: Path, wait: float, fmt: str) -> None:
    """List the revisions of the lists: when, in which run, how many players changed, and why.

    Example: ratings revisions --list 2027-01
    """
    with opened(warehouse, wait, read_only=True) as con:
        held = any_series(con)
        if not held and fmt == "table":
            click.echo("no list has been computed")
            return
        series = chosen(con, system) if held else None  # CSV and JSON still print their (empty) listing
        if list_id is not None and series is not None:
            known_list(con, series, list_id)
        report_table(listing(con, series and series.name, list_id), "no list has been computed", fmt)


@click.command()
@click.argument("player_id", type=int, required=False)
@click.option("--list", "list_id", help="The list (YYYY-MM; Go: the event id) the correction applies to.")
@click.option("--rating", type=float, help="The rating decided (Go: points, negative for kyu).")
@click.option("--reason", required=True, callback=one_line,
              help="The commission's reason (or why a correction is withdrawn).")
@click.option("--withdraw", "withdrawn", type=int, metavar="ID", help="Withdraw correction ID instead.")
@system_option
@warehouse_option
@by_option
def correct(player_id: int | None, list_id: str | None, rating: float | None, reason: str, withdrawn: int | None,
            system: str | None, warehouse: Path, wait: float, by: str | None) -> None:
    """Record a correction by the rating commission (or withdraw one); the next `rate`
    applies it at that list and recomputes every later list from it.

    The list must be computed, the player registered, and the rating one the rule
    set publishes (its step and range: a refusal says them).

    Example: ratings correct 12345 --list 2027-01 --rating 1850 --reason "result of round 3 reversed on appeal"
    """
    by = who(by)
    if withdrawn is None and (player_id is None or list_id is None or rating is None):
        raise click.UsageError("give PLAYER_ID, --list and --rating (or --withdraw ID)")
    if withdrawn is not None and (player_id is not None or list_id or rating is not None):
        raise click.UsageError("--withdraw ID takes only --reason")
    with opened(warehouse, wait) as con, recorded(con, "correct", {"player": player_id, "list": list_id,
                                                                 "withdraw": withdrawn}, by) as run_id:
        if withdrawn is not None:
            player_id, list_id = corrections.withdraw(con, withdrawn, reason, by, run_id)
            click.echo(f"Correction {withdrawn} withdrawn (player {player_id}, list {list_id}): {reason}.")
        else:
            series = chosen(con, system)
            correction_id = corrections.record(con, series, player_id, list_id, rating, reason, by, run_id)
            click.echo(f"Correction {correction_id} recorded by {by}: player {player_id}, list {list_id}, "
                       f"rating {rating:g} ({reason}).")
    click.echo("Run `ratings rate` (or `ratings run`) to apply it and recompute the later lists.")


@click.command("corrections")
@click.option("--player", "player_id", type=int, help="Only this player's corrections.")
@click.option("--list", "list_id", help="Only this list's corrections.")
@listing_format
@warehouse_option
def list_corrections(player_id: int | None, list_id: str | None, warehouse: Path, wait: float, fmt: str) -> None:
    """List the rating commission's corrections, in force, set aside (their list no longer rates the player,
    with why) or withdrawn, with who entered them and when.

    Example: ratings corrections --player 12345
    """
    with opened(warehouse, wait, read_only=True) as con:
        report_table(corrections.listing(con, player_id, list_id), "no correction", fmt)


COMMANDS = (list_submissions, revisions, correct, list_corrections)
