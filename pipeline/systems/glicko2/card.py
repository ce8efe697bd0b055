"""A player's Glicko-2 calculation card for one list, read from what the list stored
(calculations with glicko2_calculations, the state with glicko2_state): the terms of
Glickman 2013's steps, as computed."""
from __future__ import annotations

import re

import duckdb
import pyarrow as pa

from pipeline.ruleset.card import Card, Correction, Line, Num, day
from pipeline.ruleset.interface import NotFound
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


def glicko2_cards_data(con: duckdb.DuckDBPyConnection, series, rule_set, list_id: str, player_ids=None
                       ) -> dict[int, Card]:
    """The cards of a list as data, from one query of what it stored: of `player_ids`,
    or of every player with a calculation on it (who played); a player asked for who
    has none has no card."""
    asked = pa.table({"player_id": pa.array([] if player_ids is None else player_ids, pa.int64())})
    con.register("card_players", asked)
    try:
        found = con.sql(f"""
            select c.player_id, c.previous_rating, c.games, c.score, c.rule, c.unrounded, c.rating, c.exact_before,
                   c.deviation_before, c.volatility_before, c.expected, c.v, c.delta, c.deviation, c.volatility,
                   s.exact_rating, s.deviation as deviation_now, l.window_start, l.window_end, p.name
            from {rule_set.extended("calculations")} c
            join {rule_set.extended("player_state")} s using (series, list_id, player_id)
            join lists l using (series, list_id)
            left join players p using (player_id)
            where c.series = ? and c.list_id = ?
              and (? or c.player_id in (select player_id from card_players))
            order by c.player_id""", params=[series.name, list_id, player_ids is None]).to_arrow_table()
    finally:
        con.unregister("card_players")
    # What the list publishes (the rule's rounding, once for the list): the rating the
    # computation gave and the RD in force, which a correction keeps.
    shown = published(found.column("unrounded").to_numpy(zero_copy_only=False))
    deviation = published(found.column("deviation_now").to_numpy(zero_copy_only=False))
    return {int(row[0]): _card(row, float(r), float(d), list_id, rule_set)
            for row, r, d in zip(zip(*(c.to_pylist() for c in found.columns)), shown, deviation)}


def _card(row: tuple, shown: float, deviation: float, list_id: str, rule_set) -> Card:
    """One player's card from the row of their calculation and state, and the rating
    and RD the list publishes."""
    (player_id, previous, games, score, rule, unrounded, rating, r0, rd0, sigma0, expected, v, delta, rd1, sigma1,
     exact, rd_now, start, end, name) = row
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
                                                "volatility": Num(sigma1, 6), "published": Num(shown)})]
    correction = None
    if rule.startswith("correction"):
        correction = Correction(Num(rating), rule.partition(": ")[2])
        after.append(Line("The commission's %(rule)s: rating %(rating)s (exact rating %(exact)s, RD %(deviation)s "
                          "kept)", {"rule": _rule(rule), "rating": correction.rating, "exact": Num(exact, 2),
                                    "deviation": Num(rd_now, 2)}))
    else:
        after.append(Line("Rule: %(rule)s", {"rule": _rule(rule)}))
    after.append(Line("On the list: rating %(rating)s, RD %(deviation)s (rounded to whole numbers, 0.5 up)",
                      {"rating": Num(rating), "deviation": Num(deviation)}))
    return Card(player_id, name or "", list_id, (start, end), title, (before,), (), tuple(after), correction)


def glicko2_card_data(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> Card:
    """The card as data; NotFound when the player has no game in the list."""
    found = glicko2_cards_data(con, series, rule_set, list_id, [player_id])
    if player_id not in found:
        raise NotFound(f"player {player_id} has no game in list {list_id!r} of {series.name}")
    return found[player_id]


def glicko2_card_text(card: Card) -> str:
    """The card as the CLI prints it: a line a step."""
    return "\n".join(x.text() for x in (card.title, *card.before, *card.after))


def glicko2_card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> str:
    """The card as text; NotFound when the player has no game in the list."""
    return glicko2_card_text(glicko2_card_data(con, series, rule_set, player_id, list_id))
