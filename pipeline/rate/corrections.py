"""Corrections by the rating commission: data with a trail.

A correction sets a player's published rating at one computed list (a Go event);
every later list follows from it at the next `rate`. It is checked before it is
recorded (the player, the list, the rating's range and step under the rule set),
records who entered it and when, and whether the list rated the player's games
then, and is never deleted: a withdrawn correction stays listed with who withdrew
it and why, and is no longer applied. One whose list no longer rates the player it
rated then, or that a run from scratch would not make, is set aside by the rating
stage, with why (sql/corrections_in_force.sql), never applied to another list.
"""
from __future__ import annotations

import datetime as dt
import itertools
import math
from typing import TYPE_CHECKING

import duckdb

from pipeline.warehouse import row, scalar

if TYPE_CHECKING:  # an annotation only: the ids are NumPy's when the rating pass gives them
    import numpy as np


class CorrectionRefused(ValueError):
    """A correction that cannot be recorded or withdrawn; the message says why."""


def record(con: duckdb.DuckDBPyConnection, series, player_id: int, list_id: str, rating: float, reason: str,
           by: str, run_id: int) -> int:
    """Check and record a correction to a list of a series; returns its id."""
    if not reason.strip():
        raise CorrectionRefused("give the commission's reason (--reason)")
    if row(con, "select 1 from lists where series = ? and list_id = ?", [series.name, list_id]) is None:
        first, last = row(con, "select min(list_id), max(list_id) from lists where series = ?", [series.name])
        what = "event" if series.rule_set.periods_are == "events" else "list"
        raise CorrectionRefused(f"no computed {what} {list_id!r}" +
                                (f" (the {what}s are {first} … {last})" if first else
                                 f": no {what} has been computed yet"))
    if row(con, "select 1 from players where player_id = ?", [player_id]) is None:
        raise CorrectionRefused(f"player {player_id} is not in the registry")
    low, high, step, scale = series.rule_set.rating_scale()
    if not (math.isfinite(rating) and low <= rating <= high) or (step and rating % step):
        raise CorrectionRefused(f"rating {rating:g} refused: a {series.name} list publishes {scale}")
    correction_id = scalar(con, "select nextval('correction_ids')")
    rated = row(con, "select 1 from calculations where series = ? and list_id = ? and player_id = ? and games_played > 0",
                [series.name, list_id, player_id]) is not None
    con.execute("""insert into corrections (correction_id, series, player_id, list_id, rating, reason, entered_at,
                                            run_id, entered_by, rated_at_entry) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                [correction_id, series.name, player_id, list_id, rating, reason, dt.datetime.now(), run_id, by, rated])
    return correction_id


def withdraw(con: duckdb.DuckDBPyConnection, correction_id: int, reason: str, by: str, run_id: int) -> tuple:
    """Withdraw a correction in force; returns (player_id, list_id) it applied to."""
    found = row(con, "select player_id, list_id, withdrawn_at from corrections where correction_id = ?",
                [correction_id])
    if found is None:
        raise CorrectionRefused(f"no correction {correction_id} (`ratings corrections` lists them)")
    if found[2] is not None:
        raise CorrectionRefused(f"correction {correction_id} was already withdrawn")
    if not reason.strip():
        raise CorrectionRefused("give the reason for withdrawing it (--reason)")
    con.execute("""update corrections set withdrawn_at = ?, withdrawn_by = ?, withdrawn_reason = ?, withdrawn_run = ?
                   where correction_id = ?""", [dt.datetime.now(), by, reason, run_id, correction_id])
    return found[0], found[1]


def listing(con: duckdb.DuckDBPyConnection, player_id: int | None = None, list_id: str | None = None):
    """Every correction, in force or withdrawn, oldest first; the ratings as the rule sets
    publish them (chess: whole numbers; Go: points as stored)."""
    whole = scalar(con, """select coalesce(bool_and(s.rating_step is not null and s.rating_step = round(s.rating_step)),
                                           true)
                           from corrections c join series s using (series)""")
    rating = "round(c.rating)::bigint" if whole else "c.rating"
    return con.sql(f"""select c.correction_id as id, c.series, c.player_id, p.name, c.list_id, {rating} as rating,
                             c.reason, c.entered_by as by, c.entered_at::timestamp(0) as entered_at,
                             case when c.withdrawn_at is not null
                                  then 'withdrawn by ' || c.withdrawn_by || ': ' || c.withdrawn_reason
                                  when c.set_aside is not null then 'set aside: ' || c.set_aside
                                  else 'in force' end as status
                      from corrections c left join players p using (player_id)
                      where ($player is null or c.player_id = $player) and ($list is null or c.list_id = $list)
                      order by c.correction_id""", params={"player": player_id, "list": list_id})


def fixes_in_force(con: duckdb.DuckDBPyConnection, ids: np.ndarray) -> dict:
    """The latest correction in force of each player at each list of the series whose
    signatures were just computed (the temp table corrections_in_force, those set aside
    left out): list_id → Fixes (player indices, ratings, reasons)."""
    import numpy as np  # why: loaded when a series is rated, not by `ratings correct`, which imports this module

    from pipeline.ruleset.interface import Fixes  # why: the kernel loads NumPy, as above

    rows = con.execute("""select list_id, player_id, arg_max(rating, correction_id), arg_max(reason, correction_id)
                          from corrections_in_force where set_aside is null
                          group by list_id, player_id order by list_id, player_id""").fetchall()
    out = {}
    for list_id, group in itertools.groupby(rows, key=lambda r: r[0]):  # a handful of corrections
        _, players, values, reasons = zip(*group)
        out[list_id] = Fixes(np.searchsorted(ids, players), np.array(values, dtype=float), list(reasons))
    return out


def record_set_aside(con: duckdb.DuckDBPyConnection, run_id: int) -> None:
    """Keep, on each correction of the series whose lists are being stored (the temp table
    corrections_in_force), whether the rating stage set it aside and why, or put it back
    in force, with the run that decided."""
    con.execute("""update corrections c set set_aside = f.set_aside, set_aside_run = ?
                   from corrections_in_force f
                   where c.correction_id = f.correction_id and c.set_aside is distinct from f.set_aside""", [run_id])


def set_aside_by(con: duckdb.DuckDBPyConnection, series: str, run_id: int) -> list[tuple]:
    """(correction_id, player_id, list_id, why) of the series' corrections the run set aside."""
    return con.execute("""select correction_id, player_id, list_id, set_aside from corrections
                          where series = ? and set_aside_run = ? and set_aside is not null
                          order by correction_id""", [series, run_id]).fetchall()
