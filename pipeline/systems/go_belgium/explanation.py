"""How the Belgian Go rating is computed (seeds 000 and 002), as the site's page gives it:
every number computed by the rule set's own functions (rules.py) from the parameters in
force. Table I is read from its data file, the points gained and the seed's worked
examples come out of `rate_event`; beside the rules as written, the seed's two
simplifications (go-ratings.md), which its published table and examples use."""
from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np

from pipeline.ruleset.card import Line, Num
from pipeline.ruleset.explanation import Explanation, Section, Table, parameters_section
from pipeline.systems.go.grades import level_of_points, levels_of_grades, middle_of
from pipeline.systems.go_belgium.rules import GoBelgiumRules, con_and_a, rate_event

# The seed's table: a player at the middle of each of these grades beats an opponent
# 200 points weaker … 200 stronger (the opponent's rating minus the player's), class A.
TABLE_GRADES = ("20k", "15k", "10k", "5k", "1d", "6d")
TABLE_GAPS = (-200, -150, -100, -50, 0, 50, 100, 150, 200)
# The seed's worked examples: A and B at 20 kyu (−1950) in club games; later A, at
# −1450, receives four stones from an 8 kyu (−750). Their inputs; what follows is computed.
EXAMPLE_START, EXAMPLE_LATER, EXAMPLE_OPPONENT, EXAMPLE_STONES = -1950.0, -1450.0, -750.0, 4
CLASS_WORDS = {"A": "a tournament recognised by the EGF (at least 60 minutes' basic time)",
               "B": "another tournament", "C": "club games", "D": "friendly games (not rated)"}


def seed_rules(rules: GoBelgiumRules) -> GoBelgiumRules:
    """The rules with the seed's two simplifications: the symmetric expectation, the
    giver's factor unsquared (go-ratings.md)."""
    return dataclasses.replace(rules, symmetric_expectation=True, giver_factor_squared=False)


def grade(points: float) -> Line:
    """A grade in words (20 kyu, 6 dan) from its points (ruling G4's reading)."""
    level = int(level_of_points(points))
    return Line("%(n)s dan", {"n": level}) if level >= 1 else Line("%(n)s kyu", {"n": 1 - level})


def points_gained(rules: GoBelgiumRules, event_class: str = "A") -> np.ndarray:
    """The points a player at the middle of each TABLE_GRADES gains by beating an opponent
    TABLE_GAPS away, in an even game of `event_class`: one `rate_event` over all of them
    (each pair of players meets once). Rows: grades; columns: gaps."""
    own = middle_of(levels_of_grades(TABLE_GRADES), rules.floor)
    mine = np.repeat(own, len(TABLE_GAPS))
    k = len(mine)
    rating = np.concatenate([mine, mine + np.tile(np.array(TABLE_GAPS, dtype=float), len(own))])
    weight = np.full(k, dict(rules.class_weights)[event_class])
    r = rate_event(np.arange(k), np.arange(k) + k, np.ones(k), np.zeros(k), weight, rating,
                   level_of_points(rating), rules)
    return r.change[:k].reshape(len(own), len(TABLE_GAPS))


def _game(rating, black_result: float, handicap: int, weight: float, rules: GoBelgiumRules):
    """One game of players 0 (Black) and 1 (White) rated from `rating`."""
    rating = np.asarray(rating, dtype=float)
    return rate_event(np.array([0]), np.array([1]), np.array([black_result]), np.array([float(handicap)]),
                      np.array([weight]), rating, level_of_points(rating), rules)


def worked_examples(rules: GoBelgiumRules) -> dict[str, dict[str, float]]:
    """The seed's three examples, computed: each one's terms from A's side."""
    club = dict(rules.class_weights)["C"]
    one = _game([EXAMPLE_START, EXAMPLE_START], 1.0, 0, club, rules)  # A (Black) beats B, even
    a, b = one.rating
    # The next day B (Black) receives one stone from A (White), and A wins: A is side 1.
    seed, written = (_game([b, a], 0.0, 1, club, r) for r in (seed_rules(rules), rules))
    three = _game([EXAMPLE_LATER, EXAMPLE_OPPONENT], 1.0, EXAMPLE_STONES, club, rules)

    def terms(r, side: int) -> dict[str, float]:
        return {"own": r.terms["own"][side], "difference": r.terms["difference"][side],
                "con": r.terms["con"][side], "expected": r.terms["expected"][side],
                "factor": r.sides.factor[side], "gain": r.change[side], "after": r.rating[side]}

    return {"one": {**terms(one, 0), "weight": club, "b_after": b},
            "two_seed": {**terms(seed, 1), "gap": a - b, "adjustment": -seed.sides.adjustment[1], "weight": club},
            "two": terms(written, 1), "three": {**terms(three, 0), "weight": club}}


