"""FIDE's calendar: one list a month (fide-elo.md)."""
from __future__ import annotations

import datetime as dt

import pandas as pd


def monthly_calendar(first_day: dt.date, last_day: dt.date) -> pd.DataFrame:
    """FIDE's default calendar: one list a month, named for the month of
    publication, whose window is the month before (fide-elo.md)."""
    months = pd.period_range(pd.Period(first_day, "M"), pd.Period(last_day, "M"), freq="M")
    return pd.DataFrame({
        "list_id": [f"{(m + 1).year}-{(m + 1).month:02d}" for m in months],
        "window_start": [m.start_time.date() for m in months],
        "window_end": [m.end_time.date() for m in months],
    })
