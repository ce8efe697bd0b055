"""Rate: compute every list in order, each from the previous one, and store
the states, calculations and estimation records in the warehouse.

The games and players leave DuckDB once as arrays; each list is one call of
the rule set's array code; everything computed goes back in one insert per table.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from dataclasses import dataclass

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
from tqdm import tqdm

from pipeline.calendar import nominal_calendar, season_end_year
from pipeline.components import component_labels
from pipeline.systems.performance import RULES, ListResult, PerformanceRules, bonus, published, rate_list
from pipeline.warehouse import row, scalar, stage, stage_sql, transaction

COMPUTED_TABLES = ("lists", "estimation_rounds", "unanchored_groups", "player_state", "calculations")
NEW_NAMES = {"lists": "lists", "estimation_rounds": "rounds", "unanchored_groups": "groups",
             "player_state": "state", "calculations": "calculations"}  # names the SQL stages read


@dataclass(frozen=True)
class RatedList:
    list_id: str
    games: int
    players_rated: int
    rounds: int
    still_moving: int
    revision: int | None = None  # None: recomputed, unchanged


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


def starting_state(con: duckdb.DuckDBPyConnection, before: str | None) -> tuple[np.ndarray, ...]:
    """Every registered player (ids ascending) with birth year and state after the
    list `before` (None: the initial ratings): rating, archived performance and games."""
    players = con.sql("""
        select p.player_id, p.birth_year, s.rating, s.archive_performance, s.archive_games
        from players p left join (
            select player_id, rating, archive_performance, archive_games from initial_ratings where $before is null
            union all
            select player_id, rating, archive_performance, archive_games from player_state where list_id = $before
        ) s using (player_id)
        order by p.player_id""", params={"before": before}).to_arrow_table()
    return (_column(players, "player_id", np.int64), _column(players, "birth_year"), _column(players, "rating"),
            _column(players, "archive_performance"),
            np.nan_to_num(_column(players, "archive_games")).astype(np.int64))


def window_games(con: duckdb.DuckDBPyConnection, lists: pd.DataFrame) -> tuple[np.ndarray, ...]:
    """The played games of the lists' windows in canonical order: list index (1 = the
    first of `lists`), white, black (dense player indices), White's score; and the
    number of forfeits of each list."""
    con.register("lists_to_rate", lists)
    games = stage(con, "21_list_games").to_arrow_table()
    con.unregister("lists_to_rate")
    list_of_game, white, black, white_score = _canonical_order(
        _column(games, "list_index", np.int64), _column(games, "white", np.int64),
        _column(games, "black", np.int64), _column(games, "white_score"))
    played = ~np.isnan(white_score)  # forfeits have no score: counted, never rated
    forfeits = np.bincount(list_of_game[~played] - 1, minlength=len(lists))
    return (*(a[played] for a in (list_of_game, white, black, white_score)), forfeits)


class UnknownList(ValueError):
    """--from names a list that is not in the calendar span of the games."""


def first_to_compute(list_ids: list[str], signatures: dict[str, int], stored: dict[str, int],
                     from_list: str | None) -> int | None:
    """Index of the first list to recompute: the one asked for, else the first whose
    inputs changed (late games, corrections) or that was never computed; None: all current."""
    if from_list is not None:
        if from_list not in list_ids:
            raise UnknownList(f"no list {from_list!r}; the lists are {list_ids[0]} … {list_ids[-1]}"
                              if list_ids else f"no list {from_list!r}: there are no games")
        return list_ids.index(from_list)
    return next((i for i, list_id in enumerate(list_ids) if stored.get(list_id) != signatures[list_id]), None)


def rate_all(con: duckdb.DuckDBPyConnection, run_id: int, rules: PerformanceRules = RULES,
             show_progress: bool | None = None, from_list: str | None = None) -> list[RatedList]:
    """Compute the lists, in order, from the first one whose inputs changed (or
    `from_list`) to the last; each starts from the stored state of the one before.

    A recomputed list whose results differ gets a new revision (the old one is
    kept, with who changed and why); one whose results are the same is left as it is.
    A progress bar (per list, with the estimation's round) shows on a terminal;
    `show_progress=None` decides from the terminal, False hides it.
    """
    ensure_calendar(con)
    lists = stage(con, "20_lists").df()
    con.register("lists_to_rate", lists)
    signatures = {k: int(v) for k, v in stage(con, "22_list_signatures").fetchall()}
    con.unregister("lists_to_rate")
    stored = {k: int(v) for k, v in con.execute("select list_id, input_signature from lists").fetchall()}
    first = first_to_compute(list(lists["list_id"]), signatures, stored, from_list)
    if first is None:
        return []
    before = None if first == 0 else lists["list_id"].iloc[first - 1]
    lists = lists.iloc[first:].reset_index(drop=True)
    ids, birth_year, rating, archive_performance, archive_games = starting_state(con, before)
    corrections = _corrections(con, ids)
    list_of_game, white, black, white_score, forfeits = window_games(con, lists)
    bounds = np.searchsorted(list_of_game, np.arange(1, len(lists) + 1), side="left")
    ends = np.searchsorted(list_of_game, np.arange(1, len(lists) + 1), side="right")
    max_file_id = scalar(con, "select max(file_id) from source_files")

    frames: dict[str, list[Columns]] = {t: [] for t in COMPUTED_TABLES}
    summary = []
    bar = tqdm(total=len(lists), desc="rate", unit="list", disable=None if show_progress is None else not show_progress,
               leave=False)

    def on_round(round_: int, moving: int) -> None:
        bar.set_postfix_str(f"{list_id} round {round_}, {moving} moving", refresh=True)

    for (list_id, start, end), lo, hi, forfeited in zip(lists.itertuples(index=False), bounds, ends, forfeits):
        # The list is computed on the players of its window only; the others keep their state.
        local, w, b = local_indices(white[lo:hi], black[lo:hi], len(ids))
        result = rate_list(w, b, white_score[lo:hi], rating[local], archive_performance[local],
                           archive_games[local], birth_year[local],
                           season_end_year(pd.Timestamp(end).date()), rules, on_round)
        new_rating = published(rating, rules)  # R3: Ei of those who did not play, as published
        new_rating[local] = result.rating
        archive_performance, archive_games = archive_performance.copy(), archive_games.copy()
        archive_performance[local], archive_games[local] = result.archive_performance, result.archive_games
        calculations = _calculations(list_id, ids[local], rating[local], result)
        if list_id in corrections:  # the commission's rating replaces the computed one
            who, value, reason = corrections[list_id]
            new_rating[who] = published(value, rules)
            archive_performance[who], archive_games[who] = np.nan, 0
            _mark_corrections(calculations, ids[who], new_rating[who], reason)
        frames["player_state"].append(_state(list_id, ids, new_rating, archive_performance, archive_games))
        frames["calculations"].append(calculations)
        frames["estimation_rounds"].append({
            "list_id": list_id,
            "round": np.arange(1, result.estimation.rounds + 1),
            "players_moving": np.array(result.estimation.moving_per_round, dtype=np.int64)})
        frames["unanchored_groups"].append(_unanchored_groups(list_id, ids[local], w, b, result))
        rated = int((~np.isnan(new_rating)).sum())
        frames["lists"].append({"list_id": list_id} | {k: np.array([v]) for k, v in {
            "input_signature": str(signatures[list_id]), "max_file_id": max_file_id,
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
    revised = _store(con, frames, run_id)
    return [dataclasses.replace(r, revision=revised.get(r.list_id)) for r in summary]


def _corrections(con: duckdb.DuckDBPyConnection, ids: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray, list[str]]]:
    """The latest correction of each player at each list: list_id → (indices, ratings, reasons)."""
    rows = con.execute("""select list_id, player_id, arg_max(rating, entered_at), arg_max(reason, entered_at)
                          from corrections group by list_id, player_id order by list_id, player_id""").fetchall()
    out: dict[str, tuple[np.ndarray, np.ndarray, list[str]]] = {}
    for list_id, group in itertools.groupby(rows, key=lambda r: r[0]):  # a handful of corrections
        _, players, values, reasons = zip(*group)
        out[list_id] = (np.searchsorted(ids, players), np.array(values, dtype=float), list(reasons))
    return out


def _mark_corrections(calculations: Columns, corrected: np.ndarray, ratings: np.ndarray, reasons: list[str]) -> None:
    """Corrected players who played: their card says so and shows the rating in force."""
    for player_id, value, reason in zip(corrected, ratings, reasons):  # a handful per list
        hit = calculations["player_id"] == player_id
        calculations["rule"] = np.where(hit, f"correction: {reason}", calculations["rule"])
        calculations["rating"] = np.where(hit, value, calculations["rating"])


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


def local_indices(white: np.ndarray, black: np.ndarray, n: int,
                   also: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The players of a window (global indices, ascending; `also` added even
    without a game) and the games in local indices."""
    present = np.zeros(n, dtype=bool)
    present[white] = True
    present[black] = True
    if also is not None:
        present[also] = True
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


def _store(con: duckdb.DuckDBPyConnection, computed: dict[str, list[Columns]], run_id: int) -> dict[str, int]:
    """Keep what changed, in one transaction: each recomputed list whose results
    differ from its stored revision gets a new one (the old rows move to the
    *_revisions tables, who changed goes to rating_changes); the others stay as
    they are, with their new input signature. Returns list_id → new revision."""
    now = dt.datetime.now()
    with transaction(con):
        for table in COMPUTED_TABLES:
            con.register(f"new_{NEW_NAMES[table]}", _arrow(computed[table]))
        con.execute(f"create or replace temp table changed as {stage_sql('31_changed_lists')}")
        if scalar(con, "select count(*) from changed where old_revision is not null"):  # a revision, not a first
            con.execute(f"insert into rating_changes select c.list_id, ch.old_revision + 1, c.* exclude (list_id) "
                        f"from ({stage_sql('30_rating_changes')}) c join changed ch using (list_id) "
                        f"where ch.old_revision is not null")
            con.execute("""insert into player_state_revisions select l.revision, s.* from player_state s
                           join lists l using (list_id) where list_id in (select list_id from changed)""")
            con.execute("""insert into calculation_revisions select l.revision, c.* from calculations c
                           join lists l using (list_id) where list_id in (select list_id from changed)""")
        for table in COMPUTED_TABLES:
            con.execute(f"delete from {table} where list_id in (select list_id from changed)")
            new = f"new_{NEW_NAMES[table]}"
            extra = ("coalesce(ch.old_revision, 0) + 1 as revision, " if table == "lists" else "")
            con.execute(f"""insert into {table} by name
                            select {extra}n.* from {new} n join changed ch using (list_id)""")
        con.execute("""update lists set input_signature = n.input_signature, forfeits = n.forfeits
                       from new_lists n where lists.list_id = n.list_id""")
        con.execute("""insert into list_revisions
                       select ch.list_id, coalesce(ch.old_revision, 0) + 1, ?, ?, n.max_file_id,
                              (select count(*) from rating_changes r where r.list_id = ch.list_id
                                 and r.revision = coalesce(ch.old_revision, 0) + 1)
                       from changed ch join new_lists n using (list_id)""", [run_id, now])
        revised = dict(con.execute("select list_id, coalesce(old_revision, 0) + 1 from changed").fetchall())
        con.execute("drop table changed")
        for table in COMPUTED_TABLES:
            con.unregister(f"new_{NEW_NAMES[table]}")
    return revised


def _arrow(parts: list[Columns]) -> pa.Table:
    """One Arrow table from the per-list parts; NaN becomes NULL."""
    names = list(parts[0])
    sizes = [len(p[names[1]]) for p in parts]
    columns = {"list_id": pa.chunked_array([pa.repeat(p["list_id"], k) for p, k in zip(parts, sizes)])}
    columns |= {k: pa.array(np.concatenate([p[k] for p in parts]), from_pandas=True) for k in names[1:]}
    return pa.table(columns)


__all__ = ["RatedList", "UnknownList", "ensure_calendar", "first_to_compute", "local_indices", "rate_all",
           "starting_state", "window_games"]
