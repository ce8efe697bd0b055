"""Rate: compute every list in order, each from the previous one, and store
the states, calculations and estimation records in the warehouse.

The games and players leave DuckDB once as arrays; each list is one call of
the rule set's array code; everything computed goes back in one insert per table.
"""
from __future__ import annotations

import dataclasses
import datetime as dt

import duckdb
import numpy as np
import pandas as pd
from tqdm import tqdm

from pipeline.calendar import CALENDARS, season_end_year
from pipeline.systems.performance.components import component_labels
from pipeline.periods import (Columns, RatedList, WindowGames, column, corrections, list_row, local_indices,
                              mark_corrections, to_arrow, window_games)
from pipeline.rate_fide import fide_lists
from pipeline.systems import record_system, warehouse_system
from pipeline.systems.performance import RULES, ListResult, PerformanceRules, bonus, published, rate_list
from pipeline.warehouse import row, scalar, stage, stage_sql, transaction

COMPUTED_TABLES = ("lists", "estimation_rounds", "unanchored_groups", "player_state", "calculations",
                   "pooled_games")
NEW_NAMES = {"lists": "lists", "estimation_rounds": "rounds", "unanchored_groups": "groups",
             "player_state": "state", "calculations": "calculations",
             "pooled_games": "pooled_games"}  # names the SQL stages read


def ensure_calendar(con: duckdb.DuckDBPyConnection, system: str = "performance") -> None:
    """Without a calendar file, add the rule set's nominal windows that cover every
    game (R1; FIDE: monthly)."""
    if scalar(con, "select count(*) from calendar where file_id is not null"):
        return
    first, last = row(con, "select min(date), max(date) from games")
    if first is None:
        return
    nominal = CALENDARS[system](first, last)
    con.register("nominal", nominal)
    con.execute("""insert into calendar select list_id, window_start, window_end, null, null from nominal n
                   where not exists (select 1 from calendar k where k.list_id = n.list_id)""")
    con.unregister("nominal")


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
    return (column(players, "player_id", np.int64), column(players, "birth_year"), column(players, "rating"),
            column(players, "archive_performance"),
            np.nan_to_num(column(players, "archive_games")).astype(np.int64))


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


def rate_all(con: duckdb.DuckDBPyConnection, run_id: int, system: str | None = None,
             show_progress: bool | None = None, from_list: str | None = None) -> list[RatedList]:
    """Compute the lists, in order, from the first one whose inputs changed (or
    `from_list`) to the last; each starts from the stored state of the one before.

    `system` is the rule set (performance or fide; default: the warehouse's).
    A recomputed list whose results differ gets a new revision (the old one is
    kept, with who changed and why); one whose results are the same is left as it is.
    A progress bar (per list, with the estimation's round) shows on a terminal;
    `show_progress=None` decides from the terminal, False hides it.
    """
    system = warehouse_system(con, system)
    record_system(con, system)
    ensure_calendar(con, system)
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
    games = window_games(con, lists, events=system == "fide")
    context = {"signature": signatures, "run_id": run_id,
               "registry_version": scalar(con, "select coalesce(max(version), 0) from player_versions")}
    bar = tqdm(total=len(lists), desc="rate", unit="list", disable=None if show_progress is None else not show_progress,
               leave=False)
    compute = fide_lists if system == "fide" else performance_lists
    frames, summary = compute(con, lists, before, games, context, bar)
    bar.close()
    revised = _store(con, frames, run_id)
    return [dataclasses.replace(r, revision=revised.get(r.list_id)) for r in summary]


