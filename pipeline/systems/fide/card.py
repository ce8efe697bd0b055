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
from pipeline.systems.fide.pool import EPOCH, pool_cutoff
from pipeline.systems.fide.rules import (FideRules, PeriodResult, Rule, SideUse, expected_score, is_junior,
                                        k_factor, rating_difference)


@dataclass(frozen=True)
class FideReplay:
    """One list recomputed, and the player's place in it."""

    window: tuple
    year: int
    result: PeriodResult
    me: int  # the player's index among the list's players
    previous: float  # NaN: unrated
    games_total: int
    peak: float
    birth_year: float
    pool: tuple[int, float, float]  # pooled before the list: games, opponents' sum, score
    mine: np.ndarray  # the player's sides (indices into result.sides)
    opponent_ids: np.ndarray  # the opponent's id of every side of the list
    events: dict  # event key → (name, first day, last day, start list)

    @property
    def opponent_ratings(self) -> np.ndarray:
        return self.result.sides.opponent_rating[self.mine]

    @property
    def scores(self) -> np.ndarray:
        return self.result.sides.score[self.mine]


def fide_replay(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str,
                extra_game: tuple[float, float] | None = None) -> FideReplay:
    """Recompute `list_id`; `extra_game` = (opponent rating, score) adds a game
    against a rated opponent who is not in the registry (what-if), played at the
    end of the list's window in an event that starts from the list before."""
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
        day = (end - EPOCH).days
        one = {"day": day, "event_key": -1, "start_list": s.list_id, "first_day": day, "match": False,
               "after_decided": False, "game_key": -1}  # the fictitious game: no key of a stored one
        games = g.games
        games = replace(games, white=np.append(games.white, me), black=np.append(games.black, len(s.ids) - 1),
                        white_score=np.append(games.white_score, extra_score),
                        list_index=np.append(games.list_index, 1),
                        extra={k: np.append(v, one[k]).astype(v.dtype) for k, v in games.extra.items()})
        g = replace(g, games=games)
    previous, games_total, peak, birth_year = s.rating[me], s.games_total[me], s.peak[me], s.birth_year[me]
    local, _, _, result = rule_set.rate_arrays(s, g, end, also=me)
    mine_local = int(np.searchsorted(local, me))
    sides = np.flatnonzero(result.sides.player == mine_local)
    events = {int(k): row for k, *row in con.execute("""
        select distinct (hash(event_key) >> 1)::bigint, event_name, first_day, last_day, start_list
        from fide_placed where rated_on = ?""", [list_id]).fetchall()}
    events[-1] = ("the game asked about", end.date(), end.date(), s.list_id)
    return FideReplay((r.period.start, r.period.end), end.year, result, mine_local,
                      float(previous), int(games_total), float(peak), float(birth_year),
                      (int(pool[0][me]), float(pool[1][me]), float(pool[2][me])),
                      sides, s.ids[local][result.sides.opponent], events)


def _k_text(r: FideReplay, rules: FideRules, side: int) -> str:
    """The K of one event (from the player's state on the list it started from) and why."""
    res, sd = r.result, r.result.sides
    n = int(res.games[r.me])
    games_total, peak, year = int(sd.games_total[side]), float(sd.peak[side]), int(sd.year[side])
    junior = is_junior(np.array([r.birth_year]), year, rules)
    k, rule = (v[0] for v in k_factor(np.array([sd.own[side]]), np.array([games_total]), np.array([peak]),
                                      junior, np.array([n]), rules))
    why = {Rule.K_NEW: f"{games_total} rated games to date, fewer than {rules.established_games}",
           Rule.K_JUNIOR: f"born {r.birth_year:.0f}, under 18 in {year}, never rated {rules.junior_below:.0f}",
           Rule.K_MASTER: f"highest published rating {peak:.0f} ≥ {rules.master_from:.0f}",
           Rule.K_STANDARD: f"{games_total} games, highest rating {peak:.0f}, not a junior"}[rule]
    text = f"K = {k}: {str(rule).partition(': ')[2]} ({why})"
    full = {Rule.K_NEW: rules.k_new, Rule.K_JUNIOR: rules.k_junior, Rule.K_MASTER: rules.k_master,
            Rule.K_STANDARD: rules.k_standard}[rule]
    if full * n > rules.max_k_times_games:
        text += (f"; {full} × {n} games rated on the list = {full * n} > {rules.max_k_times_games}: "
                 f"K = ⌊{rules.max_k_times_games} / {n}⌋ = {k}")
    return text


def _difference_text(own: float, opponent: float, rules: FideRules, exempt: bool = True) -> str:
    d = own - opponent
    used = float(rating_difference(np.array([own]), np.array([opponent]), rules, exempt)[0])
    if used != d:
        why = "400-point rule" if exempt or rules.cap_exempt_from is None or own < rules.cap_exempt_from else \
            f"400-point rule: the event started before {rules.cap_exempt_since}, X4"
        return f"{d:+.0f} → {used:+.0f} ({why})"
    if abs(d) > rules.difference_cap:
        return f"{d:+.0f} (rated {rules.cap_exempt_from:.0f} or more: the real difference, X4)"
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


