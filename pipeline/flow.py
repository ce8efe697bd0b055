"""The pipeline as a library: ingest → validate → rate → publish, typed in and out,
callable without the CLI (which only parses options and prints what a `Reporter`
is told).

A warehouse holds one or more series (a rule set's official lists): rating and
publication work on each, from the first one whose inputs changed, up to the last
whose window has closed (pipeline/rate/waiting.py). A rule set that fails blocks no
other: its series is left as it was and named in what the stage returns
(pipeline/rate/contract.py).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from pipeline import systems
from pipeline.config import PairingSettings, SettingsError, pairing_settings
from pipeline.formats.cells import LayoutError
from pipeline.formats.text_codecs import Encodings
from pipeline.ingest import split_tournaments, submissions, submit_tables, submit_tournaments
from pipeline.outputs import OutputRefused
from pipeline.publish import PublishedFileConflict, publish_series
from pipeline.publish.report import write_reports
from pipeline.rate import UnknownList, from_list_of_each, rate_series
from pipeline.rate.contract import RuleSetFailed, running
from pipeline.rate.corrections import set_aside_by
from pipeline.rate.initial import off_step
from pipeline.rate.memory import release_freed_memory
from pipeline.rate.series import Series, SeriesError, chosen, official, record_game, scenario, series_in, unloaded_series
from pipeline.reporter import Reporter, timed
from pipeline.validate.parts import validate_staged
from pipeline.warehouse import scalar, temp_staging, transaction


@dataclass(frozen=True)
class Inputs:
    """The files to take in, as the user named them (kind None: read from the content)."""

    files: list[tuple[str | None, Path]] = field(default_factory=list)
    register_new: bool = False  # tournament files' unknown players are registered
    replaces: str | None = None  # the submission the (single) file replaces
    again: bool = False  # content replaced or withdrawn before is taken in again
    date: dt.date | None = None  # the date of a one-day tournament file without dates
    ratings_from_files: bool = False  # a TRF's printed ratings as the initial ratings of players without one
    blank_missing: bool = False  # a registry file may blank the columns it lacks (pipeline/ingest/registry.py)
    encodings: Encodings = Encodings()  # named with --encoding (pipeline/formats/encodings.py)


def take_in(con: duckdb.DuckDBPyConnection, run_id: int, inputs: Inputs, by: str, staging: str, validate: bool,
            reporter: Reporter, system: str | None = None) -> int:
    """Ingest the files (tables, then tournaments, matched against the registry the
    tables gave when `validate`), validating as asked (`system`: the rule set the run
    adds, which checks the initial ratings it starts from); returns the rows rejected."""
    tables, tournaments = split_tournaments(inputs.files, inputs.encodings)
    old = submissions.resolve(con, inputs.replaces) if inputs.replaces else None
    rejected = 0
    with timed(reporter, "Ingest"):
        reporter.heading("Ingest")
        reporter.taken(submit_tables(con, tables, run_id, by, staging, old if tables else None, inputs.again,
                                     inputs.blank_missing, inputs.encodings))
    if validate:
        with timed(reporter, "Validate"):
            rejected += reporter.validated(con, *validate_staged(con, run_id, by, system))
    if tournaments:
        with timed(reporter, "Ingest tournaments"):
            reporter.heading("Ingest tournaments")
            reporter.taken(submit_tournaments(con, tournaments, run_id, by, staging, inputs.register_new,
                                              old if not tables else None, inputs.again, inputs.date,
                                              inputs.ratings_from_files, inputs.encodings))
        if validate:
            with timed(reporter, "Validate tournaments"):
                rejected += reporter.validated(con, *validate_staged(con, run_id, by, system))
    return rejected


@dataclass(frozen=True)
class Rating:
    """What `rate` did: each series' lists computed, and the failures of rule sets (each
    one message; their series left as they were)."""

    done: dict[str, list]
    failed: list[str]


def series_to_rate(con: duckdb.DuckDBPyConnection, system: str | None,
                   rules: dict | None = None) -> tuple[list[Series], str | None]:
    """The series a run or `rate` computes, and the name of the one asked for (None: none):
    every series of the warehouse whose rule set loads, and the one asked for with the
    parameters of --rules (which replace those of an existing one), not stored yet
    (`official` stores it with its lists, all or nothing); on a new warehouse, the
    default rule set's."""
    held = series_in(con)
    asked = system_to_rate(con, system) if system is not None or rules is not None else None
    if asked is None and not held and not unloaded_series(con):
        asked = systems.DEFAULT
    if asked is None:
        return held, None
    if asked in {s.name for s in held}:
        return [s if s.name != asked or rules is None else Series(asked, systems.rule_set(asked, rules), s.position)
                for s in held], asked
    return [*held, Series(asked, systems.rule_set(asked, rules), 0)], asked  # 0: not stored yet


