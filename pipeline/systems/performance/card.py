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
import pyarrow as pa

from pipeline.progress import progress
from pipeline.rate.replay import replayed
from pipeline.systems.base import NotFound
from pipeline.systems.performance.rules import ListResult, PerformanceRules, Rule, bonus, compatible


@dataclass(frozen=True)
class Replay:
    """One list recomputed, every player of it at hand: the sides of the games sorted
    by player, so that each player's games are one slice (cards in bulk)."""

    list_id: str
    window: tuple
    result: ListResult
    ids: np.ndarray  # player ids of the list's players (local order)
    used: np.ndarray  # the rating each of them counts at (R4)
    previous: np.ndarray  # their ratings before the list (NaN: unrated)
    archives: tuple[np.ndarray, np.ndarray]
    side_opponent: np.ndarray  # per game side, grouped by player: the opponent (local index)
    side_score: np.ndarray
    side_game: np.ndarray  # the game's key (-1: the what-if game)
    starts: np.ndarray  # player k's sides are starts[k]:starts[k + 1]

    def sides(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        at = slice(self.starts[k], self.starts[k + 1])
        return self.side_opponent[at], self.side_score[at], self.side_game[at]


def replay(con: duckdb.DuckDBPyConnection, series, rule_set, list_id: str, player_ids=None,
           extra_game: tuple[float, float] | None = None) -> Replay:
    """Recompute `list_id` with its players (and `player_ids`, even without a game);
    `extra_game` = (opponent rating, score) adds a game of the one player asked for
    against a rated opponent who is not in the registry (what-if)."""
    r = replayed(con, series, None, list_id, extra={"game_key": np.int64})
    state, games = r.state, r.games
    asked = np.searchsorted(state.ids, np.asarray(player_ids if player_ids is not None else [], dtype=np.int64))
    missing = [int(i) for i, k in zip(player_ids if player_ids is not None else [], asked)
               if k >= len(state.ids) or state.ids[k] != i]
    if missing:
        raise NotFound(f"player {missing[0]} is not in the registry")
    keys = games.extra["game_key"]
    if extra_game is not None:  # a fictitious rated opponent, at the end of the state
        state, opponent = state.with_opponent(extra_game[0])
        games = replace(games, white=np.append(games.white, asked[0]), black=np.append(games.black, opponent),
                        white_score=np.append(games.white_score, extra_game[1]))
        keys = np.append(keys, -1)
    local, w, b, result = rule_set.rate_window(state, games, r.period.list_id, also=asked if len(asked) else None)
    player = np.concatenate([w, b])
    order = np.argsort(player, kind="stable")
    used = np.where(np.isnan(state.rating[local]), result.estimation.estimate, state.rating[local])
    return Replay(list_id, (r.period.start, r.period.end), result, state.ids[local], used, state.rating[local],
                  (state.archive_performance[local], state.archive_games[local]),
                  np.concatenate([b, w])[order], np.concatenate([games.white_score, 1.0 - games.white_score])[order],
                  np.concatenate([keys, keys])[order], np.searchsorted(player[order], np.arange(len(local) + 1)))


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


def cards(con: duckdb.DuckDBPyConnection, series, rule_set, list_id: str, player_ids=None) -> dict[int, str]:
    """The calculation cards of a list, from one replay of it: of `player_ids`, or of
    every player who played; opponents and events named."""
    r = replay(con, series, rule_set, list_id, player_ids)
    wanted = r.ids[r.result.played > 0] if player_ids is None else np.asarray(player_ids, dtype=np.int64)
    con.register("card_players", pa.table({"player_id": r.ids}))
    names = dict(con.execute("select player_id, name from players join card_players using (player_id)").fetchall())
    con.unregister("card_players")
    con.register("card_games", pa.table({"game_key": np.unique(r.side_game)}))
    details = {k: (d, e) for k, d, e in con.execute(
        "select game_key, date, event from games join card_games using (game_key)").fetchall()}
    con.unregister("card_games")
    fixes = {p: (v, why) for p, v, why in con.execute(
        """select player_id, arg_max(rating, correction_id), arg_max(reason, correction_id) from corrections
           where series = ? and list_id = ? and withdrawn_at is null group by player_id""",
        [series.name, list_id]).fetchall()}
    at = np.searchsorted(r.ids, wanted)
    # A list's cards (`explain --all`, the site's) a bar; one player's card (`explain ID`) none.
    each = progress(zip(wanted, at), f"cards of {list_id}", total=len(wanted), unit="card",
                    show=None if len(wanted) > 1 else False)
    return {int(pid): _card_text(r, int(k), names, details, fixes.get(int(pid)), rule_set.parameters)
            for pid, k in each}  # text, one card a player


def card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> str:
    """The calculation card of a player for a list, as text."""
    return cards(con, series, rule_set, list_id, [player_id])[player_id]


def _card_text(r: Replay, me: int, names: dict, details: dict, correction, rules: PerformanceRules) -> str:
    res = r.result
    player_id, previous = int(r.ids[me]), float(r.previous[me])
    archives = (float(r.archives[0][me]), int(r.archives[1][me]))
    rated = not np.isnan(previous)
    own = previous if rated else res.estimation.estimate[me]
    lines = [f"{names.get(player_id, '')} ({player_id}), list {r.list_id} "
             f"(games of {r.window[0]:%Y-%m-%d} … {r.window[1]:%Y-%m-%d})",
             "Before: " + (f"rated {previous:.0f}" if rated else
                            "unrated" + (f", archives Pa = {archives[0]:.3f} over Na = {archives[1]}"
                                         if archives[1] else ", no archives")),
             f"Junior this season (R2): {'yes' if res.junior[me] else 'no'}", ""]
    if not rated and me in set(res.estimation.players):
        k = int(np.flatnonzero(res.estimation.players == me)[0])
        first, *rounds = res.estimation.history[:, k]
        steps = ", ".join([f"first pass: {first:.1f}"] + [f"{i}: {v:.1f}" for i, v in enumerate(rounds, 1)])
        lines += [f"Estimate per round (R7–R9; the first pass without the compatibility range, then up to "
                  f"{rules.max_rounds} rounds with it): {steps}",
                  f"Final estimate, used as Ei and as Pj (R10): {own:.3f}", ""]
    opponents, scores, keys = r.sides(me)
    opp_rating = r.used[opponents]
    counts = compatible(scores, np.full(len(scores), own), opp_rating, rules) & ~np.isnan(opp_rating)
    lines.append(f"{'opponent':>10}  {'name':<24} {'rating used':>12} {'result':>6}  {'counts?':<42} "
                 f"{'date':<10}  event")
    gap = rules.compatibility_gap
    for opp, rating_used, score, ok, key in sorted(
            zip(r.ids[opponents], opp_rating, scores, counts, keys),
            key=lambda g: (-g[1] if not np.isnan(g[1]) else 0, g[0], details.get(g[4], ("", ""))[0] or "")):
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
        day, event = details.get(key, (None, None))
        who = names.get(int(opp), "") if key != -1 else "(what-if)"
        lines.append(f"{opp:>10}  {who[:24]:<24} {rating_used:>12.1f} {result:>6}  {why:<42} "
                     f"{str(day or ''):<10}  {event or ''}".rstrip())
    t = res.totals
    nj = int(t.games[me])
    lines.append("")
    if nj:
        raw = t.mean_opponent[me] + float(bonus(np.array([t.p[me]]), rules)[0])
        floored = f", raised to {rules.performance_floor:.0f}" if raw < rules.performance_floor else ""
        pj = float(res.performance[me])
        lines += [f"Nj = {nj} compatible games, Sc = {t.score[me]:g}, Ea = {t.mean_opponent[me]:.3f}, "
                  f"P = Sc / Nj = {t.p[me]:.4f}",
                  _bonus_text(float(t.p[me]), rules)]
        # An unrated player's Pj is the final estimate (R10): the last round's performance,
        # printed as "Pj =", was read as the value the rule used.
        lines += ([f"Pj = Ea + D(P) = {raw:.3f}{floored}"] if rated else
                  [f"Last round's performance Ea + D(P) = {raw:.3f}{floored} (not Pj: R10)",
                   f"Pj = the final estimate (R10) = {pj:.3f}"])
    rule = str(res.rule[me])
    pj = float(res.performance[me]) if nj else float("nan")
    lines.append(f"Rule: {rule}")
    lines.append(_formula(rule, previous, nj, pj, archives[0], archives[1], float(res.unrounded[me]), rules))
    if not np.isnan(res.rating[me]):
        lines.append(f"Published (R3: nearest ten, 5 up): {res.unrounded[me]:.3f} → {res.rating[me]:.0f}")
    if correction is not None:
        lines.append(f"Correction by the rating commission: {correction[0]:.0f} ({correction[1]}) replaces it")
    return "\n".join(lines)


def whatif(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, opponent: float, list_id: str) -> str:
    """The published rating after a win, a draw or a loss against `opponent`, with
    the player's games of the list's window so far."""
    lines = []
    for score, word in ((1.0, "win"), (0.5, "draw"), (0.0, "loss")):
        r = replay(con, series, rule_set, list_id, [player_id], extra_game=(opponent, score))
        res = r.result
        me = int(np.flatnonzero(r.ids == player_id)[0])  # the what-if opponent (id -1) is last
        previous = float(r.previous[me])
        before = f"{previous:.0f}" if not np.isnan(previous) else "unrated"
        after = f"{res.rating[me]:.0f}" if not np.isnan(res.rating[me]) else "still unrated"
        change = f" ({res.rating[me] - previous:+.0f})" if not np.isnan(previous) else ""
        lines.append(f"{word:>5}: {before} → {after}{change}   [{res.rule[me]}, Nj = {res.totals.games[me]}, "
                     f"unrounded {res.unrounded[me]:.3f}]")
    return "\n".join(lines)
