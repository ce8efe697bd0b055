"""List identities and games windows of the performance Elo (ruling R1), and the season of a list (R2, R2a)."""
from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # loaded when a calendar is made (pipeline.rate): reading the lists needs no pandas
    import pandas as pd

# Nominal windows (seed I): publication month -> (first month, last month) of
# the games, the first month possibly in the previous year.
NOMINAL = {
    1: ((-1, 9), (-1, 12)),  # January list: games of 1 Sep – 31 Dec of the year before
    5: ((0, 1), (0, 4)),  # May list: games of 1 Jan – 30 Apr
    9: ((0, 5), (0, 8)),  # September list: games of 1 May – 31 Aug
}


def _month_end(year: int, month: int) -> dt.date:
    first_next = dt.date(year + (month == 12), month % 12 + 1, 1)
    return first_next - dt.timedelta(days=1)


def nominal_calendar(first_day: dt.date, last_day: dt.date) -> pd.DataFrame:
    """The nominal lists whose windows cover first_day … last_day, in order."""
    import pandas as pd  # why: loaded when the periods are found, not with the rule set (a command reading its lists)

    rows = []
    year = first_day.year
    while True:
        for month, ((dy0, m0), (dy1, m1)) in NOMINAL.items():
            start = dt.date(year + dy0, m0, 1)
            end = _month_end(year + dy1, m1)
            if end >= first_day and start <= last_day:
                rows.append((f"{year}-{month:02d}", start, end))
        if dt.date(year, 1, 1) > last_day:
            break
        year += 1
    frame = pd.DataFrame(rows, columns=["list_id", "window_start", "window_end"])
    return frame.sort_values("window_start", ignore_index=True)




def season_end_year(day: dt.date) -> int:
    """R2: the year in which the season (1 Sep – 31 Aug) that holds `day` ends.

    The season of a day, not of a list: a list's season is its id's (`list_season`).
    """
    return day.year + 1 if day.month >= 9 else day.year


def list_season(list_id: str) -> int:
    """The year in which the season of a list (R2) ends: its id's year.

    Ruling R2a: lists 2026-05 and 2026-09 belong to the season ending in 2026,
    2027-01 (the games of September–December 2026) to the one ending in 2027,
    whatever the dates of their windows: a calendar file whose September window
    ends on 3 September never moves that list into the next season.
    """
    return int(list_id[:4])
