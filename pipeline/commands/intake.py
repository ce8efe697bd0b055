"""Taking files in: `ratings run` (the whole season in one go), `ingest`, `validate`,
`withdraw`, `confirm` (pipeline/flow.py, pipeline/ingest/, pipeline/validate/); the
`submissions` they made are listed by record.py."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from pipeline import config, flow
from pipeline.commands.common import exit_failed, exit_rejected, input_files, opened, recorded, who
from pipeline.commands.notices import warn_duplicates, warn_held
from pipeline.commands.options import (
    blank_missing_option,
    by_option,
    date_option,
    encoding_option,
    input_options,
    printed_ratings_option,
    publication_options,
    reason_given,
    register_option,
    replace_options,
    rules_option,
    system_option,
    warehouse_option,
    with_dialect,
)
from pipeline.console import ConsoleReporter
from pipeline.formats.text_codecs import Encodings
from pipeline.ingest import submissions
from pipeline.rate.series import record_game
from pipeline.validate.parts import validate_staged, withdraw_submission
from pipeline.validate.holds import confirm as confirmed
from pipeline.warehouse import transaction


def _one_file_with_replaces(replaces: str | None, files: list) -> None:
    if replaces is not None and len(files) != 1:
        raise click.UsageError("--replaces takes exactly one input file (the new version)")


def _encodings_of_files_given(encodings: Encodings, files: list) -> None:
    if stray := encodings.not_given([path for _, path in files]):
        raise click.BadParameter(f"{stray[0]} is not one of the files given: --encoding FILE=NAME names one of them",
                                 param_hint="--encoding")


def _nothing_to_run(warehouse: Path) -> str:
    return (f"{warehouse} holds nothing yet and no input file was given: give the files to take in "
            "(--players, --ratings, --games, ...), or --sample to run the embedded sample season")


@click.command()
@input_options
@warehouse_option
@publication_options
@system_option
@rules_option
@register_option
@printed_ratings_option
@date_option
@encoding_option
@replace_options
@blank_missing_option
@by_option
@click.option("--sample", is_flag=True, help="Run the embedded sample season (data/sample/) into the warehouse.")
def run(players, ratings, calendar, games, events, warehouse: Path, wait: float, out: Path, reports: bool,
        formats: tuple[str, ...], csv_dialect: str, system: str | None, rules: dict | None, register_new: bool,
        ratings_from_files: bool, date: dt.date | None, encodings: Encodings, replaces: str | None, again: bool,
        blank_missing: bool, by: str | None, sample: bool) -> None:
    """Ingest, validate, rate and publish in one go.

    With no input files, takes in what `ratings ingest` staged, then rates and
    publishes what the warehouse holds (late games, corrections), every rule set
    of the warehouse; --system adds one beside the others.

    A --games file may be a tournament report (TRF, SWAR): it is taken in after
    the other files, against the registry they give.

    A file whose games look like corrections of another file's (the same day, players
    and event, another result), given without --replaces, is held: nothing of it is
    rated until `ingest FILE --replaces OLD` or `confirm`.

    Exit status: 0, or 3 when rows were rejected (`ratings rejects` lists them) or a
    file is held.

    Example: ratings run --players p.csv --games g.csv --ratings r.csv --warehouse w.duckdb --out lists/
    """
    by = who(by)
    files = input_files(players, ratings, calendar, games, events)
    _one_file_with_replaces(replaces, files)
    _encodings_of_files_given(encodings, files)
    if sample and files:
        raise click.UsageError("--sample runs the embedded sample alone: give no input file with it")
    # The embedded sample runs only when asked: --sample, or the README's first command
    # (no file, the default warehouse and output folder); never into a mistyped warehouse.
    defaults = Path(warehouse) == config.setting("warehouse") and Path(out) == config.setting("out")
    if not files and not sample and not defaults and not Path(warehouse).exists():
        raise click.UsageError(_nothing_to_run(warehouse))
    with opened(warehouse, wait) as con, recorded(con, "run", {"files": files, "out": out}, by) as run_id:
        if not files and not submissions.any_submission(con):
            if not (sample or defaults):
                raise click.UsageError(_nothing_to_run(warehouse))
            files = list(config.SAMPLE_FILES.items())
            click.echo(f"No input files and an empty warehouse: using the embedded sample in {config.SAMPLE_DIR}")
        inputs = flow.Inputs(files, register_new, replaces, again, date, ratings_from_files, blank_missing, encodings)
        ran = flow.run(con, run_id, inputs, by, out, ConsoleReporter(), system, rules,
                       with_dialect(formats, csv_dialect), reports)
        warn_duplicates(con)
        held = warn_held(con)
        exit_failed(ran.failed, "rated and published", ran.rejected)
    exit_rejected(ran.rejected, held)


@click.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@input_options
@warehouse_option
@register_option
@printed_ratings_option
@date_option
@encoding_option
@replace_options
@blank_missing_option
@by_option
def ingest(files, players, ratings, calendar, games, events, warehouse: Path, wait: float,
           register_new: bool, ratings_from_files: bool, date: dt.date | None, encodings: Encodings,
           replaces: str | None, again: bool, blank_missing: bool, by: str | None) -> None:
    """Read input files into the warehouse's staging tables (nothing judged yet): each
    file becomes a submission (`ratings submissions` lists them).

    FILES are recognised by their content: a tournament report (FIDE TRF, Belgian
    SWAR), or a CSV or Parquet table whose columns say what it holds (games,
    calendar, registry, initial ratings). A tournament's players are matched to the
    registry already in the warehouse: validate a new registry file before.

    The same content again stages only its rows still rejected, which the next
    `validate` or `run` examines again (after a completed registry, --register-new).
    A corrected file replaces the one it corrects with --replaces.

    Example: ratings ingest open-v2.trf --replaces open.trf --warehouse w.duckdb
    """
    by = who(by)
    given = input_files(players, ratings, calendar, games, events, files)
    if not given:
        raise click.UsageError("give at least one file (FILES, or --players, --ratings, --calendar, --games)")
    _one_file_with_replaces(replaces, given)
    _encodings_of_files_given(encodings, given)
    with opened(warehouse, wait) as con, recorded(con, "ingest", {"files": given}, by) as run_id, \
            transaction(con):  # all the files or none: a tournament stages several tables
        inputs = flow.Inputs(given, register_new, replaces, again, date, ratings_from_files, blank_missing, encodings)
        flow.take_in(con, run_id, inputs, by, "main", False, ConsoleReporter())


@click.command()
@warehouse_option
@system_option
@by_option
def validate(warehouse: Path, wait: float, system: str | None, by: str | None) -> None:
    """Check every staged row: accepted rows are stored, the others go to rejects with reasons.

    Under a Go rule set, starting points are Go points: give --system on a new
    warehouse (it is then recorded, as `ratings run` records it).

    A file whose games look like corrections of another file's, given without
    --replaces, is held, not validated: the message names its rows and the ways on.

    Exit status: 0, or 3 when rows were rejected or a file is held.

    Example: ratings validate --warehouse w.duckdb
    """
    by, reporter = who(by), ConsoleReporter()
    with opened(warehouse, wait) as con, recorded(con, "validate", {}, by) as run_id, flow.timed(reporter, "Validate"):
        if system is not None:
            record_game(con, system)
        with transaction(con):
            rejected = reporter.validated(con, *validate_staged(con, run_id, by, system))
        warn_duplicates(con)
        held = warn_held(con)
    exit_rejected(rejected, held)


@click.command()
@click.argument("submission")
@click.option("--reason", required=True, callback=reason_given, help="Why the file is withdrawn (kept with it).")
@warehouse_option
@by_option
def withdraw(submission: str, reason: str, warehouse: Path, wait: float, by: str | None) -> None:
    """Withdraw a whole game file: its games stay in the warehouse, marked withdrawn,
    and are never rated again; the next `rate` recomputes every list they touched,
    and the revisions name the submission.

    A file not validated yet (staged by `ingest`, or held) is cancelled, whatever it
    holds (a registry, initial ratings, a calendar, games): its rows are kept as
    withdrawn and none is taken in.

    Example: ratings withdraw 7 --reason "the organiser cancelled the event"
    """
    by = who(by)
    with opened(warehouse, wait) as con, recorded(con, "withdraw", {"submission": submission}, by) as run_id, \
            transaction(con):
        target = submissions.resolve(con, submission)
        name = submissions.name_of(con, target)
        if cancelled := submissions.pending(con, target):
            left = submissions.replacement_left(con, target)
            rows = submissions.cancel(con, target, run_id, by, reason)
        else:
            left = "\n".join(filter(None, [submissions.replacement_left(con, target),
                                            submissions.duplicates_left(con, target)]))
            rows = withdraw_submission(con, target, run_id, by, reason)
    if cancelled:
        click.echo(f"Submission {target} ({name}) withdrawn before validation: its {rows} rows are kept as withdrawn, "
                   "none taken in; no list changes." + (f"\n{left}" if left else ""))
        return
    click.echo(f"Submission {target} ({name}) withdrawn: {rows} rows." + (f"\n{left}" if left else "") +
               "\nRun `ratings rate` (or `ratings run`) to recompute the lists they touched.")


@click.command()
@click.argument("submission")
@click.option("--reason", required=True, callback=reason_given, help="Why its games are not corrections (kept with it).")
@warehouse_option
@by_option
def confirm(submission: str, reason: str, warehouse: Path, wait: float, by: str | None) -> None:
    """Take in a held file as it is: its games that look like corrections of another
    file's (the same day, players and event, another result) are other games, rated
    beside those. Each pair is recorded as both kept, with who, when and why; the next
    `validate` or `run` takes the file in.

    A corrected version is given with `ratings ingest FILE --replaces OLD` instead.

    Example: ratings confirm 9 --reason "the second game of the match, played the same day"
    """
    by = who(by)
    with opened(warehouse, wait) as con, recorded(con, "confirm", {"submission": submission}, by) as run_id, \
            transaction(con):
        target = submissions.resolve(con, submission)
        games = confirmed(con, target, by, reason, run_id)
        name = submissions.name_of(con, target)
    games = "its game that looked like a correction is another game" if games == 1 else \
        f"its {games} games that looked like corrections are other games"
    click.echo(f"Submission {target} ({name}) confirmed: {games}, to be rated beside those. "
               "Run `ratings run` (or `ratings validate`) to take it in.")


COMMANDS = (run, ingest, validate, withdraw, confirm)
