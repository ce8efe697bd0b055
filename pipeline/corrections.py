"""Corrections by the rating commission: data with a trail.

A correction sets a player's published rating at one computed list (a Go event);
every later list follows from it at the next `rate`. It is checked before it is
recorded (the player, the list, the rating's range and step under the rule set),
records who entered it and when, and is never deleted: a withdrawn correction
stays listed with who withdrew it and why, and is no longer applied.
"""
from __future__ import annotations

import datetime as dt
import math

import duckdb

from pipeline.config import MAX_RATING, MIN_RATING
from pipeline.validate.schemas import GO_MAX_RATING, GO_MIN_RATING
from pipeline.systems import GO_SYSTEMS, stored_system
from pipeline.systems.fide import RULES as FIDE_RULES
from pipeline.systems.performance import RULES as PERFORMANCE_RULES
from pipeline.warehouse import row, scalar


class CorrectionRefused(ValueError):
    """A correction that cannot be recorded or withdrawn; the message says why."""


def rating_scale(system: str) -> tuple[float, float, float | None, str]:
    """The ratings a list of the rule set can publish: lowest, highest, step (None:
    any number), and how to say it."""
    if system == "fide":  # whole numbers; below the floor a player is unrated (B02 7.2.1)
        return FIDE_RULES.floor, MAX_RATING, 1, f"a whole number from {FIDE_RULES.floor:.0f} to {MAX_RATING}"
    if system in GO_SYSTEMS:  # Go points, unrounded
        return GO_MIN_RATING, GO_MAX_RATING, None, f"Go points from {GO_MIN_RATING} to {GO_MAX_RATING}"
    step = PERFORMANCE_RULES.rounding_step  # R3: published in tens
    return MIN_RATING, MAX_RATING, step, f"a multiple of {step} from {step} to {MAX_RATING} (R3)"


def record(con: duckdb.DuckDBPyConnection, player_id: int, list_id: str, rating: float, reason: str,
           by: str, run_id: int) -> int:
    """Check and record a correction; returns its id."""
    system = stored_system(con)
    if system is None:
        raise CorrectionRefused("no list has been computed yet: a correction applies to a computed list")
    if not reason.strip():
        raise CorrectionRefused("give the commission's reason (--reason)")
    if system in GO_SYSTEMS:
        if row(con, "select 1 from go_results where event_id = ? limit 1", [list_id]) is None:
            raise CorrectionRefused(f"no computed event {list_id!r} (under the Go rules, --list is an event id)")
    elif row(con, "select 1 from lists where list_id = ?", [list_id]) is None:
        first, last = row(con, "select min(list_id), max(list_id) from lists")
        raise CorrectionRefused(f"no computed list {list_id!r}" +
                                (f" (the lists are {first} … {last})" if first else ": no list has been computed yet"))
    if row(con, "select 1 from players where player_id = ?", [player_id]) is None:
        raise CorrectionRefused(f"player {player_id} is not in the registry")
    low, high, step, scale = rating_scale(system)
    if not (math.isfinite(rating) and low <= rating <= high) or (step and rating % step):
        raise CorrectionRefused(f"rating {rating:g} refused: a {system} list publishes {scale}")
    correction_id = scalar(con, "select nextval('correction_ids')")
    con.execute("""insert into corrections (correction_id, player_id, list_id, rating, reason, entered_at, run_id,
                                            entered_by) values (?, ?, ?, ?, ?, ?, ?, ?)""",
                [correction_id, player_id, list_id, rating, reason, dt.datetime.now(), run_id, by])
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
    """Every correction, in force or withdrawn, oldest first."""
    return con.sql("""select c.correction_id as id, c.player_id, p.name, c.list_id, c.rating, c.reason,
                             c.entered_by as by, c.entered_at::timestamp(0) as entered_at,
                             case when c.withdrawn_at is null then 'in force'
                                  else 'withdrawn by ' || c.withdrawn_by || ': ' || c.withdrawn_reason end as status
                      from corrections c left join players p using (player_id)
                      where ($player is null or c.player_id = $player) and ($list is null or c.list_id = $list)
                      order by c.correction_id""", params={"player": player_id, "list": list_id})
