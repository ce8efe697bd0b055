"""pipeline.ruleset.texts.first_that_holds: the rule sets' np.select over texts, chosen
by number and looked up, as Python strings."""
from __future__ import annotations

import numpy as np

from pipeline.ruleset.texts import first_that_holds
from pipeline.systems.fide.rules import Rule


def test_the_first_condition_that_holds_gives_its_text_else_the_default():
    # Four players: the first meets both conditions (the first wins), the second only the
    # second, the third none (the default), the fourth only the first.
    a = np.array([True, False, False, True])
    b = np.array([True, True, False, False])
    chosen = first_that_holds([a, b], [Rule.INITIAL, Rule.POOLED], Rule.NO_GAMES)
    assert chosen.tolist() == ["initial rating (B02 8.2)",
                               "unrated: games pooled, fewer than 5 against rated opponents",
                               "no rated game", "initial rating (B02 8.2)"]
    # Plain strings, not the enumeration's members: stored and printed as text.
    assert chosen.dtype == object and {type(t) for t in chosen} == {str}
    # What np.select over the texts gave, value for value.
    assert chosen.tolist() == np.select([a, b], [Rule.INITIAL, Rule.POOLED], Rule.NO_GAMES).tolist()


def test_a_default_array_gives_each_player_their_own_text():
    # FIDE's rated players: the K rule of each unless a condition holds.
    k_rule = np.array([Rule.K_NEW.value, Rule.K_MASTER.value, Rule.K_STANDARD.value], dtype=object)
    chosen = first_that_holds([np.array([False, True, False])], [Rule.NO_GAMES], k_rule)
    assert chosen.tolist() == ["K 40: fewer than 30 rated games", "no rated game", "K 20: rated under 2400"]
    assert k_rule[1] == "K 10: published rating has reached 2400"  # the default is not written into


def test_no_players_give_no_texts():
    chosen = first_that_holds([np.zeros(0, dtype=bool)], ["rated"], "no rated game")
    assert chosen.shape == (0,) and chosen.dtype == object
