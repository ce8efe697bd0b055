"""The floor of `ratings run --system fide`: the same work done as tightly as DuckDB,
numpy and pyarrow allow, with none of the pipeline's bookkeeping (submissions,
rejects with reasons, revisions, audits, calculations, pooled-games rows). It reads
the three input files into typed tables (counting the rows that do not cast), places
each game's event on FIDE's monthly lists as the pipeline does (rulings X1, X2, X6,
pipeline/systems/fide/events.sql without an events file: an event is the games of
one name, a name recurring after more than 90 days without games being another
event, else the games of a month; it is rated on the list whose window holds its
last day, from the list in force on its first day; two players of a named event make
a match, X6a), rates each list with the pipeline's own array functions
(pipeline.systems.fide.rules: event_sides, rate_sides, k_factor; the pool of unrated
players' games, counted in lists, X9; each player's first event, X8), stores the
states in a DuckDB file, writes five files a list as the pipeline does
(OUT/lists/<list>-r1.{csv,parquet}, the same bytes as OUT/lists/<list>.{csv,parquet},
OUT/state/<list>.parquet) and (unless --no-reports) one HTML page a list
(OUT/<list>/index.html) with a histogram and the top 100.

    python bench/floor/fide_floor.py players ratings games OUT [--no-reports]

The files are CSV or Parquet, as `ratings run` takes them; the ratings file's
games_total and peak_rating are read when it has them (FIDE's K). Prints one JSON
object: seconds per phase and in all, the rows that do not cast, the lists.

A floor is a measurement, not a check of the rules: it imports the pipeline's rating
math (event_sides, rate_sides, k_factor, is_junior, list_date, monthly_calendar, the
pool) so that it does exactly the pipeline's work, and its test
(tests/test_fide_floor.py) shows only that it does; a defect in those functions is in
both. The independent check of the FIDE rules is tests/test_fide_independent.py.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

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
from pipeline.systems.fide import list_date  # noqa: E402
from pipeline.systems.fide.calendar import monthly_calendar  # noqa: E402
from pipeline.systems.fide.first_event import FirstEvents, rated_opponent_sides  # noqa: E402
from pipeline.systems.fide.pool import EPOCH, Pool  # noqa: E402
from pipeline.systems.fide.rules import RULES, event_sides, is_junior, k_factor, rate_sides  # noqa: E402


def main(players: str, ratings: str, games: str, out: str, reports: bool) -> dict:
    t = {"start": time.perf_counter()}
    rules = RULES
    folder = Path(out)
    for sub in ("lists", "state"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "floor.duckdb").unlink(missing_ok=True)
    con = duckdb.connect(str(folder / "floor.duckdb"))
    bad = read_inputs(con, players, ratings, games, {"games_total": "integer", "peak_rating": "double"}, ("event",))
    people = con.sql("""select p.player_id, p.name, p.club, coalesce(p.birth_year::double, 'nan'::double) as birth_year,
                               coalesce(i.rating, 'nan'::double) as rating,
                               coalesce(i.games_total, case when i.rating is not null then 30 end, 0) as games_total,
                               coalesce(i.peak_rating, i.rating, 'nan'::double) as peak
                        from players p left join initial i using (player_id) where p.player_id is not null
                        order by p.player_id""").to_arrow_table()
    played = con.sql("select date, white_id, black_id, score, event from games where ok").to_arrow_table()
    t["read and check"] = time.perf_counter()

    # X1: one list a month, closing three days before its date, covering every game.
    day = days(played["date"])
    calendar = monthly_calendar(*(np.datetime64(int(d), "D").astype(object) for d in (day.min(), day.max())),
                                rules.closing_days)
    window_start, list_day = days(pa.array(calendar["window_start"])), days(pa.array(calendar["list_date"]))
    # The events: a name's games, split where more than 90 days pass without one; else a month's games.
    names = pc.dictionary_encode(played["event"]).combine_chunks()
    code = names.indices.fill_null(-1).to_numpy().astype(np.int64)
    since = day - day.min()
    # Each name's days (and each day of the games without a name, negative: sorted first), in order.
    pairs, per_game = np.unique(np.where(code >= 0, code << 32 | since, -1 - since), return_inverse=True)
    named = pairs >= 0
    pair_code = np.where(named, pairs >> 32, -1)
    pair_day = np.where(named, pairs & 0xFFFFFFFF, -1 - pairs) + day.min()
    pair_month = pair_day.astype("datetime64[D]").astype("datetime64[M]").astype(np.int64)
    first_of_name = np.r_[True, pair_code[1:] != pair_code[:-1]]
    segment = np.cumsum(named & (first_of_name | np.r_[True, pair_day[1:] > pair_day[:-1] + 90]))
    number = segment - np.maximum.accumulate(np.where(first_of_name, segment - 1, 0))  # 1, 2, … within a name
    events, per_pair = np.unique(np.where(named, segment, -1 - pair_month), return_inverse=True)
    event_of = per_pair[per_game]
    label = names.dictionary.to_pylist()
    first_pair = np.unique(per_pair, return_index=True)[1]
    keys = [f"name {label[pair_code[p]]} #{number[p]}" if named[p]
            else f"month {np.datetime64(int(pair_month[p]), 'M')}" for p in first_pair.tolist()]
    event_hash = con.execute("select (hash(k) >> 1)::bigint as h from unnest(?::varchar[]) as t(k)",
                             [keys]).fetchnumpy()["h"].astype(np.int64)  # as pipeline/systems/fide/events.py keys them
    first_day = np.full(len(events), np.iinfo(np.int64).max)
    last_day = np.full(len(events), np.iinfo(np.int64).min)
    np.minimum.at(first_day, per_pair, pair_day)
    np.maximum.at(last_day, per_pair, pair_day)
    ids = people["player_id"].to_numpy()
    white_id, black_id = played["white_id"].to_numpy(), played["black_id"].to_numpy()
    low, high = np.minimum(white_id, black_id), np.maximum(white_id, black_id)
    match = np.ones(len(events), dtype=bool)  # two players: every game between the same two
    for side in (low, high):
        lo_, hi_ = np.full(len(events), np.iinfo(np.int64).max), np.full(len(events), np.iinfo(np.int64).min)
        np.minimum.at(lo_, event_of, side)
        np.maximum.at(hi_, event_of, side)
        match &= lo_ == hi_
    match &= events > 0  # X6a: a month's games without an event are never a match
    rank = np.unique(np.array(keys, dtype=object), return_inverse=True)[1].astype(np.int64)  # X8's ties: by id
    rated_at = np.searchsorted(window_start, last_day, side="right") - 1  # X1
    start_at = np.searchsorted(list_day, first_day, side="right") - 1  # X2 (-1: none)
    # The lists: every window from the first that rates an event to the last (empty ones between).
    lo, hi = int(rated_at.min()), int(rated_at.max())
    lists = calendar.iloc[lo:hi + 1].reset_index(drop=True)
    # The start list as the pipeline sorts it (a list id, none last); as used, a list's index or -1 (initial).
    start_rank = np.where(start_at < 0, len(calendar), start_at)
    start_list = np.where(start_at < lo, -1, start_at - lo)
    score = pc.fill_null(played["score"], np.nan).to_numpy()
    game = {"list_index": rated_at[event_of] - lo + 1, "white": np.searchsorted(ids, white_id),
            "black": np.searchsorted(ids, black_id), "score": score, "day": day}
    order = canonical_order(game["list_index"], game["white"], game["black"], score, day, event_hash[event_of],
                            start_rank[event_of], first_day[event_of], match[event_of])
    order = order[~np.isnan(score[order])]  # forfeits: part of their event, never rated
    g = {k: v[order] for k, v in game.items()}
    event = event_of[order]
    g |= {"event": event_hash[event], "start": start_list[event], "first_day": first_day[event],
          "match": match[event], "after_decided": np.zeros(len(event), dtype=bool), "rank": rank[event]}
    bounds = np.searchsorted(g["list_index"], np.arange(1, len(lists) + 2))
    t["place"] = time.perf_counter()

    n = len(ids)
    birth = people["birth_year"].to_numpy()
    rating, games_total, peak = (people["rating"].to_numpy(), people["games_total"].to_numpy().astype(np.int64),
                                 people["peak"].to_numpy())
    initial = (rating, games_total, peak)
    ever_rated = ~np.isnan(rating)
    last_rated = np.full(n, -1, dtype=np.int64)
    pool = Pool()
    # X8: each player's earliest game against a rated opponent, known from the games whose
    # events start from the initial ratings, then from each list once it is computed.
    firsts = FirstEvents.none(n)

    def starting_from(list_index: int, ratings: np.ndarray) -> None:
        at = g["start"] == list_index
        firsts.merge(*rated_opponent_sides(*(g[k][at] for k in ("white", "black", "day", "first_day", "rank", "event",
                                                                  "match")), ratings))

    starting_from(-1, rating)
    began = (pd.Timestamp(lists["window_start"].iloc[0]) - EPOCH).days
    # The last list that reads each list as an event's start list (X2): its state is kept until then.
    last_use = np.full(len(lists), -1, dtype=np.int64)
    np.maximum.at(last_use, g["start"][g["start"] >= 0], g["list_index"][g["start"] >= 0] - 1)
    snapshots: dict[int, tuple] = {}
    state_parts, list_parts = [], []
    for i, window_end_i in enumerate(lists["window_end"]):
        at = slice(bounds[i], bounds[i + 1])
        white, black, starts = g["white"][at], g["black"][at], g["start"][at]
        local, w, b = local_indices(white, black, n)
        end = pd.Timestamp(window_end_i)
        pool.within(i + 1, rules.pool_months)  # X9: this list and the 25 before it
        pool_games, pool_opponents, pool_score = (a[local] for a in pool.totals(n))
        start_white = [np.empty(len(w)), np.empty(len(w), dtype=np.int64), np.empty(len(w))]
        start_black = [np.empty(len(w)), np.empty(len(w), dtype=np.int64), np.empty(len(w))]
        for key in np.unique(starts).tolist():  # the few lists this list's events started from
            values = (rating, games_total, peak) if key == i - 1 else snapshots.get(key, initial)
            hit = starts == key
            for k, v in enumerate(values):
                start_white[k][hit], start_black[k][hit] = v[white[hit]], v[black[hit]]
        sides = event_sides(w, b, g["score"][at], g["day"][at], g["event"][at], g["first_day"][at], g["match"][at],
                            g["after_decided"][at], start_white, start_black, rating[local], games_total[local],
                            peak[local], rules)
        dated = list_date(end, rules)
        r = rate_sides(sides, rating[local], games_total[local], peak[local], birth[local], dated.year,
                       pool_games, pool_opponents, pool_score, firsts.event[local], ever_rated[local], rules)
        previous = rating
        rating, games_total, peak = rating.copy(), games_total.copy(), peak.copy()
        rating[local], games_total[local], peak[local] = r.rating, r.games_total, r.peak
        ever_rated |= ~np.isnan(rating)
        last_rated[local] = np.maximum(last_rated[local], r.last_rated)
        pool.forget(~np.isnan(rating) & np.isnan(previous))
        joins = r.pool_games > 0
        pool.add(i + 1, local[joins], r.pool_games[joins], r.pool_opponents[joins], r.pool_score[joins])
        starting_from(i, rating)
        if last_use[i] > i:
            snapshots[i] = (rating, games_total, peak)
        for key in [k for k in snapshots if last_use[k] <= i]:
            del snapshots[key]
        # The state after the list: the K of the events that start from it, the inactive flag (B02 7.2.2).
        rated = ~np.isnan(rating)
        keep = np.flatnonzero(rated | (games_total > 0))
        on = np.flatnonzero(rated)
        k_next, _ = k_factor(rating[on], games_total[on], peak[on], is_junior(birth[on], dated.year, rules),
                             np.zeros(len(on), dtype=np.int64), rules)
        k = np.full(n, np.nan)
        k[on] = k_next
        active_since = (dated - pd.DateOffset(months=rules.inactive_months) - EPOCH).days
        inactive = np.where(last_rated >= 0, last_rated, began) < active_since
        state_parts.append((keep, rating[keep], games_total[keep], peak[keep], k[keep], inactive[keep],
                            last_rated[keep]))
        # The published list: every rated player by rating, with the list before's rating and the games.
        counted, games_played = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        counted[local], games_played[local] = r.games, r.played
        on = by_rating(rating, on)
        before = previous[on]
        list_parts.append((on, rating[on], np.sign(before) * np.floor(np.abs(before) + 0.5), counted[on],
                           games_played[on]))
    t["rate"] = time.perf_counter()

    list_ids = pa.array(lists["list_id"].tolist(), pa.string())
    state = table(state_parts, list_ids, lambda who, rating_, total, peak_, k_, inactive_, last: {
        "player_id": ids[who], "rating": nullable(rating_), "games_total": total.astype(np.int32),
        "peak_rating": nullable(peak_), "k": nullable(k_), "inactive": pa.array(inactive_, mask=np.isnan(rating_)),
        "last_rated": pa.array(last.astype("datetime64[D]"), mask=last < 0)})
    con.register("states", state)
    con.execute("create table player_state as select * from states")
    con.close()  # the checkpoint: the file holds it all
    t["store"] = time.perf_counter()
    published = public_lists(list_parts, list_ids, ids, people)
    list_ids = lists["list_id"].tolist()
    public_state = state.drop_columns(["last_rated"])
    write_lists(folder, list_ids, slices(published, list_parts), slices(public_state, state_parts))
    t["publish"] = time.perf_counter()
    if reports:
        write_pages(folder, list_ids, slices(published, list_parts), (part[1] for part in list_parts))
    t["reports"] = time.perf_counter()
    phases = list(t)
    return {"rejected": bad, "lists": len(lists), **{b: round(t[b] - t[a], 3) for a, b in zip(phases, phases[1:])},
            "total": round(t[phases[-1]] - t["start"], 3)}


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    print(json.dumps(main(*args, reports="--no-reports" not in sys.argv)))
