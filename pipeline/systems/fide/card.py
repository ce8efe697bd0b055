"""A player's FIDE calculation card for one list, and what-if outcomes of a game
(the seed 003 page's features: every step with the player's own numbers).

The period is replayed from the warehouse, as for the performance Elo
(pipeline/rate/replay.py): the replay is the published computation.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import duckdb
import numpy as np
import pandas as pd

from pipeline.rate.replay import replayed
from pipeline.systems.fide.pool import pool_cutoff
from pipeline.systems.fide.rules import FideRules, PeriodResult, Rule, expected_score, rating_difference


@dataclass(frozen=True)
class FideReplay:
    """One period recomputed, and the player's place in it."""

    window: tuple
    year: int
    result: PeriodResult
    me: int  # the player's index among the period's players
    previous: float  # NaN: unrated
    games_total: int
    peak: float
    birth_year: float
    pool: tuple[int, float, float]  # pooled before the period: games, opponents' sum, score
    opponent_ids: np.ndarray
    opponent_ratings: np.ndarray  # at the start of the period (NaN: unrated)
    scores: np.ndarray


def fide_replay(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str,
                extra_game: tuple[float, float] | None = None) -> FideReplay:
    """Recompute `list_id`; `extra_game` = (opponent rating, score) adds a game
    against a rated opponent who is not in the registry (what-if)."""
    rules = rule_set.parameters
    r = replayed(con, series, player_id, list_id)
    s, g, me = r.state, r.games, r.me
    end = pd.Timestamp(r.period.end)
    s.pool.since(pool_cutoff(end, rules))
    pool = s.pool.totals(len(s.ids))
    if extra_game is not None:  # a fictitious established opponent, index n, on the window's last day
        opponent, extra_score = extra_game
        s.ids, s.rating = np.append(s.ids, -1), np.append(s.rating, opponent)
        s.games_total, s.peak = np.append(s.games_total, rules.established_games), np.append(s.peak, opponent)
        s.birth_year, s.started = np.append(s.birth_year, np.nan), np.append(s.started, True)
        g = replace(g, white=np.append(g.white, me), black=np.append(g.black, len(s.ids) - 1),
                    white_score=np.append(g.white_score, extra_score),
                    day=np.append(g.day, (end - pd.Timestamp("1970-01-01")).days), event=np.append(g.event, -1))
    previous, games_total, peak, birth_year = s.rating[me], s.games_total[me], s.peak[me], s.birth_year[me]
    local, w, b, result = rule_set.rate_arrays(s, g, end, also=me)
    mine = int(np.searchsorted(local, me))
    sides = np.concatenate([w, b])
    opponents = np.concatenate([b, w])[sides == mine]
    return FideReplay((r.period.start, r.period.end), end.year, result, mine,
                      float(previous), int(games_total), float(peak), float(birth_year),
                      (int(pool[0][me]), float(pool[1][me]), float(pool[2][me])),
                      s.ids[local][opponents], s.rating[local][opponents],
                      np.concatenate([g.white_score, 1.0 - g.white_score])[sides == mine])


def _k_text(r: FideReplay, rules: FideRules) -> str:
    res, me = r.result, r.me
    k, n, rule = int(res.k[me]), int(res.games[me]), str(res.rule[me])
    why = {Rule.K_NEW: f"{r.games_total} rated games to date, fewer than {rules.established_games}",
           Rule.K_JUNIOR: f"born {r.birth_year:.0f}, under 18 in {r.year}, rated under {rules.junior_below:.0f}",
           Rule.K_MASTER: f"highest published rating {r.peak:.0f} ≥ {rules.master_from:.0f}",
           Rule.K_STANDARD: f"{r.games_total} games, highest rating {r.peak:.0f}, not a junior"}.get(rule, "")
    text = f"K = {k}: {rule.partition(': ')[2]} ({why})" if why else f"K = {k}"
    full = {Rule.K_NEW: rules.k_new, Rule.K_JUNIOR: rules.k_junior, Rule.K_MASTER: rules.k_master,
            Rule.K_STANDARD: rules.k_standard}.get(rule)
    if full is not None and full * n > rules.max_k_times_games:
        text += (f"; {full} × {n} games = {full * n} > {rules.max_k_times_games}: "
                 f"K = ⌊{rules.max_k_times_games} / {n}⌋ = {k}")
    return text


def _difference_text(own: float, opponent: float, rules: FideRules) -> str:
    d = own - opponent
    used = float(rating_difference(np.array([own]), np.array([opponent]), rules)[0])
    if used != d:
        return f"{d:+.0f} → {used:+.0f} (400-point rule)"
    if abs(d) > rules.difference_cap:
        return f"{d:+.0f} (rated {rules.cap_exempt_from:.0f} or more: the real difference)"
    return f"{d:+.0f}"


def _performance_text(r: FideReplay) -> str:
    """The seed's linear approximation, with its warning where it breaks."""
    rated = ~np.isnan(r.opponent_ratings)
    if not rated.any():
        return "Tournament performance: no rated opponent"
    s = r.scores[rated]
    n, wins, losses = len(s), int((s == 1).sum()), int((s == 0).sum())
    mean = float(r.opponent_ratings[rated].mean())
    value = mean + 400 * (wins - losses) / n
    text = (f"Tournament performance (linear approximation): mean opponent {mean:.1f} + 400 × "
            f"({wins} − {losses}) / {n} = {value:.1f}")
    if wins == n or losses == n:
        text += ("\n  Warning: at 100 % or 0 % the approximation breaks: it gives the mean ± 400 "
                 "whatever the real strength")
    return text


