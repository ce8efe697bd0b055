"""The interface every rule set implements, and what the pipeline hands it.

The pipeline (pipeline/rate/) finds the periods to compute, fetches their games
once, and calls `rate_period` on each in order, from the state after the period
before; it stores what comes back with revisions, replays a period for a card,
and publishes. A rule set says, as data and pure array code, everything that is
its own:

| what                                   | where                                             |
|----------------------------------------|---------------------------------------------------|
| name, parameters, the games it rates   | `name`, `Parameters`, `game`                      |
| periods: calendar windows or events    | `calendar` (windows), `place_games`, or `periods` |
| state per player                       | `starting_state` (an object with `ids`, `rating`), `initial_columns`, `initial_rating_rule` |
| rating of one period                   | `rate_period(state, games, period, fixes)`        |
| how a correction applies               | inside `rate_period` (`fixes`), `rating_scale`    |
| calculation card, what-if              | `card`, `whatif` (or none)                        |
| how its ratings are computed (the site) | `explanation` (default: its parameters)          |
| what it publishes                      | `published_state`, `list_files`, `list_columns`, `current_list`, `publishes_estimates` |
| its own tables and columns             | `tables`, `extensions`, `schema` (SQL beside its code) |
| periods a calendar file may replace    | `takes_calendar_file`                             |
| the figures of each list               | `Outcome.figures`: `ListFigures`' four, its own     |
| its figures in the run's summary       | `figures`                                         |
| what the site shows (`ratings site`)   | `site` (a `SiteFace`)                             |
| the site's calculator page            | `calculator_tables` (None: no calculator)         |
| its own forecast of a game (`evaluate`) | `forecast_columns`, `forecast_game_columns`, `win_probability` |
"""
from __future__ import annotations

import datetime as dt
import importlib
import sys
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import duckdb
import numpy as np

from pipeline.progress import progress
from pipeline.ruleset.card import carded_players
from pipeline.ruleset.explanation import Explanation, default_explanation
from pipeline.ruleset.figures import RatedList
from pipeline.ruleset.games import Columns, calendar_windows, window_games
from pipeline.ruleset.schema import schema_file
from pipeline.ruleset.site_face import SiteFace
from pipeline.ruleset.tables import joined
from pipeline.warehouse import initial_columns_sql, stage, stage_sql

if TYPE_CHECKING:  # pandas for the annotations: a command that only reads the lists never loads it
    import pandas as pd

    from pipeline.ruleset.card import Card


class NotFound(LookupError):
    """An unknown player, list or event, or a card the rule set does not have."""


class SeriesOfLists(Protocol):
    """The series a card, a list's cards or a what-if is asked of, as the pipeline passes it
    (pipeline.rate.series.Series): `name` keys its rows in every table (a scenario's
    lists are a series of their own), `rule_set` computes it."""

    name: str
    scenario: bool
    rule_set: RuleSet


@dataclass(frozen=True)
class Period:
    """One list (or event) to compute: its id and the days of its games."""

    index: int  # 0-based among the periods computed in this pass
    list_id: str
    start: dt.date
    end: dt.date


@dataclass
class Fixes:
    """The commission's corrections in force at one period: player indices, ratings, reasons."""

    who: np.ndarray
    ratings: np.ndarray
    reasons: list[str]


@dataclass
class Outcome:
    """What rating one period gives: the new state of every player, the period's rows
    of each table (`player_state`, `calculations`, the rule set's own), the figures of
    its `lists` row (name -> value: each of `ListFigures`, then the keys of the rule
    set's own `figures`), and the summary the run prints."""

    state: Any
    rows: dict[str, Columns]
    figures: dict[str, Any]
    summary: RatedList
    detail: Any = None  # what a card needs besides the rows (the rule set's own result)


