"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013; rules.py): rating periods
of one month (or of `period_months`), each list named for the month after its period,
the month it is published in (R1), every player of a period rated at once from the
state before it. Each player's state is a rating, a deviation and a volatility, kept
in glicko2_state; the published rating is the rating rounded to a whole number."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import duckdb
import numpy as np

from pipeline.ruleset.explanation import Explanation
from pipeline.ruleset.figures import RatedList
from pipeline.ruleset.games import column, mark_corrections
from pipeline.ruleset.interface import Fixes, ModelOnRead, Outcome, Period, RuleSet
from pipeline.ruleset.site_face import Shown, SiteFace
from pipeline.systems.glicko2.card import glicko2_card, glicko2_card_text, glicko2_cards_data
from pipeline.systems.glicko2.explanation import explained
from pipeline.systems.glicko2.rules import Glicko2Rules, game_expectation, period_result, published, to_glicko2


@dataclass(frozen=True)
class Glicko2State:
    """Every registered player (ids ascending); NaN everywhere while unrated."""

    ids: np.ndarray
    rating: np.ndarray  # published: the exact rating rounded, or the commission's
    exact: np.ndarray
    deviation: np.ndarray
    volatility: np.ndarray


def period_calendar(first: dt.date, last: dt.date, months: int):
    """The periods of `months` months (starting in January, so they divide the year)
    covering first … last: list_id (YYYY-MM, the month after the period: the month the
    list is published in, R1), window_start, window_end."""
    import pandas as pd  # why: loaded when the periods are found, not with the rule set (a command reading its lists)

    def start_of(day: dt.date) -> pd.Period:
        month = pd.Period(day, "M")
        return month - (month.month - 1) % months

    starts = pd.period_range(start_of(first), start_of(last), freq="M")[::months]
    return pd.DataFrame({"list_id": [f"{(s + months).year}-{(s + months).month:02d}" for s in starts],
                         "window_start": [s.start_time.date() for s in starts],
                         "window_end": [(s + months - 1).end_time.date() for s in starts]})


