"""How the national performance Elo is computed (seed 001), as the site's page gives it:
the D(P) table as `bonus` reads it from its data file (interpolated, bounded: R5), the
350 rule, the brake, the quotas, the estimation of unrated players (R7-R9) and the
rounding (R3), each with the parameters in force, and the rules' worked example
computed by the rule set's own functions."""
from __future__ import annotations

import numpy as np

from pipeline.ruleset.card import Line, Num
from pipeline.ruleset.explanation import Explanation, Section, Table, parameters_section
from pipeline.systems.performance.rules import (PerformanceRules, bonus, compatible, published,
                                                rated_players_ratings, totals)

# The rules' worked example (performance-elo.md): a senior rated 1650 and their seven
# games (opponent's rating, score). Its inputs; everything else is computed.
EXAMPLE_OWN = 1650.0
EXAMPLE_GAMES = ((1500, 1.0), (1720, 1.0), (1600, 1.0), (1250, 1.0), (1690, 0.5), (1800, 0.0), (2100, 0.0))
INTERPOLATED = 0.714  # R5's example: between 71 % and 72 %


def dp_grid(rules: PerformanceRules) -> np.ndarray:
    """D(P) at every whole percentage, as the rating applies it (`bonus`): row t, column u
    is P = t/10 + u/100."""
    return bonus(np.arange(100) / 100, rules).reshape(10, 10)


def worked_example(rules: PerformanceRules) -> dict:
    """The rules' example through the rule set's functions: which games count, Nj, Sc, Ea,
    P, D(P), Pj, the new rating unrounded and published, and the rule that gave it."""
    opponent = np.array([g[0] for g in EXAMPLE_GAMES], dtype=float)
    score = np.array([g[1] for g in EXAMPLE_GAMES])
    own = np.full(len(opponent), EXAMPLE_OWN)
    counted = compatible(score, own, opponent, rules)
    t = totals(np.zeros(len(opponent), dtype=np.int64), score, opponent, counted, 1, rules)
    new = rated_players_ratings(np.array([EXAMPLE_OWN]), t.games, t.performance, np.array([False]), rules)
    return {"played": len(opponent), "games": int(t.games[0]), "score": t.score[0], "ea": t.mean_opponent[0],
            "p": t.p[0], "dp": float(bonus(t.p, rules)[0]), "pj": t.performance[0], "unrounded": new.rating[0],
            "rating": float(published(new.rating, rules)[0]), "rule": str(new.rule[0])}


def _n(x: float, places: int) -> Num:
    return Num(round(float(x), places), None)


def explained(rule_set) -> Explanation:
    rules: PerformanceRules = rule_set.parameters
    grid = dp_grid(rules)
    e = worked_example(rules)
    w = rules.brake_weight
    return Explanation(Line("How ratings are computed: the national performance Elo"), (
        Section(Line("Compatible games"), (
            Line("A draw always counts. A win counts against an opponent rated less than %(gap)s points below the "
                 "player, a loss against an opponent rated less than %(gap)s points above: a win against a much "
                 "weaker player and a loss to a much stronger one are left out.",
                 {"gap": Num(rules.compatibility_gap, None)}),)),
        Section(Line("The performance"), (
            Line("Performance Pj = Ea + D(P): Ea is the mean rating of the compatible opponents, P the score "
                 "divided by the number of compatible games Nj. A performance below %(floor)s is raised to "
                 "%(floor)s.", {"floor": Num(rules.performance_floor, None)}),
            Line("D(P) is read from the table below, linearly between whole percentages (ruling R5: P = %(p)s "
                 "gives %(dp)s), and bounded to ±%(bound)s.",
                 {"p": Num(INTERPOLATED, None), "dp": _n(bonus(np.array([INTERPOLATED]), rules)[0], 1),
                  "bound": Num(rules.bonus_bound, None)}),
            Table(Line("D(P): the row gives P's tenths, the column its hundredths"),
                  ("P", *(Num(u / 100, 2) for u in range(10))),
                  tuple((Num(t / 10, 1), *(_n(d, 1) for d in row)) for t, row in enumerate(grid))))),
        Section(Line("The new rating of a rated player"), (
            Line("With no compatible game the rating Ei stays. A performance below it brakes: "
                 "Ej = (%(w)s × Ei + Nj × Pj) / (%(w)s + Nj).", {"w": w}),
            Line("A performance at or above the rating replaces it once the quota is met: %(junior)s compatible "
                 "games for a junior (under %(age)s in the year the season ends, ruling R2), %(senior)s for a "
                 "senior. Below the quota: Ej = (Pj × Nj + (%(w)s − Nj) × Ei) / %(w)s.",
                 {"junior": rules.junior_quota, "senior": rules.senior_quota, "age": rules.junior_age, "w": w}),
            Line("Published ratings are rounded to the nearest %(step)s, 5 going up (ruling R3); every step "
                 "before keeps full precision.", {"step": rules.rounding_step}),
            Line("Worked example: a senior rated %(own)s plays %(played)s games; %(games)s are compatible, "
                 "score %(score)s, Ea %(ea)s, P %(p)s, D(P) %(dp)s: Pj = %(pj)s. Rule applied: %(rule)s; "
                 "Ej = %(unrounded)s, published %(rating)s.",
                 {"own": Num(EXAMPLE_OWN, 0), "played": e["played"], "games": e["games"],
                  "score": _n(e["score"], 1), "ea": _n(e["ea"], 2), "p": _n(e["p"], 3), "dp": _n(e["dp"], 1),
                  "pj": _n(e["pj"], 2), "rule": Line(e["rule"]), "unrounded": Num(e["unrounded"], 2),
                  "rating": Num(e["rating"], 0)}))),
        Section(Line("Unrated players"), (
            Line("An unrated player enters the list after %(entry)s compatible games, in one period or several: "
                 "until then their performance and games are archived and merged.", {"entry": rules.entry_games}),
            Line("An unrated opponent counts at an estimate. Every unrated player starts at %(start)s, or at their "
                 "archived performance (ruling R7); a first performance without the %(gap)s-point range gives the "
                 "first estimate. Then each round computes everyone's performance with the range, all at once "
                 "(ruling R8); an estimate that moves by %(tolerance)s points or more becomes the mean of the "
                 "estimate and the performance. At most %(rounds)s rounds follow the first pass (ruling R9).",
                 {"start": Num(rules.start_value, None), "gap": Num(rules.compatibility_gap, None),
                  "tolerance": Num(rules.settle_tolerance, None), "rounds": rules.max_rounds}),)),
        parameters_section(rule_set),
    ))

