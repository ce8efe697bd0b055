"""Text cells made safe for the programs that open public files: spreadsheets
(no formulas) and fixed-width or line-based readers (no value that breaks a line)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.formats.utf8 import first_bytes

CONTROL = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]"  # line breaks, tabs, escapes: never in a cell
FORMULA_STARTS = np.frombuffer(b"=+-@\t\r", dtype=np.uint8)  # a cell starting so runs as a formula


class LayoutError(ValueError):
    """A value that would break a fixed-width (or line-based) file."""


def spreadsheet_safe(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Text cells a spreadsheet would run as a formula get a leading apostrophe."""
    # Every such start is one ASCII byte, and a cell's first byte is ASCII only when its
    # first character is: read from the buffers, 0.1 ms for 10,000 cells (a regular
    # expression, 0.4 ms; publication makes 1,600 columns for FIDE's lists).
    risky = np.isin(first_bytes(column), FORMULA_STARTS)
    if not risky.any():  # most lists: no copy
        return column
    return pc.if_else(pa.array(risky), pc.binary_join_element_wise("'", column, ""), column)


def refuse_breaking(ids: pd.Series, columns: dict[str, pd.Series], widest: dict[str, int]) -> None:
    """Raise LayoutError for the first value with a control character, or longer
    than its column (`widest`, by field name), naming the player and the field."""
    for field, values in columns.items():
        text = cell_text(values)
        control = text.str.contains(CONTROL, regex=True)
        too_long = text.str.len() > widest[field] if field in widest else pd.Series(False, index=text.index)
        for bad, why in ((control, "has a control character, which would break the line"),
                         (too_long, f"is longer than its column ({widest.get(field)} characters)")):
            if bad.any():
                at = bad.to_numpy().argmax()
                raise LayoutError(f"player {cell_text(ids).iloc[at]}: {field} {text.iloc[at]!r} {why}: not written")


def cell_text(values: pd.Series) -> pd.Series:
    """Text of a column, empty where null; whole numbers without a decimal point."""
    if pd.api.types.is_float_dtype(values) or pd.api.types.is_integer_dtype(values):
        values = values.astype("Int64")
    return values.astype(object).where(values.notna(), "").astype(str)
