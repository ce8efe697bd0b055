"""A player's calculation card for one list, and what-if outcomes of a game.

The list's computation is replayed from the warehouse (the state after the list
before, the window's games): it is deterministic, so the replay is the published
computation, with every intermediate value at hand.
"""
from __future__ import annotations

from dataclasses import dataclass

import duckdb
import numpy as np
import pandas as pd

from pipeline.calendar import CALENDARS, season_end_year
from pipeline.periods import local_indices, window_games
from pipeline.rate import starting_state
from pipeline.systems import DEFAULT_SYSTEM, stored_system
from pipeline.systems.performance import RULES, ListResult, PerformanceRules, Rule, bonus, compatible, rate_list


class NotFound(LookupError):
    """An unknown player or list."""


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


def _lists(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """The computed lists, in order."""
    return con.sql("select list_id, window_start, window_end from lists order by window_start").df()


def list_to_replay(con: duckdb.DuckDBPyConnection, list_id: str) -> tuple[str | None, pd.DataFrame]:
    """The list before `list_id` (None: the initial ratings) and `list_id`'s window:
    a computed list, or the next one (whose window may already hold games)."""
    lists = _lists(con)
    if list_id in set(lists["list_id"]):
        where = int(np.flatnonzero(lists["list_id"] == list_id)[0])
        before = None if where == 0 else lists["list_id"].iloc[where - 1]
        return before, lists.iloc[[where]].reset_index(drop=True)
    if not lists.empty and list_id == next_list(con):
        return lists["list_id"].iloc[-1], _next_window(con)
    raise NotFound(f"no list {list_id!r}")


def _next_window(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """The window after the latest list computed, in the warehouse's rule set's calendar."""
    lists = _lists(con)
    if lists.empty:
        raise NotFound("no list has been computed yet")
    day = pd.Timestamp(lists["window_end"].iloc[-1]).date() + pd.Timedelta(days=1)
    return CALENDARS[stored_system(con) or DEFAULT_SYSTEM](day, day)


def replay(con: duckdb.DuckDBPyConnection, player_id: int, list_id: str, rules: PerformanceRules = RULES,
           extra_game: tuple[float, float] | None = None) -> Replay:
    """Recompute `list_id`; `extra_game` = (opponent rating, score) adds a game
    against a rated opponent who is not in the registry (what-if)."""
    before, one = list_to_replay(con, list_id)
    ids, birth_year, rating, archive_performance, archive_games = starting_state(con, before)
    me = int(np.searchsorted(ids, player_id))
    if me >= len(ids) or ids[me] != player_id:
        raise NotFound(f"player {player_id} is not in the registry")
    games = window_games(con, one)
    white, black, white_score = games.white, games.black, games.white_score
    if extra_game is not None:  # a fictitious rated opponent, index n
        ids = np.append(ids, -1)
        birth_year, rating = np.append(birth_year, np.nan), np.append(rating, extra_game[0])
        archive_performance, archive_games = np.append(archive_performance, np.nan), np.append(archive_games, 0)
        white, black = np.append(white, me), np.append(black, len(ids) - 1)
        white_score = np.append(white_score, extra_game[1])
    local, w, b = local_indices(white, black, len(ids), also=me)
    season = season_end_year(pd.Timestamp(one["window_end"].iloc[0]).date())
    result = rate_list(w, b, white_score, rating[local], archive_performance[local], archive_games[local],
                       birth_year[local], season, rules)
    mine = int(np.searchsorted(local, me))
    sides = np.concatenate([w, b])
    opponents = np.concatenate([b, w])[sides == mine]
    scores = np.concatenate([white_score, 1.0 - white_score])[sides == mine]
    used = np.where(np.isnan(rating[local]), result.estimation.estimate, rating[local])
    return Replay(list_id, (one["window_start"].iloc[0], one["window_end"].iloc[0]), result, mine, opponents,
                  scores, used, float(rating[me]), (float(archive_performance[me]), int(archive_games[me])),
                  ids[local][opponents])


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


def card(con: duckdb.DuckDBPyConnection, player_id: int, list_id: str, rules: PerformanceRules = RULES) -> str:
    """The calculation card of a player for a list, as text."""
    r = replay(con, player_id, list_id, rules)
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
                                where player_id = ? and list_id = ? and withdrawn_at is null""",
                             [player_id, list_id]).fetchall()[0]
    if not np.isnan(res.rating[me]):
        lines.append(f"Published (R3: nearest ten, 5 up): {res.unrounded[me]:.3f} → {res.rating[me]:.0f}")
    if correction[0] is not None:
        lines.append(f"Correction by the rating commission: {correction[0]:.0f} ({correction[1]}) replaces it")
    return "\n".join(lines)


def next_list(con: duckdb.DuckDBPyConnection) -> str:
    """The list after the latest one computed (its window may already hold games)."""
    return _next_window(con)["list_id"].iloc[0]


def whatif(con: duckdb.DuckDBPyConnection, player_id: int, opponent: float, list_id: str,
           rules: PerformanceRules = RULES) -> str:
    """The published rating after a win, a draw or a loss against `opponent`, with
    the player's games of the list's window so far."""
    lines = []
    for score, word in ((1.0, "win"), (0.5, "draw"), (0.0, "loss")):
        r = replay(con, player_id, list_id, rules, extra_game=(opponent, score))
        res, me = r.result, r.local
        before = f"{r.previous:.0f}" if not np.isnan(r.previous) else "unrated"
        after = f"{res.rating[me]:.0f}" if not np.isnan(res.rating[me]) else "still unrated"
        change = f" ({res.rating[me] - r.previous:+.0f})" if not np.isnan(r.previous) else ""
        lines.append(f"{word:>5}: {before} → {after}{change}   [{res.rule[me]}, Nj = {res.totals.games[me]}, "
                     f"unrounded {res.unrounded[me]:.3f}]")
    return "\n".join(lines)
