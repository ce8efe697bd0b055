"""Ruling D3: an event whose own dates, as its tournament file gives them (an EGD `DT[]`,
TRF tags 042/052, an OpenGotha begin and end, AGA's start= and finish=, pairgoth's
startDate and endDate), end more than a year after they start, or end before they
start, is refused whole, with that reason and the line that says it. Dated so, its games
would be rated where their own dates contradict: the Go rule sets rate an event in the
order of its end date, FIDE on the list after its last day, and a file without round
dates dates every game on the start date. An events file describing the event (or
`--date`, for a TRF) gives the real dates."""
from __future__ import annotations

import datetime as dt


def a_year_after(day: dt.date) -> dt.date:
    """The same day a year later (29 February: 28 February)."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return day.replace(year=day.year + 1, day=28)


def span_refusal(start: dt.date | None, end: dt.date | None, said: str, line: int, remedy: str) -> str | None:
    """Why a file's event is refused whole (D3), naming the line and the dates as the file
    writes them (`said`), and what gives the real dates (`remedy`); None when its dates are
    a span of at most a year, or not both given."""
    if start is None or end is None:
        return None
    if end < start:
        how = f"end ({end}) before they start ({start})"
    elif end > a_year_after(start):
        how = f"end ({end}) more than a year after they start ({start})"
    else:
        return None
    where = f"line {line}: " if line else ""
    return f"{where}the event's dates ({said}) {how}: the file is refused whole (ruling D3); {remedy}"
