"""Pandera models of the input rows, on typed values: the one declaration of what a
row of each kind must be.

Validation types each staged row once, in DuckDB (pipeline/validate/typed.py): a
column declared with a parse (`parsed(...)`, in its Field's metadata) holds its value
of that type, NULL where the file gives nothing or something that is not of its kind;
the parse's reason names the second case. The models then check the typed values: each
check is named for the problem it finds, and that name becomes the reason written in
the rejects table. Each check is declared as the SQL it runs in DuckDB, or as the
writers' own Arrow check; validation runs the models compiled to those forms
(`python -m pipeline.validate.compile`, pipeline/validate/model_checks.py), without
loading pandas or Pandera. Checks that need the warehouse (ids in the registry,
duplicates, calendar windows) are SQL, in sql/validate/.
"""
from __future__ import annotations

from typing import Optional

import pandera.pandas as pa

from pipeline.config import (
    GO_MAX_RATING,
    GO_MIN_RATING,
    MAX_RATING,
    MIN_BIRTH_YEAR,
    MIN_RATING,
)
from pipeline.formats.cells import CONTROL_RE2
from pipeline.formats.fide_layout import FIDE_WIDEST, TITLE_WIDTHS
from pipeline.input_layout import EVENT_ID
from pipeline.ruleset.initial import Day, Int, Number, Text  # the typed columns as DuckDB hands them over
from pipeline.ruleset.checks import NUMBER, between, check, full_match, parsed, row_check, whole
from pipeline.ruleset.forms import Derived

# Results from White's side; forfeits are kept and never rated (their scores:
# sql/clean/games.sql).
RESULT_CODES = ("1-0", "0-1", "1/2-1/2", "½-½", "+/-", "-/+", "-/-")

NOT_AN_ID = "not a whole-number id of at most 15 digits"
SELF_GAME = "a player plays against themself"
UNPARSEABLE_DATE = "unparseable date (expected YYYY-MM-DD)"


# The staged texts are trimmed and never empty (pipeline/ingest/tables.py). Regular
# expressions first: DuckDB's casts are lenient ('+5', ' 5', '1_000' and '2024-1-5' cast).
ID = "case when regexp_full_match({c}, '[0-9]{{1,15}}') then {c}::bigint end"
# A day of the Gregorian calendar written YYYY-MM-DD (the cast refuses 30 February; year
# 0000, which DuckDB reads as 1 BC, is refused too).
DATE = ("case when regexp_full_match({c}, '[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}') and not starts_with({c}, '0000') "
        "then try_cast({c} as date) end")
# A date in its layout that is no day of the calendar: 2016-11-31, 2026-02-30.
CALENDAR_DATE = {"layout": "[0-9]{4}-[0-9]{2}-[0-9]{2}", "wrong_value": "not a calendar date"}


