"""The floor of `ratings run` under the performance Elo: the same work done as tightly
as DuckDB, numpy and pyarrow allow, with none of the pipeline's bookkeeping
(submissions, rejects with reasons, revisions, audits). It reads the three input
files into typed tables (counting the rows that do not cast), places each game in its
nominal window (R1), rates each list with the pipeline's own array function
(pipeline.systems.performance.rules.rate_list, already at its floor), stores the
states in a DuckDB file, writes each list as CSV and Parquet, and (unless
--no-reports) one HTML page a list with a histogram and the top 100.

    python bench/floor/performance_floor.py players.csv ratings.csv games.csv OUT [--no-reports]

Prints one JSON object: seconds per phase and in all.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from pipeline.publish.svg import histogram  # noqa: E402
from pipeline.systems.performance.rules import rate_list  # noqa: E402


def source(path: str) -> str:
    return f"read_parquet('{path}')" if path.endswith(".parquet") else f"read_csv('{path}', all_varchar = true)"


def main(players: str, ratings: str, games: str, out: str, reports: bool) -> dict:
    t = {"start": time.perf_counter()}
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "floor.duckdb").unlink(missing_ok=True)
    con = duckdb.connect(str(folder / "floor.duckdb"))
    con.execute(f"""create table players as select try_cast(player_id as bigint) as player_id,
                           try_cast(birth_year as integer) as birth_year from {source(players)}""")
    con.execute(f"""create table initial as select try_cast(player_id as bigint) as player_id,
                           try_cast(rating as double) as rating from {source(ratings)}""")
    con.execute(f"""create table games as select try_cast(date as date) as date,
                           try_cast(white_id as bigint) as white_id, try_cast(black_id as bigint) as black_id,
                           case result when '1-0' then 1.0 when '0-1' then 0.0 when '1/2-1/2' then 0.5 end as score
                    from {source(games)}""")
    bad = con.execute("""select count(*) from games where date is null or white_id is null or black_id is null
                           or white_id = black_id
                           or white_id not in (select player_id from players)
                           or black_id not in (select player_id from players)""").fetchall()[0][0]
    t["read and check"] = time.perf_counter()
    # R1: the windows Jan-Apr, May-Aug, Sep-Dec; players as dense indices in id order.
    rows = con.execute("""
        with numbered as (select player_id, row_number() over (order by player_id) - 1 as i from players),
        placed as (select year(date) * 3 + (month(date) - 1) // 4 as slot, w.i as white, b.i as black, score
                   from games g join numbered w on w.player_id = g.white_id join numbered b on b.player_id = g.black_id
                   where score is not null)
        select slot - min(slot) over () as list, white, black, score from placed order by list""").fetchnumpy()
    t["place"] = time.perf_counter()
    ids = con.execute("select player_id from players order by player_id").fetchnumpy()["player_id"]
    birth = con.execute("select coalesce(birth_year::double, 'nan'::double) as birth_year from players order by player_id").fetchnumpy()["birth_year"]
    start = con.execute("select p.player_id, coalesce(i.rating, 'nan'::double) as rating from players p left join initial i using (player_id) "
                        "order by p.player_id").fetchnumpy()["rating"].astype(float)
    rating = np.asarray(start, dtype=float)
    archive_p, archive_n = np.full(len(ids), np.nan), np.zeros(len(ids))
    bounds = np.searchsorted(rows["list"], np.arange(rows["list"].max() + 2))
    states = []
    for k in range(len(bounds) - 1):
        at = slice(bounds[k], bounds[k + 1])
        white, black, score = rows["white"][at], rows["black"][at], rows["score"][at]
        present = np.zeros(len(ids), dtype=bool)
        present[white] = present[black] = True
        local = np.flatnonzero(present)
        position = np.cumsum(present) - 1
        r = rate_list(position[white], position[black], score, rating[local], archive_p[local], archive_n[local],
                      birth[local], 2020 + k // 3)
        rating = rating.copy()
        rating[local] = r.rating
        archive_p[local], archive_n[local] = r.archive_performance, r.archive_games
        keep = ~np.isnan(rating)
        states.append(pa.table({"list": np.full(keep.sum(), k), "player_id": ids[keep], "rating": rating[keep]}))
    t["rate"] = time.perf_counter()
    con.register("states", pa.concat_tables(states))
    con.execute("create table player_state as select * from states")
    con.close()  # the file written whole (its checkpoint), as the pipeline's commit does
    t["store"] = time.perf_counter()
    for k, state in enumerate(states):
        pacsv.write_csv(state, folder / f"list-{k}.csv")
        pq.write_table(state, folder / f"list-{k}.parquet", compression="zstd", compression_level=1)
    t["publish"] = time.perf_counter()
    if reports:
        for k, state in enumerate(states):
            top = state.sort_by([("rating", "descending")]).slice(0, 100).to_pylist()
            body = "".join(f"<tr><td>{r['player_id']}</td><td>{r['rating']:.0f}</td></tr>" for r in top)
            page = (f"<!doctype html><title>list {k}</title>{histogram(state['rating'].to_pylist(), 800, 3000, 50)}"
                    f"<table>{body}</table>")
            (folder / f"report-{k}.html").write_text(page)
    t["reports"] = time.perf_counter()
    phases = list(t)
    return {"rejected": bad, "lists": len(states), **{b: round(t[b] - t[a], 3) for a, b in zip(phases, phases[1:])},
            "total": round(t[phases[-1]] - t["start"], 3)}


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    print(json.dumps(main(*args, reports="--no-reports" not in sys.argv)))
