"""What the floors (performance_floor.py, fide_floor.py) share: the input files read
as DuckDB reads them, the games' canonical order, and the files a list is published as."""
from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from pipeline.pages.svg import bars

STATUS = pa.array(["new", "played", "did not play"])


def source(path: str) -> str:
    return f"read_parquet('{path}')" if path.endswith(".parquet") else f"read_csv('{path}', all_varchar = true)"


def optional(con: duckdb.DuckDBPyConnection, path: str, name: str, cast: str) -> str:
    present = {r[0] for r in con.execute(f"describe select * from {source(path)}").fetchall()}
    return f"try_cast({name} as {cast})" if name in present else f"null::{cast}"


def read_inputs(con: duckdb.DuckDBPyConnection, players: str, ratings: str, games: str,
                ratings_columns: dict[str, str], games_columns: tuple[str, ...] = ()) -> int:
    """The three files read into the typed tables `players`, `initial` (its columns
    `ratings_columns`, name -> type, where the file has them) and `games` (with their
    score, `games_columns` carried, and `ok`: whether they pass the checks); returns the
    games that do not."""
    con.execute(f"""create table players as select try_cast(player_id as bigint) as player_id,
                           {optional(con, players, 'name', 'varchar')} as name,
                           {optional(con, players, 'club', 'varchar')} as club,
                           try_cast(birth_year as integer) as birth_year from {source(players)}""")
    extra = "".join(f", {optional(con, ratings, name, cast)} as {name}" for name, cast in ratings_columns.items())
    con.execute(f"""create table initial as select try_cast(player_id as bigint) as player_id,
                           try_cast(rating as double) as rating{extra} from {source(ratings)}""")
    carried = "".join(f", {name}" for name in games_columns)
    con.execute(f"""create table games as
        with typed as (
            select try_cast(date as date) as date, try_cast(white_id as bigint) as white_id,
                   try_cast(black_id as bigint) as black_id, replace(result, '½-½', '1/2-1/2') as result{carried}
            from {source(games)}
        )
        select *, case result when '1-0' then 1.0 when '0-1' then 0.0 when '1/2-1/2' then 0.5 end::double as score,
               date is not null and white_id is not null and black_id is not null and white_id <> black_id
               and result in ('1-0', '0-1', '1/2-1/2', '+/-', '-/+', '-/-')
               and white_id in (select player_id from players) and black_id in (select player_id from players) as ok
        from typed""")
    return con.execute("select count(*) from games where not ok").fetchall()[0][0]


def days(values: pa.ChunkedArray | pa.Array) -> np.ndarray:
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype="datetime64[D]").astype(np.int64)


def nullable(values: np.ndarray) -> pa.Array:
    """Whole numbers held as floats, as DuckDB casts them to integer (NaN: null)."""
    missing = np.isnan(values)
    return pa.array(np.rint(np.where(missing, 0, values)).astype(np.int32), mask=missing)


def canonical_order(*keys: np.ndarray) -> np.ndarray:
    """The order of pipeline.ruleset.games._canonical_order (by list, white, black,
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


def public_lists(parts: list[tuple], list_ids: pa.Array, ids: np.ndarray, people: pa.Table) -> pa.Table:
    """The published lists (sql/50_published_lists.sql) from each list's parts: the
    players' indices in list order, ratings, previous ratings (whole), games counted and
    played."""
    return table(parts, list_ids, lambda who, rating, before, counted, games_played: {
        "player_id": ids[who], "name": people["name"].take(who), "club": people["club"].take(who),
        "rating": nullable(rating), "previous_rating": nullable(before), "change": nullable(rating - before),
        "games": counted.astype(np.int32),
        "status": STATUS.take(np.where(np.isnan(before), 0, np.where(games_played > 0, 1, 2)))})


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