def from_extra(sql: str) -> dict[str, Derived]:
    """A Field's metadata: the column is read from the staged row by `sql`."""
    return {"derived": Derived(sql)}



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
    is checked as their writers check it (pipeline/formats/fide_layout.py)."""

    name: Text = pa.Field(nullable=False)
    birth_year: Int = pa.Field(nullable=True, metadata=parsed(whole("[0-9]{4}"), BIRTH_YEAR))
    club: Text = pa.Field(nullable=True)
    estimated_rating: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, ESTIMATED_RATING))
    grade: Text = pa.Field(nullable=True)
    # extra columns the pairing lists print, read as sql/53_pairing_lists.sql reads them
    federation: Optional[Text] = pa.Field(nullable=True, metadata=from_extra(
        "coalesce(extra->>'federation', extra->>'fed')"))
    title: Optional[Text] = pa.Field(nullable=True, metadata=from_extra("extra->>'title'"))

    _printable = check("name", "club", "federation", "title", name=CONTROL_CHARACTER, arrow="printable")
    _name_fits = check("name", name=NAME_TOO_LONG, arrow="fits_lists:name")
    _federation_fits = check("federation", name=FEDERATION_TOO_LONG, arrow="fits_lists:federation")
    _titles_fit = check("title", name=TITLES_TOO_LONG, arrow="fits_lists:title")
    _id_fits = check("player_id", name=ID_TOO_LONG, arrow="fits_lists:player_id")

    _grade = check("grade", name="not a Go grade (30k … 1k, 1d … 9d, or NC: ruling G6)",
                   sql=full_match(GO_GRADE))

    _estimated_rating = check("estimated_rating", name=ESTIMATED_RATING, sql=between(MIN_RATING, MAX_RATING))

    # this year: validation's today (pipeline.config.today), set on its connection
    _birth_year = check("birth_year", name=BIRTH_YEAR, sql=between(MIN_BIRTH_YEAR, "year(getvariable('today'))"))


RATING = f"negative or absurd rating (not a number from {MIN_RATING} to {MAX_RATING})"


class RatingsInput(PlayerRows):
    """An initial rating, as every rule set reads it: the player and the rating (none: an
    unrated player). What a rule set starts from besides, and its rules about the row (the
    national Elo's archives, FIDE's games to date and peak), are its own initial columns,
    checked by its own model (RuleSet.InitialColumns: pipeline/validate/initial.py)."""

    rating: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, RATING))

    _rating = check("rating", name=RATING, sql=between(MIN_RATING, MAX_RATING))


LIST_ID = r"[0-9]{4}-(0[1-9]|1[0-2])"


class CalendarInput(pa.DataFrameModel):
    list_id: Text = pa.Field(nullable=False)
    window_start: Day = pa.Field(nullable=False, metadata=parsed(DATE, UNPARSEABLE_DATE, **CALENDAR_DATE))
    window_end: Day = pa.Field(nullable=False, metadata=parsed(DATE, UNPARSEABLE_DATE, **CALENDAR_DATE))

    _list_id = check("list_id", name="not a list id YYYY-MM (R1: the month of publication)",
                     sql=full_match(LIST_ID))

    _ordered = row_check(name="window ends before it starts", reads=("window_start", "window_end"),
                         sql="{window_end} >= {window_start}")

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

    _two_players = row_check(name=SELF_GAME, reads=("white_id", "black_id"), sql="{white_id} <> {black_id}",
                             detail="'player ' || {white_id}")

    class Config:
        strict = False


GO_POINTS = f"not Go points (a number from {GO_MIN_RATING} to {GO_MAX_RATING})"


class GoRatingsInput(PlayerRows):
    """Starting points of Go players (negative: kyu)."""

    rating: Number = pa.Field(nullable=False, metadata=parsed(NUMBER, GO_POINTS))

    _rating = check("rating", name=GO_POINTS, sql=between(GO_MIN_RATING, GO_MAX_RATING))


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

    _rated_in = check("rated_in", name="not a list id YYYY-MM (the list that rates the event, X1)",
                      sql=full_match(LIST_ID))

    _printable = check("name", name=CONTROL_CHARACTER, arrow="printable")

    _event_id = check("event_id", name="not an event id (letters, digits, _ . -; at most 64; it names a file)",
                      sql=full_match(EVENT_ID))

    _ordered = row_check(name="the event ends before it starts", reads=("start_date", "end_date"),
                         sql="{end_date} >= {start_date}")

    _rated_after = row_check(name="rated_in: a list dated before the event ends cannot rate it (X1)",
                             reads=("rated_in", "end_date"), sql="{rated_in} > strftime({end_date}, '%Y-%m')")

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
    # B+F, W+F: won by default (SGF's notation): stored and counted, never rated, as chess forfeits
    winner: Text = pa.Field(nullable=False, isin=["B", "W", "b", "w", "jigo", "Jigo", "JIGO", "B+F", "W+F", "b+f",
                                                  "w+f"])
    handicap: Int = pa.Field(nullable=True, metadata=parsed(
        whole("[0-9]"), "handicap must be a whole number of stones from 0 to 9"))
    weight: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, WEIGHT))
    round: Int = pa.Field(nullable=True, metadata=parsed(whole("[0-9]{1,4}"), "round must be a whole number"))

    _weight = check("weight", name=WEIGHT, sql=between(0, 2))

    _two_players = row_check(name=SELF_GAME, reads=("white_id", "black_id"), sql="{white_id} <> {black_id}",
                             detail="'player ' || {white_id}")

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

