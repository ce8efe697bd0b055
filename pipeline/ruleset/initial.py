"""The initial-columns protocol: a rule set's own columns of the initial ratings file
(RuleSet.initial_columns, name -> SQL type) are typed as declared and checked by its own
Pandera model (RuleSet.InitialColumns, pipeline/validate/initial.py), then read by its
`initial_ratings_sql`. The model's columns are of the types below: the typed columns as
DuckDB hands them over (Arrow, without a copy into NumPy), which the shared models use too
(pipeline/validate/schemas.py). Loads pandas and Pandera: imported by a model's module only."""
from __future__ import annotations

from typing import Annotated

import pandas as pd
import pyarrow
from pandera.typing import Series

Int = Series[Annotated[pd.ArrowDtype, pyarrow.int64()]]
Number = Series[Annotated[pd.ArrowDtype, pyarrow.float64()]]
Day = Series[Annotated[pd.ArrowDtype, pyarrow.date32()]]
Text = Series[Annotated[pd.ArrowDtype, pyarrow.string()]]
