"""How the FIDE Elo is computed (FIDE Handbook B02), as the site's page gives it: K and
its cases, the 400-point rule, the first rating (8.2) and table 8.1.2 of expected scores
from its data file, each value computed by the rule set's own functions (rules.py)
with the parameters in force."""
from __future__ import annotations

import datetime as dt

import numpy as np

from pipeline.ruleset.card import Line, Num
from pipeline.ruleset.explanation import Explanation, Section, Table, parameters_section
from pipeline.systems.fide.rules import FideRules, expected_score, initial_ratings, k_factor, rating_difference

# A first rating's example: five games against opponents rated 1600 on average, 3 points.
EXAMPLE_GAMES, EXAMPLE_MEAN, EXAMPLE_SCORE = 5, 1600.0, 3.0
MANY_GAMES = 40  # a period with this many games: K × n ≤ 700 lowers K


def k_cases(rules: FideRules) -> list[tuple[Line, int]]:
    """Each case of K (B02 8.3.3, ruling X5) and its K, from `k_factor` on a player of
    each case with one game; last, a player of K 20 with MANY_GAMES games."""
    rating = np.array([1800.0, rules.junior_below - 100, rules.master_from - 100, rules.master_from - 100,
                       rules.master_from - 100])
    peak = np.array([1800.0, rules.junior_below - 100, rules.master_from - 100, rules.master_from,
                     rules.master_from - 100])
    total = np.array([0, 100, 100, 100, 100]) + np.array([0, 1, 1, 1, 1]) * rules.established_games
    junior = np.array([False, True, False, False, False])
    games = np.array([1, 1, 1, 1, MANY_GAMES])
    k, _ = k_factor(rating, total, peak, junior, games, rules)
    words = [Line("fewer than %(games)s rated games", {"games": rules.established_games}),
             Line("under %(age)s, never rated %(rating)s", {"age": rules.junior_age,
                                                           "rating": Num(rules.junior_below, None)}),
             Line("rated under %(rating)s", {"rating": Num(rules.master_from, None)}),
             Line("published rating has reached %(rating)s", {"rating": Num(rules.master_from, None)}),
             Line("rated under %(rating)s, %(games)s games in the period (K × n ≤ %(limit)s)",
                  {"rating": Num(rules.master_from, None), "games": MANY_GAMES, "limit": rules.max_k_times_games})]
    return list(zip(words, (int(x) for x in k)))


def expected_rows(rules: FideRules) -> list[tuple[float, float | None, float, float]]:
    """Table 8.1.2's rows: the differences from and to (None: and more), and the expected
    scores `expected_score` gives the higher and the lower rated player there."""
    start = np.array([row[0] for row in rules.expected_table])
    to = [*(start[1:] - 1), None]
    higher, lower = expected_score(start, rules), expected_score(-start, rules)
    return list(zip(start, to, higher, lower))


def _capped(rules: FideRules) -> Line:
    cap = Num(rules.difference_cap, None)
    # A player above the exception's rating against one more than the cap below them.
    own = rules.cap_exempt_from + 50 if rules.cap_exempt_from is not None else 0.0
    opponent = own - rules.difference_cap - 100
    if rules.cap_exempt_from is None:
        return Line("A rating difference of more than %(cap)s points counts as %(cap)s.", {"cap": cap})
    return Line("A rating difference of more than %(cap)s points counts as %(cap)s; in events that start on or "
                "after %(since)s, a player rated %(exempt)s or more counts the real difference (ruling X4): %(own)s "
                "against %(opponent)s counts as %(difference)s.",
                {"cap": cap, "since": dt.date.fromisoformat(rules.cap_exempt_since),
                 "exempt": Num(rules.cap_exempt_from, None), "own": Num(own, 0), "opponent": Num(opponent, 0),
                 "difference": Num(float(rating_difference(own, opponent, rules, exempt=True)), None)})


def explained(rule_set) -> Explanation:
    rules: FideRules = rule_set.parameters
    ra, p, dp, _, ru = initial_ratings(np.array([EXAMPLE_GAMES]), np.array([EXAMPLE_GAMES * EXAMPLE_MEAN]),
                                       np.array([EXAMPLE_SCORE]), rules)
    expectation = (Line("The expected score E is 1 / (1 + 10^(−D/400)), D being the rating difference.")
                   if rules.logistic else
                   Line("The expected score E is read from table 8.1.2 at the rating difference D (own rating − "
                        "opponent's)."))
    return Explanation(Line("How ratings are computed: the FIDE Elo"), (
        Section(Line("The rating change"), (
            Line("Rating change = K × Σ(score − E) over the games the list rates, rounded to a whole number, "
                 "halves away from zero."),
            expectation,
            _capped(rules),
            Table(Line("K by the player's case, the first that applies"), (Line("Player"), "K"),
                  tuple((words, k) for words, k in k_cases(rules))),
            Line("A rating below %(floor)s is not published: the player is unrated on the next list.",
                 {"floor": Num(rules.floor, None)}))),
        Section(Line("The first rating (8.2)"), (
            Line("An unrated player is rated after at least %(games)s games against rated opponents, pooled over "
                 "up to %(lists)s lists (ruling X9). Ra is their opponents' mean rating counting %(draws)s "
                 "fictitious draws against %(fictitious)s; Ru = Ra + dp, p read to the hundredth in table 8.1.1, "
                 "at most %(cap)s. A first event with a zero score is ignored (ruling X8).",
                 {"games": rules.initial_games, "lists": rules.pool_months, "draws": rules.fictitious_draws,
                  "fictitious": Num(rules.fictitious_rating, None), "cap": Num(rules.initial_cap, None)}),
            Line("For example, %(score)s points from %(games)s games against opponents rated %(mean)s on average: "
                 "Ra = %(ra)s, p = %(p)s, dp = %(dp)s, Ru = %(ru)s.",
                 {"score": Num(EXAMPLE_SCORE, None), "games": EXAMPLE_GAMES, "mean": Num(EXAMPLE_MEAN, 0),
                  "ra": Num(ra[0], 2), "p": Num(p[0], 3), "dp": Num(dp[0], None), "ru": Num(ru[0], 0)}))),
        Section(Line("Table 8.1.2: expected scores"), (
            Table(Line("Expected score by the rating difference"),
                  (Line("Difference"), Line("Higher rated"), Line("Lower rated")),
                  tuple((Line("%(low)s to %(high)s", {"low": Num(low, 0), "high": Num(high, 0)}) if high is not None
                         else Line("%(low)s and more", {"low": Num(low, 0)}), Num(h, 2), Num(l, 2))
                        for low, high, h, l in expected_rows(rules))),)),
        parameters_section(rule_set),
    ))
