"""Memory a rating pass let go, handed back to the system once its series is stored.

Three allocators share the process: NumPy's arrays come from the C library's malloc,
Arrow's buffers from its own pool (mimalloc), DuckDB's from its own (jemalloc). Each keeps
what is freed for its own next allocation, so the lists a series computed (NumPy) and
copied for DuckDB (Arrow), once stored, still held their pages while publication's queries
(DuckDB) asked for new ones: Glicko-2's Belgian history, after rating, held 460 MB of
pages nothing used (bench/README.md). Returned at the series' end, they are the system's
again for what follows.
"""
from __future__ import annotations

import ctypes
import sys

import pyarrow as pa


def _trim_malloc():
    """glibc's malloc_trim (what it holds free, returned), or None where the C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return getattr(ctypes.CDLL(None), "malloc_trim", None)  # glibc; musl has none
    except OSError:
        return None


_MALLOC_TRIM = _trim_malloc()


def release_freed_memory() -> None:
    """Return to the system the pages Arrow's pool and the C library's malloc hold free."""
    pa.default_memory_pool().release_unused()
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