def performance_lists(con: duckdb.DuckDBPyConnection, lists: pd.DataFrame, before: str | None, games: WindowGames,
                      context: dict, bar: tqdm, rules: PerformanceRules = RULES
                      ) -> tuple[dict[str, list[Columns]], list[RatedList]]:
    """The performance Elo lists, each from the one before: their warehouse rows and summaries."""
    ids, birth_year, rating, archive_performance, archive_games = starting_state(con, before)
    fixes = corrections(con, ids)
    frames: dict[str, list[Columns]] = {t: [] for t in COMPUTED_TABLES}
    summary = []

    def on_round(round_: int, moving: int) -> None:
        bar.set_postfix_str(f"{list_id} round {round_}, {moving} moving", refresh=True)

    for i, (list_id, start, end) in enumerate(lists.itertuples(index=False)):
        window = games.of_list(i)
        # The list is computed on the players of its window only; the others keep their state.
        local, w, b = local_indices(games.white[window], games.black[window], len(ids))
        result = rate_list(w, b, games.white_score[window], rating[local], archive_performance[local],
                           archive_games[local], birth_year[local],
                           season_end_year(pd.Timestamp(end).date()), rules, on_round)
        new_rating = published(rating, rules)  # R3: Ei of those who did not play, as published
        new_rating[local] = result.rating
        archive_performance, archive_games = archive_performance.copy(), archive_games.copy()
        archive_performance[local], archive_games[local] = result.archive_performance, result.archive_games
        calculations = _calculations(list_id, ids[local], rating[local], result)
        if list_id in fixes:  # the commission's rating replaces the computed one
            who, value, reason = fixes[list_id]
            new_rating[who] = published(value, rules)
            archive_performance[who], archive_games[who] = np.nan, 0
            mark_corrections(calculations, ids[who], new_rating[who], reason)
        frames["player_state"].append(_state(list_id, ids, new_rating, archive_performance, archive_games))
        frames["calculations"].append(calculations)
        frames["estimation_rounds"].append({
            "list_id": list_id,
            "round": np.arange(1, result.estimation.rounds + 1),
            "players_moving": np.array(result.estimation.moving_per_round, dtype=np.int64)})
        frames["unanchored_groups"].append(_unanchored_groups(list_id, ids[local], w, b, result))
        rated = int((~np.isnan(new_rating)).sum())
        played = window.stop - window.start
        frames["lists"].append(list_row(
            list_id, input_signature=str(context["signature"][list_id]), registry_version=context["registry_version"],
            window_start=start, window_end=end, run_id=context["run_id"],
            games_rated=played, forfeits=games.forfeits[i],
            players_rated=rated, new_players=int((~np.isnan(new_rating) & np.isnan(rating)).sum()),
            estimated_players=len(result.estimation.players),
            rounds_used=result.estimation.rounds, players_still_moving=result.estimation.still_moving,
            unanchored_players=int(result.unanchored.sum()),
            seniors_without_birth_year=int(((result.played > 0) & np.isnan(birth_year[local])).sum())))
        summary.append(RatedList(list_id, played, rated, result.estimation.rounds, result.estimation.still_moving))
        bar.update()
        rating = new_rating
    return frames, summary


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
            _register_rows(con, table, computed.get(table, []))
        con.execute(f"create or replace temp table changed as {stage_sql('31_changed_lists')}")
        con.execute(f"create or replace temp table revision_reasons as {stage_sql('32_revision_reasons')}")
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
                       select ch.list_id, coalesce(ch.old_revision, 0) + 1, ?, ?, n.registry_version,
                              (select count(*) from rating_changes r where r.list_id = ch.list_id
                                 and r.revision = coalesce(ch.old_revision, 0) + 1), w.reason
                       from changed ch join new_lists n using (list_id) join revision_reasons w using (list_id)""",
                    [run_id, now])
        revised = dict(con.execute("select list_id, coalesce(old_revision, 0) + 1 from changed").fetchall())
        con.execute("drop table changed")
        con.execute("drop table revision_reasons")
        for table in COMPUTED_TABLES:
            con.execute(f"drop view new_{NEW_NAMES[table]}")
            con.unregister(f"computed_{table}")
    return revised


def _register_rows(con: duckdb.DuckDBPyConnection, table: str, parts: list[Columns]) -> None:
    """The computed rows of a table as view new_<name>, with every column of the
    table (a rule set leaves the other's columns out: they are null)."""
    if parts:
        con.register(f"computed_{table}", to_arrow(parts))
    else:
        con.register(f"computed_{table}", con.sql(f"select * from {table} limit 0").to_arrow_table())
    have = set(con.sql(f"select * from computed_{table} limit 0").columns)
    kinds = con.execute("""select column_name, data_type from duckdb_columns()
                           where schema_name = 'main' and table_name = ? order by column_index""", [table]).fetchall()
    select = ", ".join(f'"{name}"' if name in have else f'null::{kind} as "{name}"'
                       for name, kind in kinds if name in have or name != "revision")
    con.execute(f"create or replace temp view new_{NEW_NAMES[table]} as select {select} from computed_{table}")


__all__ = ["RatedList", "UnknownList", "ensure_calendar", "first_to_compute", "rate_all", "starting_state"]
