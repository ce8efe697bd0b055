"""A player's Glicko-2 calculation card for one list, read from what the list stored
(calculations with glicko2_calculations, the state with glicko2_state): the terms of
Glickman 2013's steps, as computed."""
from __future__ import annotations

import duckdb

from pipeline.systems.base import NotFound
from pipeline.systems.glicko2.rules import published


def glicko2_card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> str:
    """The card as text; NotFound when the player has no game in the list."""
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
    tau = rule_set.parameters.tau
    was = "unrated" if previous is None else f"published {previous:.0f}"
    lines = [f"{name or 'player'} ({player_id}), list {list_id} (games of {start:%Y-%m-%d} … {end:%Y-%m-%d}), "
             f"{rule_set.title} (Glickman 2013), tau = {tau:g}",
             f"Before:  r {r0:.2f}, RD {rd0:.2f}, volatility {sigma0:.6f} ({was})",
             f"Games:   {games}, score {score:g}, expected {expected:.2f} (step 3: Σ E, each with the opponent's g(RD))",
             f"v = {v:.4f}, Delta = {delta:+.4f} (steps 3 and 4, Glicko-2 scale)",
             f"Volatility {sigma0:.6f} → {sigma1:.6f} (step 5); RD {rd0:.2f} → {rd1:.2f} (steps 6 and 7)",
             f"After:   r {unrounded:.2f} (step 8), RD {rd1:.2f}, volatility {sigma1:.6f} "
             f"→ published {published(unrounded):.0f}"]
    if rule.startswith("correction"):
        lines.append(f"The commission's {rule}: rating {rating:.0f} (exact rating {exact:.2f}, RD {rd_now:.2f} kept)")
    else:
        lines.append(f"Rule: {rule}")
    return "\n".join(lines)
