"""Glicko-2's own columns of the initial ratings file (RuleSet.initial_columns), checked
as typed values: a deviation or a volatility, where given, is one the rules could start
a player from, in the range of the parameter that gives an unrated player's
(initial_deviation, initial_volatility: Glickman 2013, step 1), so that an infinite
volatility or a deviation of 1e308 never enters the computation."""
from __future__ import annotations

from dataclasses import fields

import pandas as pd
import pandera.pandas as pa

from pipeline.ruleset.initial import Number
from pipeline.ruleset.parameters import Allowed, allowed
from pipeline.systems.glicko2.rules import Glicko2Rules

RANGES = {f.name: allowed(f) for f in fields(Glicko2Rules)}
DEVIATION, VOLATILITY = RANGES["initial_deviation"], RANGES["initial_volatility"]


def in_range(values: pd.Series, rule: Allowed) -> pd.Series:
    """Whether each value is in the parameter's range (infinities are not)."""
    low, high = rule.bounds({})
    return (values > low if rule.above else values >= low) & (values <= high)


class InitialColumns(pa.DataFrameModel):
    deviation: Number = pa.Field(nullable=True)  # RD; none: the initial deviation
    volatility: Number = pa.Field(nullable=True)  # sigma; none: the initial volatility

    @pa.check("deviation", name=f"not {DEVIATION.words({})} (initial_deviation's range)")
    def _deviation(cls, values: pd.Series) -> pd.Series:
        return in_range(values, DEVIATION)

    @pa.check("volatility", name=f"not {VOLATILITY.words({})} (initial_volatility's range)")
    def _volatility(cls, values: pd.Series) -> pd.Series:
        return in_range(values, VOLATILITY)
