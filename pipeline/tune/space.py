"""The space a study searches (`ratings tune --space FILE.toml`): for each parameter
of the rule set, a range of whole numbers, a range of numbers, or a list of choices,
checked against the rule set's parameter dataclass (pipeline/ruleset/parameters.py)
before any trial is rated.

    [senior_quota]        # a range: whole numbers where the parameter is one
    low = 8
    high = 16
    [start_value]
    low = 1200.0
    high = 1600.0
    step = 50             # optional: the values low, low + step, ...
    [brake_weight]
    choices = [8, 16, 32]
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline import systems
from pipeline.ruleset.parameters import allowed

GRID_MOST = 10_000  # a discrete space of at most this many points (and of no more than --trials) is a grid


class SpaceError(ValueError):
    """A space file the rule set cannot search: the message names the file and the parameter."""


@dataclass(frozen=True)
class Dimension:
    """One parameter's values: `low`..`high` (with `step`, on a log scale if `log`), or `choices`."""

    name: str
    kind: str  # "int", "float" or "choice"
    low: float | None = None
    high: float | None = None
    step: float | None = None
    log: bool = False
    choices: tuple = ()

    def values(self) -> tuple | None:
        """Every value when there are finitely many (None: a continuous range)."""
        if self.kind == "choice":
            return self.choices
        if self.kind == "int":
            return tuple(range(int(self.low), int(self.high) + 1, int(self.step or 1)))
        if self.step is not None:
            n = int(math.floor((self.high - self.low) / self.step + 1e-9))
            return tuple(round(self.low + k * self.step, 12) for k in range(n + 1))
        return None

    def as_dict(self) -> dict:
        shown = {"choices": list(self.choices)} if self.kind == "choice" else {"low": self.low, "high": self.high}
        if self.step is not None:
            shown["step"] = self.step
        if self.log:
            shown["log"] = True
        return {"kind": self.kind, **shown}


@dataclass(frozen=True)
class Space:
    system: str
    dimensions: tuple[Dimension, ...]

    @property
    def names(self) -> list[str]:
        return [d.name for d in self.dimensions]

    def text(self) -> str:
        """Its stored form (a study resumed must search the same space, in the same order:
        the sampler draws the parameters in it)."""
        return json.dumps([{"name": d.name, **d.as_dict()} for d in self.dimensions])

    def points(self) -> list[dict] | None:
        """Every point, in order (the first parameter's values slowest), when the space is
        discrete and has at most GRID_MOST points; None otherwise."""
        values = [d.values() for d in self.dimensions]
        if any(v is None for v in values) or math.prod(len(v) for v in values) > GRID_MOST:
            return None
        return [dict(zip(self.names, point)) for point in itertools.product(*values)]

    def grid(self, trials: int) -> list[dict] | None:
        """The points when `trials` cover them all (a grid is then searched, not sampled)."""
        points = self.points()
        return points if points is not None and len(points) <= trials else None


def read_space(path: Path, system: str) -> Space:
    """The space of FILE.toml for the rule set `system`; SpaceError names the file and
    the parameter of the first thing it cannot search."""
    try:
        given = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise SpaceError(f"{path}: not a TOML file ({err})") from err
    except OSError as err:
        raise SpaceError(f"{path}: {err.strerror or err}") from err
    if not given:
        raise SpaceError(f"{path}: no parameter to search (give a table per parameter, e.g. [senior_quota] "
                         "low = 8, high = 16)")
    defaults = systems.rule_set_class(system).Parameters()
    fields = {f.name: f for f in dataclasses.fields(defaults) if f.init}
    searchable = sorted(k for k in fields if not isinstance(getattr(defaults, k), tuple | list | dict))
    dimensions = []
    for name, spec in given.items():
        where = f"{path}: {name}"
        if name not in fields:
            raise SpaceError(f"{where}: not a parameter of the {system} rules (they are {', '.join(searchable)})")
        if name not in searchable:
            raise SpaceError(f"{where}: a table of the {system} rules, read from its data file, not a parameter")
        if not isinstance(spec, dict):
            raise SpaceError(f"{where}: give a table ([{name}] with low and high, or choices), not {spec!r}")
        dimension = _dimension(where, name, spec, getattr(defaults, name), "None" in str(fields[name].type))
        _refuse_outside_rules(where, system, fields[name], dimension, set(given))
        dimensions.append(dimension)
    return Space(system, tuple(dimensions))


