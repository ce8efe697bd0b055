"""The FIDE Elo (rules.py; seed 003 and FIDE Handbook B02): monthly lists, one K a
period from the list in force at its start, newcomers rated from a pool of games."""
from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd

from pipeline.rate.periods import local_indices, mark_corrections, window_games
from pipeline.systems.base import Fixes, Outcome, Period, RatedList, RuleSet
from pipeline.systems.fide.calendar import monthly_calendar
from pipeline.systems.fide.pool import FideState, fide_starting_state, pool_cutoff
from pipeline.systems.fide.rules import *  # noqa: F403 (the rules, for their users)
from pipeline.systems.fide.rules import FideRules, PeriodResult, rate_period


class Fide(RuleSet):
    name = "fide"
    title = "FIDE rules"
    game = "chess"
    Parameters = FideRules
    tables = ("pooled_games",)
    state_columns = ("games_total", "peak_rating")
    published_state = ("player_id", "rating::integer as rating", "games_total", "peak_rating::integer as peak_rating")

    def rating_step(self) -> float:
        return 1

    def rating_scale(self) -> tuple[float, float, float, str]:
        floor = self.parameters.floor  # below it a player is unrated (B02 7.2.1)
        return floor, 3000, 1, f"a whole number from {floor:.0f} to 3000"

    def calendar(self, first, last):
        return monthly_calendar(first, last)

    def starting_state(self, con: duckdb.DuckDBPyConnection, series: str, before: str | None) -> FideState:
        return fide_starting_state(con, series, before)

    def period_games(self, con, periods):
        return window_games(con, periods, events=True)  # the first-event rule reads days and events

    def rate_arrays(self, s: FideState, games, end: pd.Timestamp, also: int | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, PeriodResult]:
        """The period's players (global indices), the games in local indices, and the rules applied."""
        rules = self.parameters
        local, w, b = local_indices(games.white, games.black, len(s.ids), also=also)
        s.pool.since(pool_cutoff(end, rules))
        pool_games, pool_opponents, pool_score = (a[local] for a in s.pool.totals(len(s.ids)))
        r = rate_period(w, b, games.white_score, games.day, games.event, s.rating[local], s.games_total[local],
                        s.peak[local], s.birth_year[local], pd.Timestamp(end).year, pool_games, pool_opponents,
                        pool_score, s.started[local], rules)
        return local, w, b, r

    def rate_period(self, s: FideState, games, period: Period, fixes: Fixes | None) -> Outcome:
        local, w, b, r = self.rate_arrays(s, games, pd.Timestamp(period.end))
        previous = s.rating
        s.rating = s.rating.copy()
        s.rating[local], s.games_total[local], s.peak[local], s.started[local] = r.rating, r.games_total, r.peak, r.started
        calculations = _calculations(period.list_id, s.ids[local], previous[local], r)
        if fixes is not None:  # the commission's rating replaces the computed one
            s.rating[fixes.who] = fixes.ratings
            s.peak[fixes.who] = np.fmax(s.peak[fixes.who], fixes.ratings)
            mark_corrections(calculations, s.ids[fixes.who], fixes.ratings, fixes.reasons)
        s.pool.forget(~np.isnan(s.rating) & np.isnan(previous))
        joins = (r.pool_games > 0) | (r.ignored_games > 0)
        s.pool.add(pd.Timestamp(period.start), local[r.pool_games > 0],
                   *(a[r.pool_games > 0] for a in (r.pool_games, r.pool_opponents, r.pool_score)))
        keep = ~np.isnan(s.rating) | (s.games_total > 0)
        rated = int((~np.isnan(s.rating)).sum())
        played = len(games.white)
        return Outcome(
            state=s,
            rows={"pooled_games": {"list_id": period.list_id, "player_id": s.ids[local][joins],
                                   "games": r.pool_games[joins], "opponents_sum": r.pool_opponents[joins],
                                   "score": r.pool_score[joins], "ignored_games": r.ignored_games[joins]},
                  "player_state": {"list_id": period.list_id, "player_id": s.ids[keep], "rating": s.rating[keep],
                                   "games_total": s.games_total[keep], "peak_rating": s.peak[keep]},
                  "calculations": calculations},
            figures={"games_rated": played, "forfeits": int(games.forfeits[0]), "players_rated": rated,
                     "new_players": int((~np.isnan(s.rating) & np.isnan(previous)).sum()),
                     "estimated_players": 0, "rounds_used": 0, "players_still_moving": 0, "unanchored_players": 0,
                     "seniors_without_birth_year": int(np.isnan(s.birth_year[local]).sum())},
            summary=RatedList(period.list_id, played, rated, 0, 0),
            detail=r)

    def card(self, con, series, player_id, list_id):
        from pipeline.systems.fide.card import fide_card
        return fide_card(con, series, self, player_id, list_id)

    def whatif(self, con, series, player_id, opponent, list_id):
        from pipeline.systems.fide.card import fide_whatif
        return fide_whatif(con, series, self, player_id, opponent, list_id)


def _calculations(list_id: str, ids: np.ndarray, previous: np.ndarray, r: PeriodResult) -> dict:
    return {
        "list_id": list_id, "player_id": ids, "previous_rating": previous, "junior": r.junior,
        "games_played": r.played.astype(np.int64), "games": r.games.astype(np.int64), "score": r.score,
        "mean_opponent": r.mean_opponent, "percentage": r.p, "bonus": r.dp, "performance": r.performance,
        "rule": r.rule.astype(str), "unrounded": r.unrounded, "rating": r.rating, "expected": r.expected,
        "k": r.k, "change": r.change,
    }


RULE_SET = Fide
