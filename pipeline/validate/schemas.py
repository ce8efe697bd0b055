"""Pandera models of the input rows, on typed values.

Validation types each staged row once, in DuckDB (pipeline/validate/typed.py): a
column declared with a parse (`parsed(...)`, in its Field's metadata) holds its value
of that type, NULL where the file gives nothing or something that is not of its kind;
the parse's reason names the second case. The models then check the typed values: each
check is named for the problem it finds, and that name becomes the reason written in
the rejects table. Checks that need the warehouse (ids in the registry, duplicates,
calendar windows) are SQL, in sql/validate/.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Optional

import numpy as np
import pandas as pd
import pandera.pandas as pa
import pyarrow
from pandera.typing import Series

from pipeline.config import (
    GO_MAX_RATING,
    GO_MIN_RATING,
    MAX_RATING,
    MIN_BIRTH_YEAR,
    MIN_RATING,
    today,
)
from pipeline.formats.cells import CONTROL_RE2, control_cells
from pipeline.formats.list_files import FIDE_WIDEST, TITLE_WIDTHS, wider_than_lists
from pipeline.input_layout import EVENT_ID

# Results from White's side; forfeits are kept and never rated (their scores:
# sql/clean/games.sql).
RESULT_CODES = ("1-0", "0-1", "1/2-1/2", "½-½", "+/-", "-/+", "-/-")

NOT_AN_ID = "not a whole-number id of at most 15 digits"
SELF_GAME = "a player plays against themself"
UNPARSEABLE_DATE = "unparseable date (expected YYYY-MM-DD)"


@dataclass(frozen=True)
class Parse:
    """How a column's text becomes its value, in DuckDB: `sql` reads the text `{c}` and
    gives the value, or NULL for a text that is not one; `reason` says why such a text
    is rejected."""

    sql: str
    reason: str
    # A text of the right layout that is still no value (2016-11-31) is rejected for
    # `wrong_value` and the text: saying "expected YYYY-MM-DD" of it would send the
    # officer looking for a typo in the layout.
    layout: str | None = None
    wrong_value: str | None = None


# The staged texts are trimmed and never empty (pipeline/ingest/tables.py). Regular
# expressions first: DuckDB's casts are lenient ('+5', ' 5', '1_000' and '2024-1-5' cast).
ID = "case when regexp_full_match({c}, '[0-9]{{1,15}}') then {c}::bigint end"
# A day of the Gregorian calendar written YYYY-MM-DD (the cast refuses 30 February; year
# 0000, which DuckDB reads as 1 BC, is refused too).
DATE = ("case when regexp_full_match({c}, '[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}') and not starts_with({c}, '0000') "
        "then try_cast({c} as date) end")
# A decimal number as pandas' to_numeric reads one (no 'inf', no 'nan': never in range).
NUMBER = ("case when regexp_full_match({c}, '[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?') "
          "then try_cast({c} as double) end")


def whole(pattern: str) -> str:
    """The parse of a whole number whose text matches `pattern` (digits only)."""
    braces = pattern.replace("{", "{{").replace("}", "}}")  # kept through str.format
    return f"case when regexp_full_match({{c}}, '{braces}') then {{c}}::bigint end"


def parsed(sql: str, reason: str, layout: str | None = None, wrong_value: str | None = None) -> dict[str, Parse]:
    """A Field's metadata: the column is typed by `sql`; a text it refuses is rejected for
    `reason`, or for `wrong_value` when the text matches the regular expression `layout`."""
    return {"parse": Parse(sql, reason, layout, wrong_value)}


# A date in its layout that is no day of the calendar: 2016-11-31, 2026-02-30.
CALENDAR_DATE = {"layout": "[0-9]{4}-[0-9]{2}-[0-9]{2}", "wrong_value": "not a calendar date"}


@dataclass(frozen=True)
class Derived:
    """A column the model checks that is not one of its kind's input columns: `sql`
    reads it from the staged row (the registry's extra columns, JSON in `extra`)."""

    sql: str


def from_extra(sql: str) -> dict[str, Derived]:
    """A Field's metadata: the column is read from the staged row by `sql`."""
    return {"derived": Derived(sql)}


# The typed columns as DuckDB hands them over (Arrow, without a copy into NumPy).
Int = Series[Annotated[pd.ArrowDtype, pyarrow.int64()]]
Number = Series[Annotated[pd.ArrowDtype, pyarrow.float64()]]
Day = Series[Annotated[pd.ArrowDtype, pyarrow.date32()]]
Text = Series[Annotated[pd.ArrowDtype, pyarrow.string()]]

# What each row check reads: a row whose value in one of those columns did not parse is
# rejected for that value, and the row check does not judge it (it would judge a NULL
# that the file did not leave empty: "neither a rating nor archives" for a rating of "x").
ROW_CHECK_READS: dict[str, tuple[str, ...]] = {}
# What a row check's reason adds from the row (SQL over the typed columns, `{column}`):
# "a player plays against themself (player 7)" says who, without opening the file.
ROW_CHECK_DETAILS: dict[str, str] = {}


# pandera (0.35, and its main branch) builds a model's checks from what the decorators
# stored, popping the name on the way: the first model built takes it, and every other
# model that inherits the same check (RatingsInput and PlayersInput from PlayerRows,
# GoEventsInput from EventsInput) falls back to the method's __name__: "player_id: _id"
# instead of the reason. Giving the method the name too keeps the reason for all of them.
def check(*fields: str, name: str, **kwargs):
    """A Pandera column check that keeps its name (the reason) in every model that inherits it."""
    def named(fn):
        fn.__name__ = name
        return pa.check(*fields, name=name, **kwargs)(fn)
    return named


def row_check(*, name: str, reads: tuple[str, ...], detail: str | None = None):
    """A Pandera check of whole rows, named for the problem, reading the columns `reads`;
    a row it cannot judge (a value missing: the comparison gives NA) passes. `detail`
    (see ROW_CHECK_DETAILS) is said in brackets after the name."""
    if ROW_CHECK_READS.setdefault(name, reads) != reads:
        raise ValueError(f"two row checks named {name!r} read different columns")
    if detail is not None and ROW_CHECK_DETAILS.setdefault(name, detail) != detail:
        raise ValueError(f"two row checks named {name!r} say different details")

    def named(fn):
        def judged(cls, df: pd.DataFrame) -> Series[bool]:
            return fn(cls, df).fillna(True).astype(bool)
        judged.__name__ = name
        return pa.dataframe_check(name=name)(judged)
    return named


# Control characters (newline, tab, escape, line separator...) would break the lines of
# the public files (the fixed-width FIDE list, Swiss-Manager's importer) and forge lines
# of the calculation cards: refused in every free text, with the writers' own check
# (pipeline/formats/cells.py), so that what validation accepts is always published.
CONTROL_CHARACTER = "holds a control character (a line break, tab or escape), which would break published lines"
# The same, in DuckDB (RE2, as Arrow's): the games' events and rounds are a million
# texts that no Pandera check reads (pipeline/validate/typed.py: checked_columns).
FORGES_A_LINE = ("holds a control character (a line break, tab or escape), which would forge a line in the "
                 "calculation cards (ratings explain, the site)")
FREE_TEXT = ("case when not regexp_matches({c}, '" + CONTROL_RE2.replace("{", "{{").replace("}", "}}")
             + "') then {c} end")


def _no_control(s: pd.Series) -> pd.Series:
    return ~_series(control_cells(s), s)


def _fits_lists(field: str, s: pd.Series) -> pd.Series:
    return ~_series(wider_than_lists(field, s), s)


def _series(flags: pyarrow.BooleanArray, like: pd.Series) -> pd.Series:
    return pd.Series(flags.to_numpy(zero_copy_only=False), index=like.index)


def too_long(field: str, width: int) -> str:
    return f"longer than its column in FIDE's list layout ({width} characters): the TXT list could not print it"


class PlayerRows(pa.DataFrameModel):
    """Rows about one player: a whole-number player_id."""

    player_id: Int = pa.Field(nullable=False, metadata=parsed(ID, NOT_AN_ID))

    class Config:
        strict = False


# Ruling G6: declared grades run from 30 kyu to 9 dan (0k, 0d, 10d are no grades).
GO_GRADE = r"\s*((30|[12][0-9]|[1-9])\s*[kK]|[1-9]\s*[dD]|NC|nc)\s*"

ESTIMATED_RATING = f"absurd estimated rating (not a number from {MIN_RATING} to {MAX_RATING})"
BIRTH_YEAR = f"impossible birth year (not a year from {MIN_BIRTH_YEAR} to this year)"


TITLES_TOO_LONG = ("titles too long for FIDE's list layout (" + ", ".join(
    f"{column} {width}" for column, width in TITLE_WIDTHS.items()) + " characters): the TXT list could not print them")
NAME_TOO_LONG = too_long("name", FIDE_WIDEST["name"])
FEDERATION_TOO_LONG = too_long("federation", FIDE_WIDEST["federation"])
ID_TOO_LONG = too_long("player_id", FIDE_WIDEST["player_id"])


class PlayersInput(PlayerRows):
    """A registry row: what the pairing lists print of it (sql/53_pairing_lists.sql)
    is checked as their writers check it (pipeline/formats/list_files.py)."""

    name: Text = pa.Field(nullable=False)
    birth_year: Int = pa.Field(nullable=True, metadata=parsed(whole("[0-9]{4}"), BIRTH_YEAR))
    club: Text = pa.Field(nullable=True)
    estimated_rating: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, ESTIMATED_RATING))
    grade: Text = pa.Field(nullable=True)
    # extra columns the pairing lists print, read as sql/53_pairing_lists.sql reads them
    federation: Optional[Text] = pa.Field(nullable=True, metadata=from_extra(
        "coalesce(extra->>'federation', extra->>'fed')"))
    title: Optional[Text] = pa.Field(nullable=True, metadata=from_extra("extra->>'title'"))

    @check("name", "club", "federation", "title", name=CONTROL_CHARACTER)
    def _printable(cls, s: Series[str]) -> Series[bool]:
        return _no_control(s)

    @check("name", name=NAME_TOO_LONG)
    def _name_fits(cls, s: Series[str]) -> Series[bool]:
        return _fits_lists("name", s)

    @check("federation", name=FEDERATION_TOO_LONG)
    def _federation_fits(cls, s: Series[str]) -> Series[bool]:
        return _fits_lists("federation", s)

    @check("title", name=TITLES_TOO_LONG)
    def _titles_fit(cls, s: Series[str]) -> Series[bool]:
        return _fits_lists("title", s)

    @check("player_id", name=ID_TOO_LONG)
    def _id_fits(cls, s: Series[int]) -> Series[bool]:
        return _fits_lists("player_id", s)

    @check("grade", name="not a Go grade (30k … 1k, 1d … 9d, or NC: ruling G6)")
    def _grade(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(GO_GRADE)

    @check("estimated_rating", name=ESTIMATED_RATING)
    def _estimated_rating(cls, s: Series[float]) -> Series[bool]:
        return s.between(MIN_RATING, MAX_RATING)

    @check("birth_year", name=BIRTH_YEAR)
    def _birth_year(cls, s: Series[int]) -> Series[bool]:
        return s.between(MIN_BIRTH_YEAR, today().year)


RATING = f"negative or absurd rating (not a number from {MIN_RATING} to {MAX_RATING})"
ARCHIVE_PERFORMANCE = f"absurd archived performance (not a number from {MIN_RATING} to {MAX_RATING})"
ARCHIVE_GAMES = "archived games must be a whole number from 1 to 7"
PEAK_RATING = f"absurd peak rating (not a number from {MIN_RATING} to {MAX_RATING})"


class RatingsInput(PlayerRows):
    rating: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, RATING))
    archive_performance: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, ARCHIVE_PERFORMANCE))
    archive_games: Int = pa.Field(nullable=True, metadata=parsed(whole("[1-7]"), ARCHIVE_GAMES))
    games_total: Int = pa.Field(nullable=True, metadata=parsed(
        whole("[0-9]{1,6}"), "games_total must be a whole number of games (0 or more)"))
    peak_rating: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, PEAK_RATING))

    @check("rating", name=RATING)
    def _rating(cls, s: Series[float]) -> Series[bool]:
        return s.between(MIN_RATING, MAX_RATING)

    @check("archive_performance", name=ARCHIVE_PERFORMANCE)
    def _archive_performance(cls, s: Series[float]) -> Series[bool]:
        return s.between(MIN_RATING, MAX_RATING)

    @check("peak_rating", name=PEAK_RATING)
    def _peak_rating(cls, s: Series[float]) -> Series[bool]:
        return s.between(MIN_RATING, MAX_RATING)

    @row_check(name="peak_rating is below the rating (the peak is the highest published rating)",
               reads=("peak_rating", "rating"))
    def _peak_at_least_rating(cls, df: pd.DataFrame) -> Series[bool]:
        return df["peak_rating"] >= df["rating"]

    @row_check(name="archive_performance and archive_games go together",
               reads=("archive_performance", "archive_games"))
    def _archives_paired(cls, df: pd.DataFrame) -> Series[bool]:
        return df["archive_performance"].isna() == df["archive_games"].isna()

    @row_check(name="a rated player has no archives (seed: Pa/Na only for unrated players)",
               reads=("rating", "archive_games"))
    def _archives_unrated(cls, df: pd.DataFrame) -> Series[bool]:
        return df["rating"].isna() | df["archive_games"].isna()

    @row_check(name="neither a rating nor archives", reads=("rating", "archive_games"))
    def _something(cls, df: pd.DataFrame) -> Series[bool]:
        return df["rating"].notna() | df["archive_games"].notna()


