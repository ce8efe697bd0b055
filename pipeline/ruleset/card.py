"""A calculation card as data, shared by every rule set: sentences whose words are a
gettext message (English, with %(name)s placeholders) and whose numbers, dates and
clauses are values, so that one card is printed as the CLI's English text (each rule
set's card.py lays it out) and as the site's page in each language
(pipeline/site/cards.py, Babel's formats).

| part          | what it holds                                                        |
|---------------|----------------------------------------------------------------------|
| `Num`         | a number and its decimals (None: as few as needed, Python's `g`)     |
| `Line`        | one sentence: a message and its values (a value may be a `Line`)     |
| `Column`      | the heading of a rule set's own column of a games table              |
| `Game`        | one game of the player: opponent, own cells, counts, why, date, event|
| `Games`       | a table of games with the sentences before and after it (FIDE: one an event) |
| `Correction`  | the commission's rating and reason                                   |
| `Card`        | the player, the list and its window, and all of the above            |

A value is an int, a str (data: names, ids, reasons, never translated), a date, a
`Num`, a `Line`, a tuple of values (a list: ", " between them) or None (nothing).
"""
from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Union

import numpy as np


@dataclass(frozen=True)
class Num:
    """A number as the card shows it: `places` decimals (None: Python's `g`), with its
    sign always shown if `signed`; NaN when the rule set has none."""

    value: float
    places: int | None = 0
    signed: bool = False

    def __post_init__(self):
        object.__setattr__(self, "value", float(self.value))

    @property
    def missing(self) -> bool:
        return math.isnan(self.value)

    def text(self) -> str:
        """The number as Python's format gives it (the CLI's card): 1234.500, +12."""
        sign = "+" if self.signed else ""
        return f"{self.value:{sign}g}" if self.places is None else f"{self.value:{sign}.{self.places}f}"


Value = Union[int, str, dt.date, Num, "Line", tuple, None]


def _checked(value):
    """A value as a card holds it: NumPy's integers and strings as Python's, a float
    refused (a number's decimals are the card's to say: a `Num`)."""
    # Most values are already what a card holds: taken by their exact type (a bool is
    # not an int here, a datetime not a date), the rest judged below.
    if type(value) in _HELD:
        return value
    if isinstance(value, bool | np.bool_):
        raise TypeError(f"a card value may not be a bool ({value!r}): give a Line")
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.str_):
        return str(value)
    if isinstance(value, list | tuple):
        return tuple(_checked(v) for v in value)
    if isinstance(value, float | np.floating):
        raise TypeError(f"a card value may not be a bare float ({value!r}): give a Num")
    if value is not None and not isinstance(value, int | str | dt.date | Num | Line):
        raise TypeError(f"a card value may not be a {type(value).__name__}")
    return value


@dataclass(frozen=True)
class Line:
    """One sentence: `message`, the English msgid (%(name)s placeholders; a literal %
    written %%), and the values of its placeholders."""

    message: str
    values: Mapping[str, Value] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "values", {k: _checked(v) for k, v in self.values.items()})

    def text(self) -> str:
        """The sentence in English, as the CLI prints it."""
        return self.message % {k: text(v) for k, v in self.values.items()}


_HELD = frozenset({int, str, dt.date, Num, Line, type(None)})


def text(value: Value) -> str:
    """A value in the CLI's English: dates as ISO, numbers as Python formats them."""
    if value is None:
        return ""
    if isinstance(value, Num | Line):
        return value.text()
    if isinstance(value, tuple):
        return ", ".join(text(v) for v in value)
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def said(message: str, known) -> Line:
    """A stored phrase (a rule, a reason) as a sentence: its own message when the rule
    set knows it (translated), else the phrase as data (printed as stored)."""
    return Line(message) if message in known else Line("%(text)s", {"text": message})


def day(value) -> dt.date | None:
    """A date of the warehouse or of pandas as a plain date."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return value.date()  # a pandas Timestamp


@dataclass(frozen=True)
class Column:
    """The heading (a msgid) of one of a rule set's own cells of a games table; `wide`:
    a column a phone may do without."""

    heading: str
    wide: bool = False


@dataclass(frozen=True)
class Game:
    """One game of the player as a row: the opponent, the rule set's own cells (one a
    Column of its table), whether it counts (None: neither, e.g. pooled) and why."""

    opponent_id: int
    opponent_name: str
    cells: tuple[Value, ...]
    counts: bool | None
    reason: Line | None
    date: dt.date | None = None
    event: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "opponent_id", int(self.opponent_id))
        object.__setattr__(self, "cells", _checked(tuple(self.cells)))
        object.__setattr__(self, "counts", None if self.counts is None else bool(self.counts))
        object.__setattr__(self, "date", day(self.date))


@dataclass(frozen=True)
class Games:
    """A table of the player's games, with the sentences about it before and after."""

    columns: tuple[Column, ...]
    rows: tuple[Game, ...]
    before: tuple[Line, ...] = ()
    after: tuple[Line, ...] = ()


