"""What each stage of the pipeline tells as it is done (pipeline/flow.py calls it; the CLI's
ConsoleReporter prints it). A module of its own, loading DuckDB alone: the reading
commands print through pipeline/console.py, which subclasses Reporter, and must not load
the stages flow.py imports (numpy, Arrow: tests/test_command_imports.py)."""
from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

if TYPE_CHECKING:  # what the reports describe
    from pipeline.rate.series import Series


class Reporter:
    """Told what each stage did, as it is done (the CLI prints it; a library user may ignore it)."""

    def stage(self, name: str, seconds: float) -> None: ...
    def heading(self, name: str) -> None: ...
    def taken(self, intakes: list) -> None: ...
    def validated(self, con: duckdb.DuckDBPyConnection, checked: list, replacements: list) -> int:
        return sum(v.rows_rejected for v in checked)
    def rated(self, series: Series, rated: list) -> None: ...
    def waiting(self, series: Series, waiting) -> None: ...  # a pipeline.rate.Waiting, or None
    def published(self, series: Series, out: Path, list_ids: list[str], written: int, pages: list[Path]) -> None: ...
    def note(self, text: str) -> None: ...


@contextlib.contextmanager
def timed(reporter: Reporter, name: str):
    start = time.perf_counter()
    yield
    reporter.stage(name, time.perf_counter() - start)
