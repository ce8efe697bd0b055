"""Rate: compute the lists of a series in order, each from the one before, with the
series' rule set, and store them with revisions.

This is the one period loop of every rule set: the periods to compute (from the
first whose inputs changed, up to the last whose window has closed), their games
fetched once, one call of the rule set's `rate_period` a period, everything computed
stored in one transaction.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import duckdb

from pipeline.config import today
from pipeline.progress import progress
from pipeline.rate.corrections import fixes_in_force, record_set_aside
from pipeline.rate.initial import refuse_unreadable
from pipeline.rate.series import Series
from pipeline.rate.waiting import Waiting, as_day, closed, computed_from, waiting_games
from pipeline.warehouse import scalar, stage_sql, transaction

if TYPE_CHECKING:  # numpy, pandas and Arrow are loaded when a series is rated, not by every command
    import pandas as pd  # that imports this package (`ratings submissions`)

    from pipeline.ruleset.figures import RatedList


# The rows of lists (every table's) a rating pass holds before it writes them
# (`computed_lists`' write), never a long history at once (bench/README.md).
NEW_ROWS = 500_000


class UnknownList(ValueError):
    """--from names a list that is not among the series' lists."""


def found_periods(con: duckdb.DuckDBPyConnection, series: Series) -> pd.DataFrame:
    """Every period of the series as its rule set finds them, in order (list_id,
    window_start, window_end; its games placed in them: the temp table placed_games),
    with `computed` (the series has the list) and `due` (computed now: its window has
    closed, pipeline/rate/waiting.py; or computed before, and revised whatever the day)."""
    periods = series.rule_set.periods(con, series.name)
    stored = [k for (k,) in con.execute("select list_id from lists where series = ?", [series.name]).fetchall()]
    computed = periods["list_id"].isin(stored)
    return periods.assign(computed=computed, due=computed | closed(periods, today()))


def due_periods(found: pd.DataFrame) -> pd.DataFrame:
    """Of `found_periods`, those to compute, in order: list_id, window_start, window_end,
    position (what a rule set's own signature orders them by: the audit recomputes
    signatures too)."""
    return (found[found["due"]].drop(columns=["computed", "due"]).reset_index(drop=True)
            .assign(position=lambda p: range(len(p))))


def periods_of(con: duckdb.DuckDBPyConnection, series: Series) -> pd.DataFrame:
    """The series' periods to compute, in order (`due_periods`)."""
    return due_periods(found_periods(con, series))


def not_due(found: pd.DataFrame, list_id: str) -> str | None:
    """Why `list_id`, one of the periods found, is not computed yet (None: it is due or not
    among them): a list asked for by --from before its window has closed."""
    held = found[(found["list_id"] == list_id) & ~found["due"]]
    if held.empty:
        return None
    end = as_day(held["window_end"].iloc[0])
    return f"list {list_id!r} is not computed yet: its window closes on {end}, it is computed from {computed_from(end)}"


def signatures_of(con: duckdb.DuckDBPyConnection, series: Series, periods: pd.DataFrame) -> dict[str, int]:
    """What each period is computed from, as one number (sql/22_list_signatures.sql,
    or the rule set's own), with the corrections in force (the temp table
    corrections_in_force: each correction of the series, set aside where it no longer
    stands, sql/corrections_in_force.sql)."""
    con.register("lists_to_rate", periods)
    con.execute("set variable periods_are = ?", [series.rule_set.periods_are])
    con.execute(f"create or replace temp table corrections_in_force as {stage_sql('corrections_in_force')}")
    signatures = {k: int(v) for k, v in con.sql(series.rule_set.signature_sql()).fetchall()}
    con.unregister("lists_to_rate")
    return signatures


def stale_lists(con: duckdb.DuckDBPyConnection, series: Series) -> list[str]:
    """The series' lists in force that no longer rest on what the warehouse holds: games
    withdrawn, replaced or taken in since, corrections, the registry, the initial ratings or
    the parameters changed since they were computed (`ratings rate` recomputes them)."""
    con.execute("set variable series = ?", [series.name])
    con.execute("set variable parameters = ?", [json.dumps(series.rule_set.parameter_values(), sort_keys=True)])
    periods = periods_of(con, series)
    signatures = signatures_of(con, series, periods)
    stored = con.execute("select list_id, input_signature from lists where series = ? order by position",
                         [series.name]).fetchall()
    return [list_id for list_id, signature in stored if signatures.get(list_id) != int(signature)]


