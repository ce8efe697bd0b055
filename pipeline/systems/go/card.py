"""A player's Go card for one event: each game's terms with the numbers, read from
the game sides the rating stage stored (every term is kept there)."""
from __future__ import annotations

import duckdb
import numpy as np

from pipeline.ruleset.card import RATING_USED, RESULT, Card, Column, Correction, Game, Games, Line, Num, said
from pipeline.ruleset.interface import NotFound
from pipeline.systems.go_ffg1984.rules import COUNTED_CASES

OUTCOMES = {1.0: "win", 0.0: "loss", 0.5: "jigo"}
COLOURS = {"B": "black", "W": "white"}  # the card's one-letter colours, said in full on the site
RULES_SAID = frozenset({"first rating (G2)", "no rating to count from", "no game counted: weight 0 (G7)",
                        "no game counted: no opponent with a rating", "rated", "no points to count from"})
SIDES_SAID = frozenset({"not counted: weight 0 (G7)", "not counted: a player has no rating to count from",
                        "draw: ignored", "a player without points: ignored"})
CORRECTION = "correction by the rating commission: "  # how the rating stage words a corrected player's rule


def _points(x: float | None) -> Num | Line:
    return Line("NC (no rating)") if x is None or np.isnan(x) else Num(x, 1)


def _rule(rule: str) -> Line:
    if rule.startswith(CORRECTION):
        return Line("correction by the rating commission: %(reason)s", {"reason": rule.removeprefix(CORRECTION)})
    return said(rule, RULES_SAID)


def _game(side: tuple, events_at_once: bool, event: str) -> Game:
    """One game side as a row: the terms of its change, or why it did not count."""
    opp, opp_name, date, colour, h, res, opp_rating, diff, con_, a, exp, weight, factor, ch, why = side
    cells = (_points(opp_rating), Line(COLOURS[colour]),
             Line("even") if h == 0 else Line("handicap %(stones)s", {"stones": h}), Line(OUTCOMES[res]))
    if events_at_once and why == "counted":
        counts, reason = True, Line(
            "difference %(difference)s, A %(a)s, Con %(con)s, expected %(expected)s; "
            "change = %(con)s × %(weight)s × %(factor)s × (%(result)s − %(expected)s) = %(change)s",
            {"difference": Num(diff, 1, True), "a": Num(a, 2), "con": Num(con_, 3), "expected": Num(exp, 4),
             "weight": Num(weight, None), "factor": Num(factor, 4), "result": Num(res, None),
             "change": Num(ch, 3, True)})
    elif events_at_once or diff is None:  # the 1984 rules ignore a player without points without a gap
        counts, reason = False, said(why, SIDES_SAID)
    else:
        case = said(why, SIDES_SAID) if why in SIDES_SAID else why
        counts, reason = why in COUNTED_CASES, Line("case %(case)s, fictitious gap %(gap)s, change %(change)s",
                                                    {"case": case, "gap": Num(diff, 1, True),
                                                     "change": Num(ch, 3, True)})
    return Game(opp, opp_name or "", cells, counts, reason, date, event)


