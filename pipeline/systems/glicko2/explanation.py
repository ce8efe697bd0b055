"""How Glicko-2 is computed (Glickman 2013, steps 1-8), as the site's page gives it: each
step with the parameters in force, and Glickman's own example computed by the rule set's
`period_result`."""
from __future__ import annotations

import numpy as np

from pipeline.ruleset.card import Line, Num
from pipeline.ruleset.explanation import Explanation, Section, parameters_section
from pipeline.systems.glicko2.rules import CENTRE, SCALE, Glicko2Rules, period_result

# Glickman 2013's example: a player at 1500 (RD 200) meets 1400 (RD 30), 1550 (RD 100) and
# 1700 (RD 300), winning the first game and losing the others; everyone at volatility 0.06.
# Its inputs; the results are computed.
EXAMPLE = ((1500.0, 200.0), (1400.0, 30.0), (1550.0, 100.0), (1700.0, 300.0))
EXAMPLE_SCORES = (1.0, 0.0, 0.0)
EXAMPLE_VOLATILITY = 0.06


def glickman_example(rules: Glicko2Rules) -> dict[str, float]:
    """The example's player after the period: v, Δ, rating, RD, volatility."""
    rating = np.array([r for r, _ in EXAMPLE])
    deviation = np.array([d for _, d in EXAMPLE])
    k = len(EXAMPLE_SCORES)
    r = period_result(rating, deviation, np.full(len(EXAMPLE), EXAMPLE_VOLATILITY), np.zeros(k, dtype=np.int64),
                      np.arange(1, k + 1), np.array(EXAMPLE_SCORES), rules)
    return {"v": r.v[0], "delta": r.delta[0], "rating": r.rating[0], "deviation": r.deviation[0],
            "volatility": r.volatility[0]}


def explained(rule_set) -> Explanation:
    rules: Glicko2Rules = rule_set.parameters
    e = glickman_example(rules)
    six = (Line("Step 6: φ* = √(φ² + σ′²). A player without a game stops here: their RD grows, up to %(max)s.",
                {"max": Num(rules.max_deviation, None)}) if rules.max_deviation is not None else
           Line("Step 6: φ* = √(φ² + σ′²). A player without a game stops here: their RD grows."))
    return Explanation(Line("How ratings are computed: Glicko-2"), (
        Section(Line("The steps of a rating period"), (
            Line("Step 1: a new player starts at rating %(rating)s, rating deviation (RD) %(deviation)s and "
                 "volatility %(volatility)s; the system constant τ is %(tau)s. A rating period lasts %(months)s "
                 "month(s); its games all count from the ratings before it.",
                 {"rating": Num(rules.initial_rating, None), "deviation": Num(rules.initial_deviation, None),
                  "volatility": Num(rules.initial_volatility, None), "tau": Num(rules.tau, None),
                  "months": rules.period_months}),
            Line("Step 2: to the Glicko-2 scale: μ = (r − %(centre)s) / %(scale)s, φ = RD / %(scale)s.",
                 {"centre": Num(CENTRE, None), "scale": Num(SCALE, 4)}),
            Line("Step 3: v = 1 / Σ g(φj)² E (1 − E), with g(φ) = 1 / √(1 + 3φ²/π²) and "
                 "E = 1 / (1 + exp(−g(φj)(μ − μj))), over the period's games."),
            Line("Step 4: Δ = v Σ g(φj)(s − E), the improvement the results show."),
            Line("Step 5: the new volatility σ′ solves Glickman's equation, by the Illinois method to within "
                 "%(epsilon)s.", {"epsilon": Num(rules.epsilon, None)}),
            six,
            Line("Step 7: φ′ = 1 / √(1/φ*² + 1/v) and μ′ = μ + φ′² Σ g(φj)(s − E)."),
            Line("Step 8: back to the rating scale: r′ = %(scale)s μ′ + %(centre)s, RD′ = %(scale)s φ′; lists "
                 "show whole numbers.", {"centre": Num(CENTRE, None), "scale": Num(SCALE, 4)}))),
        Section(Line("Glickman's example"), (
            Line("A player rated 1500 (RD 200) beats a player rated 1400 (RD 30) and loses to 1550 (RD 100) and "
                 "1700 (RD 300), everyone at volatility 0.06: v = %(v)s, Δ = %(delta)s; after the period, rating "
                 "%(rating)s, RD %(deviation)s, volatility %(volatility)s.",
                 {"v": Num(e["v"], 4), "delta": Num(e["delta"], 4), "rating": Num(e["rating"], 2),
                  "deviation": Num(e["deviation"], 2), "volatility": Num(e["volatility"], 5)}),)),
        parameters_section(rule_set),
    ))
