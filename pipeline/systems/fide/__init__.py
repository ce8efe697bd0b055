"""The FIDE Elo (rules.py; seed 003 and FIDE Handbook B02): monthly lists, each
rating the events that ended before it closed, every event from the ratings of the
list in force when it started (X1-X3); newcomers rated from a pool of games."""
from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd

from pipeline.ruleset.explanation import Explanation
from pipeline.ruleset.figures import RatedList
from pipeline.ruleset.games import local_indices, mark_corrections
from pipeline.ruleset.interface import Fixes, ModelOnRead, Outcome, Period, RuleSet
from pipeline.systems.fide.explanation import explained
from pipeline.systems.fide.calendar import list_date as calendar_list_date
from pipeline.systems.fide.calendar import monthly_calendar
from pipeline.systems.fide.card import fide_card, fide_card_text, fide_cards_data, fide_whatif
from pipeline.systems.fide.events import FideGames, fide_period_games, place_fide_games
from pipeline.systems.fide.first_event import rated_opponent_sides
from pipeline.systems.fide.pool import EPOCH, INITIAL_COLUMNS, FideState, fide_starting_state, state_arrays
from pipeline.systems.fide.rules import *  # noqa: F403 (the rules, for their users)
from pipeline.systems.fide.rules import (FideRules, PeriodResult, event_sides, expected_score, is_junior, k_factor,
                                         rate_sides, rating_difference)


