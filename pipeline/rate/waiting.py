"""A list is computed once its window has closed: from the day after its window's last
day (an event's: the day after it ends), judged against pipeline.config.today(). Until
then its games wait for it; `ratings run` says how many, and the site's pre-publication
check (`ratings site --pending`) shows them, both from what is here.

A list computed before stays among the periods whatever the day: a published list is
revised, never withdrawn."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

import duckdb

from pipeline.warehouse import create_temp_table

if TYPE_CHECKING:  # the periods are pandas frames, loaded by the commands that rate
    import pandas as pd


@dataclass(frozen=True)
class Waiting:
    """The games placed in lists not computed yet: the first such list holding games
    (its window), and the games of all of them."""

    list_id: str
    window_start: dt.date
    window_end: dt.date
    games: int  # of every list not computed yet, forfeits included
    later: int  # of them, those of lists after `list_id`

    @property
    def computed_on(self) -> dt.date:
        return computed_from(self.window_end)


def computed_from(window_end: dt.date) -> dt.date:
    """The first day a list is computed: the day after its window's last day."""
    return window_end + dt.timedelta(days=1)


def closed(periods: pd.DataFrame, today: dt.date) -> pd.Series:
    """Whether each period's window has closed: `today` after its last day."""
    import pandas as pd  # why: loaded when a series is rated, not by every command importing pipeline.rate

    return pd.to_datetime(periods["window_end"]) < pd.Timestamp(today)


def as_day(value) -> dt.date:
    """A day of a periods frame (a date, or a pandas Timestamp, which is a datetime) as a date."""
    return value.date() if isinstance(value, dt.datetime) else value


def waiting_games(con: duckdb.DuckDBPyConnection, periods: pd.DataFrame) -> Waiting | None:
    """The games waiting for `periods` (lists not computed, in order), as the rule set
    placed them (the temp table placed_games its `periods` made); None when none holds a game.
    Leaves the temp table uncomputed_lists (list_id): those lists (sql/site/pending.sql reads it)."""
    create_temp_table(con, "uncomputed_lists", {"list_id": ("varchar", list(periods["list_id"]))})
    counts = dict(con.execute("""select p.list_id, count(*) from placed_games p
                                 join uncomputed_lists u using (list_id) group by p.list_id""").fetchall())
    holding = [i for i, list_id in enumerate(periods["list_id"]) if counts.get(list_id)]
    if not holding:
        return None
    first = periods.iloc[holding[0]]
    total = sum(counts.values())
    return Waiting(first["list_id"], as_day(first["window_start"]), as_day(first["window_end"]), total,
                   total - counts[first["list_id"]])
