"""The input models as validation runs them, without pandas or Pandera.

The Pandera models of pipeline/validate/schemas.py are the one declaration of what a
row must be. `python -m pipeline.validate.compile` writes them out as data
(checks.json, beside this module): each column's parse, whether it may be empty, and
each check as the SQL it runs over the typed rows in DuckDB, or as the name of the
writers' own Arrow check (pipeline/formats/cells.py: one check, shared by the validator
and the writers). tests/test_compiled_checks.py holds the two together: the file is the
models' current one, and its checks fail exactly the rows Pandera's fail.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.formats.cells import control_cells
from pipeline.formats.fide_layout import wider_than_lists

COMPILED = Path(__file__).with_name("checks.json")


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
class ColumnCheck:
    """A check of each value of `column` that is not empty, named for the problem
    (the reason): `sql` over the value `{c}`, true when it passes; or `arrow`, the name of
    an Arrow check (ARROW_CHECKS)."""

    name: str
    column: str
    sql: str | None = None
    arrow: str | None = None


@dataclass(frozen=True)
class RowCheck:
    """A check of whole rows, `sql` over the columns `{name}` it reads: a row it cannot
    judge (a value missing: the SQL gives NULL) passes. `detail`: SQL said in brackets
    after the name."""

    name: str
    reads: tuple[str, ...]
    sql: str
    detail: str | None = None


@dataclass(frozen=True)
class Model:
    """A compiled input model: its columns in order, those that may not be empty, the
    parsed and derived ones, and its checks."""

    name: str
    columns: tuple[str, ...]
    not_null: tuple[str, ...]
    parses: dict[str, Parse]
    derived: dict[str, Derived]
    checks: tuple[ColumnCheck, ...]
    row_checks: tuple[RowCheck, ...]


def printable(values: pa.Array) -> pa.BooleanArray:
    return pc.invert(control_cells(values))


def fits_lists(field: str) -> Callable[[pa.Array], pa.BooleanArray]:
    def fits(values: pa.Array) -> pa.BooleanArray:
        return pc.invert(wider_than_lists(field, values))
    return fits


# The writers' own checks of what a line-based file cannot hold (pipeline/formats/):
# validation refuses what they would refuse, with the same code, so that what it accepts
# is always published. Each gives, for each value, whether it passes.
ARROW_CHECKS: dict[str, Callable[[pa.Array], pa.BooleanArray]] = {
    "printable": printable,
    **{f"fits_lists:{field}": fits_lists(field) for field in ("name", "federation", "title", "player_id")},
}


@cache
def _compiled() -> dict:
    return json.loads(COMPILED.read_text(encoding="utf-8"))


def _model(name: str, m: dict) -> Model:
    return Model(name, tuple(m["columns"]), tuple(m["not_null"]),
                 {c: Parse(**p) for c, p in m["parses"].items()},
                 {c: Derived(**d) for c, d in m["derived"].items()},
                 tuple(ColumnCheck(**c) for c in m["checks"]),
                 tuple(RowCheck(**{**c, "reads": tuple(c["reads"])}) for c in m["row_checks"]))


@cache
def compiled_models() -> dict[str, Model]:
    """Every model of checks.json, by its class name."""
    return {name: _model(name, m) for name, m in _compiled()["models"].items()}


@cache
def initial_models() -> dict[str, tuple[str, Model]]:
    """The pipeline's own rule sets' models of their initial columns (RuleSet.InitialColumns)
    whose every check is declared as SQL or an Arrow check, compiled: rule set → (its game, model)."""
    return {rule_set: (game, _model(name, m)) for rule_set, (name, game, m) in _compiled()["initial_columns"].items()}


def kind_models() -> dict[str, str]:
    """The model of each kind of input, by its class name (schemas.SCHEMAS, as compiled)."""
    return _compiled()["kinds"]


def schema_of(kind: str, game: str | None) -> Model:
    """The model of a kind; starting points in a warehouse of Go are Go points. No rule
    set's rule is one of them: each checks the initial ratings it reads when it rates from
    them (pipeline/rate/initial.py; ruling R14)."""
    models = compiled_models()
    if kind == "ratings" and game == "go":
        return models["GoRatingsInput"]
    if kind == "events" and game != "chess":  # events without a warehouse game are Go's, as before FIDE's
        return models["GoEventsInput"]
    return models[kind_models()[kind]]
