"""The French Go Federation's rules of 1984 (rules.py; seed 004): game by game in the
order of ruling F2 (the game's date, its event's start date, its round, its order in
the file), across events; games rated in waves of distinct players.

Games, not events, are the unit (F2), so events that overlap interleave: a state is
stored at the end of each event (events in the order of their last game), and the
games rated before an event ends are every game since the previous event ended,
whatever their event. An event's calculations and game sides are its own games';
those played before the end of an earlier event wait in the state until it ends.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import duckdb
import numpy as np
import pandas as pd

from pipeline.ruleset.explanation import Explanation
from pipeline.ruleset.figures import RatedList
from pipeline.ruleset.games import local_indices
from pipeline.ruleset.interface import Fixes, Outcome, Period
from pipeline.systems.go_ffg1984.explanation import explained
from pipeline.systems.go import EventGames, GoRuleSet, GoState, side_rows
from pipeline.systems.go.grades import grade_text, level_of_points
from pipeline.systems.go_ffg1984.rules import *  # noqa: F403 (the rules, for their users)
from pipeline.systems.go_ffg1984.rules import COUNTED_CASES, Ffg1984Rules, GamesResult, rate_games

# Ruling F2: the order of the games (date, event's start, round, order in the file, and
# nothing else: two events that start and play on the same day interleave by round, the
# event's id is no key), and each event's last game in it.
GAME_ORDER = """
    select g.game_key, g.event_id,
           row_number() over (order by g.date, e.start_date, coalesce(g.round, 0), g.game_key) as position
    from go_games g join events e using (event_id)"""


@dataclass
class Ffg1984State(GoState):
    # Game sides of events not ended yet (F2 interleaves them), by event: rows of go_game_sides.
    waiting: dict[str, pd.DataFrame] = field(default_factory=dict)
    processed: int = 0  # games rated so far in this pass


class GoFfg1984(GoRuleSet):
    name = "go-ffg1984"
    title = "French rules of 1984"
    calculator_tables: dict[str, str] = {}
    Parameters = Ffg1984Rules
    events_at_once = False  # game by game, in date order
    recomputes_from_the_first = True  # an event's games reach across the others (F2)

    def periods(self, con: duckdb.DuckDBPyConnection, series: str) -> pd.DataFrame:
        """Events in the order of their last game (F2); an event without a game has no state,
        unless it was computed before: a list once computed never disappears (its games all
        withdrawn, it is revised with none), placed after the last game played by its end."""
        self.place_games(con)
        return con.execute(f"""
            with ordered as ({GAME_ORDER}),
            played as (select event_id, max(position) as last from ordered group by event_id),
            emptied as (select e.event_id, (select coalesce(max(o.position), 0) from ordered o
                                            join go_games g using (game_key) where g.date <= e.end_date) as last
                        from events e join lists l on l.series = ? and l.list_id = e.event_id
                        where e.event_id not in (select event_id from played)),
            placed as (select * from played union all by name select * from emptied)
            select e.event_id as list_id, e.start_date as window_start, e.end_date as window_end
            from placed p join events e using (event_id)
            order by p.last, e.end_date, e.event_id""", [series]).df()

    def explanation(self) -> Explanation:
        return explained(self)

    def starting_state(self, con: duckdb.DuckDBPyConnection, series: str, before: str | None) -> Ffg1984State:
        s = super().starting_state(con, series, before)
        return Ffg1984State(s.ids, s.rating, s.level, s.games, s.events)

    def period_games(self, con: duckdb.DuckDBPyConnection, series: str, periods: pd.DataFrame):
        """The games rated up to each event's end (F2): since the previous event ended."""
        games = super().period_games(con, series, periods)
        order = con.sql(GAME_ORDER).df().set_index("game_key")["position"]
        position = order.reindex(games.games["game_key"]).to_numpy()
        own = games.games["event_index"].to_numpy()
        ends = np.full(len(periods), -1)
        np.maximum.at(ends, own, position)
        ends = np.maximum.accumulate(ends)  # an emptied event ends where the one before it does: no game is its own
        slot = np.searchsorted(ends, position)  # the first event to end at or after the game
        at = np.lexsort((position, slot))
        table = games.games.iloc[at].reset_index(drop=True).assign(event_index=slot[at])
        bounds = np.searchsorted(table["event_index"].to_numpy(), np.arange(len(periods) + 1))
        return type(games)(table, games.black[at], games.white[at], bounds, games.forfeits)

    def rate_period(self, s: Ffg1984State, games: EventGames, period: Period, fixes: Fixes | None) -> Outcome:
        rules = self.parameters
        g = games.table
        who = fixes.who if fixes is not None else np.empty(0, dtype=np.int64)
        local, b, w = local_indices(games.black, games.white, len(s.ids))
        r = rate_games(b, w, g["winner"].to_numpy(str), g["handicap"].to_numpy(float), s.rating[local], rules)
        sides = pd.DataFrame(side_rows(period.list_id, s.ids[local], _sides(g, b, w, r, rules)))
        sides["event"] = np.tile(g["event_id"].to_numpy(object), 2)
        sides["order"] = s.processed + np.tile(np.arange(len(g)), 2)  # the games' place in the F2 order
        s.processed += len(g)
        s.rating[local] = r.points
        # Ruling F3: the grade is read from the points, no hysteresis.
        s.level[local] = np.where(np.isnan(r.points), s.level[local], level_of_points(r.points))
        counted = sides["rule"].isin(COUNTED_CASES).to_numpy()
        np.add.at(s.games, np.searchsorted(s.ids, sides["player_id"].to_numpy()[counted]), 1)
        for event, rows in sides[sides["event"] != period.list_id].groupby("event", sort=False):
            s.waiting[event] = pd.concat([s.waiting.get(event), rows], ignore_index=True)
        mine = pd.concat([s.waiting.pop(period.list_id, None), sides[sides["event"] == period.list_id]],
                         ignore_index=True)
        calculations = self.event_rows(s, period, mine)
        played = np.searchsorted(s.ids, calculations["player_id"][calculations["games"] > 0])
        s.events[played] += 1
        if fixes is not None:  # the commission's points, and the grade they read as; every later game follows
            s.rating[who] = fixes.ratings
            s.level[who] = level_of_points(fixes.ratings)
            calculations = _with_corrections(calculations, s, who, fixes)
        has = ~np.isnan(s.rating)
        return Outcome(
            state=s,
            rows={"calculations": calculations,
                  "player_state": {"list_id": period.list_id, "player_id": s.ids[has], "rating": s.rating[has],
                                   "grade": grade_text(s.level[has]), "games_total": s.games[has],
                                   "events": s.events[has]},
                  "go_game_sides": {"list_id": period.list_id,
                                    **{k: mine[k].to_numpy() for k in mine.columns
                                       if k not in ("list_id", "event", "order")}}},
            figures={"games_rated": len(mine) // 2, "forfeits": games.forfeits, "players_rated": int(has.sum()),
                     "new_players": 0},
            summary=RatedList(period.list_id, len(mine) // 2, int(has.sum())),
            detail=r)

    def event_rows(self, s: Ffg1984State, period: Period, mine: pd.DataFrame) -> dict:
        """Each player's row of the event from its own games: the points before their
        first game of it, after their last, the games counted."""
        mine = mine.sort_values(["player_id", "order"])
        by = mine.groupby("player_id", sort=True)
        first, last = by.head(1).set_index("player_id"), by.tail(1).set_index("player_id")
        ids = first.index.to_numpy(np.int64)
        before = first["own"].to_numpy(float)
        after = (last["own"] + last["change"]).to_numpy(float)
        counted = by["rule"].agg(lambda r: int(r.isin(COUNTED_CASES).sum())).reindex(ids).to_numpy(np.int64)
        declared = s.level[np.searchsorted(s.ids, ids)]
        return {"list_id": period.list_id, "player_id": ids,
                "rule": np.where(np.isnan(before), "no points to count from", "rated").astype(object),
                "previous_rating": before, "start": before, "unrounded": after, "rating": after,
                "grade_before": grade_text(np.where(np.isnan(before), declared, level_of_points(before))),
                "grade_after": grade_text(np.where(np.isnan(after), declared, level_of_points(after))),
                "games": counted, "games_played": by.size().reindex(ids).to_numpy(np.int64)}


def _with_corrections(calculations: dict, s: GoState, who: np.ndarray, fixes: Fixes) -> dict:
    """The event's rows with each corrected player's (added when they did not play)."""
    ids = s.ids[who]
    rows = pd.DataFrame({k: v for k, v in calculations.items() if k != "list_id"}).set_index("player_id")
    for player_id, rating, why in zip(ids, fixes.ratings, fixes.reasons):  # a handful
        if player_id not in rows.index:
            rows.loc[player_id] = {"previous_rating": np.nan, "start": np.nan, "games": 0, "games_played": 0,
                                   "grade_before": None}
            # a row added to an event with no game (its games all withdrawn) makes every column float
            rows = rows.astype({"rule": object, "grade_before": object, "grade_after": object})
        rows.loc[player_id, ["rating", "unrounded", "rule", "grade_after"]] = [
            rating, rating, f"correction by the rating commission: {why}", grade_text(level_of_points([rating]))[0]]
    rows = rows.sort_index()
    return {"list_id": calculations["list_id"], "player_id": rows.index.to_numpy(np.int64),
            **{k: rows[k].to_numpy() for k in rows.columns}}


def _sides(g: pd.DataFrame, b: np.ndarray, w: np.ndarray, r: GamesResult, rules: Ffg1984Rules) -> dict:
    k = len(g)
    handicap = g["handicap"].to_numpy(np.int64)
    black_result = g["black_result"].to_numpy(float)
    return {
        "game_key": np.tile(g["game_key"].to_numpy(np.int64), 2),
        "player": np.concatenate([b, w]), "opponent": np.concatenate([w, b]),
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


RULE_SET = GoFfg1984
