"""The `ratings` command: one subcommand per task of a rating officer. It parses the
options, calls the pipeline (pipeline/flow.py and the stages) and prints
(pipeline/console.py); each command imports only what it needs, so that
`ratings --help` and `ratings query` start without pandas or Pandera."""
from __future__ import annotations

import contextlib
import datetime as dt
import getpass
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from pipeline import config, systems
from pipeline.listing import analysis_format_options, columns_option, listing_format

REJECTED = 3  # the exit status of validate and run when rows were rejected
FORMATS = ("csv", "parquet", "txt", "swiss-manager")  # pipeline.publish writes them
DEFAULT_FORMATS = ("csv", "parquet")


def failure_message(err: BaseException) -> str:
    """One line for a failure of the environment (a file, the disk, memory): what and where."""
    import duckdb

    if isinstance(err, OSError):
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}{err.strerror or err}"
    if isinstance(err, MemoryError):
        return "out of memory: give the run more memory, or smaller files"
    if isinstance(err, duckdb.OutOfMemoryException):
        from pipeline.warehouse import memory_limit

        return (f"the warehouse ran out of memory: DuckDB may use {memory_limit()} (RATINGS_DUCKDB_MEMORY); "
                f"give it more, e.g. RATINGS_DUCKDB_MEMORY=4GB ({str(err).splitlines()[0]})")
    if isinstance(err, duckdb.Error):
        return f"the warehouse failed: {str(err).splitlines()[0]}"
    return f"unexpected {type(err).__name__}: {err} (run again with --debug for the details)"


def _user_errors() -> tuple[type[Exception], ...]:
    """The refusals a user can meet, each one message (their modules load only when a command runs)."""
    from pipeline.analysis.evaluate import NoCommonGames
    from pipeline.formats.cells import LayoutError
    from pipeline.ingest.submissions import SubmissionError
    from pipeline.ingest.tables import InputFileError
    from pipeline.outputs import OutputRefused
    from pipeline.publish import PublishedFileConflict
    from pipeline.rate import UnknownList
    from pipeline.rate.corrections import CorrectionRefused
    from pipeline.rate.series import SeriesError
    from pipeline.site.data import UnknownSince
    from pipeline.systems.base import NotFound
    from pipeline.warehouse import WarehouseError

    return (InputFileError, SubmissionError, CorrectionRefused, PublishedFileConflict, SeriesError, NotFound,
            UnknownList, WarehouseError, systems.UnknownRuleSet, systems.ParameterError, NoCommonGames, UnknownSince,
            LayoutError, OutputRefused, config.SettingsError)


class RuleSetsHelp:
    """Help text naming the rule sets, filled from the registry when it is shown (a rule set
    registered from outside is listed too, and no rule set is named here)."""

    def format_help_text(self, ctx, formatter):
        from pipeline import systems
        self.help = self.help_template.replace("{rule_sets}", systems.described())
        super().format_help_text(ctx, formatter)


class RuleSetOption(click.Option):
    """An option whose help names the rule sets: "{rule_sets}" in its help, filled when shown."""

    def get_help_record(self, ctx):
        from pipeline import systems
        record = super().get_help_record(ctx)
        return record and (record[0], record[1].replace("{rule_sets}", systems.described()))


class Commands(RuleSetsHelp, click.Group):
    """The `ratings` group: every failure is one message and a non-zero exit, never a
    traceback (--debug shows it)."""

    help_template = """Compute and publish rating lists under each rule set of the registry:
    {rule_sets}.

    Example: ratings run --players players.csv --games games.csv --ratings ratings.csv --out lists/"""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except Exception as err:
            if ctx.params.get("debug"):
                raise
            if isinstance(err, _user_errors()):
                raise click.ClickException(str(err)) from err
            raise click.ClickException(failure_message(err)) from err


@click.group(cls=Commands)
@click.version_option(package_name="ratings-pipeline", prog_name="ratings")
@click.option("--debug", is_flag=True, help="Show the traceback of an unexpected failure.")
def main(debug: bool) -> None:
    """Compute and publish rating lists under each rule set of the registry (ratings --help lists them).

    Example: ratings run --players players.csv --games games.csv --ratings ratings.csv --out lists/
    """


def entry() -> None:
    """The `ratings` console script: `main` in a process of its own."""
    # Pandera loads its data-synthesis strategies, and hypothesis (a test extra) with them,
    # whenever hypothesis is installed: a cost on every validating command, for a feature
    # the pipeline never uses. A None entry in sys.modules makes that import fail as if
    # hypothesis were absent, which Pandera expects; only this process's, never a caller's.
    sys.modules.setdefault("hypothesis", None)
    main()


# --- options ------------------------------------------------------------------------

def _setting(name: str):
    """The default of an option, read when the command runs (pipeline.config.setting)."""
    def default():
        try:
            return config.setting(name)
        except config.SettingsError as err:
            raise click.ClickException(str(err)) from err
    return default


def warehouse_option(f):
    f = click.option("--wait", type=click.FloatRange(min=0), default=0, show_default=True,
                     help="Seconds to wait for another run that holds the warehouse.")(f)
    return click.option(
        "--warehouse", type=click.Path(dir_okay=False, path_type=Path), default=_setting("warehouse"),
        show_default=f"$RATINGS_WAREHOUSE, else ratings.toml's warehouse, else {config.DEFAULT_WAREHOUSE}",
        help="DuckDB warehouse file (created if absent).")(f)


out_option = click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), default=_setting("out"),
    show_default=f"$RATINGS_OUT, else ratings.toml's out, else {config.DEFAULT_OUT}",
    help="Folder for the published lists and states (a second rule set's: OUT/<system>/).")


csv_dialect_option = click.option(
    "--csv-dialect", type=click.Choice(["standard", "excel"]), default="standard", show_default=True,
    help="excel: also write each CSV list as <name>-excel.csv, as a spreadsheet in Belgium opens it "
         "(semicolons, decimal comma, UTF-8 with a BOM); the standard CSV stays for other programs.")