@dataclass(frozen=True)
class Correction:
    rating: Num
    reason: str


@dataclass(frozen=True)
class Card:
    """A player's calculation card for one list (an event, for Go): `title` names them
    both, `before` is the state the list starts from, `games` the tables of games,
    `after` the totals, the formula, the rule and the result."""

    player_id: int
    name: str
    list_id: str
    window: tuple[dt.date, dt.date]
    title: Line
    before: tuple[Line, ...] = ()
    games: tuple[Games, ...] = ()
    after: tuple[Line, ...] = ()
    correction: Correction | None = None

    def __post_init__(self):
        object.__setattr__(self, "player_id", int(self.player_id))
        object.__setattr__(self, "window", (day(self.window[0]), day(self.window[1])))

    def lines(self) -> Iterator[Line]:
        """Every sentence of the card, clauses included, in reading order."""
        for line in (self.title, *self.before,
                     *(x for table in self.games for x in (*table.before, *_row_lines(table), *table.after)),
                     *self.after):
            yield from _nested(line)

    def messages(self) -> set[str]:
        """Every msgid the card uses (sentences, clauses, column headings)."""
        return ({line.message for line in self.lines()}
                | {c.heading for table in self.games for c in table.columns})

    def as_dict(self) -> dict:
        """The card as plain JSON data: dates as ISO text, a Num as {"n", "p", "s"} (NaN:
        null), a Line as {"m": message, "v": values}."""
        return {"player_id": self.player_id, "name": self.name, "list_id": self.list_id,
                "window": [d.isoformat() for d in self.window], "title": _plain(self.title),
                "before": [_plain(x) for x in self.before],
                "games": [{"columns": [{"heading": c.heading, "wide": c.wide} for c in t.columns],
                           "before": [_plain(x) for x in t.before],
                           "rows": [{"opponent_id": g.opponent_id, "opponent_name": g.opponent_name,
                                     "cells": [_plain(c) for c in g.cells], "counts": g.counts,
                                     "reason": _plain(g.reason), "date": _plain(g.date), "event": g.event}
                                    for g in t.rows],
                           "after": [_plain(x) for x in t.after]} for t in self.games],
                "after": [_plain(x) for x in self.after],
                "correction": None if self.correction is None else {"rating": _plain(self.correction.rating),
                                                                    "reason": self.correction.reason}}

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False, allow_nan=False)


def _row_lines(table: Games) -> Iterator[Line]:
    for g in table.rows:
        yield from (c for c in g.cells if isinstance(c, Line))
        if g.reason is not None:
            yield g.reason


def _nested(line: Line) -> Iterator[Line]:
    yield line
    for v in line.values.values():
        for x in v if isinstance(v, tuple) else (v,):
            if isinstance(x, Line):
                yield from _nested(x)


def _plain(value):
    if isinstance(value, Num):
        return {"n": None if value.missing else value.value, "p": value.places, "s": value.signed}
    if isinstance(value, Line):
        return {"m": value.message, "v": {k: _plain(v) for k, v in value.values.items()}}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


# Two columns of every rule set's games table (one msgid each in the catalogues), and
# a chess game's words for its result, from the player's side.
RATING_USED, RESULT = Column("Rating used", wide=True), Column("Result")
CHESS_COLUMNS = (RATING_USED, RESULT)
RESULTS = {1.0: "win", 0.5: "draw", 0.0: "loss"}


def chess_cells(rating: float, score: float, places: int = 0) -> tuple[Num | None, Line]:
    """A chess game's cells under CHESS_COLUMNS (no rating: None, the table's blank)."""
    return None if math.isnan(rating) else Num(rating, places), Line(RESULTS[float(score)])


def corrections(con, series, list_id: str) -> dict[int, Correction]:
    """The commission's correction in force (the latest) of each player corrected on the
    list: the replayed card is the computation without it, the correction is data beside it."""
    return {int(p): Correction(Num(rating), reason) for p, rating, reason in con.execute(
        """select player_id, arg_max(rating, correction_id), arg_max(reason, correction_id) from corrections
           where series = ? and list_id = ? and withdrawn_at is null and set_aside is null group by player_id""",
        [series.name, list_id]).fetchall()}


def carded_players(con, series, list_id: str) -> list[int]:
    """The players with a calculation on the list (who have a card), ids ascending."""
    return [int(p) for (p,) in con.execute("select player_id from calculations where series = ? and list_id = ? "
                                           "order by player_id", [series.name, list_id]).fetchall()]


def cards_one_by_one(card_data, con, series, rule_set, list_id: str, player_ids=None) -> dict[int, Card]:
    """RuleSet.card_data of a rule set whose cards are made a player at a time by
    `card_data(con, series, rule_set, player_id, list_id)`."""
    return {int(p): card_data(con, series, rule_set, int(p), list_id)
            for p in (carded_players(con, series, list_id) if player_ids is None else player_ids)}
