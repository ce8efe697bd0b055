"""Publish: write each list as CSV and Parquet, and each state as Parquet.

Files are written under a temporary name and renamed, so a reader never sees
half a list; the same warehouse gives byte-identical files.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from pipeline.formats.cells import spreadsheet_safe
from pipeline.formats.list_files import fide_list_text, swiss_manager_csv
from pipeline.systems import DEFAULT_SYSTEM, stored_system
from pipeline.warehouse import stage


# The state columns of the other rule set are left out of a published state.
NOT_PUBLISHED = {"performance": ["games_total", "peak_rating"], "fide": ["archive_performance", "archive_games"]}
LIST_ID = re.compile(r"\d{4}-\d{2}")
REPORT = re.compile(r"\d{4}-\d{2}-r\d+")


def replace_atomically(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    os.replace(tmp, path)


def write_csv(table: pa.Table, path: Path) -> None:
    """CSV with text cells made spreadsheet-safe; nulls are empty cells."""
    for i, field in enumerate(table.schema):
        if pa.types.is_string(field.type) or pa.types.is_large_string(field.type):
            table = table.set_column(i, field, spreadsheet_safe(table.column(i)))
    options = pacsv.WriteOptions(quoting_style="needed")
    replace_atomically(path, lambda tmp: pacsv.write_csv(table, tmp, write_options=options))


def write_parquet(table: pa.Table, path: Path) -> None:
    replace_atomically(path, lambda tmp: pq.write_table(table, tmp, compression="zstd", compression_level=1))


def write_dataset(table: pa.Table, out: Path, partition: str) -> None:
    """A Parquet dataset with one folder per value of `partition` (hive style),
    written beside `out` and swapped in whole, so readers never see half of it."""
    out = Path(out)
    if out.exists() and any(not (p.is_dir() and p.name.startswith(f"{partition}=")) for p in out.iterdir()):
        raise FileExistsError(f"{out} exists and holds other files than a dataset by {partition}: "
                              "choose an empty or new folder")
    tmp = out.with_name(f".{out.name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    for key, rows in by_key(table, partition).items():
        folder = tmp / f"{partition}={key}"
        folder.mkdir(parents=True)
        pq.write_table(rows.drop_columns([partition]), folder / "part-0.parquet", compression="zstd")
    if out.exists():
        shutil.rmtree(out)
    os.replace(tmp, out)


FORMATS = ("csv", "parquet", "txt", "swiss-manager")
DEFAULT_FORMATS = ("csv", "parquet")


def write_text(text: str, path: Path) -> None:
    replace_atomically(path, lambda tmp: tmp.write_bytes(text.encode("utf-8")))


def publish_all(con: duckdb.DuckDBPyConnection, out: Path, formats: tuple[str, ...] = DEFAULT_FORMATS) -> list[str]:
    """Write OUT/lists/<list_id>.{csv,parquet} (and, as asked, .txt in FIDE's list
    layout and -swiss-manager.csv for pairing programs), OUT/state/<list_id>.parquet
    and, for each list revised after its first computation, OUT/diffs/<list_id>-r<revision>.csv."""
    out = Path(out)
    (out / "lists").mkdir(parents=True, exist_ok=True)
    (out / "state").mkdir(parents=True, exist_ok=True)
    lists = stage(con, "50_published_lists").to_arrow_table()
    states = stage(con, "51_published_states").to_arrow_table().drop_columns(
        NOT_PUBLISHED[stored_system(con) or DEFAULT_SYSTEM])
    list_ids = [r[0] for r in con.execute("select list_id from lists order by window_start").fetchall()]
    for stale in out.glob("*/.*.tmp"):  # left by a killed run
        stale.unlink()
    list_rows, state_rows = by_key(lists), by_key(states)
    empty_list, empty_state = lists.slice(0, 0), states.slice(0, 0)
    pairing = by_key(stage(con, "53_pairing_lists").to_arrow_table()) if {"txt", "swiss-manager"} & set(formats) \
        else {}
    for list_id in list_ids:
        if not LIST_ID.fullmatch(list_id):  # a file name: never a path out of OUT (validation checks it too)
            raise ValueError(f"list id {list_id!r} is not YYYY-MM")
        one = list_rows.get(list_id, empty_list)
        if "parquet" in formats:
            write_parquet(one, out / "lists" / f"{list_id}.parquet")
        if "csv" in formats:
            write_csv(one, out / "lists" / f"{list_id}.csv")
        if list_id in pairing and "txt" in formats:
            write_text(fide_list_text(pairing[list_id], list_id), out / "lists" / f"{list_id}.txt")
        if list_id in pairing and "swiss-manager" in formats:
            write_text(swiss_manager_csv(pairing[list_id]), out / "lists" / f"{list_id}-swiss-manager.csv")
        state = state_rows.get(list_id, empty_state).drop_columns(["list_id"])
        write_parquet(state, out / "state" / f"{list_id}.parquet")
    changes = stage(con, "52_published_changes").to_arrow_table()
    if changes.num_rows:
        (out / "diffs").mkdir(exist_ok=True)
    for report, rows in by_key(changes, "report").items():
        if REPORT.fullmatch(report):
            write_csv(rows.drop_columns(["report"]), out / "diffs" / f"{report}.csv")
    return list_ids


def by_key(table: pa.Table, key: str = "list_id") -> dict[str, pa.Table]:
    """Each list's rows of a table sorted by `key`, as zero-copy slices."""
    counts = pc.value_counts(table.column(key).combine_chunks())  # in order of first appearance
    keys = counts.field("values").to_pylist()
    ends = np.cumsum(counts.field("counts").to_numpy())
    return {k: table.slice(end - n, n) for k, end, n in zip(keys, ends, counts.field("counts").to_numpy())}
