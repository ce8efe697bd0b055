"""A player's Glicko-2 calculation card for one list, read from what the list stored
(calculations with glicko2_calculations, the state with glicko2_state): the terms of
Glickman 2013's steps, as computed."""
from __future__ import annotations

import re

import duckdb

from pipeline.systems.base import NotFound
from pipeline.systems.card import Card, Correction, Line, Num, day
from pipeline.systems.glicko2.rules import published


def _rule(rule: str) -> Line:
    """The rule stored with the calculation (Glicko2.rate_period's words), said."""
    first = re.fullmatch(r"first rating, from (\S+) / (\S+) / (\S+)", rule)
    if first:
        return Line("first rating, from %(rating)s / %(deviation)s / %(volatility)s",
                    dict(zip(("rating", "deviation", "volatility"), (Num(float(x), None) for x in first.groups()))))
    tau = re.fullmatch(r"Glicko-2, tau = (\S+)", rule)
    if tau:
        return Line("Glicko-2, tau = %(tau)s", {"tau": Num(float(tau[1]), None)})
    if rule.startswith("correction: "):
        return Line("correction: %(reason)s", {"reason": rule.removeprefix("correction: ")})
    return Line("%(text)s", {"text": rule})


def glicko2_card_data(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> Card:
    """The card as data; NotFound when the player has no game in the list."""
    found = con.execute(f"""
        select c.previous_rating, c.games, c.score, c.rule, c.unrounded, c.rating, c.exact_before, c.deviation_before,
               c.volatility_before, c.expected, c.v, c.delta, c.deviation, c.volatility, s.exact_rating, s.deviation,
               l.window_start, l.window_end, p.name
        from {rule_set.extended("calculations")} c
        join {rule_set.extended("player_state")} s using (series, list_id, player_id)
        join lists l using (series, list_id)
        left join players p using (player_id)
        where c.series = ? and c.list_id = ? and c.player_id = ?""", [series.name, list_id, player_id]).fetchall()
    if not found:
        raise NotFound(f"player {player_id} has no game in list {list_id!r} of {series.name}")
    (previous, games, score, rule, unrounded, rating, r0, rd0, sigma0, expected, v, delta, rd1, sigma1,
     exact, rd_now, start, end, name) = found[0]
    title = Line("%(name)s (%(player)s), list %(list)s (games of %(start)s … %(end)s), %(rules)s (Glickman 2013), "
                 "tau = %(tau)s", {"name": name if name else Line("player"), "player": player_id, "list": list_id,
                                   "start": day(start), "end": day(end), "rules": Line(rule_set.title),
                                   "tau": Num(rule_set.parameters.tau, None)})
    was = Line("unrated") if previous is None else Line("published %(rating)s", {"rating": Num(previous)})
    before = Line("Before:  r %(rating)s, RD %(deviation)s, volatility %(volatility)s (%(was)s)",
                  {"rating": Num(r0, 2), "deviation": Num(rd0, 2), "volatility": Num(sigma0, 6), "was": was})
    after = [Line("Games:   %(games)s, score %(score)s, expected %(expected)s (step 3: Σ E, each with the "
                  "opponent's g(RD))", {"games": games, "score": Num(score, None), "expected": Num(expected, 2)}),
             Line("v = %(v)s, Delta = %(delta)s (steps 3 and 4, Glicko-2 scale)",
                  {"v": Num(v, 4), "delta": Num(delta, 4, True)}),
             Line("Volatility %(before)s → %(after)s (step 5); RD %(rd_before)s → %(rd_after)s (steps 6 and 7)",
                  {"before": Num(sigma0, 6), "after": Num(sigma1, 6), "rd_before": Num(rd0, 2),
                   "rd_after": Num(rd1, 2)}),
             Line("After:   r %(rating)s (step 8), RD %(deviation)s, volatility %(volatility)s "
                  "→ published %(published)s", {"rating": Num(unrounded, 2), "deviation": Num(rd1, 2),
                                                "volatility": Num(sigma1, 6), "published": Num(published(unrounded))})]
    correction = None
    if rule.startswith("correction"):
        correction = Correction(Num(rating), rule.partition(": ")[2])
        after.append(Line("The commission's %(rule)s: rating %(rating)s (exact rating %(exact)s, RD %(deviation)s "
                          "kept)", {"rule": _rule(rule), "rating": correction.rating, "exact": Num(exact, 2),
                                    "deviation": Num(rd_now, 2)}))
    else:
        after.append(Line("Rule: %(rule)s", {"rule": _rule(rule)}))
    return Card(player_id, name or "", list_id, (start, end), title, (before,), (), tuple(after), correction)


def glicko2_card_text(card: Card) -> str:
    """The card as the CLI prints it: a line a step."""
    return "\n".join(x.text() for x in (card.title, *card.before, *card.after))


def glicko2_card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> str:
    """The card as text; NotFound when the player has no game in the list."""
    return glicko2_card_text(glicko2_card_data(con, series, rule_set, player_id, list_id))