def input_options(f):
    for kind, text in reversed([
        ("players", "Player registry: player_id, name, birth_year, club, estimated_rating (CSV or Parquet)."),
        ("ratings", "Initial ratings, the list in force before the first window: player_id, rating, "
                    "archive_performance, archive_games (FIDE: games_total, peak_rating)."),
        ("calendar", "Calendar (R1): list_id, window_start, window_end. Default: the nominal windows."),
        ("games", "Games: date, white_id, black_id, result, optional game_id, event, round; "
                  "or a tournament report file (FIDE TRF, Belgian SWAR), read from its content. "
                  "Go: event_id, date, black_id, white_id, winner (B, W, jigo), handicap, weight."),
        ("events", "Events: event_id, name, start_date, end_date; chess (a games file's `event`): optional "
                   "rated_in (YYYY-MM, a late report) and games_scheduled (a match); Go: class (A/B/C/D), "
                   "board_size (9/13/19)."),
    ]):
        f = click.option(f"--{kind}", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                         multiple=True, help=text)(f)
    return f


def _system(ctx, param, value: str | None) -> str | None:
    if value is not None and value not in systems.names():  # the registry, as it is when the command runs
        raise click.BadParameter(f"{value!r}: the rule sets are {', '.join(systems.names())}")
    return value


system_option = click.option(
    "--system", cls=RuleSetOption, callback=_system, default=None, metavar="RULE_SET",
    help="Rule set: {rule_sets}. To rate: computed beside the warehouse's other rule sets of the same game. "
         "To read: default the warehouse's first.")


def _rules(ctx, param, value: Path | None) -> dict | None:
    if value is None:
        return None
    import tomllib

    try:
        return systems.RulesFile(tomllib.loads(Path(value).read_text(encoding="utf-8")), value)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise click.BadParameter(f"{value}: not a TOML file ({err})") from err


series_option = click.option(
    "--system", default=None, metavar="SERIES",
    help="The lists to read: a rule set's official lists or a scenario's (default: the warehouse's first).")

rules_option = click.option(
    "--rules", type=click.Path(exists=True, dir_okay=False, path_type=Path), callback=_rules, metavar="FILE.toml",
    help="Parameters of the rule set replacing its defaults (keys: its parameter names, e.g. senior_quota = 12; "
         "unknown keys are refused); stored with each list; when they change, every list is recomputed.")

register_option = click.option(
    "--register-new", is_flag=True,
    help="Add the players of tournament files who are not in the registry (with the file's id: the "
         "national id of a SWAR file, the FIDE id of a TRF). Without it, their games are rejected and reported.")

printed_ratings_option = click.option(
    "--ratings-from-files", is_flag=True,
    help="Take the ratings a TRF prints (columns 49-52) as the initial ratings of its players who have none "
         "in the warehouse (stored as a ratings part of the tournament's submission).")

reports_option = click.option("--reports/--no-reports", default=True, show_default=True,
                              help="Also write OUT/<list_id>/index.html, the HTML report of each new or revised list.")


def _formats(ctx, param, value: str) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))
    unknown = [v for v in chosen if v not in FORMATS]
    if unknown or not chosen:
        raise click.BadParameter(f"{', '.join(unknown) or 'nothing'}: choose among {', '.join(FORMATS)}")
    return chosen


format_option = click.option(
    "--format", "formats", default=",".join(DEFAULT_FORMATS), show_default=True, callback=_formats,
    help="Comma-separated list files to write: csv, parquet, txt (FIDE's fixed-width list layout), "
         "swiss-manager (Swiss-Manager's player import CSV). The states are Parquet in any case.")


def publication_options(f):
    """What `run` and `publish` write: where, the reports, the formats, the CSV dialect."""
    for option in reversed((out_option, reports_option, format_option, csv_dialect_option)):
        f = option(f)
    return f


def _with_dialect(formats: tuple[str, ...], dialect: str) -> tuple[str, ...]:
    """The formats to write, with the spreadsheet twin of the CSV files (pipeline.publish: "excel")."""
    return formats + ("excel",) if dialect == "excel" and "csv" in formats else formats


def date_option(f):
    return click.option("--date", type=click.DateTime(["%Y-%m-%d"]), default=None, metavar="YYYY-MM-DD",
                        callback=lambda ctx, param, value: value.date() if value else None,
                        help="The date of a one-day event whose tournament file gives no dates (no 042, no 132): "
                             "its rounds are dated so, and the report says it.")(f)


def _one_line(ctx, param, value: str | None) -> str | None:
    """A text kept for the record and shown in the calculations (`explain`, the site's
    cards): a control character there would forge a line, so it is refused."""
    from pipeline.formats.cells import holds_control

    if value is not None and holds_control(value):
        raise click.BadParameter("holds a control character (a line break, tab or escape), which would forge a "
                                 "line where it is shown (ratings explain, the site): give it on one line")
    return value


def by_option(f):
    return click.option("--by", metavar="NAME", callback=_one_line,
                        help="Who does it, for the record (default: your user name).")(f)


def replace_options(f):
    f = click.option("--again", is_flag=True,
                     help="Take in a file whose content was replaced or withdrawn before, as a new submission.")(f)
    return click.option("--replaces", metavar="SUBMISSION",
                        help="The submission this file replaces (its id, or the name of the file it was ingested "
                             "under): its games not in this file are withdrawn, changed ones replaced, new ones "
                             "added, and each change is recorded.")(f)


@contextlib.contextmanager
def _opened(warehouse: Path, wait: float, read_only: bool = False) -> Iterator:
    """The warehouse (a clear message when it cannot be opened: pipeline.warehouse)."""
    from pipeline.warehouse import connect

    config.today()  # a bad RATINGS_TODAY is refused before any work, not in the middle of a run
    con = connect(warehouse, read_only=read_only, wait=wait)
    with con:
        yield con


