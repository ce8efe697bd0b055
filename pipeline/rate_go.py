"""The rating stage under the Go rule sets (go-belgium, go-ffg1984).

Events are rated in date order (end date, then start date, then id), each from
the ratings after the one before; at each rating every event is recomputed from
the first, so late results and the commission's corrections change every later
event. One event is one call of the rule set's array code.

Starting points: the --ratings file (Go points); else a declared grade's middle
(a new member, 50 for 1 dan); else none (NC: the Belgian rules give a first
rating from the first event, ruling G2; the 1984 rules rate only games between
players with points).
"""
from __future__ import annotations

from dataclasses import dataclass

import duckdb
import numpy as np
import pandas as pd

from pipeline.periods import Columns, column, corrections, local_indices, to_arrow
from pipeline.systems import go_belgium, go_ffg1984
from pipeline.systems.go.grades import grade_text, level_of_points, levels_of_grades, middle_of, next_level
from pipeline.warehouse import transaction

GO_TABLES = ("go_state", "go_results", "go_game_sides")


@dataclass(frozen=True)
class RatedEvent:
    event_id: str
    games: int
    players: int
    first_ratings: int  # NC players rated for the first time (G2)
    rated_after: int  # players with a rating after the event


@dataclass
class GoState:
    ids: np.ndarray
    rating: np.ndarray  # NaN: no rating
    level: np.ndarray  # NaN: no grade
    games: np.ndarray
    events: np.ndarray


def starting_points(con: duckdb.DuckDBPyConnection) -> GoState:
    """Every registered player (ids ascending) before the first event."""
    players = con.sql("""
        select p.player_id, p.grade, r.rating
        from players p left join initial_ratings r using (player_id)
        order by p.player_id""").to_arrow_table()
    ids = column(players, "player_id", np.int64)
    declared = levels_of_grades(players.column("grade").to_pandas())
    rating = column(players, "rating")
    # A starting rating keeps the declared grade, else the grade it reads as (G4).
    level = np.where(np.isnan(rating), declared, np.where(np.isnan(declared), level_of_points(rating), declared))
    rating = np.where(np.isnan(rating), middle_of(declared), rating)  # new members: the middle of their grade
    return GoState(ids, rating, level, np.zeros(len(ids), dtype=np.int64), np.zeros(len(ids), dtype=np.int64))


