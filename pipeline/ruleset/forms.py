"""Each check's form as validation runs it, without pandas or Pandera: a column's parse, a
value derived from the staged row, a check of whole rows as SQL, and the writers' own
Arrow checks (pipeline/formats/: one check, shared by the validator and the writers).
A model declares its checks with pipeline/ruleset/checks.py; validation reads them
compiled (pipeline/validate/model_checks.py)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyarrow
import pyarrow.compute as pc

from pipeline.formats.cells import control_cells
from pipeline.formats.fide_layout import wider_than_lists


@dataclass(frozen=True)
class Parse:
    """How a column's text becomes its value, in DuckDB: `sql` reads the text `{c}` and
    gives the value, or NULL for a text that is not one; `reason` says why such a text
    is rejected."""

    sql: str
    reason: str
    # A text of the right layout that is still no value (2016-11-31) is rejected for
    # `wrong_value` and the text: saying "expected YYYY-MM-DD" of it would send the
    # officer looking for a typo in the layout.
    layout: str | None = None
    wrong_value: str | None = None


@dataclass(frozen=True)
class Derived:
    """A column the model checks that is not one of its kind's input columns: `sql`
    reads it from the staged row (the registry's extra columns, JSON in `extra`)."""

    sql: str


@dataclass(frozen=True)
class RowCheck:
    """A check of whole rows, `sql` over the columns `{name}` it reads: a row it cannot
    judge (a value missing: the SQL gives NULL) passes. `detail`: SQL said in brackets
    after the name."""

    name: str
    reads: tuple[str, ...]
    sql: str
    detail: str | None = None


def printable(values: pyarrow.Array) -> pyarrow.BooleanArray:
    return pc.invert(control_cells(values))


def fits_lists(field: str) -> Callable[[pyarrow.Array], pyarrow.BooleanArray]:
    def fits(values: pyarrow.Array) -> pyarrow.BooleanArray:
        return pc.invert(wider_than_lists(field, values))
    return fits


# The writers' own checks of what a line-based file cannot hold (pipeline/formats/):
# validation refuses what they would refuse, with the same code, so that what it accepts
# is always published. Each gives, for each value, whether it passes.
ARROW_CHECKS: dict[str, Callable[[pyarrow.Array], pyarrow.BooleanArray]] = {
    "printable": printable,
    **{f"fits_lists:{field}": fits_lists(field) for field in ("name", "federation", "title", "player_id")},
}