@contextlib.contextmanager
def _run(con, command: str, arguments: dict, by: str | None = None) -> Iterator[int]:
    from pipeline.warehouse import run_record

    with run_record(con, command, arguments, by) as run_id:
        yield run_id


def _by(by: str | None) -> str:
    """Who is doing it: --by, else the operating system's user."""
    if by:
        return by
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no user name in the environment nor in the password database
        return os.environ.get("USER") or "unknown"


def _files(players, ratings, calendar, games, events=(), unnamed=()) -> list[tuple[str | None, Path]]:
    """The input files with their kind (None: to be read from the content)."""
    chosen = {"players": players, "ratings": ratings, "calendar": calendar, "games": games, "events": events}
    return [(kind, Path(p)) for kind in config.KINDS if kind in chosen for p in chosen[kind]] + \
        [(None, Path(p)) for p in unnamed]


def _exit_rejected(rejected: int) -> None:
    """Exit status 3 when rows were rejected and their rejects are open, so that scripts can
    tell; a closed reject is never examined again, so it never counts here."""
    if rejected:
        click.echo(f"{rejected} rows rejected: `ratings rejects --out FILE.csv` writes them out to be fixed; "
                   "one no fix can take in is closed with `ratings rejects --close SUBMISSION:ROW --reason TEXT`",
                   err=True)
        click.get_current_context().exit(REJECTED)


def _warn_duplicates(con) -> None:
    """Possible duplicate games are taken in and rated: a warning, not a reject, and no exit status."""
    from pipeline.validate.duplicates import warning

    if text := warning(con):
        click.echo(text, err=True)


def _one_file_with_replaces(replaces: str | None, files: list) -> None:
    if replaces is not None and len(files) != 1:
        raise click.UsageError("--replaces takes exactly one input file (the new version)")


def _nothing_to_run(warehouse: Path) -> str:
    return (f"{warehouse} holds nothing yet and no input file was given: give the files to take in "
            "(--players, --ratings, --games, ...), or --sample to run the embedded sample season")


# --- the stages ---------------------------------------------------------------------------

@main.command()
@input_options
@warehouse_option
@publication_options
@system_option
@rules_option
@register_option
@printed_ratings_option
@date_option
@replace_options
@by_option
@click.option("--sample", is_flag=True, help="Run the embedded sample season (data/sample/) into the warehouse.")
def run(players, ratings, calendar, games, events, warehouse: Path, wait: float, out: Path, reports: bool,
        formats: tuple[str, ...], csv_dialect: str, system: str | None, rules: dict | None, register_new: bool,
        ratings_from_files: bool, date: dt.date | None, replaces: str | None, again: bool, by: str | None,
        sample: bool) -> None:
    """Ingest, validate, rate and publish in one go.

    With no input files, takes in what `ratings ingest` staged, then rates and
    publishes what the warehouse holds (late games, corrections), every rule set
    of the warehouse; --system adds one beside the others.

    A --games file may be a tournament report (TRF, SWAR): it is taken in after
    the other files, against the registry they give.

    Exit status: 0, or 3 when rows were rejected (`ratings rejects` lists them).

    Example: ratings run --players p.csv --games g.csv --ratings r.csv --warehouse w.duckdb --out lists/
    """
    from pipeline import flow
    from pipeline.console import ConsoleReporter

    by = _by(by)
    files = _files(players, ratings, calendar, games, events)
    _one_file_with_replaces(replaces, files)
    if sample and files:
        raise click.UsageError("--sample runs the embedded sample alone: give no input file with it")
    # The embedded sample runs only when asked: --sample, or the README's first command
    # (no file, the default warehouse and output folder); never into a mistyped warehouse.
    defaults = Path(warehouse) == config.setting("warehouse") and Path(out) == config.setting("out")
    if not files and not sample and not defaults and not Path(warehouse).exists():
        raise click.UsageError(_nothing_to_run(warehouse))
    with _opened(warehouse, wait) as con, _run(con, "run", {"files": files, "out": out}, by) as run_id:
        if not files and not con.execute("select 1 from submissions limit 1").fetchall():
            if not (sample or defaults):
                raise click.UsageError(_nothing_to_run(warehouse))
            files = list(config.SAMPLE_FILES.items())
            click.echo(f"No input files and an empty warehouse: using the embedded sample in {config.SAMPLE_DIR}")
        inputs = flow.Inputs(files, register_new, replaces, again, date, ratings_from_files)
        rejected = flow.run(con, run_id, inputs, by, out, ConsoleReporter(), system, rules,
                            _with_dialect(formats, csv_dialect), reports)
        _warn_duplicates(con)
    _exit_rejected(rejected)


@main.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@input_options
@warehouse_option
@register_option
@printed_ratings_option
@date_option
@replace_options
@by_option
def ingest(files, players, ratings, calendar, games, events, warehouse: Path, wait: float,
           register_new: bool, ratings_from_files: bool, date: dt.date | None, replaces: str | None, again: bool,
           by: str | None) -> None:
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
    from pipeline import flow
    from pipeline.console import ConsoleReporter
    from pipeline.warehouse import transaction

    by = _by(by)
    given = _files(players, ratings, calendar, games, events, files)
    if not given:
        raise click.UsageError("give at least one file (FILES, or --players, --ratings, --calendar, --games)")
    _one_file_with_replaces(replaces, given)
    with _opened(warehouse, wait) as con, _run(con, "ingest", {"files": given}, by) as run_id, \
            transaction(con):  # all the files or none: a tournament stages several tables
        flow.take_in(con, run_id, flow.Inputs(given, register_new, replaces, again, date, ratings_from_files), by, "main", False,
                     ConsoleReporter())


