"""The floor of `ratings run` under the performance Elo: the same work done as tightly
as DuckDB, numpy and pyarrow allow, with none of the pipeline's bookkeeping
(submissions, rejects with reasons, revisions, audits, calculations). It reads the
three input files into typed tables (counting the rows that do not cast) and stores
the games in a DuckDB file, places each game in its nominal window (R1), rates each
list with the pipeline's own array functions (pipeline.systems.performance.rules:
rate_list, published; R2a's season, from the list id; R3 for those who did not play), stores the states
in the DuckDB file, writes five files a list as the pipeline does
(OUT/lists/<list>-r1.{csv,parquet}, the same bytes as OUT/lists/<list>.{csv,parquet},
OUT/state/<list>.parquet: tests/test_performance_floor.py) and (unless --no-reports)
one HTML page a list (OUT/<list>/index.html) with a histogram and the top 100.

    python bench/floor/performance_floor.py players ratings games OUT [--no-reports]

The files are CSV or Parquet, as `ratings run` takes them. Prints one JSON object:
seconds per phase and in all, the rows that do not cast, the lists.

A floor is a measurement, not a check of the rules: it imports the pipeline's rating
math (rate_list, published, nominal_calendar) so that it does exactly the pipeline's
work, and its test (tests/test_performance_floor.py) shows only that it does; a defect
in those functions is in both. The independent check of the rules is bench/reference.py
(tests/test_reference.py).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench.floor.common import (  # noqa: E402
    by_rating,
    canonical_order,
    days,
    nullable,
    public_lists,
    read_inputs,
    slices,
    table,
    write_lists,
    write_pages,
)
from pipeline.ruleset.games import local_indices  # noqa: E402
from pipeline.systems.performance.calendar import nominal_calendar  # noqa: E402
from pipeline.systems.performance.rules import published, rate_list  # noqa: E402


def main(players: str, ratings: str, games: str, out: str, reports: bool) -> dict:
    t = {"start": time.perf_counter()}
    folder = Path(out)
    for sub in ("lists", "state"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "floor.duckdb").unlink(missing_ok=True)
    con = duckdb.connect(str(folder / "floor.duckdb"))
    bad = read_inputs(con, players, ratings, games, {"archive_performance": "double", "archive_games": "integer"})
    people = con.sql("""select p.player_id, p.name, p.club, coalesce(p.birth_year::double, 'nan'::double) as birth_year,
                               coalesce(i.rating, 'nan'::double) as rating,
                               coalesce(i.archive_performance, 'nan'::double) as archive_performance,
                               coalesce(i.archive_games, 0) as archive_games
                        from players p left join initial i using (player_id) where p.player_id is not null
                        order by p.player_id""").to_arrow_table()
    played = con.sql("select date, white_id, black_id, score from games where ok and score is not null")\
        .to_arrow_table()
    first, last = con.execute("select min(date), max(date) from games where ok").fetchall()[0]  # forfeits too
    t["read and check"] = time.perf_counter()

    # R1: the nominal lists whose windows cover the games, each game in its window's list.
    ids = people["player_id"].to_numpy()
    day = days(played["date"])
    calendar = nominal_calendar(first, last)
    starts = days(pa.array(calendar["window_start"]))
    list_index = np.searchsorted(starts, day, side="right") - 1
    white = np.searchsorted(ids, played["white_id"].to_numpy())
    black = np.searchsorted(ids, played["black_id"].to_numpy())
    score = played["score"].to_numpy()
    order = canonical_order(list_index, white, black, score)  # as the pipeline sums them
    list_index, white, black, score = list_index[order], white[order], black[order], score[order]
    bounds = np.searchsorted(list_index, np.arange(len(calendar) + 1))
    t["place"] = time.perf_counter()

    n = len(ids)
    birth = people["birth_year"].to_numpy()
    rating = people["rating"].to_numpy()
    archive_p, archive_n = people["archive_performance"].to_numpy(), people["archive_games"].to_numpy().astype(np.int64)
    state_parts, list_parts = [], []
    for k, list_id in enumerate(calendar["list_id"]):
        at = slice(bounds[k], bounds[k + 1])
        local, w, b = local_indices(white[at], black[at], n)
        r = rate_list(w, b, score[at], rating[local], archive_p[local], archive_n[local], birth[local],
                      int(list_id[:4]))  # R2a: the season ends in the list id's year
        before = rating
        rating = published(rating)  # R3: those who did not play, as published
        rating[local] = r.rating
        archive_p, archive_n = archive_p.copy(), archive_n.copy()
        archive_p[local], archive_n[local] = r.archive_performance, r.archive_games
        keep = np.flatnonzero(~np.isnan(rating) | (archive_n > 0))
        state_parts.append((keep, rating[keep], archive_p[keep], archive_n[keep]))
        on = by_rating(rating, np.flatnonzero(~np.isnan(rating)))  # the published list: every rated player
        counted, games_played = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        counted[local], games_played[local] = r.totals.games, r.played
        previous = before[on]
        list_parts.append((on, rating[on], np.sign(previous) * np.floor(np.abs(previous) + 0.5), counted[on],
                           games_played[on]))
    t["rate"] = time.perf_counter()

    list_ids = pa.array(calendar["list_id"].tolist(), pa.string())
    state = table(state_parts, list_ids, lambda who, rating_, performance, archived: {
        "player_id": ids[who], "rating": nullable(rating_),
        "archive_performance": pa.array(performance, mask=np.isnan(performance)),
        "archive_games": pa.array(archived.astype(np.int32), mask=archived == 0)})
    con.register("states", state)
    con.execute("create table player_state as select * from states")
    con.close()  # the checkpoint: the file holds it all
    t["store"] = time.perf_counter()
    lists = public_lists(list_parts, list_ids, ids, people)
    list_ids = calendar["list_id"].tolist()
    write_lists(folder, list_ids, slices(lists, list_parts), slices(state, state_parts))
    t["publish"] = time.perf_counter()
    if reports:
        write_pages(folder, list_ids, slices(lists, list_parts), (part[1] for part in list_parts))
    t["reports"] = time.perf_counter()
    phases = list(t)
    return {"rejected": bad, "lists": len(calendar), **{b: round(t[b] - t[a], 3) for a, b in zip(phases, phases[1:])},
            "total": round(t[phases[-1]] - t["start"], 3)}


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    print(json.dumps(main(*args, reports="--no-reports" not in sys.argv)))
