"""What the commands print: the summaries of ingestion, validation and rating."""
from __future__ import annotations

from pathlib import Path

import click
import duckdb

from pipeline.periods import RatedList
from pipeline.rate_go import RatedEvent
from pipeline.validate import Validated, rejects_of


def report_tournament(path: Path, file_id: int | None, found: str, problems: tuple) -> None:
    if file_id is None:
        click.echo(f"  {path}  already ingested: adds nothing")
        return
    click.echo(f"  {path}  {found}, {len(problems)} problems")
    for p in problems[:10]:
        click.echo(f"    {path.name}" + (f", line {p.line}" if p.line else "") + f": {p.message}", err=True)
    if len(problems) > 10:
        click.echo(f"    ... {len(problems) - 10} more (their rows are rejected: see the rejects table)", err=True)


def report_validation(con: duckdb.DuckDBPyConnection, checked: list[Validated]) -> None:
    click.echo("Validate")
    if not checked:
        click.echo("  nothing staged")
    for v in checked:
        click.echo(f"  {v.kind:<9} {v.path}  read {v.rows_read} = accepted {v.rows_accepted}"
                   f" + rejected {v.rows_rejected}")
        for row_number, reason in rejects_of(con, v.file_id, 10):
            click.echo(f"    {Path(v.path).name}, row {row_number}: {reason}", err=True)
        if v.rows_rejected > 10:
            click.echo(f"    ... {v.rows_rejected - 10} more in the rejects table", err=True)


def report_rating(rated: list[RatedList]) -> None:
    click.echo("Rate")
    if not rated:
        click.echo("  every list is up to date (no late games, no corrections)")
        return
    click.echo(f"  {'list':<8} {'games':>7} {'rated':>7} {'rounds':>6} {'moving':>6}  revision")
    for r in rated:
        revision = "unchanged" if r.revision is None else str(r.revision)
        click.echo(f"  {r.list_id:<8} {r.games:>7} {r.players_rated:>7} {r.rounds:>6} {r.still_moving:>6}  {revision}")


def report_go_rating(rated: list[RatedEvent]) -> None:
    click.echo("Rate (every event, in date order)")
    click.echo(f"  {'event':<24} {'games':>6} {'players':>7} {'first ratings':>13} {'rated after':>11}")
    for r in rated:
        click.echo(f"  {r.event_id:<24} {r.games:>6} {r.players:>7} {r.first_ratings:>13} {r.rated_after:>11}")