@main.command()
@warehouse_option
@system_option
@by_option
def validate(warehouse: Path, wait: float, system: str | None, by: str | None) -> None:
    """Check every staged row: accepted rows are stored, the others go to rejects with reasons.

    Under a Go rule set, starting points are Go points: give --system on a new
    warehouse (it is then recorded, as `ratings run` records it).

    Exit status: 0, or 3 when rows were rejected.

    Example: ratings validate --warehouse w.duckdb
    """
    from pipeline import flow
    from pipeline.console import ConsoleReporter
    from pipeline.rate.series import record_game
    from pipeline.validate import validate_staged
    from pipeline.warehouse import transaction

    by, reporter = _by(by), ConsoleReporter()
    with _opened(warehouse, wait) as con, _run(con, "validate", {}, by) as run_id, flow.timed(reporter, "Validate"):
        if system is not None:
            record_game(con, system)
        with transaction(con):
            rejected = reporter.validated(con, *validate_staged(con, run_id, by, system))
        _warn_duplicates(con)
    _exit_rejected(rejected)


@main.command()
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
    from pipeline import flow
    from pipeline.console import ConsoleReporter

    reporter = ConsoleReporter()
    with _opened(warehouse, wait) as con, _run(con, "rate", {"from": from_list}) as run_id, \
            flow.timed(reporter, "Rate"):
        flow.rate(con, run_id, reporter, system, rules, from_list)
        staged = con.execute("select count(*) from source_files where status = 'staged'").fetchall()[0][0]
    if staged:  # rate reads what was taken in; a file only staged waits for validation
        click.echo(f"  {staged} staged file part{'s are' if staged > 1 else ' is'} not taken in yet: "
                   "`ratings validate` (or `ratings run`) takes them in")


@main.command()
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
    from pipeline import flow
    from pipeline.console import ConsoleReporter

    reporter = ConsoleReporter()
    with _opened(warehouse, wait) as con, _run(con, "publish", {"out": out}), flow.timed(reporter, "Publish"):
        flow.publish(con, out, reporter, _with_dialect(formats, csv_dialect), reports, system)


# --- the record ----------------------------------------------------------------------------

@main.command()
@click.argument("submission")
@click.option("--reason", required=True, callback=_one_line, help="Why the file is withdrawn (kept with it).")
@warehouse_option
@by_option
def withdraw(submission: str, reason: str, warehouse: Path, wait: float, by: str | None) -> None:
    """Withdraw a whole game file: its games stay in the warehouse, marked withdrawn,
    and are never rated again; the next `rate` recomputes every list they touched,
    and the revisions name the submission.

    Example: ratings withdraw 7 --reason "the organiser cancelled the event"
    """
    from pipeline.ingest import submissions
    from pipeline.validate import withdraw_submission
    from pipeline.warehouse import transaction

    by = _by(by)
    if not reason.strip():
        raise click.BadParameter("say why", param_hint="--reason")
    with _opened(warehouse, wait) as con, _run(con, "withdraw", {"submission": submission}, by) as run_id, \
            transaction(con):
        target = submissions.resolve(con, submission)
        left = "\n".join(filter(None, [submissions.replacement_left(con, target),
                                        submissions.duplicates_left(con, target)]))
        rows = withdraw_submission(con, target, run_id, by, reason)
        name = con.execute("select name from submissions where submission_id = ?", [target]).fetchall()[0][0]
    click.echo(f"Submission {target} ({name}) withdrawn: {rows} rows." + (f"\n{left}" if left else "") +
               "\nRun `ratings rate` (or `ratings run`) to recompute the lists they touched.")


@main.command("submissions")
@listing_format
@warehouse_option
def list_submissions(warehouse: Path, wait: float, fmt: str) -> None:
    """List every submission: who took it in and when, its status, its rows (read,
    stored, rejected, withdrawn), what it replaced or why it was withdrawn.

    Example: ratings submissions --warehouse w.duckdb
    """
    from pipeline.console import report_table
    from pipeline.warehouse import stage_sql

    with _opened(warehouse, wait, read_only=True) as con:
        report_table(con.sql(stage_sql("submissions")), "no submission yet", fmt)


@main.command("rejects")
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
@click.option("--withdraw-duplicate", is_flag=True,
              help="Withdraw the game SUBMISSION:ROW, a copy of another (listed by --warnings): never rated again; "
                   "the next rate revises its list. With --reason.")
@click.option("--keep-duplicate", is_flag=True,
              help="Keep both games SUBMISSION:ROW SUBMISSION:ROW of a pair --warnings lists (two real games): "
                   "no longer warned about. With --reason.")
@click.option("--reason", callback=_one_line, help="Why (kept with the decision): --close, --reopen, "
                                                   "--withdraw-duplicate, --keep-duplicate.")
