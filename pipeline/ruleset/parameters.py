"""What each parameter of a rule set may be, declared beside its default.

A rule set's parameters are a frozen dataclass; each field's default is the
regulation's number, and `within`, `one_of`, `a_date` give it the values a
`--rules` file may set instead (the field's metadata). `pipeline.systems.rule_set`
refuses any other value, nan and infinities included, before anything is rated:
a step of 0 would publish empty lists as permanent revisions, a negative quota
would rate every player as if the quota were met.

A bound may name another field (`high="brake_weight"`): it is read from the
parameters as given, so that a change of the other field moves it too.
"""
from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Allowed:
    """The values a parameter may take: a number from `low` to `high` (a bound may be
    another field's name; `above`: `low` itself excluded), one of `among`, or a date."""

    low: float | str | None = None
    high: float | str | None = None
    above: bool = False
    among: tuple | None = None
    date: bool = False
    none: bool = False  # None is allowed (the rule is off)
    why: str = ""  # the reason of the range, said with it

    def bounds(self, values: dict[str, Any]) -> tuple[float | None, float | None]:
        def read(bound):
            return values[bound] if isinstance(bound, str) else bound
        return read(self.low), read(self.high)

    def holds(self, value: Any, values: dict[str, Any]) -> bool:
        if value is None:
            return self.none
        if self.date:
            return isinstance(value, str) and _is_date(value)
        if isinstance(value, bool):  # a switch has no range
            return True
        if not isinstance(value, int | float) or not math.isfinite(value):
            return False
        if self.among is not None:
            return value in self.among
        low, high = self.bounds(values)
        return (low is None or (value > low if self.above else value >= low)) and (high is None or value <= high)

    def words(self, values: dict[str, Any]) -> str:
        if self.date:
            text = "a date YYYY-MM-DD"
        elif self.among is not None:
            text = "one of " + ", ".join(str(v) for v in self.among)
        else:
            low, high = self.bounds(values)
            named = {b: f" ({b} = {values[b]:g})" if isinstance(b, str) else "" for b in (self.low, self.high)}
            parts = []
            if low is not None:
                parts.append(f"more than {low:g}{named[self.low]}" if self.above else f"from {low:g}{named[self.low]}")
            if high is not None:
                parts.append(f"to {high:g}{named[self.high]}" if low is not None and not self.above
                             else f"at most {high:g}{named[self.high]}")
            text = "a number " + (" and " if self.above else " ").join(parts)
        if self.none:
            text += ', or "none"'
        return text + (f" ({self.why})" if self.why else "")


def _is_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def within(default, low=None, high=None, *, above: bool = False, none: bool = False, why: str = ""):
    """A parameter `default` that may be set from `low` to `high` (`above`: more than `low`)."""
    return field(default=default, metadata={"allowed": Allowed(low, high, above, none=none, why=why)})


def one_of(default, *values, why: str = ""):
    """A parameter `default` that may be set to one of `values`."""
    return field(default=default, metadata={"allowed": Allowed(among=values, why=why)})


def a_date(default: str, why: str = ""):
    """A parameter `default` that may be set to another date, YYYY-MM-DD."""
    return field(default=default, metadata={"allowed": Allowed(date=True, why=why)})


def allowed(f) -> Allowed | None:
    """What a dataclass field may be set to (None: no range declared: a switch, a table)."""
    return f.metadata.get("allowed")
