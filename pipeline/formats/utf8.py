"""Text columns read as the bytes Arrow holds them in: for checks of every cell that a
regular expression would make slow (a million cells), done by array arithmetic."""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.formats.arrow_values import one_chunk


def utf8_cells(text: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A string column's UTF-8 bytes, and each cell's first byte in them, its length in
    bytes and whether it is there (not null): the Arrow buffers, read without a copy
    (one chunk: the column's chunks are joined first)."""
    text = one_chunk(text).cast(pa.large_string())
    if len(text) == 0:  # an empty array may have no buffers at all
        empty = np.empty(0, dtype=np.int64)
        return np.empty(0, dtype=np.uint8), empty, empty, np.empty(0, dtype=bool)
    offsets = np.frombuffer(text.buffers()[1], dtype=np.int64)[text.offset:text.offset + len(text) + 1]
    data = text.buffers()[2]
    data = np.frombuffer(data, dtype=np.uint8) if data is not None else np.empty(0, dtype=np.uint8)
    return data, offsets[:-1], np.diff(offsets), _present(text)


def _present(text: pa.Array) -> np.ndarray:
    """Whether each cell is there (not null), read from the validity bitmap: Arrow's
    to_numpy would load pandas in a command that has no other use for it."""
    validity = text.buffers()[0]
    if validity is None or text.null_count == 0:
        return np.ones(len(text), dtype=bool)
    bits = np.unpackbits(np.frombuffer(validity, dtype=np.uint8), bitorder="little")
    return bits[text.offset:text.offset + len(text)].astype(bool)


def first_bytes(text: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Each cell's first byte; 0 for an empty or null cell."""
    data, start, length, present = utf8_cells(text)
    first = np.zeros(len(start), dtype=np.uint8)
    filled = present & (length > 0)
    first[filled] = data[start[filled]]
    return first


def lines_text(text: pa.Array, end: str) -> str:
    """The cells as one string, each followed by `end`: the bytes Arrow holds, decoded
    once, not made into a Python string a line and joined."""
    data, start, length, _ = utf8_cells(pc.binary_join_element_wise(text, end, ""))
    if not len(start):
        return ""
    return data[start[0]:start[-1] + length[-1]].tobytes().decode()


# The UTF-8 lead bytes of every character CONTROL matches: the ASCII controls
# themselves, 0xC2 (U+0080-U+00BF, the C1 controls among them) and 0xE2 (U+2000-U+2FFF,
# the line and paragraph separators among them).
_MAY_BE_CONTROL = np.zeros(256, dtype=bool)
_MAY_BE_CONTROL[list(range(0x20)) + [0x7F, 0xC2, 0xE2]] = True


def may_hold_control(text: pa.Array | pa.ChunkedArray) -> bool:
    """False when no cell can hold a control character: no byte of the column is one
    that starts one (most columns: the regular expression then need not run)."""
    data, start, length, _ = utf8_cells(text)
    if not len(start):
        return False
    return bool(_MAY_BE_CONTROL[data[start[0]:start[-1] + length[-1]]].any())  # a slice's bytes only
