"""Progress bars for the steps that can take a while (validation, rating, publication,
the site, `explain --all`, `compare`, `evaluate`), shown only on a terminal.

One helper, `progress`, so that every step decides the same way: a bar when its
stream (standard error unless told) is a terminal, nothing at all otherwise, so that
a cron job's log, a pipe or a test's captured output never holds a bar's carriage
returns. tqdm is imported only when a bar is shown: a command run from a script does
not pay its import.
"""
from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any


class Quiet:
    """What `progress` gives off a terminal: the same calls as a tqdm bar, doing nothing."""

    def __init__(self, iterable: Iterable | None = None):
        self.iterable = iterable

    def __iter__(self) -> Iterator:
        return iter(self.iterable if self.iterable is not None else ())

    def __enter__(self) -> Quiet:
        return self

    def __exit__(self, *exc) -> None:
        return None

    def update(self, n: float = 1) -> None:
        return None

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        return None

    def close(self) -> None:
        return None


def shows(file: IO | None = None, show: bool | None = None) -> bool:
    """Whether a bar is drawn on `file` (standard error when None): `show` when given,
    else whether the stream is a terminal (what tqdm's disable=None decides too)."""
    if show is not None:
        return show
    stream = sys.stderr if file is None else file
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def progress(iterable: Iterable | None = None, step: str = "", *, total: float | None = None, unit: str = "it",
             file: IO | None = None, show: bool | None = None) -> Any:
    """A bar named after `step` over `iterable` (or updated by hand: `total`, then
    `update()`), drawn on `file` when `shows(file, show)`; else a `Quiet` stand-in.
    The bar is cleared when done (leave=False): the command's own lines stay the record."""
    if not shows(file, show):
        return Quiet(iterable)
    # why: tqdm only where a bar is drawn (a terminal); rejects and revisions import this module and draw none
    from tqdm import tqdm

    # No monitor thread: the site forks its page writers while its bar is open, and a fork
    # taken while another thread runs (tqdm's monitor, which only retunes slow bars) may
    # copy a lock that thread holds.
    tqdm.monitor_interval = 0
    return tqdm(iterable, desc=step, total=total, unit=unit, file=file, leave=False, dynamic_ncols=True,
                disable=False)