def _event_lines(r: FideReplay, rules: FideRules, key: int, sides: np.ndarray, names: dict
                 ) -> tuple[list[str], float]:
    """One event's part of the card: where its ratings come from, its games, its
    K × Σ(S − E); returns the lines and that sum (0 for an unrated player)."""
    res, sd = r.result, r.result.sides
    name, first, last, start = r.events.get(key, ("an event", None, None, None))
    days = f" ({first:%Y-%m-%d} … {last:%Y-%m-%d})" if first is not None else ""
    source = f"the ratings of list {start}" if start else "the initial ratings"
    lines = [f"Event: {name}{days}, from {source} (in force when it started, X2)"]
    counted = sides[res.side_use[sides] == SideUse.RATED]
    if len(counted):
        own = float(sd.own[counted[0]])
        if sd.newcomer is not None and sd.newcomer[counted[0]]:
            lines.append(f"  own rating counted: {own:.0f} (unrated when the event started, rated since: "
                         "counted as rated, X3)")
        elif own != r.previous:
            lines.append(f"  own rating counted: {own:.0f} (from {source})")
        lines.append("  " + _k_text(r, rules, counted[0]))
    lines.append(f"  {'opponent':>10}  {'name':<24} {'date':<10} {'rating':>7} {'result':>6}  counts")
    for i in sorted(sides, key=lambda i: (-np.nan_to_num(sd.opponent_rating[i]), int(r.opponent_ids[i]))):
        opp = int(r.opponent_ids[i])
        rating, score, use = sd.opponent_rating[i], float(sd.score[i]), res.side_use[i]
        word = {1.0: "win", 0.5: "draw", 0.0: "loss"}[score]
        shown = "-" if np.isnan(rating) else f"{rating:.0f}"
        if use == SideUse.RATED:
            e = float(res.side_expected[i])
            how = (f"D = {_difference_text(float(sd.own[i]), float(rating), rules, bool(sd.exempt[i]))}, "
                   f"E = {e:.2f}, S − E = {score - e:+.2f}")
        else:
            how = str(use)
        day = (EPOCH + pd.Timedelta(days=int(sd.day[i]))).date().isoformat()
        lines.append(f"  {opp:>10}  {names.get(opp, '')[:24]:<24} {day:<10} {shown:>7} {word:>6}  {how}")
    if not len(counted):
        return lines, 0.0
    k = int(res.side_k[counted[0]])
    sc, ex = float(sd.score[counted].sum()), float(res.side_expected[counted].sum())
    gain = k * (sc - ex)
    lines.append(f"  {len(counted)} rated games, score {sc:g}, Σ E = {ex:.2f}: "
                 f"K × Σ(S − E) = {k} × {sc - ex:+.2f} = {gain:+.2f}")
    return lines, gain


def fide_card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> str:
    """The FIDE calculation card of a player for a list, as text: each event the list
    rates with the list it took ratings from (X1-X3)."""
    rules = rule_set.parameters
    r = fide_replay(con, series, rule_set, player_id, list_id)
    res, me, sd = r.result, r.me, r.result.sides
    name = con.execute("select name from players where player_id = ?", [player_id]).fetchall()[0][0]
    rated = not np.isnan(r.previous)
    lines = [f"{name} ({player_id}), list {list_id} (events ending {r.window[0]:%Y-%m-%d} … "
             f"{r.window[1]:%Y-%m-%d}, its closing date), FIDE rules",
             "Before: " + (f"rated {r.previous:.0f}, {r.games_total} rated games to date, "
                           f"highest published rating {r.peak:.0f}" if rated else
                           f"unrated; pooled from earlier lists (26 months): {r.pool[0]} games, score {r.pool[2]:g}")]
    gains = []
    names = dict(con.execute("select player_id, name from players where player_id in (select unnest(?::bigint[]))",
                             [sorted({int(i) for i in r.opponent_ids[r.mine]})]).fetchall())
    for key in dict.fromkeys(sd.event[r.mine].tolist()):  # the player's events, in the order of their games
        part, gain = _event_lines(r, rules, int(key), r.mine[sd.event[r.mine] == key], names)
        lines += ["", *part]
        gains.append(gain)
    lines.append("")
    rule = str(res.rule[me])
    if rated and res.games[me]:
        total = sum(gains)
        k, sc, ex = int(res.k[me]), float(res.score[me]), float(res.expected[me])
        sums = (f"{gains[0]:.2f} " + " ".join(f"{'+' if g >= 0 else '−'} {abs(g):.2f}" for g in gains[1:])
                + " (each event's K × Σ(S − E))" if len(gains) > 1 else
                f"K × Σ(S − E) = {k} × {sc - ex:+.2f}")
        lines += [f"Change = {sums} = {total:+.2f} → {res.change[me]:+.0f} (a whole number, 0.5 away from zero, "
                  "once for the list: X3)",
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
