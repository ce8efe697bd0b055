"""FIDE's calendar: one list a month, closing three days before its date (ruling X1)."""
from __future__ import annotations

import datetime as dt

import pandas as pd


def list_date(window_end, closing_days: int = 3) -> pd.Timestamp:
    """The day a list is published: `closing_days` after its closing date, its window's end.

    Ruling X1a: one formula, whether the windows come from the monthly calendar or a
    calendar file (a window ending 29 January gives the list of 1 February).
    """
    return pd.Timestamp(window_end) + pd.Timedelta(days=closing_days)


def monthly_calendar(first_day: dt.date, last_day: dt.date, closing_days: int = 3) -> pd.DataFrame:
    """One list a month, named for the month of publication (dated its first day),
    whose window runs from the day after the previous list's closing date to its own
    closing date, `closing_days` before its date (B02 7.1.3): an event is rated on
    the list whose window holds its last day (X1). The lists cover first … last."""
    closing = pd.Timedelta(days=closing_days)
    first_list = pd.Period(pd.Timestamp(first_day) + closing - pd.Timedelta(days=1), "M") + 1
    last_list = pd.Period(pd.Timestamp(last_day) + closing - pd.Timedelta(days=1), "M") + 1
    months = pd.period_range(first_list, last_list, freq="M")
    dates = months.start_time
    return pd.DataFrame({
        "list_id": [f"{m.year}-{m.month:02d}" for m in months],
        "window_start": [d.date() for d in (months - 1).start_time - closing + pd.Timedelta(days=1)],
        "window_end": [d.date() for d in dates - closing],
        "list_date": [list_date(d, closing_days).date() for d in dates - closing],  # X1a
    })