@by_option
@listing_format
@warehouse_option
def list_rejects(rows: tuple[str, ...], submission: str | None, out_file: Path | None, closed: bool, every: bool,
                 close: bool, reopen: bool, warnings: bool, withdraw_duplicate: bool, keep_duplicate: bool,
                 reason: str | None, by: str | None, warehouse: Path, wait: float, fmt: str) -> None:
    """List the rejected rows still open, or write them out to be fixed: ingest the
    fixed file and its rows are taken in and their rejects marked fixed (`file` and
    `row` say which reject each line fixes: keep those columns).

    A reject no fix can take in is closed (--close SUBMISSION:ROW --reason TEXT; the
    row as this listing gives it), kept with who, when and why, and can be reopened.
    --warnings lists the possible duplicate games, to withdraw one copy or keep both.

    Example: ratings rejects --out fix.csv && ratings run --games fix.csv

    Example: ratings rejects --close games.csv:2 --reason "the organiser cannot say who played"
    """
    from pipeline.console import report_table
    from pipeline.validate import rejects

    if _officer_decision(rows, {"close": close, "reopen": reopen, "withdraw-duplicate": withdraw_duplicate,
                                "keep-duplicate": keep_duplicate}, reason, by, warehouse, wait):
        return
    if warnings or closed or every:
        _decided_listing(submission, out_file, warnings, "all" if every else "closed" if closed else "open",
                         warehouse, wait, fmt)
        return
    if out_file is not None and fmt != "table":
        raise click.UsageError("--format prints the listing, --out writes the rejects in their input layout (CSV): "
                               "give one of them")
    with _opened(warehouse, wait, read_only=True) as con:
        target = None
        if submission:  # pipeline.ingest loads the readers of every input format (and pandas)
            from pipeline.ingest import submissions

            target = submissions.resolve(con, submission)
        if out_file is None:
            # A table for the eye stops at 200 rows and says so; CSV and JSON, for scripts, hold them all.
            shown = f"limit {TABLE_ROWS}" if fmt == "table" else ""
            listing = con.sql(f"""select o.submission_id as submission, s.name as file_name, o.file_id as file,
                                         o.kind, o.row_number as row, o.reason
                                  from ({rejects.OPEN_REJECTS}) o join submissions s using (submission_id)
                                  order by o.file_id, o.row_number {shown}""", params={"submission": target})
            report_table(listing, "no rejected row is open", fmt)
            more = con.execute(f"select count(*) from ({rejects.OPEN_REJECTS})",
                               {"submission": target}).fetchall()[0][0] - TABLE_ROWS
            if shown and more > 0:
                click.echo(f"… {more} more open rejects: `ratings rejects --format csv` (or --out FILE.csv) lists them all")
            return
        from pipeline.outputs import check_query_file
        _refuse_overwriting(con, out_file, warehouse)  # as a query's --out: never the warehouse, an input, a list
        check_query_file(con, out_file, None)
        written = rejects.export(con, out_file, target)
    for kind, (path, rows) in written.items():
        click.echo(f"  {rows} rejected {kind} rows written to {path}")
    if not written:
        click.echo("no rejected row is open")


TABLE_ROWS = 200  # the open rejects a table shows


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
    from pipeline.validate import decisions
    from pipeline.validate.rejects import DecisionRefused
    from pipeline.warehouse import transaction

    by = _by(by)
    with _opened(warehouse, wait) as con, _run(con, f"rejects {chosen[0]}", {"rows": list(rows)}, by) as run_id, \
            transaction(con):
        try:
            said = decisions.take(con, chosen[0][2:], rows, reason, by, run_id)
        except DecisionRefused as err:
            raise click.ClickException(str(err)) from err
    click.echo("\n".join(said))
    return True


def _decided_listing(submission: str | None, out_file: Path | None, warnings: bool, shown: str, warehouse: Path,
                     wait: float, fmt: str) -> None:
    """`ratings rejects --closed`, `--all`, `--warnings`: the rejects closed (or all of them),
    the possible duplicate games (pipeline/validate/rejects.py, duplicates.py)."""
    from pipeline.console import report_table
    from pipeline.validate import duplicates, rejects

    if out_file is not None:
        raise click.UsageError("--out writes the open rejects, to be fixed: give it without --closed, --all "
                               "or --warnings")
    if warnings and submission:
        raise click.UsageError("--warnings lists pairs of games across files: give it without --file")
    with _opened(warehouse, wait, read_only=True) as con:
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
            from pipeline.ingest import submissions

            target = submissions.resolve(con, submission)
        report_table(rejects.listing(con, target, shown), "no reject closed" if shown == "closed" else "no reject",
                     fmt)


@main.command()
@click.option("--list", "list_id", metavar="LIST_ID", help="Only this list's revisions.")
@series_option
@listing_format
@warehouse_option
def revisions(list_id: str | None, system: str | None, warehouse: Path, wait: float, fmt: str) -> None:
    """List the revisions of the lists: when, in which run, how many players changed, and why.

    Example: ratings revisions --list 2027-01
    """
    from pipeline.console import report_table
    from pipeline.rate.series import chosen, known_list

    with _opened(warehouse, wait, read_only=True) as con:
        held = con.execute("select 1 from series limit 1").fetchall()
        if not held and fmt == "table":
            click.echo("no list has been computed")
            return
        series = chosen(con, system) if held else None  # CSV and JSON still print their (empty) listing
        if list_id is not None and series is not None:
            known_list(con, series, list_id)
        report_table(con.sql("""select list_id, revision, computed_at::timestamp(0) as computed_at, run_id,
                                       players_changed, reason from list_revisions
                                where series = $s and ($list is null or list_id = $list)
                                order by list_id, revision""",
                             params={"s": series and series.name, "list": list_id}), "no list has been computed", fmt)