@cache
def ratings_in_steps(step: int, rule_sets: tuple[str, ...]) -> type[RatingsInput]:
    """Initial ratings that must be multiples of `step`: the initial ratings are the
    list in force before the first one computed, a published list of the rule sets
    `rule_sets` (ruling R3: the performance Elo publishes tens; FIDE whole numbers)."""
    rules = " and ".join(rule_sets)
    reason = (f"not a whole number: the initial ratings are a published list, and the {rules} rules publish "
              "whole numbers" if step == 1 else
              f"not a multiple of {step}: the initial ratings are a published list, and the {rules} rules "
              f"publish multiples of {step}")

    @check("rating", name=reason)
    def _in_steps(cls, s: Series[float]) -> Series[bool]:
        return pd.Series(np.fmod(s.to_numpy(dtype=float, na_value=0.0), step) == 0, index=s.index)

    return type(f"RatingsInStepsOf{step}", (RatingsInput,), {"_in_steps": _in_steps, "__module__": __name__})


LIST_ID = r"[0-9]{4}-(0[1-9]|1[0-2])"


class CalendarInput(pa.DataFrameModel):
    list_id: Text = pa.Field(nullable=False)
    window_start: Day = pa.Field(nullable=False, metadata=parsed(DATE, UNPARSEABLE_DATE, **CALENDAR_DATE))
    window_end: Day = pa.Field(nullable=False, metadata=parsed(DATE, UNPARSEABLE_DATE, **CALENDAR_DATE))

    @check("list_id", name="not a list id YYYY-MM (R1: the month of publication)")
    def _list_id(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(LIST_ID)

    @row_check(name="window ends before it starts", reads=("window_start", "window_end"))
    def _ordered(cls, df: pd.DataFrame) -> Series[bool]:
        return df["window_end"] >= df["window_start"]

    class Config:
        strict = False


class GamesInput(pa.DataFrameModel):
    date: Day = pa.Field(nullable=False, metadata=parsed(DATE, UNPARSEABLE_DATE, **CALENDAR_DATE))
    white_id: Int = pa.Field(nullable=False, metadata=parsed(ID, NOT_AN_ID))
    black_id: Int = pa.Field(nullable=False, metadata=parsed(ID, NOT_AN_ID))
    result: Text = pa.Field(nullable=False, isin=list(RESULT_CODES))
    # Kept as they are written: never handed to Pandera. An event's name and a round
    # are shown in the calculation cards (`ratings explain`, the site): a control
    # character there would forge a line, so it is refused as they are typed.
    game_id: Optional[Text] = pa.Field(nullable=True)
    event: Optional[Text] = pa.Field(nullable=True, metadata=parsed(FREE_TEXT, FORGES_A_LINE))
    round: Optional[Text] = pa.Field(nullable=True, metadata=parsed(FREE_TEXT, FORGES_A_LINE))

    @row_check(name=SELF_GAME, reads=("white_id", "black_id"), detail="'player ' || {white_id}")
    def _two_players(cls, df: pd.DataFrame) -> Series[bool]:
        return df["white_id"] != df["black_id"]

    class Config:
        strict = False


GO_POINTS = f"not Go points (a number from {GO_MIN_RATING} to {GO_MAX_RATING})"


class GoRatingsInput(PlayerRows):
    """Starting points of Go players (negative: kyu)."""

    rating: Number = pa.Field(nullable=False, metadata=parsed(NUMBER, GO_POINTS))

    @check("rating", name=GO_POINTS)
    def _rating(cls, s: Series[float]) -> Series[bool]:
        return s.between(GO_MIN_RATING, GO_MAX_RATING)


class EventsInput(pa.DataFrameModel):
    """An event: a chess tournament (FIDE rates it as a whole, X1-X3) or a Go event."""

    event_id: Text = pa.Field(nullable=False)
    name: Text = pa.Field(nullable=False)
    start_date: Day = pa.Field(nullable=False, metadata=parsed(DATE, UNPARSEABLE_DATE, **CALENDAR_DATE))
    end_date: Day = pa.Field(nullable=False, metadata=parsed(DATE, UNPARSEABLE_DATE, **CALENDAR_DATE))
    class_: Text = pa.Field(nullable=True, isin=["A", "B", "C", "D"], alias="class")
    board_size: Text = pa.Field(nullable=True, isin=["9", "13", "19"])
    rated_in: Optional[Text] = pa.Field(nullable=True)  # chess only (FIDE, X1)
    games_scheduled: Optional[Int] = pa.Field(nullable=True, metadata=parsed(  # chess only (FIDE, X6)
        whole("[1-9][0-9]?"), "games_scheduled must be a whole number of games from 1 to 99 (X6)"))

    @check("rated_in", name="not a list id YYYY-MM (the list that rates the event, X1)")
    def _rated_in(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(LIST_ID)

    @check("name", name=CONTROL_CHARACTER)
    def _printable(cls, s: Series[str]) -> Series[bool]:
        return _no_control(s)

    @check("event_id", name="not an event id (letters, digits, _ . -; at most 64; it names a file)")
    def _event_id(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(EVENT_ID)

    @row_check(name="the event ends before it starts", reads=("start_date", "end_date"))
    def _ordered(cls, df: pd.DataFrame) -> Series[bool]:
        return df["end_date"] >= df["start_date"]

    @row_check(name="rated_in: a list dated before the event ends cannot rate it (X1)",
               reads=("rated_in", "end_date"))
    def _rated_after(cls, df: pd.DataFrame) -> Series[bool]:
        if "rated_in" not in df:
            return pd.Series(True, index=df.index)
        return df["rated_in"] > df["end_date"].dt.strftime("%Y-%m")

    class Config:
        strict = False


class GoEventsInput(EventsInput):
    """A Go event: its class decides the weight of its games."""

    class_: Text = pa.Field(nullable=False, isin=["A", "B", "C", "D"], alias="class")


WEIGHT = "weight must be a number from 0 to 2"


class GoGamesInput(pa.DataFrameModel):
    event_id: Text = pa.Field(nullable=False)
    date: Day = pa.Field(nullable=False, metadata=parsed(DATE, UNPARSEABLE_DATE, **CALENDAR_DATE))
    black_id: Int = pa.Field(nullable=False, metadata=parsed(ID, NOT_AN_ID))
    white_id: Int = pa.Field(nullable=False, metadata=parsed(ID, NOT_AN_ID))
    winner: Text = pa.Field(nullable=False, isin=["B", "W", "b", "w", "jigo", "Jigo", "JIGO"])
    handicap: Int = pa.Field(nullable=True, metadata=parsed(
        whole("[0-9]"), "handicap must be a whole number of stones from 0 to 9"))
    weight: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, WEIGHT))
    round: Int = pa.Field(nullable=True, metadata=parsed(whole("[0-9]{1,4}"), "round must be a whole number"))

    @check("weight", name=WEIGHT)
    def _weight(cls, s: Series[float]) -> Series[bool]:
        return s.between(0, 2)

    @row_check(name=SELF_GAME, reads=("white_id", "black_id"), detail="'player ' || {white_id}")
    def _two_players(cls, df: pd.DataFrame) -> Series[bool]:
        return df["black_id"] != df["white_id"]

    class Config:
        strict = False


SCHEMAS: dict[str, type[pa.DataFrameModel]] = {
    "players": PlayersInput,
    "ratings": RatingsInput,
    "calendar": CalendarInput,
    "games": GamesInput,
    "events": EventsInput,
    "go_games": GoGamesInput,
}


def schema_of(kind: str, game: str | None, steps: tuple[int, tuple[str, ...]] | None = None
              ) -> type[pa.DataFrameModel]:
    """The model of a kind; starting points in a warehouse of Go are Go points; chess
    ratings are multiples of `steps` (the step, and the rule sets that publish in it)."""
    if kind == "ratings" and game == "go":
        return GoRatingsInput
    if kind == "ratings" and steps is not None:
        return ratings_in_steps(*steps)
    if kind == "events" and game != "chess":  # events without a warehouse game are Go's, as before FIDE's
        return GoEventsInput
    return SCHEMAS[kind]
