"""Text cells made safe for the programs that open public files: spreadsheets
(no formulas) and fixed-width or line-based readers (no value that breaks a line)."""
from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.formats.arrow_values import arrow_scalar, one_chunk
from pipeline.formats.utf8 import first_bytes, may_hold_control

if TYPE_CHECKING:  # publication writes Arrow tables: pandas is not loaded for it
    import pandas as pd

CONTROL = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]"  # line breaks, tabs, escapes: never in a cell
CONTROL_RE2 = r"[\x00-\x1f\x7f-\x9f\x{2028}\x{2029}]"  # the same, as Arrow's regular expressions write it
FORMULA_STARTS = np.frombuffer(b"=+-@\t\r", dtype=np.uint8)  # a cell starting so runs as a formula


class LayoutError(ValueError):
    """A value that would break a fixed-width (or line-based) file."""


def spreadsheet_safe(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Text cells a spreadsheet would run as a formula get a leading apostrophe."""
    # Every such start is one ASCII byte, and a cell's first byte is ASCII only when its
    # first character is: read from the buffers, not by a regular expression (publication
    # makes 1,600 columns for FIDE's lists).
    risky = np.isin(first_bytes(column), FORMULA_STARTS)
    if not risky.any():  # most lists: no copy
        return column
    return pc.if_else(pa.array(risky), pc.binary_join_element_wise("'", column, ""), column)


# `control_cells` and `wider_cells` are the one check of what a line-based file cannot
# hold: the writers refuse a list with them (`refuse_breaking`), and validation refuses
# a row with them first (pipeline/validate/schemas.py), so nothing accepted is refused here.
HOLDS_CONTROL = "has a control character, which would break the line"


def longer_than_column(width: int) -> str:
    return f"is longer than its column ({width} characters)"


def control_cells(values: pd.Series | pa.Array | pa.ChunkedArray) -> pa.BooleanArray:
    """Whether each value holds a control character (CONTROL): a line break, a tab, an
    escape, a line or paragraph separator. Nulls hold none."""
    text = text_cells(values)
    if not may_hold_control(text):  # most columns: the regular expression need not run
        return pa.repeat(arrow_scalar(False), len(text))
    return pc.match_substring_regex(text, CONTROL_RE2)


def wider_cells(values: pd.Series | pa.Array | pa.ChunkedArray, width: int) -> pa.BooleanArray:
    """Whether each value, as a list writes it (`text_cells`), is longer than `width` characters."""
    return pc.greater(pc.utf8_length(text_cells(values)), arrow_scalar(width))


def holds_control(text: str) -> bool:
    """Whether one text (a command's option) holds a control character (CONTROL)."""
    return re.search(CONTROL, text) is not None


def refuse_breaking(ids: pd.Series | pa.Array, columns: dict[str, pd.Series | pa.Array],
                    widest: dict[str, int]) -> None:
    """Raise LayoutError for the first value with a control character, or longer
    than its column (`widest`, by field name), naming the player and the field."""
    for field, values in columns.items():
        text = text_cells(values)
        for bad, why in ((control_cells(text), HOLDS_CONTROL),
                         (wider_cells(text, widest[field]) if field in widest else None,
                          longer_than_column(widest.get(field, 0)))):
            if bad is not None and pc.any(bad).as_py():
                at = pc.index(bad, True).as_py()
                raise LayoutError(f"player {text_cells(ids)[at].as_py()}: {field} {text[at].as_py()!r} {why}: "
                                  "not written")


def text_cells(values: pd.Series | pa.Array | pa.ChunkedArray) -> pa.Array:
    """`cell_text` as an Arrow string array: text, empty where null; whole numbers
    without a decimal point. Pairing programs' lists are written from these with
    Arrow's string kernels, whole columns at once (pandas' string methods call
    Python once a cell)."""
    pd = sys.modules.get("pandas")  # a pandas Series exists only once pandas is loaded
    if pd is not None and isinstance(values, pd.Series):
        if not (pd.api.types.is_float_dtype(values) or pd.api.types.is_integer_dtype(values)
                or pd.api.types.is_string_dtype(values)):
            return pa.array(cell_text(values).tolist(), type=pa.string())  # mixed objects: as str() writes them
        values = pa.array(values, from_pandas=True)
    values = one_chunk(values)
    kind = values.type
    if pa.types.is_floating(kind):
        values = pc.cast(values, pa.int64())  # a fraction raises, as cell_text's Int64 does
    elif pa.types.is_boolean(kind):
        values = pc.if_else(values, arrow_scalar("True"), arrow_scalar("False"))
    elif not (pa.types.is_integer(kind) or pa.types.is_string(kind) or pa.types.is_large_string(kind)
              or pa.types.is_null(kind)):
        return text_cells(values.to_pandas())
    return pc.fill_null(pc.cast(values, pa.string()), arrow_scalar(""))


def cell_text(values: pd.Series) -> pd.Series:
    """Text of a column, empty where null; whole numbers without a decimal point."""
    # The Series' dtype tells (numpy's or pandas' own Int64, Float64): this module loads no pandas.
    if values.dtype.kind in "iuf":
        values = values.astype("Int64")
    return values.astype(object).where(values.notna(), "").astype(str)
