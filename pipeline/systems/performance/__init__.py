"""The national performance Elo (rules.py), the project's main rule set: three
lists a year from calendar windows (R1), each player's state a rating or archives."""
from __future__ import annotations

from dataclasses import dataclass, replace

import duckdb
import numpy as np

from pipeline.ruleset.explanation import Explanation
from pipeline.ruleset.figures import RatedList
from pipeline.ruleset.games import column, local_indices, mark_corrections
from pipeline.ruleset.interface import Fixes, ModelOnRead, Outcome, Period, RuleSet
from pipeline.ruleset.site_face import SiteFace
from pipeline.systems.performance.calendar import list_season, nominal_calendar
from pipeline.systems.performance.components import component_labels
from pipeline.systems.performance.explanation import explained
from pipeline.systems.performance.rules import *  # noqa: F403 (the rules, for their users)
from pipeline.systems.performance.rules import (RULES, ListResult, PerformanceRules, bonus, expected_score, published,
                                                rate_list)


@dataclass(frozen=True)
class PerformanceState:
    """Every registered player (ids ascending): birth year, published rating, archives."""

    ids: np.ndarray
    birth_year: np.ndarray
    rating: np.ndarray  # NaN while unrated
    archive_performance: np.ndarray
    archive_games: np.ndarray

    def with_opponent(self, rating: float) -> tuple[PerformanceState, int]:
        """The state with a fictitious rated opponent at the end (what-if), and its index."""
        return PerformanceState(np.append(self.ids, -1), np.append(self.birth_year, np.nan),
                                np.append(self.rating, rating), np.append(self.archive_performance, np.nan),
                                np.append(self.archive_games, 0)), len(self.ids)


