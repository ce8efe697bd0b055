"""Glicko-2's own columns of the initial ratings file (RuleSet.initial_columns), checked
as typed values: a deviation or a volatility, where given, is a positive number
(Glickman 2013, step 1: both are scales of a normal distribution)."""
from __future__ import annotations

import pandera.pandas as pa

from pipeline.validate.schemas import Number


class InitialColumns(pa.DataFrameModel):
    deviation: Number = pa.Field(nullable=True, gt=0)  # RD; none: the initial deviation
    volatility: Number = pa.Field(nullable=True, gt=0)  # sigma; none: the initial volatility
