"""A rule set's code as the pipeline runs it: what `rate_period` returns is checked before
anything is stored, and any failure of the rule set is one message naming it and its
package (RuleSetFailed). The rating of a series is one transaction, so a failing rule set
leaves its series as it was (a series it was to make is not made), and the other rule
sets of the warehouse are rated, audited and published as if it were not there
(pipeline/flow.py)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

import duckdb
import numpy as np

from pipeline.ruleset.figures import LIST_FIGURES
from pipeline.systems import ORIGINS, described_rule_set

if TYPE_CHECKING:
    from pipeline.rate.series import Series
    from pipeline.ruleset.interface import Outcome, Period

# What the machine or the user must act on, never a rule set's failure: passed on as it is.
ENVIRONMENT = (OSError, MemoryError, duckdb.OutOfMemoryException, duckdb.IOException)


class RuleSetFailed(RuntimeError):
    """A rule set's code failed, or returned what the pipeline refuses: its series is left
    as it was; the message names the series, the rule set, its package and what went wrong."""


def failed(series: Series, doing: str, what: str) -> RuleSetFailed:
    """The failure of `series`' rule set while `doing` ("computed", "published", "audited")."""
    return RuleSetFailed(f"the {series.name} lists were not {doing}: {described_rule_set(series.rule_set.name)} {what}")


@contextlib.contextmanager
def running(series: Series, doing: str, refusals: tuple[type[BaseException], ...] = ()) -> Iterator[None]:
    """The rule set's code run (its lists `doing`): any exception but `refusals` (what the
    user is told as it is: an unknown --from list...) and the machine's own (ENVIRONMENT)
    becomes RuleSetFailed. The pipeline's own rule sets' exceptions are the pipeline's bugs,
    passed on as they are: said as unexpected, their traceback shown by --debug."""
    try:
        yield
    except (RuleSetFailed, *ENVIRONMENT, *refusals):
        raise
    except Exception as err:
        if own_rule_set(series):
            raise
        raise failed(series, doing, f"failed: {type(err).__name__}: {err}") from err


def own_rule_set(series: Series) -> bool:
    """Whether the series' rule set is one of the pipeline's (not from a package of its own)."""
    return series.rule_set.name not in ORIGINS


def rated_period(series: Series, state, games, period: Period, fixes, tables: tuple[str, ...]) -> Outcome:
    """The rule set's `rate_period` on `period`: its failure names the list it was rating,
    what it returns is checked (`checked_outcome`)."""
    # Copies: a rule set may update its state in place (FIDE's does).
    ids, before = (np.array(getattr(state, k), copy=True) if hasattr(state, k) else None for k in ("ids", "rating"))
    try:
        outcome = series.rule_set.rate_period(state, games, period, fixes)
    except ENVIRONMENT:
        raise
    except Exception as err:
        if own_rule_set(series):
            raise
        raise failed(series, "computed", f"failed on {period.list_id}: {type(err).__name__}: {err}") from err
    return checked_outcome(series, period, ids, before, outcome, tables)


def checked_outcome(series: Series, period: Period, ids: np.ndarray | None, before: np.ndarray | None,
                    outcome: Outcome, tables: tuple[str, ...]) -> Outcome:
    """`outcome` of `period` (from a state of the players `ids` rated `before`, NaN: unrated;
    None: a state without them) when the pipeline can store it: rows of the tables
    the rule set fills (`tables`) for this period, each table's columns of one length, no
    infinite rating; the list's figures (ListFigures' four, each a whole number of 0 or more, and
    the rule set's own `figures`); a state of one rating a player; and no rating lost to NaN: a player
    rated before the period who did not play in it (no calculation) is rated after it,
    and a list published as a file (RuleSet.list_files) keeps someone rated when someone
    was. Else RuleSetFailed saying what it returned."""
    def refused(what: str, why: str = "") -> RuleSetFailed:
        return failed(series, "computed", f"returned {what} for {period.list_id}{why}")

    for table, part in outcome.rows.items():
        if table not in tables:
            raise refused(f"rows of {table}, a table it does not own (its tables: {', '.join(tables)})")
        if part.get("list_id") != period.list_id:
            raise refused(f"{table} rows of the list {part.get('list_id')!r}")
        sizes = {column: np.shape(values) for column, values in part.items() if column != "list_id"}
        if len(set(sizes.values())) > 1 or any(len(size) != 1 for size in sizes.values()):
            raise refused(f"{table} columns of different lengths ("
                          + ", ".join(f"{c} {'×'.join(map(str, s)) or 'one value'}" for c, s in sizes.items()) + ")")
        for column in ("rating", "unrounded", "previous_rating"):
            values = np.asarray(part.get(column, ()))
            if values.dtype.kind == "f" and np.isinf(values).any():
                raise refused(f"infinite values of {table}.{column} ({_players(int(np.isinf(values).sum()))})")
    figures_refused(series, outcome.figures, refused)
    after = getattr(outcome.state, "rating", None)
    if ids is None or before is None or after is None:
        return outcome
    if np.shape(after) != np.shape(ids):
        raise refused(f"a state of {np.size(after)} ratings for {np.size(ids)} players")
    played = np.asarray(outcome.rows.get("calculations", {}).get("player_id", ()))
    lost = np.isfinite(before) & np.isnan(after) & ~np.isin(ids, played)
    if lost.any():
        raise refused(f"NaN as the rating of {_players(int(lost.sum()))}", f", rated before it and without a game "
                      f"in it (player {int(ids[lost][0])} had {before[lost][0]:g})")
    rows = outcome.rows.get("player_state")
    if rows is None or "rating" not in rows:
        raise refused("no player_state rows" if rows is None else "player_state rows without a rating")
    rated = int(np.isfinite(before).sum())
    if series.rule_set.list_files and rated and not np.isfinite(np.asarray(rows["rating"], dtype=float)).any():
        raise refused("no rating (every rating NaN, or no row)", f", though {_players(rated)} "
                      f"{'was' if rated == 1 else 'were'} rated before it: the list would be published empty")
    return outcome


def figures_refused(series: Series, figures: dict, refused) -> None:
    """`refused(...)` raised when the list's figures lack one of ListFigures' (the `lists` row's
    NOT NULL columns, pipeline.ruleset.figures) or of the rule set's own `figures`, or when one of
    ListFigures' is not a whole number of 0 or more."""
    own = tuple(series.rule_set.figures.values())
    missing = [f for f in (*LIST_FIGURES, *own) if f not in figures]
    if missing:
        raise refused(f"figures without {', '.join(missing)}", f" (a list's figures are {', '.join(LIST_FIGURES)}, "
                      "pipeline.ruleset.figures.ListFigures" + (f", and its own {', '.join(own)}" if own else "") + ")")
    for name in LIST_FIGURES:
        value = figures[name]
        if not (np.ndim(value) == 0 and isinstance(value, int | np.integer | float | np.floating)
                and not isinstance(value, bool) and np.isfinite(value) and value == int(value) and value >= 0):
            raise refused(f"{name} = {value!r} as a figure", ": a figure of a list is a whole number, 0 or more")


def _players(n: int) -> str:
    return f"{n} player{'' if n == 1 else 's'}"
