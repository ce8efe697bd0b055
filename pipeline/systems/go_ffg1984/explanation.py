"""How the French Go Federation's 1984 rating is computed (seed 004), as the site's page
gives it: its cases with the parameters in force, and a table of what a game gives,
computed by the rule set's `game_changes`."""
from __future__ import annotations

import numpy as np

from pipeline.ruleset.card import Line, Num
from pipeline.ruleset.explanation import Explanation, Section, Table, parameters_section
from pipeline.systems.go_ffg1984.rules import Ffg1984Rules, game_changes

# The table's games: the winner's points minus the loser's, and the stones the winner received.
TABLE_GAMES = ((-200, 0), (-100, 0), (-50, 0), (0, 0), (50, 0), (100, 0), (150, 0), (-300, 2), (100, 2))


def table_changes(rules: Ffg1984Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What each of TABLE_GAMES gives the winner and the loser, and its case (the loser at 0 points)."""
    gap = np.array([g[0] for g in TABLE_GAMES], dtype=float)
    stones = np.array([g[1] for g in TABLE_GAMES], dtype=float)
    return game_changes(gap, np.zeros(len(gap)), stones, np.zeros(len(gap)), rules)


def explained(rule_set) -> Explanation:
    rules: Ffg1984Rules = rule_set.parameters
    gain, loss, case = table_changes(rules)
    return Explanation(Line("How ratings are computed: the French Go Federation's rating of 1984"), (
        Section(Line("The change of a game"), (
            Line("Games are rated one by one, in date order. NC and NP are the winner's and the loser's points "
                 "before the game; a player who received H stones plays at a fictitious level of their points + "
                 "%(stone)s × H (NFC, NFP).", {"stone": Num(rules.stone_value, None)}),
            Line("Case 1, the winner was the weaker on the board (NFC < NFP): the loser loses %(loss)s; the winner "
                 "gains ((NFP − NFC) + %(step)s) / %(higher)s if NC > NP (1.1), else ((NFP − NFC) + %(step)s) / "
                 "%(lower)s (1.2).",
                 {"loss": Num(rules.loser_loses, None), "step": Num(rules.step, None),
                  "higher": Num(rules.stronger_divisor, None), "lower": Num(rules.weaker_divisor, None)}),
            Line("Case 2, NFC ≥ NFP: a game won by more than %(beyond)s points of level is ignored (2.1); otherwise "
                 "the winner gains and the loser loses (%(base)s − (NFC − NFP)) / %(divisor)s (2.2). Drawn games "
                 "are ignored.", {"beyond": Num(rules.ignored_beyond, None), "base": Num(rules.base, None),
                                  "divisor": Num(rules.divisor, None)}),
            Line("The grade is read from the points, with no hysteresis (ruling F3); the points are kept exact and "
                 "lists show them rounded half up (ruling F1). Don't read the last two digits: the trend matters."),
            Table(Line("What a game gives, by the winner's points minus the loser's"),
                  (Line("Winner − loser"), Line("Stones received by the winner"), Line("Case"), Line("Winner"),
                   Line("Loser")),
                  tuple((Num(g, 0, signed=bool(g)), s, str(c), Num(w, 2, signed=bool(w)),
                         Num(l, 2, signed=bool(l))) for (g, s), w, l, c in zip(TABLE_GAMES, gain, loss, case))))),
        parameters_section(rule_set),
    ))
