"""The French Go Federation's rules of 1984 (rules.py; seed 004): game by game in
date order, from the starting points; games rated in waves of distinct players."""
from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.systems.go import GoRuleSet, Rated
from pipeline.systems.go.grades import next_level
from pipeline.systems.go_ffg1984.rules import *  # noqa: F403 (the rules, for their users)
from pipeline.systems.go_ffg1984.rules import Case, Ffg1984Rules, GamesResult, rate_games


class GoFfg1984(GoRuleSet):
    name = "go-ffg1984"
    title = "French rules of 1984"
    Parameters = Ffg1984Rules
    events_at_once = False  # game by game, in date order

    def rate_event(self, local, b, w, g: pd.DataFrame, before_rating, before_level) -> Rated:
        rules = self.parameters
        r = rate_games(b, w, g["winner"].to_numpy(str), g["handicap"].to_numpy(float), before_rating, rules)
        level = np.where(np.isnan(r.points), np.nan, next_level(before_level, r.points))
        rated = r.case != Case.UNKNOWN
        games = np.bincount(np.concatenate([b[rated], w[rated]]), minlength=len(local))
        return Rated(r.points, level, games, before_rating, np.zeros(len(local), dtype=bool),
                     _sides(g, b, w, r, rules))


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