def from_list_of_each(con: duckdb.DuckDBPyConnection, series: list[Series],
                      from_list: str | None) -> dict[str, str | None]:
    """`--from` for each series: the list where the series holds it, else None (what
    changed). Rule sets file their lists by other calendars (monthly FIDE, Go events), so a
    list of one is rarely one of the other; refused, before anything is rated, only when
    no series holds it."""
    if from_list is None or len(series) == 1:
        return {s.name: from_list for s in series}  # one series: rate_series refuses an unknown one itself
    from pipeline.rate.contract import RuleSetFailed, running  # why: NumPy, loaded when series are rated

    held, waits = {}, None
    for s in series:
        con.execute("set variable series = ?", [s.name])
        con.execute("set variable parameters = ?", [json.dumps(s.rule_set.parameter_values(), sort_keys=True)])
        try:
            with running(s, "computed"):
                found = found_periods(con, s)
        except RuleSetFailed:  # told when the series is rated, which fails the same way
            held[s.name] = []
            continue
        held[s.name] = list(due_periods(found)["list_id"])
        waits = waits or not_due(found, from_list)
    if not any(from_list in ids for ids in held.values()):
        if waits:
            raise UnknownList(waits)
        ranges = "; ".join(f"the {name} lists are {ids[0]} … {ids[-1]}" if ids else f"the {name} series has none"
                           for name, ids in held.items())
        raise UnknownList(f"no list {from_list!r}; {ranges}")
    return {name: from_list if from_list in ids else None for name, ids in held.items()}


def first_to_compute(list_ids: list[str], signatures: dict[str, int], stored: dict[str, int],
                     from_list: str | None) -> int | None:
    """Index of the first list to recompute: the first whose inputs changed (late games,
    corrections) or that was never computed, or the one asked for when it comes before;
    None: all current. `--from` forces a recomputation, never skips one: a list after it
    rated from an earlier list never computed (a rule set just added) would start from nothing."""
    first = next((i for i, list_id in enumerate(list_ids) if stored.get(list_id) != signatures[list_id]), None)
    if from_list is not None:
        if from_list not in list_ids:
            raise UnknownList(f"no list {from_list!r}; the lists are {list_ids[0]} … {list_ids[-1]}"
                              if list_ids else f"no list {from_list!r}: there are no games")
        return min(list_ids.index(from_list), len(list_ids) if first is None else first)
    return first


@dataclass(frozen=True)
class Computed:
    """What a rating pass computed, not stored yet."""

    frames: dict[str, list] | None  # table → the rows of each list not handed to `write` (pipeline.rate.store);
    # None: every list current
    summary: list[RatedList]  # each list's, as the run reports it
    waiting: Waiting | None  # the games of the lists whose windows have not closed


@dataclass(frozen=True)
class Rated:
    """What rating a series did: the lists computed, and the games still waiting."""

    lists: list[RatedList]
    waiting: Waiting | None