def system_to_rate(con: duckdb.DuckDBPyConnection, system: str | None) -> str:
    """The rule set --system or --rules concern: the one named, else the warehouse's
    first series', else the default rule set."""
    held = series_in(con)
    return system or (held[0].name if held else systems.DEFAULT)


def rate(con: duckdb.DuckDBPyConnection, run_id: int, reporter: Reporter, system: str | None = None,
         rules: dict | None = None, from_list: str | None = None) -> Rating:
    """Compute the lists of each series to rate, each series in a transaction of its own:
    a rule set that fails leaves its series as it was (one asked for is not made) and
    the others are rated."""
    refusals = (UnknownList, SeriesError, systems.ParameterError, systems.UnknownRuleSet)
    for gone in unloaded_series(con):
        reporter.note(gone.words())
    todo, asked = series_to_rate(con, system, rules)
    starts = from_list_of_each(con, todo, from_list)
    done, failed = {}, []
    for series in todo:
        try:
            with transaction(con), running(series, "computed", refusals):
                if series.name == asked:
                    series = official(con, asked, run_id, rules)
                rated = rate_series(con, run_id, series, from_list=starts[series.name])
        except RuleSetFailed as err:
            failed.append(str(err))
            continue
        finally:  # stored (or rolled back): what it computed is nobody's now
            release_freed_memory()
        done[series.name] = rated.lists
        reporter.rated(series, rated.lists)
        reporter.waiting(series, rated.waiting)
        for correction_id, player_id, list_id, why in set_aside_by(con, series.name, run_id):
            reporter.note(f"correction {correction_id} of the {series.name} lists (player {player_id}, list {list_id}) "
                          f"is set aside, no longer applied: {why}; if it still stands, enter it again on the list "
                          "that now rates the player (`ratings corrections` lists it)")
        # in order: the first list was computed when the first computed is it
        if rated.lists and rated.lists[0].list_id == scalar(
                con, "select list_id from lists where series = ? and position = 0", [series.name]) \
                and (n := off_step(con, series.rule_set)):
            step = f"{series.rule_set.rating_step():g}"
            reporter.note(f"{n} initial rating{'s' if n > 1 else ''} not a multiple of {step}, the {series.name} "
                          "lists' step: taken as given; only the ratings the rules compute are rounded")
        if rated.lists and series.rule_set.game == "chess" and not con.execute(
                "select 1 from initial_ratings limit 1").fetchall():
            reporter.note(f"no initial ratings were given: every player of the {series.name} lists started unrated "
                          "(give --ratings FILE, or --ratings-from-files to take the ratings a TRF prints)")
    said = calendar_takers(con, [s for s in todo if s.name in done])
    if said:
        reporter.note(said)
    return Rating(done, failed)


def calendar_takers(con: duckdb.DuckDBPyConnection, todo: list[Series]) -> str | None:
    """What a run says when a calendar file is in force: which rule sets took its windows
    and which kept their own periods (RuleSet.takes_calendar_file), None without one."""
    windowed = [s for s in todo if s.rule_set.periods_are == "windows"]
    if not windowed or not con.execute("select 1 from calendar limit 1").fetchall():
        return None
    took = [s.name for s in windowed if s.rule_set.takes_calendar_file]
    kept = [s.name for s in windowed if not s.rule_set.takes_calendar_file]
    parts = [f"the calendar file's windows are the periods of {', '.join(took)}"] if took else []
    if kept:
        parts.append(f"{', '.join(kept)} kept {'its' if len(kept) == 1 else 'their'} own periods "
                     "(they are part of the rules)")
    return "; ".join(parts)


