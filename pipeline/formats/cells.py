"""Text cells made safe for the programs that open public files: spreadsheets
(no formulas) and fixed-width or line-based readers (no value that breaks a line)."""
from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

CONTROL = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]"  # line breaks, tabs, escapes: never in a cell


class LayoutError(ValueError):
    """A value that would break a fixed-width (or line-based) file."""


def spreadsheet_safe(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Text cells a spreadsheet would run as a formula get a leading apostrophe."""
    risky = pc.fill_null(pc.match_substring_regex(column, r"^[=+\-@\t\r]"), False)
    if not pc.any(risky).as_py():  # most lists: one pass, no copy (publication writes a thousand of them)
        return column
    return pc.if_else(risky, pc.binary_join_element_wise("'", column, ""), column)


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
