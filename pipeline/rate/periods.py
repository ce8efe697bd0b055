"""The per-list parts a rating returns (Columns: pipeline.ruleset.games) made into the
warehouse's rows: a list's own `lists` row, and the parts of every list as one Arrow table."""
from __future__ import annotations

import numpy as np
import pyarrow as pa

from pipeline.ruleset.games import Columns


def list_row(list_id: str, **values) -> Columns:
    """The `lists` row of one list."""
    return {"list_id": list_id} | {k: np.array([v]) for k, v in values.items()}


def part_rows(part: Columns) -> int:
    """The rows of one list's part (its first column is the list's id, one value)."""
    return len(part[list(part)[1]])


def to_arrow(parts: list[Columns]) -> pa.Table:
    """One Arrow table from the per-list parts (the first column holds one value per
    part: the list or event id); NaN becomes NULL."""
    names = list(parts[0])
    key = names[0]
    sizes = [part_rows(p) for p in parts]
    # Each part's id once, its rows pointing at it (a byte a row): repeated as text, the ids of
    # Glicko-2's 4.55 M Belgian states took 50 MB a table (bench/README.md).
    columns = {key: pa.chunked_array([pa.DictionaryArray.from_arrays(pa.array(np.zeros(k, dtype=np.int8)),
                                                                     pa.array([p[key]])) for p, k in zip(parts, sizes)])}
    columns |= {k: _column([p[k] for p in parts]) for k in names[1:]}
    return pa.table(columns)


def _column(values: list[np.ndarray]) -> pa.Array | pa.ChunkedArray:
    """One column from its parts, a part at a time when they are of one type: concatenated
    first, a long history's parts were copied whole, its rules' texts as NumPy's
    fixed-width text (four bytes a character, each as wide as the longest) before Arrow
    copied them again (bench/README.md, issue 54's entry). Objects (the rules' texts as Python strings) are a part at a time when every part
    with rows reads as one Arrow type. Parts of several types are concatenated, as
    NumPy unifies them."""
    kinds = {v.dtype.kind for v in values}
    if kinds == {"U"}:
        return pa.chunked_array([pa.array(v, type=pa.string()) for v in values], type=pa.string())
    if len({v.dtype for v in values}) == 1 and kinds <= set("biufM"):
        return pa.chunked_array([_arrow(v) for v in values])
    if kinds == {"O"}:
        chunks = [_arrow(v) for v in values if len(v)]
        if len({c.type for c in chunks}) == 1:
            return pa.chunked_array(chunks)
    return _arrow(np.concatenate(values))


def _arrow(values: np.ndarray) -> pa.Array:
    """An Arrow array, NaN as NULL: for floats by a mask (pyarrow's from_pandas tests
    each value in Python; the mask is one array operation)."""
    if values.dtype.kind == "f":
        return pa.array(values, mask=np.isnan(values))
    return pa.array(values, from_pandas=True)