def computed_lists(con: duckdb.DuckDBPyConnection, run_id: int, series: Series, from_list: str | None = None,
                   show_progress: bool | None = None, write: Callable[[dict[str, list], bool], None] | None = None
                   ) -> Computed:
    """The series' lists computed, in order, from the first one whose inputs changed (or
    `from_list`) to the last whose window has closed, each from the stored state of the
    one before, not stored; and the games waiting for the lists after it. With
    `write`, the lists are handed to it as they are computed, in order, in batches of
    about NEW_ROWS rows, none kept in what it returns; `write(batch, held)`: `held`, the
    lists up to the last one the series holds (a revision compares them with it), never
    in a batch with those after it, which the series has never held
    (pipeline.rate.store: store, store_new)."""
    # Each line below loads pandas, NumPy or Arrow: when a series is rated, not with `ratings submissions`.
    import pandas as pd  # why: pandas, loaded when a series is rated

    from pipeline.rate.contract import rated_period  # why: NumPy, loaded when a series is rated
    from pipeline.rate.periods import list_row, part_rows  # why: NumPy and Arrow, loaded when a series is rated
    from pipeline.rate.store import COMMON_TABLES  # why: Arrow (the store's rows), loaded when a series is rated
    from pipeline.ruleset.interface import Period  # why: NumPy and Arrow (the kernel's games), as the lines above

    rs = series.rule_set
    parameters = json.dumps(rs.parameter_values(), sort_keys=True)
    con.execute("set variable series = ?", [series.name])
    con.execute("set variable parameters = ?", [parameters])
    if rs.schema():
        con.execute(rs.schema())
    found = found_periods(con, series)
    waiting = waiting_games(con, found[~found["due"]])
    if from_list is not None and (waits := not_due(found, from_list)):
        raise UnknownList(waits)
    periods = due_periods(found)
    signatures = signatures_of(con, series, periods)
    stored = {k: int(v) for k, v in con.execute("select list_id, input_signature from lists where series = ?",
                                                 [series.name]).fetchall()}
    first = first_to_compute(list(periods["list_id"]), signatures, stored, from_list)
    if first is None:
        return Computed(None, [], waiting)
    if rs.recomputes_from_the_first:
        first = 0
    before = None if first == 0 else periods["list_id"].iloc[first - 1]
    if before is None:  # ruling R14: the rule set checks the initial ratings it starts from, by its own rules
        refuse_unreadable(con, [rs], f"nothing was rated for the {series.name} lists")
    todo = periods.iloc[first:].reset_index(drop=True)
    state = rs.starting_state(con, series.name, before)
    games = rs.period_games(con, series.name, todo)
    fixes = fixes_in_force(con, state.ids)
    frames: dict[str, list] = {t: [] for t in (*COMMON_TABLES, *rs.tables)}
    filled = tuple(t for t in frames if t != "lists")  # a list's own row is the pipeline's (list_row)
    context = {"run_id": run_id, "parameters": parameters,
               "registry_version": scalar(con, "select coalesce(max(version), 0) from player_versions")}
    summary = []
    held_up_to = max((i for i, list_id in enumerate(todo["list_id"]) if list_id in stored), default=-1)
    batch: dict[str, list] = frames if write is None else {t: [] for t in frames}
    batch_rows = 0
    with progress(step=f"rate {series.name}", total=len(todo), unit="list", show=show_progress) as bar:
        for i, (list_id, start, end) in enumerate(todo[["list_id", "window_start", "window_end"]].itertuples(index=False)):
            period = Period(i, list_id, pd.Timestamp(start).date(), pd.Timestamp(end).date())
            outcome = rated_period(series, state, games.of(i), period, fixes.get(list_id), filled)
            state = outcome.state
            for table, rows in outcome.rows.items():
                batch[table].append(rows)
                batch_rows += part_rows(rows)
            batch["lists"].append(list_row(
                list_id, input_signature=str(signatures[list_id]), registry_version=context["registry_version"],
                parameters=context["parameters"], window_start=start, window_end=end, run_id=run_id, position=first + i,
                **outcome.figures))
            summary.append(dataclasses.replace(outcome.summary, figures=tuple(
                (heading, int(outcome.figures[key])) for heading, key in rs.figures.items())))
            if write is not None and (batch_rows >= NEW_ROWS or i in (held_up_to, len(todo) - 1)):
                write(batch, i <= held_up_to)
                batch, batch_rows = {t: [] for t in frames}, 0
            bar.update()
    return Computed(frames, summary, waiting)


def rate_series(con: duckdb.DuckDBPyConnection, run_id: int, series: Series, from_list: str | None = None,
                show_progress: bool | None = None) -> Rated:
    """Compute the series' lists, in order, from the first one whose inputs changed
    (or `from_list`) to the last whose window has closed; each starts from the stored
    state of the one before.

    A recomputed list whose results differ gets a new revision (the old one is
    kept, with who changed and why); one whose results are the same is left as it
    is. A progress bar (per list) shows on a terminal; `show_progress=None` decides
    from the terminal, False hides it.
    """
    from pipeline.rate.store import store, store_new  # why: Arrow, loaded when a series is rated

    computed_at = dt.datetime.now()  # every revision of the pass, whichever batch it is written in
    revised: dict[str, int] = {}
    batches = 0

    def write(batch: dict[str, list], held: bool) -> None:
        nonlocal batches
        if not batches:  # the corrections set aside, before a revision's reasons read them
            record_set_aside(con, run_id)
        batches += 1
        keep = store if held else store_new
        revised.update(keep(con, series.name, batch, run_id, series.rule_set.extensions, computed_at))

    with transaction(con):  # the lists, and the corrections set aside that they no longer apply
        computed = computed_lists(con, run_id, series, from_list, show_progress, write)
        if computed.frames is None:
            return Rated([], computed.waiting)
    return Rated([dataclasses.replace(r, revision=revised.get(r.list_id)) for r in computed.summary], computed.waiting)


__all__ = ["Computed", "Rated", "Series", "UnknownList", "Waiting", "computed_lists", "first_to_compute",
           "from_list_of_each", "rate_series"]