@main.command()
@click.argument("player_id", type=int, required=False)
@click.option("--list", "list_id", help="The list (YYYY-MM; Go: the event id) the correction applies to.")
@click.option("--rating", type=float, help="The rating decided (Go: points, negative for kyu).")
@click.option("--reason", required=True, callback=_one_line,
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
    from pipeline.rate import corrections
    from pipeline.rate.series import chosen

    by = _by(by)
    if withdrawn is None and (player_id is None or list_id is None or rating is None):
        raise click.UsageError("give PLAYER_ID, --list and --rating (or --withdraw ID)")
    if withdrawn is not None and (player_id is not None or list_id or rating is not None):
        raise click.UsageError("--withdraw ID takes only --reason")
    with _opened(warehouse, wait) as con, _run(con, "correct", {"player": player_id, "list": list_id,
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


@main.command("corrections")
@click.option("--player", "player_id", type=int, help="Only this player's corrections.")
@click.option("--list", "list_id", help="Only this list's corrections.")
@listing_format
@warehouse_option
def list_corrections(player_id: int | None, list_id: str | None, warehouse: Path, wait: float, fmt: str) -> None:
    """List the rating commission's corrections, in force or withdrawn, with who entered them and when.

    Example: ratings corrections --player 12345
    """
    from pipeline.console import report_table
    from pipeline.rate import corrections

    with _opened(warehouse, wait, read_only=True) as con:
        report_table(corrections.listing(con, player_id, list_id), "no correction", fmt)


def _languages(ctx, param, value: str) -> list[str]:
    from pipeline.site.i18n import LANGUAGES

    chosen = list(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))
    unknown = [v for v in chosen if v not in LANGUAGES]
    if unknown or not chosen:
        raise click.BadParameter(f"{', '.join(unknown) or 'nothing'}: choose among {', '.join(LANGUAGES)}")
    return chosen


def _official_of(con, scenario) -> str:
    """The official series a scenario varies (the name to compare it with)."""
    from pipeline.rate.series import series_in

    return next((s.name for s in series_in(con, scenarios=False) if s.rule_set.name == scenario.rule_set.name),
                scenario.rule_set.name)


@main.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the site (its index.html opens the first language's).")
@click.option("--lang", "languages", default="en,fr,nl,de", show_default=True, callback=_languages,
              help="Comma-separated languages of the pages: en, fr, nl, de (the first is the default).")
@click.option("--cards", "card_lists", type=click.IntRange(min=0), default=1, show_default=True,
              help="The calculation cards of the latest N lists on the player pages (0: none).")
@click.option("--since", metavar="LIST_ID", help="Only this list and the later ones (default: every list).")
@series_option
@warehouse_option
def site(out: Path, languages: list[str], card_lists: int, since: str | None, system: str | None, warehouse: Path,
         wait: float) -> None:
    """Write the published lists of a rule set as a static site players use: an index
    of lists, each list's ranking with filters (category by age, women, region,
    club, active players only), a page per player (rating history chart, every list,
    the calculation cards), club pages, a search by name or id on every page; in
    English, French, Dutch and German. Plain files: open OUT/index.html from the disk
    or serve the folder with any web server. No birth date or address is written.

    Example: ratings site --out site/ --lang fr,nl,de,en
    """
    from pipeline.console import ConsoleReporter
    from pipeline.flow import timed
    from pipeline.rate.series import chosen
    from pipeline.site.build import build_site

    with _opened(warehouse, wait, read_only=True) as con, timed(ConsoleReporter(), "Site"):
        series = chosen(con, system)
        if series.scenario:
            raise click.ClickException(f"{series.name} is a scenario, and scenarios are never published: "
                                       f"look at it with `ratings compare {_official_of(con, series)} {series.name}`")
        if not series.rule_set.list_files:
            raise click.ClickException(f"the site publishes lists: the {series.name} rules publish events "
                                       "(their states are in OUT/)")
        built = build_site(con, series, out, languages, card_lists, since)
        tongues = f"{len(languages)} languages" if len(languages) > 1 else "1 language"
        click.echo(f"  {built.players:,} players, {built.lists} list{'s' if built.lists != 1 else ''}, "
                   f"{built.pages:,} pages in {tongues}, "
                   f"{built.bytes / 1e6:.1f} MB: open {out / 'index.html'}")


# --- scenarios and analysis ---------------------------------------------------------------

@main.command("scenario")
@click.argument("name")
@click.option("--rules", type=click.Path(exists=True, dir_okay=False, path_type=Path), callback=_rules,
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
    from pipeline import flow
    from pipeline.console import ConsoleReporter
    from pipeline.rate.series import drop_scenario
    from pipeline.warehouse import transaction

    if drop:
        if rules is not None or system is not None or from_list is not None:
            raise click.UsageError("--drop takes no other option")
        with _opened(warehouse, wait) as con, _run(con, "scenario", {"drop": name}), transaction(con):
            lists = drop_scenario(con, name)
        click.echo(f"Scenario {name} dropped ({lists} lists).")
        return
    if rules is None:
        raise click.UsageError("give --rules FILE.toml (the parameters the scenario changes), or --drop")
    reporter = ConsoleReporter()
    with _opened(warehouse, wait) as con, _run(con, "scenario", {"name": name, "rules": rules}) as run_id, \
            flow.timed(reporter, "Rate"):
        flow.run_scenario(con, run_id, reporter, name, system, rules, from_list)


@main.command("scenarios")
@listing_format
@warehouse_option
def list_scenarios(warehouse: Path, wait: float, fmt: str) -> None:
    """List the scenarios: rule set, the parameters each changes, lists computed.

    Example: ratings scenarios
    """
    from pipeline.listing import print_rows
    from pipeline.rate.series import SCENARIO_COLUMNS, scenario_listing

    with _opened(warehouse, wait, read_only=True) as con:
        found = scenario_listing(con)
    print_rows(SCENARIO_COLUMNS, [[f[c] for c in SCENARIO_COLUMNS] for f in found], fmt,
               "no scenario (make one: ratings scenario NAME --rules FILE.toml)")


@main.command()
@click.argument("a")
@click.argument("b")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the tables (CSV, Parquet) and the page (default: OUT/compare-A-B under reports/).")
@columns_option
@analysis_format_options(("lists", "differences", "drift", "cohorts", "accuracy", "calibration"))
@warehouse_option
def compare(a: str, b: str, out: Path | None, columns: tuple, fmt: str | None, table: str | None, warehouse: Path,
            wait: float) -> None:
    """Compare two sources of ratings list by list and over the whole history: A and B
    are each a series of the warehouse (a rule set's official lists, a scenario) or a
    CSV/Parquet file of published ratings (player_id, list_id as YYYY-MM or YYYYMM,
    rating; --columns maps a file's own names).

    Writes lists, differences, drift, cohorts, accuracy and calibration (CSV and
    Parquet) and index.html, a page with the charts, to --out; prints a summary, or
    with --format one of the tables (--table).

    Example: ratings compare performance quota12 --out reports/compare-quota12
    """
    from pipeline.analysis.compare import compare as compared
    from pipeline.analysis.page import write_comparison
    from pipeline.console import ConsoleReporter
    from pipeline.flow import timed
    from pipeline.listing import StderrTimings, analysis_sources, print_table
    from pipeline.outputs import claim_folder

    fmt = fmt or ("table" if table else None)
    with _opened(warehouse, wait, read_only=True) as con, \
            timed(ConsoleReporter() if fmt is None else StderrTimings(), "Compare"):
        c = compared(con, *analysis_sources(con, (a, b), columns))
        folder = out or config.setting("out") / f"compare-{c.a.name}-{c.b.name}"
        claim_folder(folder, "compare")
        page = write_comparison(c, folder)
        if fmt is None:
            click.echo(_comparison_summary(c))
        else:
            print_table(c.tables()[table or "lists"], fmt)
        click.echo(f"  tables and page written to {folder}: open {page}", err=fmt is not None)


def _comparison_summary(c) -> str:
    lists = c.lists.to_pylist()
    lines = [f"  {len(lists)} lists of {c.a.name} compared with {c.b.name}'s"]
    if lists:
        last = lists[-1]
        lines.append(f"  latest list {last['list_id']} ({last['b_list_id']}): {last['players']} players on both; "
                     f"mean {last['mean_a']:.0f} / {last['mean_b']:.0f}, median {last['median_a']:.0f} / "
                     f"{last['median_b']:.0f}, Spearman {last['spearman'] or 0:.3f}, "
                     f"{100 * last['share_50_or_more']:.1f} % differ by 50 or more")
    lines.append(_accuracy_text(c.accuracy))
    return "\n".join(lines)


def _accuracy_text(accuracy) -> str:
    rows = [r for r in accuracy.accuracy.to_pylist() if r["list_id"] is None]
    return "\n".join(f"  {r['source']:<24} {r['games']:>9,} games  log-loss {r['log_loss']:.4f}  "
                     f"Brier {r['brier']:.4f}" for r in rows)


@main.command()
@click.option("--system", "series", multiple=True, metavar="SERIES",
              help="A series of the warehouse to score (a rule set's or a scenario's name); repeatable.")
@click.option("--scenario", "scenarios", multiple=True, metavar="NAME", help="A scenario to score; repeatable.")
@click.option("--ratings", "files", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A file of published ratings (player_id, list_id, rating) to score; repeatable.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write accuracy and calibration (CSV, Parquet) to this folder.")
@columns_option
@analysis_format_options(("accuracy", "calibration"))
@warehouse_option
def evaluate(series: tuple[str, ...], scenarios: tuple[str, ...], files: tuple[Path, ...], out: Path | None,
             columns: tuple, fmt: str | None, table: str | None, warehouse: Path, wait: float) -> None:
    """Score ratings on the games they were in force for: each game by the list in
    force on its day, with the logistic expected score (scale 400); the mean
    log-loss and Brier score per list and over the whole history, and a calibration
    table, on the games every source rates both players of (default, with no source
    named: every series of the warehouse). Prints each source's figures over the
    whole history, or with --format the accuracy (per list, and the whole history
    with an empty list_id) or the calibration table (--table).

    Example: ratings evaluate --system performance --system fide --ratings federation.csv
    """
    from pipeline.analysis.evaluate import evaluate as scores
    from pipeline.console import ConsoleReporter
    from pipeline.flow import timed
    from pipeline.listing import StderrTimings, analysis_sources, print_table
    from pipeline.rate.series import chosen, series_in

    fmt = fmt or ("table" if table else None)
    with _opened(warehouse, wait, read_only=True) as con, \
            timed(ConsoleReporter() if fmt is None else StderrTimings(), "Evaluate"):
        names = [chosen(con, s).name for s in (*series, *scenarios)] + [str(f) for f in files]
        if not names:
            names = [s.name for s in series_in(con) if s.rule_set.game == "chess"]
        accuracy = scores(con, analysis_sources(con, list(dict.fromkeys(names)), columns))
        if out is not None:
            from pipeline.analysis.files import write_tables
            from pipeline.outputs import claim_folder
            claim_folder(out, "evaluate")
            write_tables({"accuracy": accuracy.accuracy, "calibration": accuracy.calibration}, out)
        if fmt is None:
            click.echo(_accuracy_text(accuracy))
        else:
            print_table(accuracy.accuracy if (table or "accuracy") == "accuracy" else accuracy.calibration, fmt)
        if out is not None:
            click.echo(f"  accuracy and calibration written to {out}", err=fmt is not None)


# --- reading --------------------------------------------------------------------------------

@main.command()
@warehouse_option
def audit(warehouse: Path, wait: float) -> None:
    """Run the warehouse audits (sql/audits/): each must find no offending row.

    Example: ratings audit --warehouse w.duckdb
    """
    from pipeline.audit import audit_failures

    with _opened(warehouse, wait, read_only=True) as con:
        failures = audit_failures(con)
    for name, rows in failures.items():
        click.echo(f"  {'ok' if not rows else 'FAILED':<6} {name}" + (f": {len(rows)} rows" if rows else ""))
        for described in rows[:10]:
            click.echo(f"           {described}")
    if any(failures.values()):
        raise click.ClickException("some audits failed")


@main.command()
@click.option("--players", type=click.IntRange(min=10), required=True, help="Players in the federation.")
@click.option("--lists", type=click.IntRange(min=1), default=6, show_default=True, help="Lists (windows) to play.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="A whole number from 0: same seed, same bytes.")
@click.option("--first-list", default="2020-01", show_default=True, help="The first list id (YYYY-MM, nominal).")
@click.option("--format", "fmt", type=click.Choice(["csv", "parquet"]), default="csv", show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Folder to write to.")
def simulate(players: int, lists: int, seed: int, first_list: str, fmt: str, out: Path) -> None:
    """Write a synthetic federation (players, initial ratings, games) in the input format.

    About 2.1 games per player per list: --players 80000 --lists 6 gives about a million games.

    Example: ratings simulate --players 80000 --lists 6 --seed 1 --out sim/
    """
    from pipeline.console import ConsoleReporter
    from pipeline.flow import timed
    from pipeline.simulate import simulate as write_federation

    with timed(ConsoleReporter(), "Simulate"):
        files = write_federation(players, lists, seed, out, first_list=first_list, fmt=fmt)
    for kind, path in files.items():
        click.echo(f"  {kind:<8} {path}")


@main.command()
@click.argument("sql")
@warehouse_option
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the result to this .csv or .parquet file instead of printing it.")
@listing_format
def query(sql: str, warehouse: Path, wait: float, out_file: Path | None, fmt: str) -> None:
    """Run a read-only SQL query on the warehouse and print the result.

    The warehouse is opened read-only with file access switched off: a query can
    neither change the warehouse nor read or write other files.

    Example: ratings query "select list_id, players_rated, rounds_used from lists"
    """
    import duckdb

    with _opened(warehouse, wait, read_only=True) as con:
        if out_file is not None:
            from pipeline.outputs import check_query_file
            _refuse_overwriting(con, out_file, warehouse)
            check_query_file(con, out_file)
        try:
            result = con.sql(sql)
            if result is None:
                raise click.ClickException("query refused: not a query that returns rows")
            if out_file is None:
                from pipeline.listing import print_relation
                print_relation(result, fmt)
                return
            table = result.to_arrow_table()
        except duckdb.Error as err:
            raise click.ClickException(f"query refused: {str(err).splitlines()[0]}") from err
    from pipeline.publish import write_csv, write_parquet
    (write_parquet if out_file.suffix.lower() == ".parquet" else write_csv)(table, out_file)
    click.echo(f"{table.num_rows} row{'' if table.num_rows == 1 else 's'} written to {out_file}")


def _refuse_overwriting(con, out_file: Path, warehouse: Path) -> None:
    """A query's output never lands on the warehouse (or its write-ahead log) or on an input file."""
    target = Path(out_file).resolve()
    protected = {Path(warehouse).resolve(), Path(f"{warehouse}.wal").resolve()}
    protected |= {Path(p).resolve() for (p,) in con.execute("select path from submissions").fetchall()}
    if target in protected:
        raise click.ClickException(f"{out_file}: refused, it is the warehouse or one of its input files")


@main.group()
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
    from pipeline.publish import write_dataset
    from pipeline.rate.series import chosen

    with _opened(warehouse, wait, read_only=True) as con:
        series = chosen(con, system)
        view, key, order = series.rule_set.history
        history = con.sql(f"select * exclude (series) from {view} where series = $s order by {order}",
                          params={"s": series.name}).to_arrow_table()
    try:
        write_dataset(history, out, key)
    except FileExistsError as err:
        raise click.ClickException(str(err)) from err
    parts = len(set(history.column(key).to_pylist()))
    click.echo(f"{history.num_rows} rows of {parts} {'lists' if key == 'list_id' else 'events'} written to {out}")


@main.command()
@click.argument("player_id", type=int, required=False)
@click.option("--list", "list_id", required=True, help="The list (YYYY-MM; Go: the event id).")
@click.option("--all", "every", is_flag=True, help="The cards of every player of the list (with --out).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="With --all: the folder for the cards, one text file a player (<player_id>.txt).")
@series_option
@warehouse_option
def explain(player_id: int | None, list_id: str, every: bool, out: Path | None, system: str | None,
            warehouse: Path, wait: float) -> None:
    """Print a player's calculation card for a list: each game and whether it counts
    (the 350 rule with the numbers), with the opponent's name, the date and the
    event; Ea, Sc, Nj, P, D(P), Pj, the rule applied with the numbers substituted,
    the unrounded and the published rating; for an unrated player, the estimate at
    each round. With --all --out DIR: every player's card of the list, from one
    replay of it.

    Under the other rule sets, the card shows their own terms (the manual's page of each
    rule set says which); under the rule sets of events, --list is the event's id.

    Example: ratings explain 12345 --list 2027-01
    """
    from pipeline.rate.series import chosen, known_list

    if every == (player_id is not None) or (every and out is None):
        raise click.UsageError("give PLAYER_ID, or --all with --out DIR")
    with _opened(warehouse, wait, read_only=True) as con:
        series = chosen(con, system)
        if not every:
            click.echo(series.rule_set.card(con, series, player_id, list_id))
            return
        known_list(con, series, list_id)  # the refusal names the lists there are
        cards = series.rule_set.cards(con, series, list_id)
    from pipeline.progress import progress
    from pipeline.publish import write_bytes

    Path(out).mkdir(parents=True, exist_ok=True)
    for pid, text in progress(cards.items(), f"write the cards of {list_id}", unit="card"):
        write_bytes((text + "\n").encode("utf-8"), Path(out) / f"{pid}.txt")
    click.echo(f"{len(cards)} cards of list {list_id} written to {out}")


@main.command()
@click.argument("player_id", type=int)
@click.option("--opponent", type=click.IntRange(1, 3000), required=True, help="The opponent's rating.")
@click.option("--list", "list_id", help="The list the game would count for (default: the next one).")
@series_option
@warehouse_option
def whatif(player_id: int, opponent: int, list_id: str | None, system: str | None, warehouse: Path,
           wait: float) -> None:
    """The rating after a win, a draw and a loss against an opponent of that rating,
    with the player's games of that list's window so far, before the game is played.

    Example: ratings whatif 12345 --opponent 1850
    """
    from pipeline.rate.replay import next_list
    from pipeline.rate.series import chosen

    with _opened(warehouse, wait, read_only=True) as con:
        series = chosen(con, system)
        if series.rule_set.periods_are != "windows":
            raise click.ClickException(f"whatif is not available under the {series.name} rules")
        target = list_id or next_list(con, series)
        text = series.rule_set.whatif(con, series, player_id, opponent, target)
    click.echo(f"Player {player_id}, one more game against {opponent}, list {target}:")
    click.echo(text)
