"""The options the commands share (pipeline/commands/): where the warehouse and the
output are, the input files, the rule set, what to publish, who does it. Their
defaults are read when a command runs (pipeline.config.setting), and their help
names the rule sets of the registry when shown."""
from __future__ import annotations

import tomllib
from pathlib import Path

import click

from pipeline import config, systems
from pipeline.formats.text_codecs import Encodings, encodings_given
from pipeline.listing import CONTROL

FORMATS = ("csv", "parquet", "txt", "swiss-manager")  # pipeline.publish writes them
DEFAULT_FORMATS = ("csv", "parquet")


class RuleSetOption(click.Option):
    """An option whose help names the rule sets: "{rule_sets}" in its help, filled when shown."""

    def get_help_record(self, ctx):
        record = super().get_help_record(ctx)
        return record and (record[0], record[1].replace("{rule_sets}", systems.described()))


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
                  "Go: event_id, date, black_id, white_id, winner (B, W, jigo; B+F, W+F won by default, "
                  "never rated), handicap, weight."),
        ("events", "Events: event_id, name, start_date, end_date; chess (a games file's `event`): optional "
                   "rated_in (YYYY-MM, a late report) and games_scheduled (a match); Go: class (A/B/C/D), "
                   "board_size (9/13/19)."),
    ]):
        f = click.option(f"--{kind}", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                         multiple=True, help=text)(f)
    return f


def _system(ctx, param, value: str | None) -> str | None:
    if value is not None and systems.refused(value):  # an installed package's, refused when it loaded
        raise click.BadParameter(systems.refused(value))
    if value is not None and value not in systems.names():  # the registry, as it is when the command runs
        raise click.BadParameter(f"{value!r}: the rule sets are {', '.join(systems.names())}")
    return value


system_option = click.option(
    "--system", cls=RuleSetOption, callback=_system, default=None, metavar="RULE_SET",
    help="Rule set: {rule_sets}. To rate: computed beside the warehouse's other rule sets of the same game. "
         "To read: default the warehouse's first.")


def read_rules(ctx, param, value: Path | None) -> dict | None:
    """The parameters of a --rules FILE.toml (a click callback)."""
    if value is None:
        return None
    try:
        return systems.RulesFile(tomllib.loads(Path(value).read_text(encoding="utf-8")), value)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise click.BadParameter(f"{value}: not a TOML file ({err})") from err


series_option = click.option(
    "--system", default=None, metavar="SERIES",
    help="The lists to read: a rule set's official lists or a scenario's (default: the warehouse's first).")

rules_option = click.option(
    "--rules", type=click.Path(exists=True, dir_okay=False, path_type=Path), callback=read_rules, metavar="FILE.toml",
    help="Parameters of the rule set replacing its defaults (keys: its parameter names, e.g. senior_quota = 12; "
         "unknown keys are refused); stored with each list; when they change, every list is recomputed.")

register_option = click.option(
    "--register-new", is_flag=True,
    help="Add the players of tournament files who are not in the registry (with the file's id: the "
         "national id of a SWAR file, the FIDE id of a TRF). Without it, their games are rejected and reported.")

blank_missing_option = click.option(
    "--blank-missing", is_flag=True,
    help="Let a registry file blank the columns it lacks that the registry holds (birth_year, sex, ...) for "
         "each player it lists. Without it such a file is refused, naming them: each row replaces its "
         "player's entry whole.")

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


def with_dialect(formats: tuple[str, ...], dialect: str) -> tuple[str, ...]:
    """The formats to write, with the spreadsheet twin of the CSV files (pipeline.publish: "excel")."""
    return formats + ("excel",) if dialect == "excel" and "csv" in formats else formats


def _encodings(ctx, param, value: tuple[str, ...]) -> Encodings:
    try:
        return encodings_given(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from err


encoding_option = click.option(
    "--encoding", "encodings", multiple=True, callback=_encodings, metavar="NAME",
    help="The encoding the input files are written in, any Python knows (cp1250, cp1253, utf-16, latin-1, ...): "
         "NAME for every file, FILE=NAME for one (repeatable). Without it, each file's is read from its bytes: "
         "a UTF-16 byte-order mark, else UTF-8, Latin-1 or CP1252, and the report warns of letters a wrong "
         "code page gives (W¹sowicz for Wąsowicz).")


def date_option(f):
    return click.option("--date", type=click.DateTime(["%Y-%m-%d"]), default=None, metavar="YYYY-MM-DD",
                        callback=lambda ctx, param, value: value.date() if value else None,
                        help="The date of a one-day event whose tournament file gives no dates (no 042, no 132): "
                             "its rounds are dated so, and the report says it.")(f)


def one_line(ctx, param, value: str | None) -> str | None:
    """A text kept for the record and shown in the calculations (`explain`, the site's
    cards): a control character there would forge a line, so it is refused."""
    # the characters pipeline.formats.cells refuses in a cell, as listing.py holds them without Arrow
    if value is not None and CONTROL.search(value):
        raise click.BadParameter("holds a control character (a line break, tab or escape), which would forge a "
                                 "line where it is shown (ratings explain, the site): give it on one line")
    return value


def reason_given(ctx, param, value: str | None) -> str | None:
    """A reason kept for the record (`one_line`), and one must be given: a blank one says nothing."""
    if value is not None and not value.strip():
        raise click.BadParameter("say why")
    return one_line(ctx, param, value)


def by_option(f):
    return click.option("--by", metavar="NAME", callback=one_line,
                        help="Who does it, for the record (default: your user name).")(f)


def replace_options(f):
    f = click.option("--again", is_flag=True,
                     help="Take in a file whose content was replaced or withdrawn before, as a new submission.")(f)
    return click.option("--replaces", metavar="SUBMISSION",
                        help="The submission this file replaces (its id, or the name of the file it was ingested "
                             "under): its games not in this file are withdrawn, changed ones replaced, new ones "
                             "added, and each change is recorded.")(f)
