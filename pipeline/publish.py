"""Publish: write each list as CSV and Parquet, and each state as Parquet.

Files are written under a temporary name and renamed, so a reader never sees
half a list; the same warehouse gives byte-identical files.
"""
from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.warehouse import stage

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: pd.Series) -> pd.Series:
    """Text cells a spreadsheet would run as a formula get a leading apostrophe."""
    s = text.astype("object")
    risky = s.map(lambda v: isinstance(v, str) and v.startswith(FORMULA_STARTS), na_action="ignore")
    return s.where(~risky.fillna(False).astype(bool), "'" + s.astype(str))


def _replace_atomically(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    os.replace(tmp, path)


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    safe = frame.copy()
    for col in safe.columns:
        if safe[col].dtype == object or pd.api.types.is_string_dtype(safe[col]):
            safe[col] = spreadsheet_safe(safe[col])
    _replace_atomically(path, lambda tmp: safe.to_csv(tmp, index=False, lineterminator="\n"))


def write_parquet(table: pa.Table, path: Path) -> None:
    _replace_atomically(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))


def publish_all(con: duckdb.DuckDBPyConnection, out: Path) -> list[str]:
    """Write OUT/lists/<list_id>.{csv,parquet} and OUT/state/<list_id>.parquet."""
    out = Path(out)
    (out / "lists").mkdir(parents=True, exist_ok=True)
    (out / "state").mkdir(parents=True, exist_ok=True)
    lists = stage(con, "50_published_lists").to_arrow_table()
    states = stage(con, "51_published_states").to_arrow_table()
    list_ids = [r[0] for r in con.execute("select list_id from lists order by window_start").fetchall()]
    written = []
    for list_id in list_ids:
        one = lists.filter(pc.equal(lists["list_id"], list_id))
        write_parquet(one, out / "lists" / f"{list_id}.parquet")
        write_csv(one.to_pandas(), out / "lists" / f"{list_id}.csv")
        state = states.filter(pc.equal(states["list_id"], list_id)).drop_columns(["list_id"])
        write_parquet(state, out / "state" / f"{list_id}.parquet")
        written.append(list_id)
    return written
