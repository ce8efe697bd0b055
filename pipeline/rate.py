"""Rate: compute every list in order, each from the previous one, and store
the states, calculations and estimation records in the warehouse.

The games and players leave DuckDB once as arrays; each list is one call of
the rule set's array code; everything computed goes back in one insert per table.
"""
from __future__ import annotations

from dataclasses import dataclass

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
from tqdm import tqdm

from pipeline.calendar import nominal_calendar, season_end_year
from pipeline.components import component_labels
from pipeline.systems.performance import RULES, ListResult, PerformanceRules, bonus, published, rate_list
from pipeline.warehouse import row, scalar, stage, transaction

COMPUTED_TABLES = ("lists", "estimation_rounds", "unanchored_groups", "player_state", "calculations")


@dataclass(frozen=True)
class RatedList:
    list_id: str
    games: int
    players_rated: int
    rounds: int
    still_moving: int


def ensure_calendar(con: duckdb.DuckDBPyConnection) -> None:
    """Without a calendar file, add the nominal windows that cover every game (R1)."""
    if scalar(con, "select count(*) from calendar where file_id is not null"):
        return
    first, last = row(con, "select min(date), max(date) from games")
    if first is None:
        return
    nominal = nominal_calendar(first, last)
    con.register("nominal", nominal)
    con.execute("""insert into calendar select list_id, window_start, window_end, null from nominal n
                   where not exists (select 1 from calendar k where k.list_id = n.list_id)""")
    con.unregister("nominal")


def _column(table, name: str, dtype=float) -> np.ndarray:
    return table.column(name).to_numpy(zero_copy_only=False).astype(dtype)


def rate_all(con: duckdb.DuckDBPyConnection, run_id: int, rules: PerformanceRules = RULES,
             show_progress: bool | None = None) -> list[RatedList]:
    """Recompute every list from the initial ratings; replaces earlier results.

    A progress bar (per list, with the estimation's round) shows on a terminal;
    `show_progress=None` decides from the terminal, False hides it.
    """
    ensure_calendar(con)
    lists = stage(con, "20_lists").df()
    con.register("lists_to_rate", lists)
    games = stage(con, "21_list_games").to_arrow_table()
    con.unregister("lists_to_rate")
    players = con.sql("""select p.player_id, p.birth_year, r.rating, r.archive_performance, r.archive_games
                         from players p left join initial_ratings r using (player_id)
                         order by p.player_id""").to_arrow_table()
    ids = _column(players, "player_id", np.int64)
    birth_year = _column(players, "birth_year")
    rating = _column(players, "rating")
    archive_performance = _column(players, "archive_performance")
    archive_games = np.nan_to_num(_column(players, "archive_games")).astype(np.int64)
    list_of_game, white, black, white_score = _canonical_order(
        _column(games, "list_index", np.int64), _column(games, "white", np.int64),
        _column(games, "black", np.int64), _column(games, "white_score"))
    played = ~np.isnan(white_score)  # forfeits have no score: counted, never rated
    forfeits = np.bincount(list_of_game[~played] - 1, minlength=len(lists))
    list_of_game, white, black, white_score = (a[played] for a in (list_of_game, white, black, white_score))
    bounds = np.searchsorted(list_of_game, np.arange(1, len(lists) + 1), side="left")
    ends = np.searchsorted(list_of_game, np.arange(1, len(lists) + 1), side="right")

    frames: dict[str, list[Columns]] = {t: [] for t in COMPUTED_TABLES}
    summary = []
    bar = tqdm(total=len(lists), desc="rate", unit="list", disable=None if show_progress is None else not show_progress,
               leave=False)

    def on_round(round_: int, moving: int) -> None:
        bar.set_postfix_str(f"{list_id} round {round_}, {moving} moving", refresh=True)

    for (list_id, start, end), lo, hi, forfeited in zip(lists.itertuples(index=False), bounds, ends, forfeits):
        # The list is computed on the players of its window only; the others keep their state.
        local, w, b = _local_indices(white[lo:hi], black[lo:hi], len(ids))
        result = rate_list(w, b, white_score[lo:hi], rating[local], archive_performance[local],
                           archive_games[local], birth_year[local],
                           season_end_year(pd.Timestamp(end).date()), rules, on_round)
        new_rating = published(rating, rules)  # R3: Ei of those who did not play, as published
        new_rating[local] = result.rating
        archive_performance, archive_games = archive_performance.copy(), archive_games.copy()
        archive_performance[local], archive_games[local] = result.archive_performance, result.archive_games
        frames["player_state"].append(_state(list_id, ids, new_rating, archive_performance, archive_games))
        frames["calculations"].append(_calculations(list_id, ids[local], rating[local], result))
        frames["estimation_rounds"].append({
            "list_id": list_id,
            "round": np.arange(1, result.estimation.rounds + 1),
            "players_moving": np.array(result.estimation.moving_per_round, dtype=np.int64)})
        frames["unanchored_groups"].append(_unanchored_groups(list_id, ids[local], w, b, result))
        rated = int((~np.isnan(new_rating)).sum())
        frames["lists"].append({"list_id": list_id} | {k: np.array([v]) for k, v in {
            "window_start": start, "window_end": end, "run_id": run_id,
            "games_rated": hi - lo, "forfeits": forfeited,
            "players_rated": rated, "new_players": int((~np.isnan(new_rating) & np.isnan(rating)).sum()),
            "estimated_players": len(result.estimation.players),
            "rounds_used": result.estimation.rounds, "players_still_moving": result.estimation.still_moving,
            "unanchored_players": int(result.unanchored.sum()),
            "seniors_without_birth_year": int(((result.played > 0) & np.isnan(birth_year[local])).sum()),
        }.items()})
        summary.append(RatedList(list_id, hi - lo, rated, result.estimation.rounds,
                                 result.estimation.still_moving))
        bar.update()
        rating = new_rating
    bar.close()
    _store(con, frames)
    return summary


