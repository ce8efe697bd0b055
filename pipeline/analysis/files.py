"""Analysis tables written out: each as CSV and Parquet, byte-identical on a rerun."""
from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from pipeline.writers import csv_bytes, parquet_bytes, write_bytes


def write_tables(tables: dict[str, pa.Table], out: Path) -> list[Path]:
    """OUT/<name>.csv and OUT/<name>.parquet for each table; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, table in tables.items():
        for suffix, data in ((".csv", csv_bytes(table)), (".parquet", parquet_bytes(table))):
            write_bytes(data, out / f"{name}{suffix}")
            written.append(out / f"{name}{suffix}")
    return written


def write_parquet(tables: dict[str, pa.Table], out: Path) -> list[Path]:
    """OUT/<name>.parquet alone, for a table a row a game (a CSV of it would be the largest file
    written for the least reading); returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    for name, table in tables.items():
        write_bytes(parquet_bytes(table), out / f"{name}.parquet")
    return [out / f"{name}.parquet" for name in tables]