def _dimension(where: str, name: str, spec: dict, default: Any, nullable: bool = False) -> Dimension:
    """`nullable`: the parameter may be none (its rule off), which a choice says as "none",
    as a --rules file does."""
    unknown = sorted(set(spec) - {"low", "high", "step", "log", "choices"})
    if unknown:
        raise SpaceError(f"{where}: {', '.join(unknown)}: not a key of a range (low, high, step, log) "
                         "or of choices")
    whole = isinstance(default, int) and not isinstance(default, bool)
    number = isinstance(default, float) or whole or default is None
    kind_words = "whole numbers" if whole else "numbers" if number else f"values of type {type(default).__name__}"
    if "choices" in spec:
        if set(spec) - {"choices"}:
            raise SpaceError(f"{where}: choices or a range (low, high), not both")
        choices = spec["choices"]
        if not isinstance(choices, list) or not choices:
            raise SpaceError(f"{where}: choices must be a list of at least one value")
        fitting = [(nullable and c == "none") or _fits(c, default) for c in choices]
        if not all(fitting):
            bad = choices[fitting.index(False)]
            kind_words += ', or "none"' if nullable else ""
            raise SpaceError(f"{where}: choice {bad!r} is of the wrong type: the parameter takes {kind_words} "
                             f"(default {default!r})")
        if len(set(choices)) != len(choices):
            raise SpaceError(f"{where}: a choice is given twice")
        return Dimension(name, "choice", choices=tuple(
            None if c == "none" else float(c) if isinstance(default, float) else c for c in choices))
    if "low" not in spec or "high" not in spec:
        raise SpaceError(f"{where}: give low and high (a range), or choices")
    if not number:
        raise SpaceError(f"{where}: a range of the wrong type: the parameter takes {kind_words} "
                         f"(default {default!r}): give choices")
    bounds = {k: spec[k] for k in ("low", "high", "step") if k in spec}
    for key, value in bounds.items():
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        if not is_number or (whole and not isinstance(value, int)) or not math.isfinite(value):
            raise SpaceError(f"{where}: {key} = {value!r}, a range of the wrong type: the parameter takes "
                             f"{kind_words} (default {default!r})")
    low, high, step = bounds["low"], bounds["high"], bounds.get("step")
    if not low < high:
        raise SpaceError(f"{where}: low ({low}) must be below high ({high})")
    if step is not None and not 0 < step <= high - low:
        raise SpaceError(f"{where}: step ({step}) must be above 0 and at most high - low ({high - low})")
    log = spec.get("log", False)
    if not isinstance(log, bool) or (log and (low <= 0 or step is not None)):
        raise SpaceError(f"{where}: log = true takes a range above 0 without step")
    if whole:
        return Dimension(name, "int", low, high, step, log)
    return Dimension(name, "float", float(low), float(high), None if step is None else float(step), log)


def _fits(value: Any, default: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int)
    if isinstance(default, float) or default is None:
        return isinstance(value, int | float) and math.isfinite(value)
    return isinstance(value, type(default))


def _refuse_outside_rules(where: str, system: str, field: dataclasses.Field, dimension: Dimension,
                          searched: set[str]) -> None:
    """Each end of the range (each choice) must be a value the rule set takes, the other
    parameters at their defaults; a bound tied to another parameter of the space (a
    senior quota at most the brake's weight) is judged trial by trial."""
    rule = allowed(field)
    if rule is not None and {rule.low, rule.high} & searched:
        return
    ends = dimension.choices if dimension.kind == "choice" else (dimension.low, dimension.high)
    for value in ends:
        try:
            systems.rule_set(system, {dimension.name: value})
        except systems.ParameterError as err:
            named = str(err).partition(" = ")[0]  # the parameter the rules refused
            if named != dimension.name and named in searched:
                continue
            raise SpaceError(f"{where}: {str(err).removesuffix('; nothing was rated')}") from err