class Fide(RuleSet):
    name = "fide"
    title = "FIDE rules"
    calculator_tables = {"expected": "expected_table"}  # table 8.1.2
    rating_word = "Elo"
    game = "chess"
    Parameters = FideRules
    tables = ("pooled_games",)
    inactive_column = "inactive"  # B02 7.2.2, ruling X7
    history_bound = "event"  # ruling X1: a late game is filed with its event, rated on the list after it ends
    extensions = {"player_state": "fide_state", "calculations": "fide_calculations", "lists": "fide_lists"}
    published_state = ("player_id", "rating::integer as rating", "games_total", "peak_rating::integer as peak_rating",
                       "k", "inactive")
    pairing_state = ("k", "birth_year", "inactive")  # FIDE's TXT layout: K, B-day, the inactive flag
    # games to date and peak, which choose K (X5), in the row's `extra` as the file gave them
    initial_columns = INITIAL_COLUMNS
    InitialColumns = ModelOnRead("pipeline.systems.fide.initial:FideInitialColumns")

    forecast_columns = ("s.rating as rating",)  # the list's rating, as its games are rated from

    def explanation(self) -> Explanation:
        return explained(self)

    def win_probability(self, white, black, game):
        """White's expected score as FIDE rates a game: table 8.1.2 (its table file, or the
        logistic option) at D capped at 400, a player of 2650 or more exempt in an event from
        the exception's date (ruling X4). The game's day stands for its event's start: the
        games scored carry no event, and the two differ only for a game of 2650 or more in an
        event that straddles the date."""
        rules = self.parameters
        exempt = game["day"] >= np.datetime64(rules.cap_exempt_since, "D")
        return expected_score(rating_difference(white["rating"], black["rating"], rules, exempt), rules)

    def rating_step(self) -> float:
        return 1

    def rating_scale(self) -> tuple[float, float, float, str]:
        floor = self.parameters.floor  # below it a player is unrated (B02 7.2.1)
        return floor, 3000, 1, f"a whole number from {floor:.0f} to 3000"

    def calendar(self, first, last):
        return monthly_calendar(first, last, self.parameters.closing_days)

    def place_games(self, con: duckdb.DuckDBPyConnection) -> None:
        place_fide_games(con, self.parameters.closing_days)  # rulings X1-X3, X6: by event

    def starting_state(self, con: duckdb.DuckDBPyConnection, series: str, before: str | None) -> FideState:
        return fide_starting_state(con, series, before)

    def period_games(self, con, series, periods):
        return fide_period_games(con, series, periods, lambda key: state_arrays(con, series, key))

    def start_arrays(self, s: FideState, g: FideGames, key: str | None) -> tuple[np.ndarray, ...]:
        """(rating, games_total, peak) of every player on the list an event started from (X2)."""
        if key == s.list_id:
            return s.arrays()
        if key in s.snapshots:
            return s.snapshots[key]
        return g.start_states[key]

    def rate_arrays(self, s: FideState, g: FideGames, end: pd.Timestamp, also: int | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, PeriodResult]:
        """The list's players (global indices), the games in local indices, and the rules applied."""
        rules = self.parameters
        games, x = g.games, g.games.extra
        local, w, b = local_indices(games.white, games.black, len(s.ids), also=also)
        if g.firsts_before is not None:  # X8: what the lists computed before this pass tell
            s.firsts.merge(*g.firsts_before)
        s.pool.within(s.place + 1, rules.pool_months)  # X9: this list and the 25 before it
        pool_games, pool_opponents, pool_score = (a[local] for a in s.pool.totals(len(s.ids)))
        start_white = [np.empty(len(w)), np.empty(len(w), dtype=np.int64), np.empty(len(w))]
        start_black = [np.empty(len(w)), np.empty(len(w), dtype=np.int64), np.empty(len(w))]
        for key in dict.fromkeys(x["start_list"].tolist()):  # the few lists this list's events started from
            at = x["start_list"] == key
            for k, values in enumerate(self.start_arrays(s, g, key)):
                start_white[k][at], start_black[k][at] = values[games.white[at]], values[games.black[at]]
        sides = event_sides(w, b, games.white_score, x["day"], x["event_key"], x["first_day"], x["match"],
                            x["after_decided"], start_white, start_black, s.rating[local], s.games_total[local],
                            s.peak[local], rules)
        r = rate_sides(sides, s.rating[local], s.games_total[local], s.peak[local], s.birth_year[local],
                       list_date(end, rules).year, pool_games, pool_opponents, pool_score, s.firsts.event[local],
                       s.ever_rated[local], rules)
        return local, w, b, r

    def rate_period(self, s: FideState, g: FideGames, period: Period, fixes: Fixes | None) -> Outcome:
        rules = self.parameters
        games = g.games
        local, w, b, r = self.rate_arrays(s, g, pd.Timestamp(period.end))
        previous = s.rating
        s.rating, s.games_total, s.peak = s.rating.copy(), s.games_total.copy(), s.peak.copy()
        s.rating[local], s.games_total[local], s.peak[local] = r.rating, r.games_total, r.peak
        s.last_rated[local] = np.maximum(s.last_rated[local], r.last_rated)
        calculations = _calculations(period.list_id, s.ids[local], previous[local], r)
        if fixes is not None:  # the commission's rating replaces the computed one
            s.rating[fixes.who] = fixes.ratings
            s.peak[fixes.who] = np.fmax(s.peak[fixes.who], fixes.ratings)
            mark_corrections(calculations, s.ids[fixes.who], fixes.ratings, fixes.reasons)
        s.ever_rated |= ~np.isnan(s.rating)  # a correction may give an unrated player a rating
        s.pool.forget(~np.isnan(s.rating) & np.isnan(previous))
        joins = (r.pool_games > 0) | (r.ignored_games > 0)
        s.place += 1
        s.pool.add(s.place, local[r.pool_games > 0],
                   *(a[r.pool_games > 0] for a in (r.pool_games, r.pool_opponents, r.pool_score)))
        s.began = (pd.Timestamp(period.start) - EPOCH).days if s.began is None else s.began
        published = list_date(pd.Timestamp(period.end), rules)
        keep = ~np.isnan(s.rating) | (s.games_total > 0)
        k_next, _ = k_factor(s.rating, s.games_total, s.peak, is_junior(s.birth_year, published.year, rules),
                             np.zeros(len(s.ids), dtype=np.int64), rules)
        # B02 7.2.2: no rated game in the 12 months before the list (activity before the history is unknown).
        # Ruling X7: for a list dated D, the days from D minus 12 months (included) to D (excluded).
        active_since = (published - pd.DateOffset(months=rules.inactive_months) - EPOCH).days
        inactive = np.where(s.last_rated >= 0, s.last_rated, s.began) < active_since
        last_rated = np.where(s.last_rated >= 0, s.last_rated, np.iinfo(np.int64).min).astype("datetime64[D]")
        self.keep_start_lists(s, g, period)
        starting = g.starting_from(period.list_id)
        if starting is not None:  # X8: the games of later lists whose events start from this one
            s.firsts.merge(*rated_opponent_sides(*starting, s.rating))
        rated = int((~np.isnan(s.rating)).sum())
        played = len(games.white)
        return Outcome(
            state=s,
            rows={"pooled_games": {"list_id": period.list_id, "player_id": s.ids[local][joins],
                                   "games": r.pool_games[joins], "opponents_sum": r.pool_opponents[joins],
                                   "score": r.pool_score[joins], "ignored_games": r.ignored_games[joins]},
                  "player_state": {"list_id": period.list_id, "player_id": s.ids[keep], "rating": s.rating[keep],
                                   "games_total": s.games_total[keep], "peak_rating": s.peak[keep],
                                   "last_rated": last_rated[keep],
                                   "k": np.where(np.isnan(s.rating), np.nan, k_next)[keep],
                                   "inactive": np.where(np.isnan(s.rating), None, inactive)[keep]},
                  "calculations": calculations},
            figures={"games_rated": played, "forfeits": int(games.forfeits[0]), "players_rated": rated,
                     "new_players": int((~np.isnan(s.rating) & np.isnan(previous)).sum()),
                     "seniors_without_birth_year": int(np.isnan(s.birth_year[local]).sum())},
            summary=RatedList(period.list_id, played, rated),
            detail=r)

    def keep_start_lists(self, s: FideState, g: FideGames, period: Period) -> None:
        """Keep this list's state while a later list of the pass has an event that
        started from it (X2); forget those no later list reads."""
        index = period.index + 1  # WindowGames count lists from 1
        if period.list_id in g.last_use and g.last_use[period.list_id] > index:
            s.snapshots[period.list_id] = (s.rating, s.games_total, s.peak)
        for key in [k for k in s.snapshots if g.last_use.get(k, 0) <= index]:
            del s.snapshots[key]
        s.list_id = period.list_id

    def card(self, con, series, player_id, list_id):
        return fide_card(con, series, self, player_id, list_id)

    bulk_cards = True  # one replay of the list gives every card (card.py, replay.py)

    def card_data(self, con, series, list_id, player_ids=None):
        return fide_cards_data(con, series, self, list_id, player_ids)

    def cards(self, con, series, list_id, player_ids=None):
        return {p: fide_card_text(c) for p, c in fide_cards_data(con, series, self, list_id, player_ids).items()}

    def whatif(self, con, series, player_id, opponent, list_id):
        return fide_whatif(con, series, self, player_id, opponent, list_id)


def list_date(window_end: pd.Timestamp, rules: FideRules) -> pd.Timestamp:
    """The day a list is published: its closing date (its window's end) plus the closing days (X1, X1a)."""
    return calendar_list_date(window_end, rules.closing_days)


def _calculations(list_id: str, ids: np.ndarray, previous: np.ndarray, r: PeriodResult) -> dict:
    return {
        "list_id": list_id, "player_id": ids, "previous_rating": previous, "junior": r.junior,
        "games_played": r.played.astype(np.int64), "games": r.games.astype(np.int64), "score": r.score,
        "mean_opponent": r.mean_opponent, "percentage": r.p, "bonus": r.dp, "performance": r.performance,
        "rule": r.rule, "unrounded": r.unrounded, "rating": r.rating, "expected": r.expected,
        "k": r.k, "change": r.change,
    }


RULE_SET = Fide
