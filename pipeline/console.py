"""What the commands print: the summaries of ingestion, validation and rating."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
import duckdb

from pipeline.reporter import Reporter
from pipeline.listing import print_relation
from pipeline.validate import rejects_of

if TYPE_CHECKING:  # what the reports describe; imported by the commands that make them
    from pipeline.ingest import Intake
    from pipeline.rate.waiting import Waiting
    from pipeline.ruleset.figures import RatedList
    from pipeline.validate.parts import Replacement, Validated


GO_SOURCES = {"opengotha": "OpenGotha", "egd": "EGD results", "ffg": "FFG results (.tou)", "aga": "AGA results",
              "pairgoth": "pairgoth"}


def _tournament_found(t) -> str:
    if hasattr(t, "flavour"):
        event = t.event or "unnamed: no tag 012"
        return (f"{'SWAR (Belgian TRF)' if t.flavour == 'swar' else 'FIDE TRF'}: 1 event ({event}), "
                f"{t.players} players ({t.in_registry} in the registry, {t.registered} new), "
                f"{t.games} games ({t.forfeits} forfeits), {t.byes} byes"
                + (f", {t.printed_ratings} printed ratings taken as initial ratings" if t.printed_ratings else ""))
    return (f"{GO_SOURCES.get(t.source, t.source)}: event {t.event_id}, "
            f"{t.players} players ({t.in_registry} in the registry, {t.registered} new), {t.games} games "
            f"({t.not_counted} not counted"
            + (f": {t.won_by_default} won by default, stored and never rated" if t.won_by_default else "") + ")")


def report_intake(intakes: list[Intake]) -> None:
    """One line a file: the submission it became, what was staged; a tournament's content and problems."""
    for i in intakes:
        where = f"  {i.format:<9} {i.path}  "
        if i.outcome == "nothing":
            click.echo(where + f"already taken in as submission {i.submission_id}, nothing of it rejected: adds nothing")
            continue
        if i.outcome == "held":
            click.echo(where + f"already staged as submission {i.submission_id}, held: its games look like "
                               "corrections of another file's (`ratings validate` says which and the ways on)")
            continue
        if i.outcome == "replacing":
            click.echo(where + f"submission {i.submission_id}, held until now: replaces submission {i.replaces} "
                               "at the next `ratings validate` (or `ratings run`)")
            continue
        if i.outcome == "again":
            rows = sum(p.rows_read for p in i.parts)
            what = f"already taken in as submission {i.submission_id}: its rejected rows are examined again"
            click.echo(where + what + (f" ({rows})" if i.parts else ""))
        else:
            rows = f"{sum(p.rows_read for p in i.parts)} rows staged" if i.parts else "staged"
            click.echo(where + f"submission {i.submission_id}: {rows}"
                       + (f", replacing submission {i.replaces}" if i.replaces else ""))
        for p in i.parts:
            for note in p.notes:
                click.echo(f"            {note}")
            for warned in p.warnings:
                click.echo(f"    Warning: {i.path.name}, {warned}", err=True)
            if p.missing_columns:
                click.echo(f"            missing column(s): {', '.join(p.missing_columns)}", err=True)
        if i.tournament is not None:
            t = i.tournament
            click.echo(f"            {_tournament_found(t)}, {len(t.problems)} problems")
            for assumed in t.assumptions:
                click.echo(f"            assumed: {assumed}")
            for warned in t.warnings:
                click.echo(f"    Warning: {i.path.name}, {warned}", err=True)
            for p in t.problems[:10]:
                click.echo(f"    {i.path.name}" + (f", line {p.line}" if p.line else "") + f": {p.message}", err=True)
            if len(t.problems) > 10:
                click.echo(f"    ... {len(t.problems) - 10} more (their rows are rejected: see `ratings rejects`)",
                           err=True)


