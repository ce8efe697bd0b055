"""What the floors (performance_floor.py, fide_floor.py) share: the input files read
as DuckDB reads them, the games' canonical order, and the files a list is published as."""
from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from pipeline.publish.svg import bars

STATUS = pa.array(["new", "played", "did not play"])


def source(path: str) -> str:
    return f"read_parquet('{path}')" if path.endswith(".parquet") else f"read_csv('{path}', all_varchar = true)"


def optional(con: duckdb.DuckDBPyConnection, path: str, name: str, cast: str) -> str:
    present = {r[0] for r in con.execute(f"describe select * from {source(path)}").fetchall()}
    return f"try_cast({name} as {cast})" if name in present else f"null::{cast}"


def days(values: pa.ChunkedArray | pa.Array) -> np.ndarray:
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype="datetime64[D]").astype(np.int64)


def nullable(values: np.ndarray) -> pa.Array:
    """Whole numbers held as floats, as DuckDB casts them to integer (NaN: null)."""
    missing = np.isnan(values)
    return pa.array(np.rint(np.where(missing, 0, values)).astype(np.int32), mask=missing)


def canonical_order(*keys: np.ndarray) -> np.ndarray:
    """The order of pipeline.rate.periods._canonical_order (by list, white, black,
    score, then the carried columns): one packed sort, then only the rows whose packed
    keys tie sorted by the rest, so that the sums add the same numbers in the same order."""
    list_index, white, black, score, *carried = keys
    code = np.where(np.isnan(score), 3, score * 2).astype(np.uint64)
    bits = max(int(max(white.max(initial=0), black.max(initial=0))).bit_length(), 1)
    assert int(list_index.max(initial=0)).bit_length() + 2 * bits + 2 <= 64
    key = ((list_index.astype(np.uint64) << np.uint64(2 * bits + 2)) | (white.astype(np.uint64) << np.uint64(bits + 2))
           | (black.astype(np.uint64) << np.uint64(2)) | code)
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    tie = np.r_[False, sorted_key[1:] == sorted_key[:-1]]
    tied = np.flatnonzero(tie | np.r_[tie[1:], False])
    if carried and len(tied):
        rows = order[tied]
        order[tied] = rows[np.lexsort((*(c[rows] for c in reversed(carried)), sorted_key[tied]))]
    return order


def by_rating(rating: np.ndarray, on: np.ndarray) -> np.ndarray:
    """The rated players `on` (ascending indices, hence ids) by published rating,
    descending, then id, as the lists are ordered: one integer sort."""
    return on[np.argsort(((2 ** 31 - np.rint(rating[on])).astype(np.int64) << 32) | on)]


def table(parts: list[tuple], list_ids: pa.Array, columns) -> pa.Table:
    """One table of every list's rows (list_id first) from the per-list arrays."""
    merged = [np.concatenate(c) for c in zip(*parts)]
    which = np.repeat(np.arange(len(parts)), [len(p[0]) for p in parts])
    return pa.table({"list_id": list_ids.take(which), **columns(*merged)})


def slices(rows: pa.Table, parts: list[tuple]):
    """Each list's rows of `table(parts, ...)`, as zero-copy slices."""
    ends = np.cumsum([len(p[0]) for p in parts])
    for end, part in zip(ends.tolist(), parts):
        yield rows.slice(end - len(part[0]), len(part[0]))


def write_lists(folder: Path, list_ids: list[str], lists, states) -> None:
    """Five files a list as the pipeline writes them: the revision and the latest as
    CSV and Parquet (the same bytes), and the state after it."""
    options = pacsv.WriteOptions(quoting_style="needed")
    for list_id, one, after in zip(list_ids, lists, states):
        sink = pa.BufferOutputStream()
        pacsv.write_csv(one, sink, write_options=options)
        text = sink.getvalue().to_pybytes()
        sink = pa.BufferOutputStream()
        pq.write_table(one, sink, compression="zstd", compression_level=1)
        data_table = sink.getvalue().to_pybytes()
        for suffix, data in ((".csv", text), (".parquet", data_table)):  # the revision, and the latest
            (folder / "lists" / f"{list_id}-r1{suffix}").write_bytes(data)
            (folder / "lists" / f"{list_id}{suffix}").write_bytes(data)
        pq.write_table(after.drop_columns(["list_id"]), folder / "state" / f"{list_id}.parquet",
                       compression="zstd", compression_level=1)


def write_pages(folder: Path, list_ids: list[str], lists, ratings) -> None:
    """One page a list: a histogram of its ratings and its top 100."""
    for list_id, one, rating in zip(list_ids, lists, ratings):
        inside = rating[(rating >= 800) & (rating < 3000)]
        counts = np.bincount(((inside - 800) // 50).astype(np.int64), minlength=44)
        top = one.slice(0, 100).select(["player_id", "name", "rating"]).to_pylist()
        body = "".join(f"<tr><td>{r['player_id']}</td><td>{r['name']}</td><td>{r['rating']}</td></tr>" for r in top)
        page = (f"<!doctype html><title>list {list_id}</title>"
                f"{bars({800 + 50 * k: int(c) for k, c in enumerate(counts) if c}, 800, 3000, 50)}"
                f"<table>{body}</table>")
        (folder / list_id).mkdir(exist_ok=True)
        (folder / list_id / "index.html").write_text(page)
