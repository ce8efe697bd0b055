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
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pipeline.ruleset.forms import Derived, Parse, RowCheck

COMPILED = Path(__file__).with_name("checks.json")


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
