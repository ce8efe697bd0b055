"""The games a rule set rates, as the pipeline hands them: a window's games as arrays in a
canonical order (WindowGames), the calendar windows and the days they must cover, and the
helpers every rule set's rating of a period shares (a table's column as an array, the
players of a window as local indices, the corrections marked on the cards)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import duckdb
import numpy as np
import pyarrow as pa

from pipeline.warehouse import stage

if TYPE_CHECKING:  # pandas is loaded by the commands that rate, not by those that read the lists
    import pandas as pd

Columns = dict[str, np.ndarray | str]  # one list's part of a table; "list_id": one value for the part


def column(table: pa.Table, name: str, dtype=float) -> np.ndarray:
    values = table.column(name)
    if dtype is object and (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
        # A text column of few values (FIDE's start lists: a few hundred in a million games) as one
        # Python string a value, not a new one a cell: made once and hashed once by the
        # factorising that follows (bench/README.md has the measurement).
        encoded = values.combine_chunks().dictionary_encode()
        return np.array(encoded.dictionary.to_pylist() + [None], dtype=object)[
            encoded.indices.fill_null(len(encoded.dictionary)).to_numpy()]
    return values.to_numpy(zero_copy_only=False).astype(dtype)


@dataclass(frozen=True)
class WindowGames:
    """The played games of consecutive lists; `of(i)` gives the i-th list's (0-based) as a
    WindowGames of one list.

    The order a rule set can rely on, always: by list, white, black, score, then the
    columns it asked for, then the day and the game's key; `extra["day"]` (days since
    1970-01-01) and `extra["game_key"]` (stable: the file and row it came from) are always
    there, and `chronological()` gives the games in the order they were played (day, then
    key), for a rule set that rates game by game."""

    list_index: np.ndarray  # 1 = the first list asked for
    white: np.ndarray  # dense player indices (player_id order)
    black: np.ndarray
    white_score: np.ndarray
    forfeits: np.ndarray  # per list: forfeits, counted and never rated
    extra: dict[str, np.ndarray] = field(default_factory=dict)  # the other columns asked for, by name

    def of_list(self, i: int) -> slice:
        """The games of the i-th list (0-based)."""
        lo, hi = np.searchsorted(self.list_index, [i + 1, i + 2], side="left")
        return slice(int(lo), int(hi))

    def chronological(self) -> np.ndarray:
        """The indices of the games in the order played: by day, then by key."""
        return np.lexsort((self.extra["game_key"], self.extra["day"]))

    def of(self, i: int) -> WindowGames:
        w = self.of_list(i)
        return WindowGames(self.list_index[w], self.white[w], self.black[w], self.white_score[w],
                           self.forfeits[i:i + 1], {k: v[w] for k, v in self.extra.items()})


def calendar_windows(con: duckdb.DuckDBPyConnection, rule_set) -> pd.DataFrame:
    """The calendar windows a rule set rates: a calendar file's (when the rule set takes
    one: RuleSet.takes_calendar_file), else its nominal windows covering every game (R1),
    made as needed."""
    filed = con.sql("select list_id, window_start, window_end from calendar order by window_start").df()
    if len(filed) and rule_set.takes_calendar_file:
        return filed
    first, last = span_rated(con)
    if first is None:
        return filed.iloc[:0]
    return rule_set.calendar(first, last)


def span_rated(con: duckdb.DuckDBPyConnection) -> tuple:
    """The first and last day the calendar must cover: every game's date the series
    (getvariable('series')) rates (not those it excludes: excluded_games), and every list it
    already has, so that a list whose games were all withdrawn or replaced away, first or
    last, is still computed (and revised)."""
    return con.execute("""
        with rated as (select date from games where game_key not in (
                           select game_key from excluded_games where series = getvariable('series')))
        select min(d), max(d) from (
            select min(date) as d from rated union all select max(date) from rated
            union all select min(window_end) from lists where series = getvariable('series')
            union all select max(window_end) from lists where series = getvariable('series'))""").fetchall()[0]


def window_games(con: duckdb.DuckDBPyConnection, lists: pd.DataFrame,
                 extra: dict[str, type] | None = None) -> WindowGames:
    """The played games of the lists (as placed: sql/19_placed_games.sql; R1), and each
    list's forfeits; `extra`: other columns of sql/21_list_games.sql wanted, with their
    types (the event, what the rule set placed the games with); the day and the game's key
    are always carried (WindowGames says the order)."""
    extra = dict(extra or {})
    for always in ("day", "game_key"):
        extra.setdefault(always, np.int64)
    wanted = ["list_index", "white", "black", "white_score", *extra]
    con.register("lists_to_rate", lists)
    # Only the columns asked for are computed: DuckDB drops the others from the stage's plan.
    games = stage(con, "21_list_games").select(*wanted).to_arrow_table()
    con.unregister("lists_to_rate")
    types = {"list_index": np.int64, "white": np.int64, "black": np.int64, "white_score": float} | extra
    keys = _canonical_order(*(column(games, name, types[name]) for name in wanted))
    played = ~np.isnan(keys[3])  # forfeits have no score: counted, never rated
    forfeits = np.bincount(keys[0][~played] - 1, minlength=len(lists))
    list_index, white, black, white_score, *carried = (k[played] for k in keys)
    return WindowGames(list_index, white, black, white_score, forfeits, dict(zip(extra, carried)))


def _canonical_order(list_index, white, black, score, *carried: np.ndarray) -> tuple[np.ndarray, ...]:
    """The games sorted by list, white, black, score, then the carried columns: an
    order that does not depend on the input files or the query's, so that the
    floating-point sums are reproducible (two games of the same players and score
    may differ in what is carried: FIDE's event and start list, hence the ratings
    and K they add)."""
    # why: pandas (its factorize orders the carried text) loads with the rating, not with the interface
    import pandas as pd

    code = np.where(np.isnan(score), 3, score * 2).astype(np.uint64)
    bits = max(int(max(white.max(initial=0), black.max(initial=0))).bit_length(), 1)
    if int(list_index.max(initial=0)).bit_length() + 2 * bits + 2 <= 64:  # one packed key: one fast sort
        key = ((list_index.astype(np.uint64) << np.uint64(2 * bits + 2)) | (white.astype(np.uint64) << np.uint64(bits + 2))
               | (black.astype(np.uint64) << np.uint64(2)) | code)
        order = np.argsort(key, kind="stable")
        ordered = key[order]
        same = ordered[1:] == ordered[:-1]
        if carried and same.any():
            # Only the rows that share a key with another are ordered by the carried
            # columns (FIDE on Belgium: 8,398 of 1.06 M rows; sorting them all is the slow way).
            # Their keys ascend, so each key's rows stay in the places the sort gave them.
            tied = np.zeros(len(order), dtype=bool)
            tied[1:] |= same
            tied[:-1] |= same
            rows = order[tied]
            ranks = [pd.factorize(c[rows], sort=True, use_na_sentinel=False)[0] for c in carried]
            order[tied] = rows[np.lexsort((*reversed(ranks), ordered[tied]))]
        return tuple(k[order] for k in (list_index, white, black, score, *carried))
    # Codes of the sorted values: the same whatever order the rows came in.
    ranks = [pd.factorize(c, sort=True, use_na_sentinel=False)[0] for c in carried]
    order = np.lexsort((*reversed(ranks), code, black, white, list_index))
    return tuple(k[order] for k in (list_index, white, black, score, *carried))


def local_indices(white: np.ndarray, black: np.ndarray, n: int,
                  also: int | np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The players of a window (global indices, ascending; `also`, one index or
    several, added even without a game) and the games in local indices."""
    present = np.zeros(n, dtype=bool)
    present[white] = True
    present[black] = True
    if also is not None:
        present[also] = True
    position = np.cumsum(present) - 1
    return np.flatnonzero(present), position[white], position[black]


def mark_corrections(calculations: Columns, corrected: np.ndarray, ratings: np.ndarray, reasons: list[str]) -> None:
    """Corrected players who played: their card says so and shows the rating in force."""
    for player_id, value, reason in zip(corrected, ratings, reasons):  # a handful per list
        hit = calculations["player_id"] == player_id
        calculations["rule"] = np.where(hit, f"correction: {reason}", calculations["rule"])
        calculations["rating"] = np.where(hit, value, calculations["rating"])