class ModelOnRead:
    """A rule set's `InitialColumns` named "module:Class", imported when it is read, the one
    lazy loading a rule set needs: its model imports Pandera (and pandas), which a command
    that only reads its lists never loads (tests/test_command_imports.py); validation reads
    it for a file that gives its columns, or runs it compiled."""

    def __init__(self, where: str):
        self.where = where

    def __get__(self, instance, owner) -> type:
        module, _, name = self.where.partition(":")
        return getattr(importlib.import_module(module), name)


class RuleSet(ABC):
    """A rule set: its parameters (a frozen dataclass instance) and its code."""

    name: ClassVar[str]
    title: ClassVar[str]  # how cards and reports name it
    rating_word: ClassVar[str] = "Rating"  # what the site's pages call a rating ("Elo" for the Elo rule sets)
    game: ClassVar[str]  # "chess" (the games table) or "go" (go_games): a warehouse's rule sets share it
    Parameters: ClassVar[type]
    periods_are: ClassVar[str] = "windows"  # "windows" of a calendar, or "events"
    # Whether a calendar file (`--calendar`) may replace its periods: False for a rule set
    # whose periods are part of its rules (they are kept, and the run says so).
    takes_calendar_file: ClassVar[bool] = True
    # Its own figures of a list shown in the run's summary: heading -> key of Outcome.figures
    # (stored in its `lists` extension).
    figures: ClassVar[dict[str, str]] = {}
    tables: ClassVar[tuple[str, ...]] = ()  # its own computed tables, keyed by series and list_id
    # Its own columns of the shared tables, kept in tables of its own (made by its schema.sql):
    # shared table -> its table, keyed as the shared one (series, list_id[, player_id]). The
    # rows it returns for a shared table may carry these columns: the store puts them in its
    # table, and every reader joins them back through `extended`.
    extensions: ClassVar[dict[str, str]] = {}
    # Its own columns of the initial ratings file (name -> SQL type), validated by its own
    # Pandera model `InitialColumns` (a DataFrameModel of the typed values, or None), read by
    # `initial_ratings_sql`.
    initial_columns: ClassVar[dict[str, str]] = {}
    InitialColumns: ClassVar[type | None] = None
    # What an initial rating must be for it to start from it, checked at the run on the initial
    # ratings it reads (pipeline/rate/initial.py): SQL true of a {rating} it takes, and that rule
    # in words. None: any rating validation took (a number in the input range).
    initial_rating_rule: ClassVar[tuple[str, str] | None] = ("{rating} = round({rating})", "a whole number")
    published_state: ClassVar[tuple[str, ...]] = ("player_id", "rating")  # OUT/state/<list>.parquet, from 51
    # Its own columns of the published lists (CSV, Parquet), put after the rating: SQL of the
    # list's player_state row with its own columns (`s`, series_player_state: own_views), each
    # named ("... as name"). The other rule sets' files keep their columns, byte for byte.
    list_columns: ClassVar[tuple[str, ...]] = ()
    list_files: ClassVar[bool] = True  # OUT/lists/<list>-r<revision>.* and the diffs
    current_list: ClassVar[str | None] = None  # SQL of a list of the latest state (OUT/lists/current.*)
    publishes_estimates: ClassVar[bool] = False  # R12: the registry's estimates in the pairing lists
    recomputes_from_the_first: ClassVar[bool] = False  # any change recomputes every period (periods interleave)
    # What a late game is filed by, for validation's "before the history starts" bound: "date"
    # (its own date: the list whose window holds it), "event" (the last day of its event, which
    # the rule set rates as a whole), or None (no bound: an older period becomes the first and
    # everything after it is recomputed).
    history_bound: ClassVar[str | None] = "date"
    # What the pairing lists (TXT, Swiss-Manager) carry besides the rating: player_state
    # columns, and "birth_year" from the registry.
    pairing_state: ClassVar[tuple[str, ...]] = ()
    # Who is inactive on a list, if the rule set says (FIDE B02 7.2.2): a boolean column of its
    # player_state rows, read by the site for this series alone. None: the site's own rule (a
    # rated game in the 12 months up to the list's window end). Never probed from the table,
    # which other rule sets' columns share.
    inactive_column: ClassVar[str | None] = None
    estimates_players: ClassVar[bool] = False  # reports show the estimation of unrated players
    # `ratings export history`: the view, its partition column, its order
    history: ClassVar[tuple[str, str, str]] = ("rating_history", "list_id", "list_id, rating desc, player_id")
    # What the site shows of it: its periods, the columns beside the rating, how a rating is
    # printed, its events' games (docs/rule-sets.md).
    site: ClassVar[SiteFace] = SiteFace()
    # Its own forecast of a game (`ratings evaluate`, pipeline/analysis/forecasts.py): the columns
    # `win_probability` reads of each player's row on the list in force, as SQL of `s` (the
    # extended player_state row; on its initial list, the initial ratings' row with its own
    # initial columns, the others null), each named ("... as name"). None: it has no forecast of
    # its own, and is scored by the common logistic yardstick alone.
    forecast_columns: ClassVar[tuple[str, ...] | None] = None
    # The game's own columns it reads besides its day (a Go game's handicap): SQL of `g`, the
    # game's row of its games table (`games`, or Go's `go_games`), each named.
    forecast_game_columns: ClassVar[tuple[str, ...]] = ()

    def __init__(self, parameters=None):
        self.parameters = parameters if parameters is not None else self.Parameters()

    def parameter_values(self) -> dict:
        """The parameters as stored with each list (tables left out: they are data files)."""
        return {k: v for k, v in asdict(self.parameters).items() if not isinstance(v, tuple | list | dict)}

    @classmethod
    def folder(cls) -> Path:
        """The folder of the module defining the class (its data files are there)."""
        return Path(sys.modules[cls.__module__].__file__).parent

    def schema(self) -> str | None:
        """DDL of its own tables (`create table if not exists` only), run before it rates: the
        schema.sql beside its code, else beside the code of the nearest class it derives from
        that has one (a subclass of a shipped rule set keeps its parent's tables). A rule set
        may declare it otherwise by overriding this."""
        hierarchy = type(self).__mro__
        path = schema_file(hierarchy[:hierarchy.index(RuleSet)])
        return path.read_text() if path is not None else None

    def extended(self, table: str) -> str:
        """SQL of a shared table (player_state, calculations, lists) with this rule set's own
        columns joined (a relation to select from)."""
        return joined(table, self.extensions.get(table))

    def initial_ratings_sql(self) -> str:
        """SQL of the initial ratings as this rule set starts from them: player_id, rating and
        its own initial columns (null where the file did not give them)."""
        return initial_columns_sql(self.initial_columns)

    # --- periods -------------------------------------------------------------------

    def calendar(self, first: dt.date, last: dt.date) -> pd.DataFrame:
        """The nominal windows (list_id, window_start, window_end) covering first … last."""
        raise NotImplementedError(f"{self.name} rates events, not calendar windows")

    def windows(self, con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
        """The calendar windows it rates: a calendar file's, else its nominal windows
        covering every game (never stored: a warehouse's rule sets each have their own)."""
        return calendar_windows(con, self)

    def place_games(self, con: duckdb.DuckDBPyConnection) -> None:
        """Make `series_calendar` (its windows) and the temp table `placed_games`: each
        game with the list that rates it (sql/19_placed_games.sql), read by the stages
        that find the lists, their games and their signatures. A table, not a view:
        each game is placed once, not once per stage that reads it."""
        con.register("series_calendar", self.windows(con))
        con.execute(f"create or replace temp table placed_games as {stage_sql('19_placed_games')}")

    def periods(self, con: duckdb.DuckDBPyConnection, series: str) -> pd.DataFrame:
        """The series' periods, in order: list_id, window_start, window_end (sql/20_lists.sql),
        its games placed in them (the temp table placed_games, which counts the games
        waiting). window_end is the period's last day: it is computed from the day after
        (pipeline/rate/waiting.py)."""
        self.place_games(con)
        return stage(con, "20_lists").df()

    def signature_sql(self) -> str:
        """SQL of what each period is computed from, one number a period (read with
        `lists_to_rate` registered, after `periods`)."""
        return stage_sql("22_list_signatures")

    # --- rating --------------------------------------------------------------------

    @abstractmethod
    def starting_state(self, con: duckdb.DuckDBPyConnection, series: str, before: str | None):
        """Every registered player's state after the list `before` of the series
        (None: before the first, from the initial ratings)."""

    def period_games(self, con: duckdb.DuckDBPyConnection, series: str, periods: pd.DataFrame):
        """The games of the periods (after `place_games`), fetched once: an object whose
        `of(i)` gives period i's."""
        return window_games(con, periods)

    @abstractmethod
    def rate_period(self, state, games, period: Period, fixes: Fixes | None) -> Outcome:
        """One period, from the state after the one before: pure array code."""

    def rating_step(self) -> float | None:
        """Published ratings are multiples of it (None: any number)."""
        return 1

    def rating_scale(self) -> tuple[float, float, float | None, str]:
        """What a correction may set: lowest, highest, step (None: any number), in words."""
        return 1, 3000, self.rating_step(), "a whole number from 1 to 3000"

    # --- explanation ---------------------------------------------------------------

    def card(self, con: duckdb.DuckDBPyConnection, series: SeriesOfLists, player_id: int, list_id: str) -> str:
        raise NotFound(f"the {self.name} rules have no calculation card")

    def card_data(self, con: duckdb.DuckDBPyConnection, series: SeriesOfLists, list_id: str,
                  player_ids: Iterable[int] | None = None) -> dict[int, Card]:
        """The cards of a list as data (pipeline/ruleset/card.py: the CLI's text and the site's
        pages in each language are made from it): of `player_ids`, or of every player with a
        calculation on it."""
        raise NotFound(f"the {self.name} rules have no calculation card")

    # The site's calculator page (static/calculator.js computes this rule set by its name): the
    # tables it reads, by the script's name for each, and the parameter field holding each;
    # None: no calculator.
    calculator_tables: ClassVar[dict[str, str] | None] = None
    bulk_cards: ClassVar[bool] = False  # `cards` gives a whole list's cards from one replay (the site shows them)

    def cards(self, con: duckdb.DuckDBPyConnection, series: SeriesOfLists, list_id: str,
              player_ids: Iterable[int] | None = None) -> dict[int, str]:
        """The cards of a list (of `player_ids`, or of every player with a calculation on
        it): by default one `card` each; a rule set may give them from one replay."""

        if player_ids is None:
            player_ids = carded_players(con, series, list_id)
        return {int(p): self.card(con, series, int(p), list_id)
                for p in progress(player_ids, f"cards of {list_id}", unit="card")}

    def explanation(self) -> Explanation:
        """How its ratings are computed, from its parameters in force and its own functions
        (pipeline/ruleset/explanation.py; the site's page in each language): by default
        its parameters, by name, with their values."""
        return default_explanation(self)

    def win_probability(self, white: dict[str, np.ndarray], black: dict[str, np.ndarray],
                        game: dict[str, np.ndarray]) -> np.ndarray:
        """White's expected score of each game, from both players' `forecast_columns` on the
        list in force (arrays by game, NaN where null) and the game's own: its `day`
        (datetime64[D]) and its `forecast_game_columns`.

        An array function rather than an SQL expression: a rule set's expectation is already
        array code (the function `rate_period` calls, reading its own tables), and the
        forecast calls that very function, so that what is scored is what the rules compute,
        not a second copy of them in SQL."""
        raise NotImplementedError(f"the {self.name} rules declare no forecast of their own")

    def whatif(self, con: duckdb.DuckDBPyConnection, series: SeriesOfLists, player_id: int, opponent: float,
               list_id: str) -> str:
        raise NotFound(f"whatif is not available under the {self.name} rules")
