"""The Belgian Go Federation's rating (rules.py; seeds 000 and 002): event by event,
every game of an event from the ratings before it (G1)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.ruleset.explanation import Explanation
from pipeline.ruleset.texts import first_that_holds
from pipeline.systems.go import GoRuleSet, Rated
from pipeline.systems.go_belgium.explanation import explained
from pipeline.systems.go_belgium.rules import *  # noqa: F403 (the rules, for their users)
from pipeline.systems.go_belgium.rules import (EventResult, GoBelgiumRules, con_and_a, expected_result, game_weight,
                                               handicap_terms, rate_event)


class GoBelgium(GoRuleSet):
    name = "go-belgium"
    title = "Belgian Go rules"
    calculator_tables = {"table_one": "table"}  # Con and A, table I
    Parameters = GoBelgiumRules

    def rate_event(self, local, b, w, g: pd.DataFrame, before_rating, before_level) -> Rated:
        rules = self.parameters
        weight = game_weight(g["class"].to_numpy(), g["board_size"].to_numpy(), g["weight"].to_numpy(float),
                             g["date"].to_numpy(), rules)
        r = rate_event(b, w, g["black_result"].to_numpy(float), g["handicap"].to_numpy(float), weight,
                       before_rating, before_level, rules)
        return Rated(r.rating, r.level, r.games, r.start, r.first, _sides(g, r))

    # Its forecast reads the points on the list and the game's handicap (`g`: its go_games row,
    # pipeline/analysis/forecasts.py).
    forecast_columns = ("s.rating as rating",)
    forecast_game_columns = ("g.handicap as handicap",)

    def explanation(self) -> Explanation:
        return explained(self)

    def win_probability(self, white, black, game):
        """White's expected result as its rules compute White's side of a game (side_terms):
        the difference from White's points, less the handicap White gives ((h − 0.5) × 100,
        G3), read through A at White's points (table I) and the asymmetric expectation."""
        rules = self.parameters
        gives = np.zeros(len(game["handicap"]), dtype=bool)  # Black takes the stones: White gives
        adjustment, _ = handicap_terms(game["handicap"], gives, rules)
        _, a = con_and_a(white["rating"], rules)
        return expected_result(white["rating"] - black["rating"] + adjustment, a, rules)


def _sides(g: pd.DataFrame, r: EventResult) -> dict:
    """Every term of each game side (player indices local: pipeline/systems/go maps them to ids)."""
    s, t = r.sides, r.terms
    k = len(g)
    return {
        "game_key": np.tile(g["game_key"].to_numpy(np.int64), 2), "player": s.player, "opponent": s.opponent,
        "colour": np.repeat(np.array(["B", "W"], dtype=object), k),
        "handicap": np.tile(g["handicap"].to_numpy(np.int64), 2), "result": s.result,
        "own": t["own"], "opponent_rating": t["opponent_rating"], "difference": t["difference"], "con": t["con"],
        "a": t["a"], "expected": t["expected"], "weight": s.weight, "factor": s.factor,
        "change": np.where(r.counted, t["change"], 0.0),
        "rule": first_that_holds([r.counted, s.weight <= 0], ["counted", "not counted: weight 0 (G7)"],
                                 "not counted: a player has no rating to count from"),
    }


RULE_SET = GoBelgium