def _events(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    return con.sql("""select event_id, name, start_date, end_date, class, board_size from go_events
                      order by end_date, start_date, event_id""").df()


def _games(con: duckdb.DuckDBPyConnection, events: pd.DataFrame) -> pd.DataFrame:
    """The games with their event's index, in rating order: event, date, input order."""
    con.register("ordered_events", events.assign(event_index=np.arange(len(events))))
    games = con.sql("""
        select e.event_index, g.game_key, g.date, g.black_id, g.white_id, g.winner, g.black_result, g.handicap,
               g.weight, e.class, e.board_size
        from go_games g join ordered_events e using (event_id)
        order by e.event_index, g.date, g.game_key""").df()
    con.unregister("ordered_events")
    return games


def rate_go(con: duckdb.DuckDBPyConnection, system: str, belgium: go_belgium.GoBelgiumRules = go_belgium.RULES,
            ffg: go_ffg1984.Ffg1984Rules = go_ffg1984.RULES) -> list[RatedEvent]:
    """Rate every event in order and store the states, results and game sides."""
    events = _events(con)
    s = starting_points(con)
    games = _games(con, events)
    # Registry ids → dense indices (ids ascending; validation put every player in the registry).
    black = np.searchsorted(s.ids, games["black_id"].to_numpy(np.int64))
    white = np.searchsorted(s.ids, games["white_id"].to_numpy(np.int64))
    bounds = np.searchsorted(games["event_index"].to_numpy(), np.arange(len(events) + 1))
    weight = go_belgium.game_weight(games["class"].to_numpy(), games["board_size"].to_numpy(),
                                    games["weight"].to_numpy(float), belgium)
    fixes = corrections(con, s.ids)
    frames: dict[str, list[Columns]] = {t: [] for t in GO_TABLES}
    summary = []
    for i, event_id in enumerate(events["event_id"]):
        sl = slice(bounds[i], bounds[i + 1])
        local, b, w = local_indices(black[sl], white[sl], len(s.ids))
        before_rating, before_level = s.rating[local].copy(), s.level[local].copy()
        g = games.iloc[sl]
        if system == "go-belgium":
            r = go_belgium.rate_event(b, w, g["black_result"].to_numpy(float), g["handicap"].to_numpy(float),
                                      weight[sl], before_rating, before_level, belgium)
            after, level, counted_games = r.rating, r.level, r.games
            frames["go_game_sides"].append(_belgian_sides(event_id, s.ids[local], g, r))
            start, first = r.start, r.first
        else:
            r = go_ffg1984.rate_games(b, w, g["winner"].to_numpy(str), g["handicap"].to_numpy(float),
                                      before_rating, ffg)
            after = r.points
            level = np.where(np.isnan(after), np.nan, next_level(before_level, after))
            rated = r.case != go_ffg1984.Case.UNKNOWN
            counted_games = np.bincount(np.concatenate([b[rated], w[rated]]), minlength=len(local))
            frames["go_game_sides"].append(_ffg_sides(event_id, s.ids[local], g, b, w, r, ffg))
            start, first = before_rating, np.zeros(len(local), dtype=bool)
        s.rating[local], s.level[local] = after, level
        s.games[local] += counted_games
        s.events[local] += counted_games > 0
        who, value, _ = fixes.get(event_id, (np.empty(0, dtype=np.int64), np.empty(0), []))
        # The commission's rating, and the grade it reads as; every later event follows from it.
        s.rating[who] = value
        s.level[who] = level_of_points(value)
        frames["go_results"].append({
            "event_id": event_id, "player_id": s.ids[local],
            "rule": np.select([np.isin(local, who), first, np.isnan(start)],
                              ["correction by the rating commission", "first rating (G2)",
                               "no rating to count from"], "rated").astype(object),
            "rating_before": before_rating, "start": start, "rating_after": s.rating[local],
            "grade_before": grade_text(before_level), "grade_after": grade_text(s.level[local]),
            "games": counted_games.astype(np.int64)})
        has = ~np.isnan(s.rating)
        frames["go_state"].append({
            "event_id": event_id, "player_id": s.ids[has], "rating": s.rating[has],
            "grade": grade_text(s.level[has]), "games": s.games[has], "events": s.events[has]})
        summary.append(RatedEvent(event_id, sl.stop - sl.start, len(local), int(first.sum()), int(has.sum())))
    _store(con, frames)
    return summary


def _belgian_sides(event_id: str, ids: np.ndarray, g: pd.DataFrame, r: go_belgium.EventResult) -> Columns:
    s, t = r.sides, r.terms
    k = len(g)
    return {
        "event_id": event_id, "game_key": np.tile(g["game_key"].to_numpy(np.int64), 2),
        "player_id": ids[s.player], "opponent_id": ids[s.opponent],
        "colour": np.repeat(np.array(["B", "W"], dtype=object), k),
        "handicap": np.tile(g["handicap"].to_numpy(np.int64), 2), "result": s.result,
        "own": t["own"], "opponent_rating": t["opponent_rating"], "difference": t["difference"], "con": t["con"],
        "a": t["a"], "expected": t["expected"], "weight": s.weight, "factor": s.factor,
        "change": np.where(r.counted, t["change"], 0.0),
        "rule": np.where(r.counted, "counted", "not counted: a player has no rating to count from").astype(object),
    }


def _ffg_sides(event_id: str, ids: np.ndarray, g: pd.DataFrame, b: np.ndarray, w: np.ndarray,
               r: go_ffg1984.GamesResult, rules: go_ffg1984.Ffg1984Rules) -> Columns:
    k = len(g)
    handicap = g["handicap"].to_numpy(np.int64)
    black_result = g["black_result"].to_numpy(float)
    return {
        "event_id": event_id, "game_key": np.tile(g["game_key"].to_numpy(np.int64), 2),
        "player_id": ids[np.concatenate([b, w])], "opponent_id": ids[np.concatenate([w, b])],
        "colour": np.repeat(np.array(["B", "W"], dtype=object), k), "handicap": np.tile(handicap, 2),
        "result": np.concatenate([black_result, 1 - black_result]),
        "own": np.concatenate([r.black_before, r.white_before]),
        "opponent_rating": np.concatenate([r.white_before, r.black_before]),
        # the fictitious levels' gap: Black plays at its points + 100 per stone received
        "difference": np.concatenate([r.black_before + rules.stone_value * handicap - r.white_before,
                                      r.white_before - r.black_before - rules.stone_value * handicap]),
        "change": np.concatenate([r.black_change, r.white_change]),
        "rule": np.tile(r.case, 2).astype(object),
    }


def _store(con: duckdb.DuckDBPyConnection, frames: dict[str, list[Columns]]) -> None:
    """Replace every Go result, in one transaction."""
    with transaction(con):
        for table in GO_TABLES:
            con.execute(f"delete from {table}")
            if frames[table]:
                con.register("computed", to_arrow(frames[table]))
                con.execute(f"insert into {table} by name select * from computed")
                con.unregister("computed")
