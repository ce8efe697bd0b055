"""`ratings rejects`: the rejected rows listed or written out to be fixed, the officer's
decisions on them (close, reopen) and on the possible duplicate games
(pipeline/validate/rejects.py, decisions.py, duplicates.py)."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline.commands.common import opened, recorded, refuse_overwriting, who
from pipeline.commands.options import by_option, one_line, warehouse_option
from pipeline.console import report_table
from pipeline.ingest import submissions
from pipeline.listing import listing_format
from pipeline.outputs import check_query_file
from pipeline.validate import decisions, duplicates, rejects
from pipeline.validate.rejects import DecisionRefused
from pipeline.warehouse import transaction

TABLE_ROWS = 200  # the open rejects a table shows


@click.command("rejects")
@click.argument("rows", nargs=-1, metavar="[SUBMISSION:ROW]...")
@click.option("--file", "submission", metavar="SUBMISSION", help="Only this submission's rejects (id or file name).")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write them to this CSV file in their input layout, with reason, submission, file and row "
                   "columns (one file per kind when there are several: NAME-<kind>.csv).")
@click.option("--closed", is_flag=True, help="List the closed rejects (with --warnings: the pairs decided), "
                                             "with who decided, when and why.")
@click.option("--all", "every", is_flag=True, help="List every reject (open, closed, fixed, taken in, withdrawn) "
                                                   "with the latest decision on it (with --warnings: every pair).")
@click.option("--close", is_flag=True, help="Close the rejects SUBMISSION:ROW ... that no fix can take in: kept "
                                            "as rejected rows, no longer open (validate and run stop exiting 3 "
                                            "for them). With --reason.")
@click.option("--reopen", is_flag=True, help="Reopen closed rejects SUBMISSION:ROW ... With --reason.")
@click.option("--warnings", is_flag=True, help="List the possible duplicate games: the same date, players, result "
                                               "and event under another game_id (both copies are rated).")
@click.option("--excluded", is_flag=True, help="List the stored games a rule set's lists do not rate (filed before "
                                               "the first of its lists, and rated by another rule set's), with why.")
@click.option("--withdraw-duplicate", is_flag=True,
              help="Withdraw the game SUBMISSION:ROW, a copy of another (listed by --warnings): never rated again; "
                   "the next rate revises its list. With --reason.")
@click.option("--keep-duplicate", is_flag=True,
              help="Keep both games SUBMISSION:ROW SUBMISSION:ROW of a pair --warnings lists (two real games): "
                   "no longer warned about. With --reason.")
@click.option("--reason", callback=one_line, help="Why (kept with the decision): --close, --reopen, "
                                                  "--withdraw-duplicate, --keep-duplicate.")
@by_option
@listing_format
@warehouse_option
def list_rejects(rows: tuple[str, ...], submission: str | None, out_file: Path | None, closed: bool, every: bool,
                 close: bool, reopen: bool, warnings: bool, excluded: bool, withdraw_duplicate: bool,
                 keep_duplicate: bool, reason: str | None, by: str | None, warehouse: Path, wait: float,
                 fmt: str) -> None:
    """List the rejected rows still open, or write them out to be fixed: ingest the
    fixed file and its rows are taken in and their rejects marked fixed (`file` and
    `row` say which reject each line fixes: keep those columns).

    A reject no fix can take in is closed (--close SUBMISSION:ROW --reason TEXT; the
    row as this listing gives it), kept with who, when and why, and can be reopened.
    --warnings lists the possible duplicate games, to withdraw one copy or keep both;
    --excluded the stored games a rule set does not rate (before its history).

    Example: ratings rejects --out fix.csv && ratings run --games fix.csv

    Example: ratings rejects --close games.csv:2 --reason "the organiser cannot say who played"
    """
    if _officer_decision(rows, {"close": close, "reopen": reopen, "withdraw-duplicate": withdraw_duplicate,
                                "keep-duplicate": keep_duplicate}, reason, by, warehouse, wait):
        return
    if excluded:
        _excluded_listing(submission, out_file, warnings or closed or every, warehouse, wait, fmt)
        return
    if warnings or closed or every:
        _decided_listing(submission, out_file, warnings, "all" if every else "closed" if closed else "open",
                         warehouse, wait, fmt)
        return
    if out_file is not None and fmt != "table":
        raise click.UsageError("--format prints the listing, --out writes the rejects in their input layout (CSV): "
                               "give one of them")
    with opened(warehouse, wait, read_only=True) as con:
        target = None
        if submission:
            target = submissions.resolve(con, submission)
        if out_file is None:
            # A table for the eye stops at 200 rows and says so; CSV and JSON, for scripts, hold them all.
            shown = TABLE_ROWS if fmt == "table" else None
            report_table(rejects.open_listing(con, target, shown), "no rejected row is open", fmt)
            if shown and (more := rejects.open_count(con, target) - TABLE_ROWS) > 0:
                click.echo(f"… {more} more open rejects: `ratings rejects --format csv` (or --out FILE.csv) lists them all")
            if fmt == "table" and (kept_out := rejects.excluded_count(con, target)):
                counts = ", ".join(f"{n} by the {series} lists" for series, n in kept_out)
                click.echo(f"Stored games not rated, filed before the history of a rule set's lists: {counts} "
                           "(the warehouse's other lists rate them); `ratings rejects --excluded` lists them",
                           err=True)
            return
        refuse_overwriting(con, out_file, warehouse)  # as a query's --out: never the warehouse, an input, a list
        check_query_file(con, out_file, None)
        written = rejects.export(con, out_file, target)
    for kind, (path, rows) in written.items():
        click.echo(f"  {rows} rejected {kind} rows written to {path}")
    if not written:
        click.echo("no rejected row is open")


def _officer_decision(rows: tuple[str, ...], actions: dict[str, bool], reason: str | None, by: str | None,
                      warehouse: Path, wait: float) -> bool:
    """`ratings rejects --close`, `--reopen`, `--withdraw-duplicate`, `--keep-duplicate` on the rows
    named (pipeline/validate/decisions.py), all or nothing; False when none is asked for."""
    chosen = [f"--{name}" for name, given in actions.items() if given]
    if len(chosen) > 1:
        raise click.UsageError(f"{' and '.join(chosen)}: give one decision at a time")
    if not chosen:
        if rows or reason is not None:
            raise click.UsageError("SUBMISSION:ROW and --reason go with --close, --reopen, --withdraw-duplicate or "
                                   "--keep-duplicate: give one of them")
        return False
    if not rows:
        raise click.UsageError(f"{chosen[0]} takes the rows it decides on: SUBMISSION:ROW ... (`ratings rejects` "
                               "and `ratings rejects --warnings` list them)")
    if not (reason or "").strip():
        raise click.BadParameter("say why (it is kept with the decision)", param_hint="--reason")
    if not Path(warehouse).is_file():  # a decision is about rows a warehouse holds: never make a new one for it
        raise click.ClickException(f"{warehouse}: no warehouse there (check --warehouse; `ratings run` makes one)")
    by = who(by)
    with opened(warehouse, wait) as con, recorded(con, f"rejects {chosen[0]}", {"rows": list(rows)}, by) as run_id, \
            transaction(con):
        try:
            said = decisions.take(con, chosen[0][2:], rows, reason, by, run_id)
        except DecisionRefused as err:
            raise click.ClickException(str(err)) from err
    click.echo("\n".join(said))
    return True


def _excluded_listing(submission: str | None, out_file: Path | None, other: bool, warehouse: Path, wait: float,
                      fmt: str) -> None:
    """`ratings rejects --excluded`: the stored games a series does not rate, with why
    (pipeline/validate/rejects.py)."""
    if out_file is not None or other:
        raise click.UsageError("--excluded lists the stored games a rule set does not rate: give it without --out, "
                               "--closed, --all or --warnings")
    with opened(warehouse, wait, read_only=True) as con:
        target = None
        if submission:
            target = submissions.resolve(con, submission)
        report_table(rejects.excluded_listing(con, target), "no stored game is kept out of a rule set's lists", fmt)


def _decided_listing(submission: str | None, out_file: Path | None, warnings: bool, shown: str, warehouse: Path,
                     wait: float, fmt: str) -> None:
    """`ratings rejects --closed`, `--all`, `--warnings`: the rejects closed (or all of them),
    the possible duplicate games (pipeline/validate/rejects.py, duplicates.py)."""
    if out_file is not None:
        raise click.UsageError("--out writes the open rejects, to be fixed: give it without --closed, --all "
                               "or --warnings")
    if warnings and submission:
        raise click.UsageError("--warnings lists pairs of games across files: give it without --file")
    with opened(warehouse, wait, read_only=True) as con:
        if warnings:
            empty = {"open": "no possible duplicate game", "closed": "no pair of possible duplicates decided yet",
                     "all": "no possible duplicate game"}[shown]
            report_table(duplicates.listing(con, shown), empty, fmt)
            if shown != "closed" and fmt == "table" and duplicates.count(con):
                click.echo("Withdraw one copy: `ratings rejects --withdraw-duplicate SUBMISSION:ROW --reason TEXT`; "
                           "two real games: `ratings rejects --keep-duplicate SUBMISSION:ROW SUBMISSION:ROW "
                           "--reason TEXT`", err=True)
            return
        target = None
        if submission:
            target = submissions.resolve(con, submission)
        report_table(rejects.listing(con, target, shown), "no reject closed" if shown == "closed" else "no reject",
                     fmt)


COMMANDS = (list_rejects,)