def _n(x: float, places: int) -> Num:
    """A number rounded to `places` and shown without trailing zeros (116, 113.2, 0.5)."""
    return Num(round(float(x), places), None)


def _examples(rules: GoBelgiumRules) -> Section:
    e = worked_examples(rules)
    one, seed, two, three = e["one"], e["two_seed"], e["two"], e["three"]
    surprise = 1 - seed["expected"]
    # What the seed prints: Con and the expected result rounded before they are multiplied.
    seed_con, seed_surprise = round(seed["con"]), round(surprise, 2)
    return Section(Line("Worked examples"), (
        Line("Player A (%(grade)s, %(own)s) beats B, also at %(own)s, in a club game (weight %(weight)s). "
             "Expected result %(expected)s, Con %(con)s: A gains %(con)s × %(weight)s × %(surprise)s = %(gain)s "
             "points, to %(after)s; B goes to %(b_after)s.",
             {"grade": grade(one["own"]), "own": _n(one["own"], 1), "weight": _n(one["weight"], 2),
              "expected": _n(one["expected"], 3), "con": _n(one["con"], 1), "surprise": _n(1 - one["expected"], 3),
              "gain": Num(one["gain"], 1), "after": Num(one["after"], 1), "b_after": Num(one["b_after"], 1)}),
        Line("The next day B receives one stone (A's difference: %(gap)s − %(adjustment)s = %(difference)s) and "
             "A wins again. With the seed's simplifications A's expected result is %(expected)s, Con %(con)s and "
             "A's handicap factor %(factor)s: A gains %(con)s × %(weight)s × %(factor)s × %(surprise)s = "
             "%(gain)s points; the seed rounds first, %(seed_con)s × %(weight)s × %(factor)s × "
             "%(seed_surprise)s = %(seed_gain)s.",
             {"gap": _n(seed["gap"], 1), "adjustment": _n(seed["adjustment"], 1),
              "difference": _n(seed["difference"], 1), "expected": _n(seed["expected"], 3),
              "con": _n(seed["con"], 1), "factor": _n(seed["factor"], 4), "weight": _n(seed["weight"], 2),
              "surprise": _n(surprise, 3), "gain": Num(seed["gain"], 1), "seed_con": Num(seed_con, 0),
              "seed_surprise": _n(seed_surprise, 2),
              "seed_gain": Num(seed_con * seed["weight"] * seed["factor"] * seed_surprise, 1)}),
        Line("As the rules are written (expected result %(expected)s, the giver's factor %(factor)s), A gains "
             "%(gain)s points in that game.",
             {"expected": _n(two["expected"], 3), "factor": _n(two["factor"], 4), "gain": Num(two["gain"], 1)}),
        Line("Later, at %(own)s, A wins a game with %(stones)s stones against an opponent of %(grade)s (%(opponent)s): "
             "difference %(difference)s, expected result %(expected)s, Con %(con)s, handicap factor %(factor)s: "
             "A gains %(con)s × %(weight)s × %(factor)s × %(surprise)s = %(gain)s points.",
             {"own": _n(three["own"], 1), "stones": EXAMPLE_STONES, "grade": grade(EXAMPLE_OPPONENT),
              "opponent": _n(EXAMPLE_OPPONENT, 1), "difference": _n(three["difference"], 1),
              "expected": _n(three["expected"], 3), "con": _n(three["con"], 1), "factor": _n(three["factor"], 4),
              "weight": _n(three["weight"], 2), "surprise": _n(1 - three["expected"], 3),
              "gain": Num(three["gain"], 1)}),
    ))


def _gained_table(rules: GoBelgiumRules, caption: Line) -> Table:
    gained = points_gained(rules)
    own = middle_of(levels_of_grades(TABLE_GRADES), rules.floor)
    return Table(caption, (Line("Rating"), *(Num(g, 0, signed=bool(g)) for g in TABLE_GAPS)),
                 tuple((Line("%(grade)s (%(points)s)", {"grade": grade(p), "points": Num(p, 0)}),
                        *(Num(x, 1) for x in row)) for p, row in zip(own, gained)))


