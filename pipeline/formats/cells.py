"""Text cells made safe for the spreadsheets that open public files."""
from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc


def spreadsheet_safe(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Text cells a spreadsheet would run as a formula get a leading apostrophe."""
    risky = pc.is_in(pc.utf8_slice_codeunits(column, 0, 1), value_set=pa.array(["=", "+", "-", "@", "\t", "\r"]))
    return pc.if_else(pc.fill_null(risky, False), pc.binary_join_element_wise("'", column, ""), column)