def fide_card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> str:
    """The FIDE calculation card of a player for a list, as text."""
    rules = rule_set.parameters
    r = fide_replay(con, series, rule_set, player_id, list_id)
    res, me = r.result, r.me
    name = con.execute("select name from players where player_id = ?", [player_id]).fetchall()[0][0]
    rated = not np.isnan(r.previous)
    lines = [f"{name} ({player_id}), list {list_id} (games of {r.window[0]:%Y-%m-%d} … {r.window[1]:%Y-%m-%d}), "
             "FIDE rules",
             "Before: " + (f"rated {r.previous:.0f}, {r.games_total} rated games to date, "
                           f"highest published rating {r.peak:.0f}" if rated else
                           f"unrated; pooled from earlier lists (26 months): {r.pool[0]} games, score {r.pool[2]:g}")]
    if rated and res.games[me]:
        lines.append(_k_text(r, rules))
    lines += ["", f"{'opponent':>10} {'rating':>7} {'result':>6}  counts"]
    for opp, rating, score in sorted(zip(r.opponent_ids, r.opponent_ratings, r.scores),
                                     key=lambda g: (-np.nan_to_num(g[1]), g[0])):
        word = {1.0: "win", 0.5: "draw", 0.0: "loss"}[float(score)]
        if np.isnan(rating):
            lines.append(f"{opp:>10} {'-':>7} {word:>6}  no: the opponent is unrated")
            continue
        if rated:
            d = float(rating_difference(np.array([r.previous]), np.array([rating]), rules)[0])
            e = float(expected_score(np.array([d]), rules)[0])
            how = f"D = {_difference_text(r.previous, rating, rules)}, E = {e:.2f}, S − E = {score - e:+.2f}"
        else:
            how = "joins the pool"
        lines.append(f"{opp:>10} {rating:>7.0f} {word:>6}  {how}")
    lines.append("")
    rule = str(res.rule[me])
    if rated and res.games[me]:
        n, sc, ex, k = int(res.games[me]), float(res.score[me]), float(res.expected[me]), int(res.k[me])
        lines += [f"n = {n} rated games, score {sc:g}, Σ E = {ex:.2f}, Σ(S − E) = {sc:g} − {ex:.2f} = {sc - ex:+.2f}",
                  f"Change = K × Σ(S − E) = {k} × {sc - ex:+.2f} = {k * (sc - ex):+.2f} → {res.change[me]:+.0f} "
                  "(a whole number, 0.5 away from zero; one K for the period, from the ratings at its start)",
                  f"New rating = {r.previous:.0f} {res.change[me]:+.0f} = {r.previous + res.change[me]:.0f}"]
        if rule == Rule.BELOW_FLOOR:
            lines.append(f"Below {rules.floor:.0f}: unrated on this list (B02 7.2.1)")
    elif rated:
        lines.append(f"Rule: {rule}: the rating stays {r.previous:.0f}")
    else:
        lines += _initial_lines(r, rules)
    lines.append(_performance_text(r))
    return "\n".join(lines)


def _initial_lines(r: FideReplay, rules: FideRules) -> list[str]:
    res, me = r.result, r.me
    rule = str(res.rule[me])
    lines = [f"Rule: {rule}"]
    if res.ignored_games[me]:
        lines.append(f"{res.ignored_games[me]} games of a first event with a zero score are ignored (B02 8.2)")
    pooled = int(res.pooled[me])
    lines.append(f"Pool after this list: {pooled} games against rated opponents ({rules.initial_games} needed)")
    if np.isnan(res.ra[me]):
        return lines
    f, fr = rules.fictitious_draws, rules.fictitious_rating
    opp_sum = r.pool[1] + float(res.mean_opponent[me] * res.games[me] if res.games[me] else 0)
    score = r.pool[2] + float(res.score[me])
    lines += [f"Ra = ({opp_sum:.0f} + {f} × {fr:.0f}) / ({pooled} + {f}) = {res.ra[me]:.3f} "
              f"(with {f} fictitious draws against {fr:.0f})",
              f"p = ({score:g} + {f} × 0.5) / ({pooled} + {f}) = {res.p[me]:.4f} → {round(res.p[me] + 1e-9, 2):.2f}, "
              f"dp = {res.dp[me]:+.0f} (table 8.1.1, looked up, not interpolated)",
              f"Ru = Ra + dp = {res.performance[me]:.3f}"
              + (f", at most {rules.initial_cap:.0f}" if res.performance[me] > rules.initial_cap else "")
              + (f" → {res.rating[me]:.0f}" if not np.isnan(res.rating[me])
                 else f" → below {rules.floor:.0f}: not published")]
    return lines


def fide_whatif(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, opponent: float,
                list_id: str) -> str:
    """The rating after a win, a draw or a loss against `opponent`, with the
    player's games of the list's window so far."""
    rules = rule_set.parameters
    lines = []
    for score, word in ((1.0, "win"), (0.5, "draw"), (0.0, "loss")):
        r = fide_replay(con, series, rule_set, player_id, list_id, extra_game=(opponent, score))
        res, me = r.result, r.me
        after = res.rating[me]
        if np.isnan(r.previous):
            outcome = (f"unrated → {after:.0f}" if not np.isnan(after) else
                       f"still unrated ({int(res.pooled[me])} of {rules.initial_games} games pooled)")
            lines.append(f"{word:>5}: {outcome}   [{res.rule[me]}]")
            continue
        shown = f"{after:.0f} ({after - r.previous:+.0f})" if not np.isnan(after) else "unrated (below 1400)"
        e = float(expected_score(rating_difference(np.array([r.previous]), np.array([opponent]), rules), rules)[0])
        lines.append(f"{word:>5}: {r.previous:.0f} → {shown}   [K {res.k[me]}, E of this game {e:.2f}, "
                     f"Σ(S − E) = {res.score[me] - res.expected[me]:+.2f} over {res.games[me]} games]")
    return "\n".join(lines)