def go_card_data(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, event_id: str) -> Card:
    """The Go card of a player for an event, as data."""
    event = con.execute("select name, start_date, end_date, class, board_size from events where event_id = ?",
                        [event_id]).fetchall()
    if not event:
        raise NotFound(f"no event {event_id!r}")
    result = con.execute("""select p.name, r.rule, r.previous_rating, x.start, r.rating, x.grade_before,
                                   x.grade_after, r.games
                            from calculations r join players p using (player_id)
                            left join go_calculations x using (series, list_id, player_id)
                            where r.series = ? and r.list_id = ? and r.player_id = ?""",
                         [series.name, event_id, player_id]).fetchall()
    if not result:
        raise NotFound(f"player {player_id} has no game and no correction in event {event_id!r}")
    name, rule, before, start, after, grade_before, grade_after, games = result[0]
    title, first, last, klass, board = event[0]
    heading = Line("%(name)s (%(player)s), event %(event)s: %(title)s, %(first)s … %(last)s, class %(class)s, "
                   "%(board)s×%(board)s; %(rules)s",
                   {"name": name, "player": player_id, "event": event_id, "title": title, "first": first,
                    "last": last, "class": klass, "board": board, "rules": Line(rule_set.title)})
    lines = [Line("Before: %(points)s (%(grade)s)", {"points": _points(before), "grade": grade_before})
             if grade_before else Line("Before: %(points)s", {"points": _points(before)})]
    if rule == "first rating (G2)":
        p = rule_set.parameters
        margin, floor = getattr(p, "first_rating_margin", 100.0), getattr(p, "floor", -2450.0)
        stone, offset = getattr(p, "stone_value", 100.0), getattr(p, "handicap_offset", 0.5)
        lines.append(Line(
            "First rating (ruling G2): %(start)s, where the expected score against the rated opponents equals "
            "the score (games of weight > 0; all wins: the best handicap-adjusted opponent + %(margin)s, all "
            "losses: the worst − %(margin)s, an opponent's adjusted strength being their rating less the "
            "(h − %(offset)s) × %(stone)s this player received, plus it when this player gave the stones; "
            "floored at %(floor)s)",
            {"start": Num(start, 1), "margin": Num(margin, None), "offset": Num(offset, None),
             "stone": Num(stone, None), "floor": Num(floor, None)}))
    sides = con.execute("""select s.opponent_id, p.name,
                                  (select any_value(g.date) from go_games g where g.game_key = s.game_key),
                                  s.colour, s.handicap, s.result, s.opponent_rating, s.difference, s.con, s.a,
                                  s.expected, s.weight, s.factor, s.change, s.rule
                           from go_game_sides s left join players p on p.player_id = s.opponent_id
                           where s.series = ? and s.list_id = ? and s.player_id = ? order by s.game_key""",
                        [series.name, event_id, player_id]).fetchall()
    rows = tuple(_game(side, rule_set.events_at_once, title) for side in sides)
    played = sum(side[13] for side in sides if side[13] is not None)
    total = {"games": games, "change": Num(played, 3, True)}
    closing = [Line("Games counted: %(games)s; change over the event: %(change)s (summed and applied at the end "
                    "of the event, ruling G1)", total) if rule_set.events_at_once else
               Line("Games counted: %(games)s; change over the event: %(change)s", total)]
    correction = None
    if rule.startswith("correction"):
        correction = Correction(Num(after, 1), rule.partition(": ")[2])
        closing.append(Line("Then the rating commission's correction sets the points to %(points)s (%(reason)s); "
                            "every later event counts from them",
                            {"points": correction.rating, "reason": correction.reason}))
    kept = grade_after == grade_before and rule_set.events_at_once
    closing += [Line("After: %(points)s (%(grade)s, grade kept by the hysteresis)" if kept else
                     "After: %(points)s (%(grade)s)", {"points": _points(after), "grade": grade_after})
                if grade_after else Line("After: %(points)s", {"points": _points(after)}),
                Line("Rule: %(rule)s", {"rule": _rule(rule)})]
    games_table = Games((RATING_USED, Column("Colour"), Column("Handicap"), RESULT), rows)
    return Card(player_id, name, event_id, (first, last), heading, tuple(lines), (games_table,), tuple(closing),
                correction)


def go_card_text(card: Card) -> str:
    """The card as the CLI prints it: a line a game."""
    rows = []
    for g in card.games[0].rows:
        points, colour, handicap, outcome = g.cells
        letter = {full: short for short, full in COLOURS.items()}[colour.message]
        rows.append(f"vs {g.opponent_id} ({points.text()}), {letter}, {handicap.text()}, {outcome.text()}: "
                    f"{g.reason.text()}")
    return "\n".join([card.title.text(), *(x.text() for x in card.before), "", *rows, "",
                      *(x.text() for x in card.after)])


def go_card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, event_id: str) -> str:
    """The Go card of a player for an event, as text."""
    return go_card_text(go_card_data(con, series, rule_set, player_id, event_id))