def explanation(rules: GoBelgiumRules) -> tuple[Section, ...]:
    """The sections of the Belgian Go page (the parameters in force are added by the rule set)."""
    weights = dict(rules.class_weights)
    boards = dict(rules.board_weights)
    table = np.array(rules.table)
    between = (table[0, 0] + table[1, 0]) / 2
    con, a = con_and_a(np.array([between]), rules)
    squared = ("the player giving them gets that factor squared" if rules.giver_factor_squared
               else "the player giving them gets the same factor")
    stronger = 1.0 if rules.symmetric_expectation else rules.asymmetry
    return (
        Section(Line("Points and grades"), (
            Line("Ratings are points, 100 a grade: a positive rating is a dan grade, a negative one a kyu grade. "
                 "A new member starts at the middle of the grade their club estimates (%(middle)s for 1 dan); the "
                 "lowest rating is %(floor)s.",
                 {"middle": Num(float(middle_of(1, rules.floor)), 0), "floor": Num(rules.floor, 0)}),
            Line("A player is promoted as soon as their rating passes the upper bound of their grade, and demoted "
                 "only when it falls 100 points below the lower bound."),
            Line("Ratings are computed event by event: every game of an event counts from the ratings before it, "
                 "and the changes are added up at its end (ruling G1)."),
            Line("An unranked (NC) player's first rating is the rating at which their expected score in their "
                 "first event equals their score (ruling G2)."))),
        Section(Line("The change of a game"), (
            Line("Strength difference = own rating − opponent's rating; the player receiving h stones gains "
                 "(h − %(offset)s) × %(stone)s points (no komi in handicap games).",
                 {"offset": Num(rules.handicap_offset, None), "stone": Num(rules.stone_value, None)}),
            Line("Expected result = 1 / (exp(−difference / A) + 1) for the weaker player; %(stronger)s − "
                 "1 / (exp(difference / A) + 1) for the stronger.", {"stronger": Num(stronger, None)}),
            Line("Change = Con × game weight × handicap factor × (result − expected result), the result being 1 "
                 "for a win and 0 for a loss."),
            Line("Handicap factor: for the player receiving h stones, 1 − (h − %(offset)s) / %(step)s, at least "
                 "%(minimum)s; %(giver)s.",
                 {"offset": Num(rules.handicap_offset, None), "step": Num(rules.factor_step, None),
                  "minimum": Num(rules.factor_minimum, None), "giver": Line(squared)}),
            Table(Line("Weight of a game by the class of its event"),
                  (Line("Class"), Line("Type of event"), Line("Weight")),
                  tuple((c, Line(CLASS_WORDS[c]) if c in CLASS_WORDS else None, Num(w, None))
                        for c, w in weights.items())),
            Line("Games played from %(since)s on a 13×13 board weigh %(w13)s times as much, on a 9×9 board "
                 "%(w9)s times.", {"since": dt.date.fromisoformat(rules.small_boards_since),
                                   "w13": Num(boards.get(13, 1.0), None), "w9": Num(boards.get(9, 1.0), None)}))),
        Section(Line("Con and A (table I)"), (
            Line("Con decides how fast a rating moves, A how likely a surprise is; both depend on the player's own "
                 "rating. Between two rows they are interpolated linearly (at %(rating)s: Con %(con)s, A %(a)s); "
                 "below %(first)s the first rows' slope goes on; above %(last)s they stay at the last row's values "
                 "(ruling G5).",
                 {"rating": Num(between, 0), "con": _n(con[0], 2), "a": _n(a[0], 2), "first": Num(table[0, 0], 0),
                  "last": Num(table[-1, 0], 0)}),
            Table(Line("Table I: Con and A by rating"), (Line("Rating"), "Con", "A"),
                  tuple((Num(r, 0), Num(c, None), Num(x, None)) for r, c, x in table)))),
        Section(Line("Points gained by beating an opponent"), (
            Line("A player at the middle of each grade beats an opponent rated 200 points lower to 200 points "
                 "higher in an even game of class A (weight %(weight)s). The first table applies the rules as "
                 "written; the second the seed's simplifications (a symmetric expected result, the giver's factor "
                 "unsquared), which its published table and examples use.",
                 {"weight": Num(weights["A"], None)}),
            _gained_table(rules, Line("Points gained, the rules as written")),
            _gained_table(seed_rules(rules), Line("Points gained, the seed's simplified formulas")))),
        _examples(rules),
    )


def explained(rule_set) -> Explanation:
    return Explanation(Line("How ratings are computed: the Belgian Go Federation's rating"),
                       (*explanation(rule_set.parameters), parameters_section(rule_set)))