class Performance(RuleSet):
    name = "performance"
    title = "the performance Elo"
    calculator_tables = {"dp": "dp_table"}  # D(P), the seed's table
    site = SiteFace(age_offset=0)  # ruling R2: its juniors are the site's Under 20
    rating_word = "Elo"
    game = "chess"
    Parameters = PerformanceRules
    tables = ("estimation_rounds", "unanchored_groups")
    extensions = {"player_state": "performance_state", "calculations": "performance_calculations",
                  "lists": "performance_lists"}
    figures = {"rounds": "rounds_used", "moving": "players_still_moving"}  # R9, in the run's summary
    # Pa and Na of a still-unrated player (R6, R7), in the row's `extra` as the file gave them
    initial_columns = {"archive_performance": "double", "archive_games": "integer"}
    InitialColumns = ModelOnRead("pipeline.systems.performance.initial:PerformanceInitialColumns")
    published_state = ("player_id", "rating::integer as rating", "archive_performance",
                       "nullif(archive_games, 0) as archive_games")
    publishes_estimates = True  # R12
    estimates_players = True
    # ruling R14: a whole number is taken as given, whatever its last digit (a foreign opponent's
    # FIDE rating, a transferred player's); only the ratings the rules compute are rounded (R3)
    initial_rating_rule = ("{rating} = round({rating})", "a whole number, whatever its last digit (R14)")

    forecast_columns = ("s.rating as rating",)  # the published list, which its rules rate from

    def explanation(self) -> Explanation:
        return explained(self)

    def win_probability(self, white, black, game):
        """P(D) of the D(P) table (rules.expected_score), D = White's rating − Black's."""
        return expected_score(white["rating"] - black["rating"], self.parameters)

    def rating_step(self) -> float:
        return self.parameters.rounding_step  # R3

    def rating_scale(self) -> tuple[float, float, float, str]:
        step = self.parameters.rounding_step
        return 1, 3000, step, f"a multiple of {step} from {step} to 3000 (R3)"

    def calendar(self, first, last):
        return nominal_calendar(first, last)

    def starting_state(self, con: duckdb.DuckDBPyConnection, series: str, before: str | None) -> PerformanceState:
        players = con.sql(f"""
            select p.player_id, p.birth_year, s.rating, s.archive_performance, s.archive_games
            from players p left join (
                select player_id, rating, archive_performance, archive_games from ({self.initial_ratings_sql()})
                where $before is null
                union all
                select player_id, rating, archive_performance, archive_games from {self.extended("player_state")}
                where series = $series and list_id = $before
            ) s using (player_id)
            order by p.player_id""", params={"before": before, "series": series}).to_arrow_table()
        return PerformanceState(column(players, "player_id", np.int64), column(players, "birth_year"),
                                column(players, "rating"), column(players, "archive_performance"),
                                np.nan_to_num(column(players, "archive_games")).astype(np.int64))

    def rate_window(self, state: PerformanceState, games, list_id: str, on_round=None,
                    also: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, ListResult]:
        """The window's players (global indices; `also` added without a game), the games
        in local indices, and the rules applied to them: the list `list_id` computed on its own players."""
        local, w, b = local_indices(games.white, games.black, len(state.ids), also=also)
        # ruling R2a: the season is the list id's, never read from the window's dates
        result = rate_list(w, b, games.white_score, state.rating[local], state.archive_performance[local],
                           state.archive_games[local], state.birth_year[local], list_season(list_id),
                           self.parameters, on_round)
        return local, w, b, result

    def rate_period(self, state: PerformanceState, games, period: Period, fixes: Fixes | None) -> Outcome:
        rules = self.parameters
        local, w, b, result = self.rate_window(state, games, period.list_id)
        rating = published(state.rating, rules)  # R3: Ei of those who did not play, as published
        rating[local] = result.rating
        archive_performance, archive_games = state.archive_performance.copy(), state.archive_games.copy()
        archive_performance[local], archive_games[local] = result.archive_performance, result.archive_games
        calculations = _calculations(period.list_id, state.ids[local], state.rating[local], result, rules)
        if fixes is not None:  # the commission's rating replaces the computed one
            rating[fixes.who] = published(fixes.ratings, rules)
            archive_performance[fixes.who], archive_games[fixes.who] = np.nan, 0
            mark_corrections(calculations, state.ids[fixes.who], rating[fixes.who], fixes.reasons)
        after = replace(state, rating=rating, archive_performance=archive_performance, archive_games=archive_games)
        keep = ~np.isnan(rating) | (archive_games > 0)
        rated = int((~np.isnan(rating)).sum())
        played = len(games.white)
        e = result.estimation
        return Outcome(
            state=after,
            rows={"player_state": {"list_id": period.list_id, "player_id": state.ids[keep], "rating": rating[keep],
                                   "archive_performance": archive_performance[keep],
                                   "archive_games": archive_games[keep].astype(np.int64)},
                  "calculations": calculations,
                  "estimation_rounds": {"list_id": period.list_id, "round": np.arange(1, e.rounds + 1),
                                        "players_moving": np.array(e.moving_per_round, dtype=np.int64)},
                  "unanchored_groups": _unanchored_groups(period.list_id, state.ids[local], w, b, result)},
            figures={"games_rated": played, "forfeits": int(games.forfeits[0]), "players_rated": rated,
                     "new_players": int((~np.isnan(rating) & np.isnan(state.rating)).sum()),
                     "estimated_players": len(e.players), "rounds_used": e.rounds,
                     "players_still_moving": e.still_moving, "unanchored_players": int(result.unanchored.sum()),
                     "seniors_without_birth_year": int(((result.played > 0)
                                                        & np.isnan(state.birth_year[local])).sum())},
            summary=RatedList(period.list_id, played, rated),
            detail=result)

    def card(self, con, series, player_id, list_id):
        return cards_module().card(con, series, self, player_id, list_id)

    bulk_cards = True

    def cards(self, con, series, list_id, player_ids=None):
        return cards_module().cards(con, series, self, list_id, player_ids)

    def card_data(self, con, series, list_id, player_ids=None):
        return cards_module().cards_data(con, series, self, list_id, player_ids)

    def whatif(self, con, series, player_id, opponent, list_id):
        return cards_module().whatif(con, series, self, player_id, opponent, list_id)


def cards_module():
    """The cards' module (card.py), imported when a card is asked for."""
    # why: its replay loads pandas; reading the lists does not
    from pipeline.systems.performance import card
    return card


def _calculations(list_id: str, ids: np.ndarray, previous: np.ndarray, r: ListResult,
                  rules: PerformanceRules = RULES) -> dict:
    keep = r.played > 0
    t = r.totals
    counted = t.games[keep] > 0
    return {
        "list_id": list_id, "player_id": ids[keep], "previous_rating": previous[keep],
        "junior": r.junior[keep], "games_played": r.played[keep].astype(np.int64),
        "games": t.games[keep], "score": t.score[keep], "mean_opponent": t.mean_opponent[keep],
        "percentage": t.p[keep], "bonus": np.where(counted, bonus(np.nan_to_num(t.p[keep]), rules), np.nan),
        "performance": np.where(counted, r.performance[keep], np.nan),
        "estimate": r.estimation.estimate[keep],
        "rule": r.rule[keep], "unrounded": r.unrounded[keep], "rating": r.rating[keep],
    }


def _unanchored_groups(list_id: str, ids: np.ndarray, white: np.ndarray, black: np.ndarray, r: ListResult) -> dict:
    members = np.flatnonzero(r.unanchored)
    among = r.unanchored[white]  # unanchored players only ever meet each other
    label = component_labels(white[among], black[among], len(ids))[members]
    groups, size = np.unique(label, return_counts=True)
    return {"list_id": list_id, "group_id": ids[groups], "size": size.astype(np.int64)}


RULE_SET = Performance
