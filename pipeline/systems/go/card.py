"""A player's Go card for one event: each game's terms with the numbers, read from
the game sides the rating stage stored (every term is kept there)."""
from __future__ import annotations

import duckdb
import numpy as np

from pipeline.systems.base import NotFound


def _points(x: float | None) -> str:
    return "NC (no rating)" if x is None or np.isnan(x) else f"{x:.1f}"


def go_card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, event_id: str) -> str:
    event = con.execute("select name, start_date, end_date, class, board_size from events where event_id = ?",
                        [event_id]).fetchall()
    if not event:
        raise NotFound(f"no event {event_id!r}")
    result = con.execute("""select p.name, r.rule, r.previous_rating, x.start, r.rating, x.grade_before,
                                   x.grade_after, r.games, r.rating - x.start
                            from calculations r join players p using (player_id)
                            left join go_calculations x using (series, list_id, player_id)
                            where r.series = ? and r.list_id = ? and r.player_id = ?""",
                         [series.name, event_id, player_id]).fetchall()
    if not result:
        raise NotFound(f"player {player_id} has no game and no correction in event {event_id!r}")
    name, rule, before, start, after, grade_before, grade_after, games, _ = result[0]
    title, first, last, klass, board = event[0]
    lines = [f"{name} ({player_id}), event {event_id}: {title}, {first} … {last}, class {klass}, "
             f"{board}×{board}; {rule_set.title}",
             f"Before: {_points(before)}" + (f" ({grade_before})" if grade_before else "")]
    if rule == "first rating (G2)":
        p = rule_set.parameters
        margin, floor = getattr(p, "first_rating_margin", 100.0), getattr(p, "floor", -2450.0)
        stone, offset = getattr(p, "stone_value", 100.0), getattr(p, "handicap_offset", 0.5)
        lines.append(f"First rating (ruling G2): {start:.1f}, where the expected score against the rated "
                     f"opponents equals the score (games of weight > 0; all wins: the best handicap-adjusted "
                     f"opponent + {margin:g}, all losses: the worst − {margin:g}, an opponent's adjusted strength "
                     f"being their rating less the (h − {offset:g}) × {stone:g} this player received, plus it when "
                     f"this player gave the stones; floored at {floor:g})")
    sides = con.execute("""select opponent_id, colour, handicap, result, own, opponent_rating, difference, con, a,
                                  expected, weight, factor, change, rule
                           from go_game_sides where series = ? and list_id = ? and player_id = ? order by game_key""",
                        [series.name, event_id, player_id]).fetchall()
    lines.append("")
    for opp, colour, h, res, _own, opp_rating, diff, con_, a, exp, weight, factor, ch, why in sides:
        outcome = {1.0: "win", 0.0: "loss", 0.5: "jigo"}[res]
        head = f"vs {opp} ({_points(opp_rating)}), {colour}, {'even' if h == 0 else f'handicap {h}'}, {outcome}: "
        if rule_set.events_at_once:
            if why != "counted":
                lines.append(head + why)
                continue
            lines.append(head + f"difference {diff:+.1f}, A {a:.2f}, Con {con_:.3f}, expected {exp:.4f}; "
                                f"change = {con_:.3f} × {weight:g} × {factor:.4f} × ({res:g} − {exp:.4f}) = {ch:+.3f}")
        else:
            lines.append(head + f"case {why}, fictitious gap {diff:+.1f}, change {ch:+.3f}")
    played = sum(side[12] for side in sides if side[12] is not None)
    lines += ["", f"Games counted: {games}; change over the event: {played:+.3f}"
              + (" (summed and applied at the end of the event, ruling G1)" if rule_set.events_at_once else "")]
    if rule.startswith("correction"):
        lines.append(f"Then the rating commission's correction sets the points to {after:.1f} "
                     f"({rule.partition(': ')[2]}); every later event counts from them")
    kept = ", grade kept by the hysteresis" if grade_after == grade_before and rule_set.events_at_once else ""
    lines += [f"After: {_points(after)}" + (f" ({grade_after}{kept})" if grade_after else ""),
              f"Rule: {rule}"]
    return "\n".join(lines)
