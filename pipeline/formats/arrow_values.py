"""Arrow values made without pyarrow's conversion of Python values: pyarrow imports
pandas before it converts one (pa.scalar, pa.array, a kernel's Python argument, an empty
column's combine_chunks), to ask whether it is a pandas object: a cost to a command,
such as validating a registry or publishing, which has no other use for pandas
(tests/test_command_imports.py; bench/README.md)."""
from __future__ import annotations

import struct
from functools import lru_cache

import pyarrow as pa


@lru_cache(maxsize=None, typed=True)  # typed: True and 1 are equal keys, not equal scalars
def arrow_scalar(value: str | bool | int) -> pa.Scalar:
    """`value` as an Arrow scalar (a string, a boolean, a 64-bit integer), made from its bytes."""
    if isinstance(value, bool):
        kind, buffers = pa.bool_(), [None, pa.py_buffer(bytes([value]))]
    elif isinstance(value, int):
        kind, buffers = pa.int64(), [None, pa.py_buffer(struct.pack("<q", value))]
    else:
        data = value.encode()
        kind, buffers = pa.string(), [None, pa.py_buffer(struct.pack("<ii", 0, len(data))), pa.py_buffer(data)]
    return pa.Array.from_buffers(kind, 1, buffers)[0]


def one_chunk(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """A column as one array (a chunked column's chunks joined; none: an empty array)."""
    if not isinstance(column, pa.ChunkedArray):
        return column
    return column.combine_chunks() if column.num_chunks else pa.nulls(0, column.type)
