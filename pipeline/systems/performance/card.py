"""A player's calculation card for one list under the performance Elo, and what-if
outcomes of a game.

The list's computation is replayed from the warehouse (pipeline/rate/replay.py:
the state after the list before, the window's games): it is deterministic, so the
replay is the published computation, with every intermediate value at hand.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import duckdb
import numpy as np

from pipeline.rate.replay import replayed
from pipeline.systems.performance.rules import ListResult, PerformanceRules, Rule, bonus, compatible


@dataclass(frozen=True)
class Replay:
    """One list recomputed: the result and where the player sits in it."""

    list_id: str
    window: tuple
    result: ListResult
    local: int  # the player's index among the window's players
    opponents: np.ndarray  # local indices of the player's opponents, one per game side
    scores: np.ndarray  # the player's score in each of those games
    used: np.ndarray  # the rating each window player counts at (R4)
    previous: float  # the player's rating before the list (NaN: unrated)
    archives: tuple[float, int]
    opponent_ids: np.ndarray


def replay(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str,
           extra_game: tuple[float, float] | None = None) -> Replay:
    """Recompute `list_id`; `extra_game` = (opponent rating, score) adds a game
    against a rated opponent who is not in the registry (what-if)."""
    r = replayed(con, series, player_id, list_id)
    state, games, me = r.state, r.games, r.me
    if extra_game is not None:  # a fictitious rated opponent, at the end of the state
        state, opponent = state.with_opponent(extra_game[0])
        games = replace(games, white=np.append(games.white, me), black=np.append(games.black, opponent),
                        white_score=np.append(games.white_score, extra_game[1]))
    local, w, b, result = rule_set.rate_window(state, games, r.period.end, also=me)
    mine = int(np.searchsorted(local, me))
    sides = np.concatenate([w, b])
    opponents = np.concatenate([b, w])[sides == mine]
    scores = np.concatenate([games.white_score, 1.0 - games.white_score])[sides == mine]
    used = np.where(np.isnan(state.rating[local]), result.estimation.estimate, state.rating[local])
    return Replay(list_id, (r.period.start, r.period.end), result, mine, opponents, scores, used,
                  float(state.rating[me]), (float(state.archive_performance[me]), int(state.archive_games[me])),
                  state.ids[local][opponents])


def _bonus_text(p: float, rules: PerformanceRules) -> str:
    d = float(bonus(np.array([p]), rules)[0])
    table = dict(rules.dp_table)
    if p >= 0.95 or p <= 0.05:
        return f"P = {p:.4f} is beyond the table's ±470 bound (R5): D(P) = {d:+.0f}"
    low = np.floor(round(p * 100, 9)) / 100
    if abs(p - low) < 1e-12:
        return f"D({p:.2f}) = {d:+.0f} (table)"
    high = low + 0.01
    frac = (p - low) / 0.01
    d_low, d_high = table[round(low, 2)], table[round(high, 2)]
    return (f"P = {p:.4f} lies between {low:.2f} ({d_low:+.0f}) and {high:.2f} ({d_high:+.0f}): "
            f"D = {d_low:.0f} + {frac:.3f} × ({d_high:.0f} − {d_low:.0f}) = {d:.3f} (R5)")


def _formula(rule: str, ei: float, nj: int, pj: float, pa: float, na: int, unrounded: float,
             rules: PerformanceRules) -> str:
    w = rules.brake_weight
    if rule == Rule.BRAKE:
        return f"Pj < Ei, the brake: Ej = ({w} × {ei:.0f} + {nj} × {pj:.3f}) / ({w} + {nj}) = {unrounded:.3f}"
    if rule == Rule.QUOTA:
        return f"Pj ≥ Ei and the quota is met: Ej = Pj = {unrounded:.3f}"
    if rule == Rule.BARYCENTRE:
        return (f"Pj ≥ Ei, quota not met: the barycentre completed to {w}: "
                f"Ej = ({pj:.3f} × {nj} + ({w} − {nj}) × {ei:.0f}) / {w} = {unrounded:.3f}")
    if rule == Rule.FIRST_RATING:
        return f"Nj ≥ {rules.entry_games}: first rating Ej = Pj = {unrounded:.3f}"
    if rule == Rule.ARCHIVES_MERGED:
        return (f"Nj < {rules.entry_games} but Nj + Na ≥ {rules.entry_games}: "
                f"Ej = ({pj:.3f} × {nj} + {pa:.3f} × {na}) / ({nj} + {na}) = {unrounded:.3f}")
    if rule == Rule.ARCHIVED:
        return (f"Nj + Na < {rules.entry_games}: no rating yet; archives (R6) "
                f"Pa' = ({pj:.3f} × {nj}" + (f" + {pa:.3f} × {na}" if na else "") + f") / {nj + na}, Na' = {nj + na}")
    if rule == Rule.UNANCHORED:
        return "no rated player among this player's group of the period (R11): no estimate, no archive, no rating"
    return "no compatible game: nothing changes"


def card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> str:
    """The calculation card of a player for a list, as text."""
    rules = rule_set.parameters
    r = replay(con, series, rule_set, player_id, list_id)
    res, me = r.result, r.local
    name = con.execute("select name from players where player_id = ?", [player_id]).fetchall()[0][0]
    rated = not np.isnan(r.previous)
    own = r.previous if rated else res.estimation.estimate[me]
    lines = [f"{name} ({player_id}), list {list_id} (games of {r.window[0]:%Y-%m-%d} … {r.window[1]:%Y-%m-%d})",
             "Before: " + (f"rated {r.previous:.0f}" if rated else
                            "unrated" + (f", archives Pa = {r.archives[0]:.3f} over Na = {r.archives[1]}"
                                         if r.archives[1] else ", no archives")),
             f"Junior this season (R2): {'yes' if res.junior[me] else 'no'}", ""]
    if not rated and me in set(res.estimation.players):
        k = int(np.flatnonzero(res.estimation.players == me)[0])
        first, *rounds = res.estimation.history[:, k]
        steps = ", ".join([f"first pass: {first:.1f}"] + [f"{i}: {v:.1f}" for i, v in enumerate(rounds, 1)])
        lines += [f"Estimate per round (R7–R9; the first pass without the compatibility range, then up to "
                  f"{rules.max_rounds} rounds with it): {steps}",
                  f"Final estimate, used as Ei and as Pj (R10): {own:.3f}", ""]
    opp_rating = r.used[r.opponents]
    counts = compatible(r.scores, np.full(len(r.scores), own), opp_rating, rules) & ~np.isnan(opp_rating)
    lines.append(f"{'opponent':>10} {'rating used':>12} {'result':>6}  counts?")
    gap = rules.compatibility_gap
    for opp, rating_used, score, ok in sorted(zip(r.opponent_ids, opp_rating, r.scores, counts),
                                              key=lambda g: (-g[1] if not np.isnan(g[1]) else 0, g[0])):
        result = {1.0: "win", 0.5: "draw", 0.0: "loss"}[float(score)]
        if np.isnan(rating_used):
            why = "no: the opponent has no estimate (R11)"
        elif score == 0.5:
            why = "yes: draws always count"
        elif score == 1.0:
            why = (f"{'yes' if ok else 'no'}: win, {own:.0f} − {rating_used:.0f} = {own - rating_used:.0f} "
                   f"{'<' if ok else '≥'} {gap:.0f}")
        else:
            why = (f"{'yes' if ok else 'no'}: loss, {rating_used:.0f} − {own:.0f} = {rating_used - own:.0f} "
                   f"{'<' if ok else '≥'} {gap:.0f}")
        lines.append(f"{opp:>10} {rating_used:>12.1f} {result:>6}  {why}")
    t = res.totals
    nj = int(t.games[me])
    lines.append("")
    if nj:
        raw = t.mean_opponent[me] + float(bonus(np.array([t.p[me]]), rules)[0])
        lines += [f"Nj = {nj} compatible games, Sc = {t.score[me]:g}, Ea = {t.mean_opponent[me]:.3f}, "
                  f"P = Sc / Nj = {t.p[me]:.4f}",
                  _bonus_text(float(t.p[me]), rules),
                  f"Pj = Ea + D(P) = {raw:.3f}" + (f", raised to {rules.performance_floor:.0f}"
                                                   if raw < rules.performance_floor else "")]
    rule = str(res.rule[me])
    pj = float(res.performance[me]) if nj else float("nan")
    lines.append(f"Rule: {rule}")
    lines.append(_formula(rule, r.previous, nj, pj, r.archives[0], r.archives[1], float(res.unrounded[me]), rules))
    correction = con.execute("""select arg_max(rating, correction_id), arg_max(reason, correction_id) from corrections
                                where series = ? and player_id = ? and list_id = ? and withdrawn_at is null""",
                             [series.name, player_id, list_id]).fetchall()[0]
    if not np.isnan(res.rating[me]):
        lines.append(f"Published (R3: nearest ten, 5 up): {res.unrounded[me]:.3f} → {res.rating[me]:.0f}")
    if correction[0] is not None:
        lines.append(f"Correction by the rating commission: {correction[0]:.0f} ({correction[1]}) replaces it")
    return "\n".join(lines)


def whatif(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, opponent: float, list_id: str) -> str:
    """The published rating after a win, a draw or a loss against `opponent`, with
    the player's games of the list's window so far."""
    lines = []
    for score, word in ((1.0, "win"), (0.5, "draw"), (0.0, "loss")):
        r = replay(con, series, rule_set, player_id, list_id, extra_game=(opponent, score))
        res, me = r.result, r.local
        before = f"{r.previous:.0f}" if not np.isnan(r.previous) else "unrated"
        after = f"{res.rating[me]:.0f}" if not np.isnan(res.rating[me]) else "still unrated"
        change = f" ({res.rating[me] - r.previous:+.0f})" if not np.isnan(r.previous) else ""
        lines.append(f"{word:>5}: {before} → {after}{change}   [{res.rule[me]}, Nj = {res.totals.games[me]}, "
                     f"unrounded {res.unrounded[me]:.3f}]")
    return "\n".join(lines)