def report_validation(con: duckdb.DuckDBPyConnection, checked: list[Validated],
                      replacements: list[Replacement] = ()) -> int:
    """Each part's rows accepted and rejected (the first rejects with their reasons),
    each replacement's changes; returns the rows rejected."""
    click.echo("Validate")
    if not checked:
        click.echo("  nothing staged")
    for v in checked:
        read = "examined again" if v.reexamined else "read"
        click.echo(f"  {v.kind:<9} {v.path}  {read} {v.rows_read} = accepted {v.rows_accepted}"
                   f" + rejected {v.rows_rejected}")
        for note in v.notes:
            click.echo(f"    {note}")
        for row_number, reason in rejects_of(con, v.file_id, 10):
            click.echo(f"    {Path(v.path).name}, row {row_number}: {reason}", err=True)
        if v.rows_rejected > 10:
            click.echo(f"    ... {v.rows_rejected - 10} more: `ratings rejects --out FILE.csv` writes them out", err=True)
    for r in replacements:
        counts = ", ".join(f"{r.changes.get(k, 0)} {k}" for k in ("changed", "added", "withdrawn"))
        click.echo(f"  submission {r.new} replaces submission {r.old}: {r.withdrawn} rows withdrawn; games {counts}")
        for (description,) in con.execute("""select description from game_changes where submission_id = ?
                                             and replaced = ? order by date, white_id, black_id limit 10""",
                                          [r.new, r.old]).fetchall():
            click.echo(f"    {description}")
    return sum(v.rows_rejected for v in checked)


def report_rating(rated: list[RatedList], series: str = "") -> None:
    click.echo(f"Rate {series}".rstrip())
    if not rated:
        click.echo("  every list is up to date (no late games, no corrections)")
        return
    headings = [h for h, _ in rated[0].figures]  # the rule set's own (RuleSet.figures)
    width = max(8, *(len(r.list_id) for r in rated))  # Go's events have longer ids than YYYY-MM
    click.echo(f"  {'list':<{width}} {'games':>7} {'rated':>7}"
               + "".join(f" {h:>{max(6, len(h))}}" for h in headings) + "  revision")
    for r in rated:
        revision = "unchanged" if r.revision is None else str(r.revision)
        click.echo(f"  {r.list_id:<{width}} {r.games:>7} {r.players_rated:>7}"
                   + "".join(f" {v:>{max(6, len(h))}}" for h, v in r.figures) + f"  {revision}")


def waiting_words(w: Waiting) -> str:
    """The games waiting for a list whose window has not closed (pipeline/rate/waiting.py),
    as `run` and `rate` say it; the site's pending page names the same list and day."""
    waits = f"{w.games} game waits" if w.games == 1 else f"{w.games} games wait"
    games = waits if not w.later else f"{waits}, {w.games - w.later}"
    return (f"Waiting: {games} for list {w.list_id}, computed from {w.computed_on} once its window "
            f"({w.window_start} … {w.window_end}) has closed"
            + (f", {w.later} for later lists" if w.later else "")
            + "; `ratings site --pending` shows them to the players")


def report_table(relation: duckdb.DuckDBPyRelation, empty: str, fmt: str = "table") -> None:
    """A query's rows as an aligned text table (or what to say when there are none), CSV
    or JSON: every listing prints through pipeline/listing.py, so the formats agree."""
    print_relation(relation, fmt, empty)


class ConsoleReporter(Reporter):
    """What the commands print of each stage (the benchmark reads the "took" lines)."""

    def stage(self, name: str, seconds: float) -> None:
        click.echo(f"  {name} took {seconds:.2f} s")

    def heading(self, name: str) -> None:
        click.echo(name)

    def taken(self, intakes: list[Intake]) -> None:
        report_intake(intakes)

    def validated(self, con: duckdb.DuckDBPyConnection, checked: list[Validated],
                  replacements: list[Replacement]) -> int:
        return report_validation(con, checked, replacements)

    def rated(self, series, rated: list[RatedList]) -> None:
        label = f"scenario {series.name}" if series.scenario else "" if series.position == 1 else series.name
        report_rating(rated, label)

    def waiting(self, series, waiting) -> None:
        if waiting is not None:
            click.echo(f"  {waiting_words(waiting)}")

    def note(self, text: str) -> None:
        click.echo(f"  Note: {text}")

    def published(self, series, out: Path, list_ids: list[str], written: int, pages: list[Path]) -> None:
        click.echo(f"Publish {'' if series.position == 1 else series.name}".rstrip()
                   + f"\n  {len(list_ids)} lists in {out}/lists and {out}/state: "
                   + (f"{written} files written" if written else "no file changed"))
        if pages:
            click.echo(f"  {len(pages)} reports written: {pages[-1]}" + (" …" if len(pages) > 1 else ""))
