"""Files written whole or not at all: bytes written only when they change, under a
temporary name then renamed (a reader never sees half a file), and tables as the CSV and
Parquet bytes every output of the package writes (published lists, the site's downloads,
the comparison and study tables, query --out). Below publication, analysis and the site,
which all write through it (tests/test_import_graph.py: analysis and publish are no cycle)."""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from pipeline.formats.cells import spreadsheet_safe


def replace_atomically(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as err:
        # A full disk fails in write(), whose OSError names no file: name the one
        # being published, and leave no half-written temporary file behind.
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise OSError(err.errno, err.strerror or str(err), str(path)) from err


def csv_bytes(table: pa.Table, dialect: str = "standard") -> bytes:
    """CSV with text cells made spreadsheet-safe; nulls are empty cells. The excel
    dialect is what a spreadsheet in Belgium (French, Dutch or German locale) opens
    as columns: ";" between cells, a decimal comma, UTF-8 announced by a BOM."""
    for i, field in enumerate(table.schema):
        if pa.types.is_string(field.type) or pa.types.is_large_string(field.type):
            table = table.set_column(i, field, spreadsheet_safe(table.column(i)))
        elif dialect == "excel" and pa.types.is_floating(field.type):
            text = pc.replace_substring(pc.cast(table.column(i), pa.string()), ".", ",")
            table = table.set_column(i, pa.field(field.name, pa.string()), text)
    sink = pa.BufferOutputStream()
    delimiter = ";" if dialect == "excel" else ","
    pacsv.write_csv(table, sink, write_options=pacsv.WriteOptions(quoting_style="needed", delimiter=delimiter))
    data = sink.getvalue().to_pybytes()
    return b"\xef\xbb\xbf" + data if dialect == "excel" else data


def parquet_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", compression_level=1)
    return sink.getvalue().to_pybytes()


def write_bytes(data: bytes, path: Path) -> bool:
    """Write `data` unless the file already holds exactly it; True when written."""
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return False
    replace_atomically(path, lambda tmp: tmp.write_bytes(data))
    return True


def write_csv(table: pa.Table, path: Path) -> None:
    write_bytes(csv_bytes(table), path)


def write_parquet(table: pa.Table, path: Path) -> None:
    write_bytes(parquet_bytes(table), path)