def _canonical_order(*keys: np.ndarray) -> tuple[np.ndarray, ...]:
    """The games sorted by list, white, black, score: an order that does not depend
    on the input files, so that the floating-point sums are reproducible (identical
    rows may come in any order: they add the same numbers)."""
    list_index, white, black, score = keys
    code = np.where(np.isnan(score), 3, score * 2).astype(np.uint64)
    bits = max(int(max(white.max(initial=0), black.max(initial=0))).bit_length(), 1)
    if int(list_index.max(initial=0)).bit_length() + 2 * bits + 2 <= 64:  # one packed key: one fast sort
        key = ((list_index.astype(np.uint64) << np.uint64(2 * bits + 2)) | (white.astype(np.uint64) << np.uint64(bits + 2))
               | (black.astype(np.uint64) << np.uint64(2)) | code)
        order = np.argsort(key, kind="stable")
    else:
        order = np.lexsort((code, black, white, list_index))
    return tuple(k[order] for k in keys)


def _local_indices(white: np.ndarray, black: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The players of a window (global indices, ascending) and the games in local indices."""
    present = np.zeros(n, dtype=bool)
    present[white] = True
    present[black] = True
    position = np.cumsum(present) - 1
    return np.flatnonzero(present), position[white], position[black]


Columns = dict[str, np.ndarray | str]  # "list_id": one value for the part


def _state(list_id: str, ids: np.ndarray, rating: np.ndarray, archive_performance: np.ndarray,
           archive_games: np.ndarray) -> Columns:
    keep = ~np.isnan(rating) | (archive_games > 0)
    return {
        "list_id": list_id, "player_id": ids[keep], "rating": rating[keep],
        "archive_performance": archive_performance[keep], "archive_games": archive_games[keep].astype(np.int64),
    }


def _calculations(list_id: str, ids: np.ndarray, previous: np.ndarray, r: ListResult) -> Columns:
    keep = r.played > 0
    t = r.totals
    counted = t.games[keep] > 0
    return {
        "list_id": list_id, "player_id": ids[keep], "previous_rating": previous[keep],
        "junior": r.junior[keep], "games_played": r.played[keep].astype(np.int64),
        "games": t.games[keep], "score": t.score[keep], "mean_opponent": t.mean_opponent[keep],
        "percentage": t.p[keep], "bonus": np.where(counted, bonus(np.nan_to_num(t.p[keep])), np.nan),
        "performance": np.where(counted, r.performance[keep], np.nan),
        "estimate": r.estimation.estimate[keep],
        "rule": r.rule[keep].astype(str), "unrounded": r.unrounded[keep], "rating": r.rating[keep],
    }


def _unanchored_groups(list_id: str, ids: np.ndarray, white: np.ndarray, black: np.ndarray,
                       r: ListResult) -> Columns:
    members = np.flatnonzero(r.unanchored)
    among = r.unanchored[white]  # unanchored players only ever meet each other
    label = component_labels(white[among], black[among], len(ids))[members]
    groups, size = np.unique(label, return_counts=True)
    return {"list_id": list_id, "group_id": ids[groups], "size": size.astype(np.int64)}


def _store(con: duckdb.DuckDBPyConnection, computed: dict[str, list[Columns]]) -> None:
    """Replace the computed tables in one transaction, one bulk insert per table."""
    with transaction(con):
        for table in COMPUTED_TABLES:
            con.execute(f"delete from {table}")
            parts = computed[table]
            if not parts:
                continue
            names = list(parts[0])
            sizes = [len(p[names[1]]) for p in parts]
            columns = {"list_id": pa.chunked_array([pa.repeat(p["list_id"], k) for p, k in zip(parts, sizes)])}
            # from_pandas: NaN becomes NULL (unrated, no estimate, no Ea)
            columns |= {k: pa.array(np.concatenate([p[k] for p in parts]), from_pandas=True) for k in names[1:]}
            arrow = pa.table(columns)  # noqa: F841 (read by DuckDB by name)
            names = ", ".join(names)
            con.execute(f"insert into {table} ({names}) select {names} from arrow")


__all__ = ["rate_all", "ensure_calendar", "RatedList"]
