"""Pandera models of the raw inputs: one row of text per input row.

Each check is named for the problem it finds, and that name becomes the
reason written in the rejects table. Checks that need the warehouse (ids in
the registry, duplicates, calendar windows) are SQL, in sql/validate/.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import pandas as pd
import pandera.pandas as pa
import pyarrow
import pyarrow.compute as pc
from pandera.typing import Series

from pipeline.config import GO_MAX_RATING, GO_MIN_RATING, MAX_RATING, MIN_BIRTH_YEAR, MIN_RATING, today
from pipeline.formats.utf8 import utf8_cells
from pipeline.input_layout import EVENT_ID

# Results from White's side; forfeits are kept and never rated (their scores:
# sql/clean/games.sql).
RESULT_CODES = ("1-0", "0-1", "1/2-1/2", "½-½", "+/-", "-/+", "-/-")

NOT_AN_ID = "not a whole-number id of at most 15 digits"


# pandera (0.35, and its main branch) builds a model's checks from what the decorators
# stored, popping the name on the way: the first model built takes it, and every other
# model that inherits the same check (RatingsInput and PlayersInput from PlayerRows,
# GoEventsInput from EventsInput) falls back to the method's __name__: "player_id: _id"
# instead of the reason. Giving the method the name too keeps the reason for all of them.
def _keeping_names(decorator):
    """A Pandera check decorator whose check keeps its name in every model that inherits it."""
    def named_check(*fields: str, name: str, **kwargs):
        def named(fn):
            fn.__name__ = name
            return decorator(*fields, name=name, **kwargs)(fn)
        return named
    return named_check


check = _keeping_names(pa.check)
dataframe_check = _keeping_names(pa.dataframe_check)


def _text(s: pd.Series) -> pyarrow.Array:
    """The column as an Arrow string array (the frames' columns are Arrow-backed: no copy)."""
    text = pyarrow.array(s, from_pandas=True)
    return text if pyarrow.types.is_string(text.type) or pyarrow.types.is_large_string(text.type) \
        else pc.cast(text, pyarrow.string())


def _digits(s: pd.Series, longest: int = 15) -> np.ndarray:
    """Cells of 1 to `longest` ASCII digits (`[0-9]{1,15}`), by counting the bytes
    that are not digits: a regular expression over a million ids takes 0.08 s, this 0.05 s."""
    data, start, length, present = utf8_cells(_text(s))
    others = np.zeros(len(data) + 1, dtype=np.int32)  # the non-digit bytes before each byte
    np.cumsum((data - 48) > 9, dtype=np.int32, out=others[1:])  # uint8: a byte below "0" wraps above 9
    return present & (length >= 1) & (length <= longest) & (others[start + length] == others[start])


def _numbers(s: pd.Series) -> pd.Series:
    """The text as numbers (NaN where it is not one), as pd.to_numeric reads it; the
    plain digit strings that most cells are (ids, ratings) cast at once by Arrow,
    only the others through pandas (pd.to_numeric on a million strings takes 0.5 s)."""
    text = _text(s)
    plain = _digits(s)
    values = pc.cast(pc.if_else(pyarrow.array(plain), text, pyarrow.scalar("0")), "float64")
    out = pd.Series(values.to_numpy(zero_copy_only=False), index=s.index)
    if not plain.all():
        out[~plain] = pd.to_numeric(s[~plain], errors="coerce")
    return out


def _is_id(s: pd.Series) -> pd.Series:
    return pd.Series(_digits(s), index=s.index)


DAYS_IN_MONTH = np.array([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
DASH = np.uint8((ord("-") - ord("0")) % 256)  # "-" minus "0" in uint8 arithmetic


def _is_date(s: pd.Series) -> pd.Series:
    """YYYY-MM-DD naming a day of the Gregorian calendar (no 30 February), as pandas'
    strict parser (`pd.to_datetime(format="%Y-%m-%d")`) accepts them, by arithmetic
    on the bytes of the ten-byte cells: the parser takes 0.35 s for a million dates,
    a regular expression and slices 0.2 s, this 0.07-0.1 s."""
    data, start, length, present = utf8_cells(_text(s))
    ten = np.flatnonzero(present & (length == 10))
    first = start[ten]
    b = [data[first + k] - np.uint8(ord("0")) for k in range(10)]  # a digit's value; uint8: others above 9
    shaped = (b[4] == DASH) & (b[7] == DASH)
    for k in (0, 1, 2, 3, 5, 6, 8, 9):
        shaped &= b[k] <= 9
    n = [x.astype(np.int32) for x in b]
    year, month, day = n[0] * 1000 + n[1] * 100 + n[2] * 10 + n[3], n[5] * 10 + n[6], n[8] * 10 + n[9]
    leap = (year % 4 == 0) & ((year % 100 != 0) | (year % 400 == 0))
    last = DAYS_IN_MONTH[np.clip(month, 0, 12)] + (leap & (month == 2))
    valid = np.zeros(len(s), dtype=bool)
    valid[ten] = shaped & (month >= 1) & (month <= 12) & (day >= 1) & (day <= last)
    return pd.Series(valid, index=s.index)


def _different_ids(a: pd.Series, b: pd.Series) -> pd.Series:
    """Compared as numbers: `1` and `01` are one player. Rows whose ids are not ids
    are rejected by the id check, not this one."""
    a, b = _numbers(a), _numbers(b)
    return (a != b) | a.isna() | b.isna()


# Control characters (newline, tab, escape, ...) would break the lines of the public
# files (the fixed-width FIDE list, CSV readers): refused in names and clubs.
CONTROL = r"[\x00-\x1f\x7f-\x9f]"
CONTROL_CHARACTER = "holds a control character (a line break, tab or escape), which would break published lines"


def _no_control(s: pd.Series) -> pd.Series:
    return ~s.str.contains(CONTROL, regex=True)


def _in_range(s: pd.Series, low: float, high: float) -> pd.Series:
    return _numbers(s).between(low, high)


class PlayerRows(pa.DataFrameModel):
    """Rows about one player: a whole-number player_id."""

    player_id: Series[str] = pa.Field(nullable=False)

    @check("player_id", name=NOT_AN_ID)
    def _id(cls, s: Series[str]) -> Series[bool]:
        return _is_id(s)

    class Config:
        strict = False


# Ruling G6: declared grades run from 30 kyu to 9 dan (0k, 0d, 10d are no grades).
GO_GRADE = r"\s*((30|[12][0-9]|[1-9])\s*[kK]|[1-9]\s*[dD]|NC|nc)\s*"


class PlayersInput(PlayerRows):
    name: Series[str] = pa.Field(nullable=False)
    birth_year: Series[str] = pa.Field(nullable=True)
    club: Series[str] = pa.Field(nullable=True)
    estimated_rating: Series[str] = pa.Field(nullable=True)

    grade: Series[str] = pa.Field(nullable=True)

    @check("name", "club", name=CONTROL_CHARACTER)
    def _printable(cls, s: Series[str]) -> Series[bool]:
        return _no_control(s)

    @check("grade", name="not a Go grade (30k … 1k, 1d … 9d, or NC: ruling G6)")
    def _grade(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(GO_GRADE)

    @check("estimated_rating",
           name=f"absurd estimated rating (not a number from {MIN_RATING} to {MAX_RATING})")
    def _estimated_rating(cls, s: Series[str]) -> Series[bool]:
        return _in_range(s, MIN_RATING, MAX_RATING)

    @check("birth_year", name=f"impossible birth year (not a year from {MIN_BIRTH_YEAR} to this year)")
    def _birth_year(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(r"[0-9]{4}") & _in_range(s, MIN_BIRTH_YEAR, today().year)


class RatingsInput(PlayerRows):
    rating: Series[str] = pa.Field(nullable=True)
    archive_performance: Series[str] = pa.Field(nullable=True)
    archive_games: Series[str] = pa.Field(nullable=True)
    games_total: Series[str] = pa.Field(nullable=True)
    peak_rating: Series[str] = pa.Field(nullable=True)

    @check("rating", name=f"negative or absurd rating (not a number from {MIN_RATING} to {MAX_RATING})")
    def _rating(cls, s: Series[str]) -> Series[bool]:
        return _in_range(s, MIN_RATING, MAX_RATING)

    @check("archive_performance",
           name=f"absurd archived performance (not a number from {MIN_RATING} to {MAX_RATING})")
    def _archive_performance(cls, s: Series[str]) -> Series[bool]:
        return _in_range(s, MIN_RATING, MAX_RATING)

    @check("archive_games", name="archived games must be a whole number from 1 to 7")
    def _archive_games(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(r"[1-7]")

    @check("games_total", name="games_total must be a whole number of games (0 or more)")
    def _games_total(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(r"[0-9]{1,6}")

    @check("peak_rating", name=f"absurd peak rating (not a number from {MIN_RATING} to {MAX_RATING})")
    def _peak_rating(cls, s: Series[str]) -> Series[bool]:
        return _in_range(s, MIN_RATING, MAX_RATING)

    @dataframe_check(name="peak_rating is below the rating (the peak is the highest published rating)")
    def _peak_at_least_rating(cls, df: pd.DataFrame) -> Series[bool]:
        peak, rating = _numbers(df["peak_rating"]), _numbers(df["rating"])
        return peak.isna() | rating.isna() | (peak >= rating)

    @dataframe_check(name="archive_performance and archive_games go together")
    def _archives_paired(cls, df: pd.DataFrame) -> Series[bool]:
        return df["archive_performance"].isna() == df["archive_games"].isna()

    @dataframe_check(name="a rated player has no archives (seed: Pa/Na only for unrated players)")
    def _archives_unrated(cls, df: pd.DataFrame) -> Series[bool]:
        return df["rating"].isna() | df["archive_games"].isna()

    @dataframe_check(name="neither a rating nor archives")
    def _something(cls, df: pd.DataFrame) -> Series[bool]:
        return df["rating"].notna() | df["archive_games"].notna()


class CalendarInput(pa.DataFrameModel):
    list_id: Series[str] = pa.Field(nullable=False)
    window_start: Series[str] = pa.Field(nullable=False)
    window_end: Series[str] = pa.Field(nullable=False)

    @check("list_id", name="not a list id YYYY-MM (R1: the month of publication)")
    def _list_id(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(r"[0-9]{4}-(0[1-9]|1[0-2])")

    @check("window_start", "window_end", name="unparseable date (expected YYYY-MM-DD)")
    def _dates(cls, s: Series[str]) -> Series[bool]:
        return _is_date(s)

    @dataframe_check(name="window ends before it starts")
    def _ordered(cls, df: pd.DataFrame) -> Series[bool]:
        return ~(df["window_end"] < df["window_start"])

    class Config:
        strict = False


class GamesInput(pa.DataFrameModel):
    date: Series[str] = pa.Field(nullable=False)
    white_id: Series[str] = pa.Field(nullable=False)
    black_id: Series[str] = pa.Field(nullable=False)
    result: Series[str] = pa.Field(nullable=False, isin=list(RESULT_CODES))
    game_id: Series[str] = pa.Field(nullable=True)
    event: Series[str] = pa.Field(nullable=True)
    round: Series[str] = pa.Field(nullable=True)

    @check("date", name="unparseable date (expected YYYY-MM-DD)")
    def _date(cls, s: Series[str]) -> Series[bool]:
        return _is_date(s)

    @check("white_id", "black_id", name=NOT_AN_ID)
    def _ids(cls, s: Series[str]) -> Series[bool]:
        return _is_id(s)

    @dataframe_check(name="a player plays against themself")
    def _two_players(cls, df: pd.DataFrame) -> Series[bool]:
        return _different_ids(df["white_id"], df["black_id"])

    class Config:
        strict = False




class GoRatingsInput(PlayerRows):
    """Starting points of Go players (negative: kyu)."""

    rating: Series[str] = pa.Field(nullable=False)

    @check("rating", name=f"not Go points (a number from {GO_MIN_RATING} to {GO_MAX_RATING})")
    def _rating(cls, s: Series[str]) -> Series[bool]:
        return _in_range(s, GO_MIN_RATING, GO_MAX_RATING)




class EventsInput(pa.DataFrameModel):
    """An event: a chess tournament (FIDE rates it as a whole, X1-X3) or a Go event."""

    event_id: Series[str] = pa.Field(nullable=False)
    name: Series[str] = pa.Field(nullable=False)
    start_date: Series[str] = pa.Field(nullable=False)
    end_date: Series[str] = pa.Field(nullable=False)
    class_: Series[str] = pa.Field(nullable=True, isin=["A", "B", "C", "D"], alias="class")
    board_size: Series[str] = pa.Field(nullable=True, isin=["9", "13", "19"])
    rated_in: Optional[Series[str]] = pa.Field(nullable=True)  # chess only (FIDE, X1)
    games_scheduled: Optional[Series[str]] = pa.Field(nullable=True)  # chess only (FIDE, X6)

    @check("rated_in", name="not a list id YYYY-MM (the list that rates the event, X1)")
    def _rated_in(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(r"[0-9]{4}-(0[1-9]|1[0-2])")

    @check("games_scheduled", name="games_scheduled must be a whole number of games from 1 to 99 (X6)")
    def _scheduled(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(r"[1-9][0-9]?")

    @check("name", name=CONTROL_CHARACTER)
    def _printable(cls, s: Series[str]) -> Series[bool]:
        return _no_control(s)

    @check("event_id", name="not an event id (letters, digits, _ . -; at most 64; it names a file)")
    def _event_id(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(EVENT_ID)

    @check("start_date", "end_date", name="unparseable date (expected YYYY-MM-DD)")
    def _dates(cls, s: Series[str]) -> Series[bool]:
        return _is_date(s)

    @dataframe_check(name="the event ends before it starts")
    def _ordered(cls, df: pd.DataFrame) -> Series[bool]:
        return ~(df["end_date"] < df["start_date"])

    @dataframe_check(name="rated_in: a list dated before the event ends cannot rate it (X1)")
    def _rated_after(cls, df: pd.DataFrame) -> Series[bool]:
        if "rated_in" not in df:
            return pd.Series(True, index=df.index)
        return df["rated_in"].isna() | ~(df["rated_in"] <= df["end_date"].str.slice(0, 7))

    class Config:
        strict = False


class GoEventsInput(EventsInput):
    """A Go event: its class decides the weight of its games."""

    class_: Series[str] = pa.Field(nullable=False, isin=["A", "B", "C", "D"], alias="class")


class GoGamesInput(pa.DataFrameModel):
    event_id: Series[str] = pa.Field(nullable=False)
    date: Series[str] = pa.Field(nullable=False)
    black_id: Series[str] = pa.Field(nullable=False)
    white_id: Series[str] = pa.Field(nullable=False)
    winner: Series[str] = pa.Field(nullable=False, isin=["B", "W", "b", "w", "jigo", "Jigo", "JIGO"])
    handicap: Series[str] = pa.Field(nullable=True)
    weight: Series[str] = pa.Field(nullable=True)
    round: Series[str] = pa.Field(nullable=True)

    @check("round", name="round must be a whole number")
    def _round(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(r"[0-9]{1,4}")

    @check("date", name="unparseable date (expected YYYY-MM-DD)")
    def _date(cls, s: Series[str]) -> Series[bool]:
        return _is_date(s)

    @check("black_id", "white_id", name=NOT_AN_ID)
    def _ids(cls, s: Series[str]) -> Series[bool]:
        return _is_id(s)

    @check("handicap", name="handicap must be a whole number of stones from 0 to 9")
    def _handicap(cls, s: Series[str]) -> Series[bool]:
        return s.str.fullmatch(r"[0-9]")

    @check("weight", name="weight must be a number from 0 to 2")
    def _weight(cls, s: Series[str]) -> Series[bool]:
        return _in_range(s, 0, 2)

    @dataframe_check(name="a player plays against themself")
    def _two_players(cls, df: pd.DataFrame) -> Series[bool]:
        return _different_ids(df["black_id"], df["white_id"])

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

def schema_of(kind: str, game: str | None) -> type[pa.DataFrameModel]:
    """The model of a kind; starting points in a warehouse of Go are Go points."""
    if kind == "ratings" and game == "go":
        return GoRatingsInput
    if kind == "events" and game != "chess":  # events without a warehouse game are Go's, as before FIDE's
        return GoEventsInput
    return SCHEMAS[kind]


def rejection_reasons(kind: str, frame: pd.DataFrame, missing: set[str], game: str | None = None) -> pd.DataFrame:
    """Every problem of every row at once (lazy validation): row_number, reason.

    `frame` is indexed by row number; `missing` names the required columns the
    file does not have, so that their rows say so instead of "missing value".
    """
    try:
        schema_of(kind, game).validate(frame, lazy=True)
    except pa.errors.SchemaErrors as err:
        fc = err.failure_cases
    else:
        return pd.DataFrame({"row_number": pd.Series(dtype="int64"), "reason": pd.Series(dtype="str")})
    fc = fc[fc["index"].notna()].copy()
    column = fc["column"].astype("str")
    value = fc["failure_case"].astype("str")
    check = fc["check"].astype("str")
    reason = column + ": " + check + " (got '" + value + "')"
    reason = reason.where(check != "not_nullable", column + ": missing value")
    reason = reason.where(~(column.isin(missing) & (check == "not_nullable")),
                          column + ": column missing from the file")
    whole_row = (fc["schema_context"].astype("str") == "DataFrameSchema") | ~column.isin(frame.columns)
    reason = reason.where(~whole_row, check)  # a check of the whole row names no column
    reason = reason.str.replace(r"isin\(\[.*?\]\)", "unknown code", regex=True)
    out = pd.DataFrame({"row_number": fc["index"].astype("int64"), "reason": reason})
    return out.drop_duplicates().sort_values(["row_number", "reason"], ignore_index=True)