class Glicko2(RuleSet):
    name = "glicko2"
    title = "Glicko-2"
    calculator_tables: dict[str, str] = {}
    game = "chess"
    Parameters = Glicko2Rules
    # Its rating period is one of its parameters (period_months): a calendar file's windows,
    # made for the lists of another rule set, would change its rules.
    takes_calendar_file = False
    extensions = {"player_state": "glicko2_state", "calculations": "glicko2_calculations"}
    initial_columns = {"deviation": "double", "volatility": "double"}
    InitialColumns = ModelOnRead("pipeline.systems.glicko2.initial:InitialColumns")
    # The RD beside the rating (Glickman 2013: "the rating and RD"), a whole number rounded as
    # the rating is (published()): the lists and the state files.
    published_state = ("player_id", "rating::integer as rating", "round(deviation)::integer as deviation")
    list_columns = ("round(s.deviation)::integer as deviation",)
    # The same RD beside the rating on the site's pages and in its API.
    site = SiteFace(state=(Shown("deviation", "RD", "round(s.deviation)::integer"),))

    # Its forecast reads the exact rating (the state its rules compute from, not the rounded
    # list) and the RD; the initial list's rows have the rating alone, or an RD of the file.
    forecast_columns = ("coalesce(s.exact_rating, s.rating) as rating", "s.deviation as deviation")

    def win_probability(self, white, black, game):
        """Glickman's expected score with g of both deviations (rules.game_expectation); an RD
        the initial ratings do not say is an unrated player's (Glickman 2013, step 1), as
        `starting_state` takes it."""
        def scaled(side):
            deviation = np.where(np.isnan(side["deviation"]), self.parameters.initial_deviation, side["deviation"])
            return to_glicko2(side["rating"], deviation)
        return game_expectation(*scaled(white), *scaled(black))

    def calendar(self, first, last):
        return period_calendar(first, last, self.parameters.period_months)

    def explanation(self) -> Explanation:
        return explained(self)

    def starting_state(self, con: duckdb.DuckDBPyConnection, series: str, before: str | None) -> Glicko2State:
        players = con.sql(f"""
            select p.player_id, s.rating, s.exact_rating, s.deviation, s.volatility
            from players p left join (
                select player_id, rating, rating as exact_rating, deviation, volatility
                from ({self.initial_ratings_sql()}) where $before is null and rating is not null
                union all
                select player_id, rating, exact_rating, deviation, volatility from {self.extended("player_state")}
                where series = $series and list_id = $before
            ) s using (player_id)
            order by p.player_id""", params={"before": before, "series": series}).to_arrow_table()
        rating, exact = column(players, "rating"), column(players, "exact_rating")
        rated = ~np.isnan(exact)
        # Glickman 2013, step 1: what the initial ratings do not say, an unrated player's values
        rules = self.parameters
        deviation = np.where(rated & np.isnan(column(players, "deviation")), rules.initial_deviation,
                             column(players, "deviation"))
        volatility = np.where(rated & np.isnan(column(players, "volatility")), rules.initial_volatility,
                              column(players, "volatility"))
        return Glicko2State(column(players, "player_id", np.int64), rating, exact, deviation, volatility)

    def entering(self, state: Glicko2State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every player's rating, deviation and volatility at the start of a period, an
        unrated player's those of Glickman 2013, step 1."""
        rules = self.parameters
        unrated = np.isnan(state.exact)
        return (np.where(unrated, rules.initial_rating, state.exact),
                np.where(unrated, rules.initial_deviation, state.deviation),
                np.where(unrated, rules.initial_volatility, state.volatility))

    def rate_period(self, state: Glicko2State, games, period: Period, fixes: Fixes | None) -> Outcome:
        rules = self.parameters
        r0, rd0, sigma0 = self.entering(state)
        r = period_result(r0, rd0, sigma0, games.white, games.black, games.white_score, rules)
        played = r.games > 0
        # Step 6: a player with no game keeps rating and volatility; one never rated stays unrated.
        rated = played | ~np.isnan(state.exact)
        exact = np.where(rated, r.rating, np.nan)
        deviation = np.where(rated, r.deviation, np.nan)
        volatility = np.where(rated, r.volatility, np.nan)
        rating = published(exact)
        who = np.flatnonzero(played)
        first = np.isnan(state.exact[who])
        # The two texts once each, every player's entry a reference to one: a text a player (680,659
        # on the Belgian history, 49 MB) held every list's calculations until they were stored.
        texts = np.array([f"Glicko-2, tau = {rules.tau:g}", f"first rating, from {rules.initial_rating:g} / "
                          f"{rules.initial_deviation:g} / {rules.initial_volatility:g}"], dtype=object)
        rule = texts[first.astype(np.intp)]
        calculations = {"list_id": period.list_id, "player_id": state.ids[who], "previous_rating": state.rating[who],
                        "games_played": r.games[who], "games": r.games[who], "score": r.score[who],
                        "rule": rule, "unrounded": r.rating[who], "rating": rating[who]}
        if fixes is not None:  # the commission's rating replaces the published and exact one
            unrated = np.isnan(exact[fixes.who])  # rated by the commission alone: step 1's RD and volatility
            exact[fixes.who] = rating[fixes.who] = fixes.ratings
            deviation[fixes.who] = np.where(unrated, rules.initial_deviation, deviation[fixes.who])
            volatility[fixes.who] = np.where(unrated, rules.initial_volatility, volatility[fixes.who])
            mark_corrections(calculations, state.ids[fixes.who], fixes.ratings, fixes.reasons)
        has = np.flatnonzero(~np.isnan(exact))
        own_calculations = {"exact_before": r0[who], "deviation_before": rd0[who], "volatility_before": sigma0[who],
                            "expected": r.expected[who], "v": r.v[who], "delta": r.delta[who],
                            "exact_rating": r.rating[who], "deviation": r.deviation[who],
                            "volatility": r.volatility[who]}
        rated_count = len(has)
        return Outcome(
            state=Glicko2State(state.ids, rating, exact, deviation, volatility),
            rows={"player_state": {"list_id": period.list_id, "player_id": state.ids[has], "rating": rating[has],
                                   "exact_rating": exact[has], "deviation": deviation[has],
                                   "volatility": volatility[has]},
                  "calculations": calculations | own_calculations},
            figures={"games_rated": len(games.white), "forfeits": int(games.forfeits[0]), "players_rated": rated_count,
                     "new_players": int(np.isnan(state.rating[has]).sum())},
            summary=RatedList(period.list_id, len(games.white), rated_count),
            detail=r)

    def card(self, con, series, player_id, list_id):
        return glicko2_card(con, series, self, player_id, list_id)

    bulk_cards = True  # a list's cards from one query of what it stored (card.py)

    def card_data(self, con, series, list_id, player_ids=None):
        return glicko2_cards_data(con, series, self, list_id, player_ids)

    def cards(self, con, series, list_id, player_ids=None):
        return {p: glicko2_card_text(c) for p, c in glicko2_cards_data(con, series, self, list_id, player_ids).items()}


RULE_SET = Glicko2