def publish(con: duckdb.DuckDBPyConnection, out: Path, reporter: Reporter, formats: tuple[str, ...],
            reports: bool, system: str | None = None, say_unloaded: bool = True) -> list[str]:
    """Write the files of each official series (the one asked for, else all), each in
    its folder; a scenario is never published. The pairing programs' files take
    ratings.toml's federation and publish_birth_year (pipeline.config.pairing_settings),
    read only when they are asked for. Returns the failures of rule sets (each one
    message): a series whose rule set fails blocks no other's files; one whose rule set
    cannot be loaded is left as it is, and said (`say_unloaded`: not said already)."""
    if system is not None and chosen(con, system).scenario:
        raise SeriesError(f"{system!r} is a scenario: scenarios are never published (compare them: ratings compare)")
    settings = pairing_settings() if {"txt", "swiss-manager"} & set(formats) else PairingSettings()
    if system is None and say_unloaded:
        for gone in unloaded_series(con):
            if not gone.scenario:
                reporter.note(gone.words())
    failed = []
    for series in ([chosen(con, system)] if system else series_in(con, scenarios=False)):
        try:
            with running(series, "published", (PublishedFileConflict, OutputRefused, SettingsError, LayoutError)):
                published = publish_series(con, out, series, formats, settings=settings, rows=reports)
                pages = []
                if reports:
                    pages = write_reports(con, out, series, published.lists)
        except RuleSetFailed as err:
            failed.append(str(err))
            continue
        reporter.published(series, Path(series.folder(Path(out))), published.list_ids, published.written, pages)
    return failed


def run_scenario(con: duckdb.DuckDBPyConnection, run_id: int, reporter: Reporter, name: str, system: str | None,
                 rules: dict, from_list: str | None = None) -> list:
    """Make (or give new parameters to) the scenario `name` and compute its lists: all
    or nothing (a refused --from leaves no scenario without lists, nor other parameters)."""
    with transaction(con):
        series = scenario(con, name, system, rules, run_id)
        # the user's refusals (an unknown --from, initial ratings the rule set cannot start from) said as they are
        with running(series, "computed", (UnknownList, SeriesError)):
            rated = rate_series(con, run_id, series, from_list=from_list)
    reporter.rated(series, rated.lists)
    reporter.waiting(series, rated.waiting)
    return rated.lists


@dataclass(frozen=True)
class Ran:
    """What a run did that its exit status tells: the rows rejected, the rule sets that failed."""

    rejected: int
    failed: list[str]


def run(con: duckdb.DuckDBPyConnection, run_id: int, inputs: Inputs, by: str, out: Path, reporter: Reporter,
        system: str | None = None, rules: dict | None = None, formats: tuple[str, ...] = ("csv", "parquet"),
        reports: bool = True) -> Ran:
    """All four stages. The files are taken in and validated in one transaction, staged
    in memory: a file is recorded as taken in only once its rows are in the warehouse or
    in rejects; what an earlier `ingest` staged is validated with them. A rule set that
    fails is named in what it returns; the others' lists are rated and published."""
    if system is not None:  # refused before anything is taken in; validation reads the game
        record_game(con, system)
    if rules is not None:  # parameters out of their range: refused before anything is taken in
        systems.rule_set(system_to_rate(con, system), rules)
    if {"txt", "swiss-manager"} & set(formats):  # so is a ratings.toml the pairing files cannot take
        pairing_settings()
    with transaction(con):
        rejected = take_in(con, run_id, inputs, by, temp_staging(con), True, reporter, system)
    with timed(reporter, "Rate"):
        rating = rate(con, run_id, reporter, system, rules)
    with timed(reporter, "Publish"):
        failed = publish(con, out, reporter, formats, reports, say_unloaded=False)  # rate said them
    return Ran(rejected, rating.failed + failed)
