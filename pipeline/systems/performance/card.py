"""A player's calculation card for one list under the performance Elo, and what-if
outcomes of a game.

The list's computation is replayed from the warehouse (pipeline/ruleset/replay.py:
the state after the list before, the window's games): it is deterministic, so the
replay is the published computation, with every intermediate value at hand.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import duckdb
import numpy as np
import pyarrow as pa

from pipeline.progress import progress
from pipeline.ruleset.card import (CHESS_COLUMNS, RESULTS, Card, Correction, Game, Games, Line, Num, chess_cells,
                                   corrections, day, said, text)
from pipeline.ruleset.interface import NotFound
from pipeline.ruleset.replay import replayed
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


RULES_SAID = frozenset(str(rule) for rule in Rule)  # the rules' own words, translated on the site


def _bonus_line(p: float, rules: PerformanceRules) -> Line:
    d = float(bonus(np.array([p]), rules)[0])
    table = dict(rules.dp_table)
    if p >= 0.95 or p <= 0.05:
        return Line("P = %(p)s is beyond the table's ±470 bound (R5): D(P) = %(d)s",
                    {"p": Num(p, 4), "d": Num(d, 0, True)})
    low = np.floor(round(p * 100, 9)) / 100
    if abs(p - low) < 1e-12:
        return Line("D(%(p)s) = %(d)s (table)", {"p": Num(p, 2), "d": Num(d, 0, True)})
    high = low + 0.01
    frac = (p - low) / 0.01
    d_low, d_high = table[round(low, 2)], table[round(high, 2)]
    return Line("P = %(p)s lies between %(low)s (%(low_d)s) and %(high)s (%(high_d)s): "
                "D = %(low_value)s + %(fraction)s × (%(high_value)s − %(low_value)s) = %(d)s (R5)",
                {"p": Num(p, 4), "low": Num(low, 2), "low_d": Num(d_low, 0, True), "high": Num(high, 2),
                 "high_d": Num(d_high, 0, True), "low_value": Num(d_low), "high_value": Num(d_high),
                 "fraction": Num(frac, 3), "d": Num(d, 3)})


def _formula(rule: str, ei: float, nj: int, pj: float, pa: float, na: int, unrounded: float,
             rules: PerformanceRules) -> Line:
    v = {"weight": rules.brake_weight, "entry": rules.entry_games, "ei": Num(ei), "nj": nj, "pj": Num(pj, 3),
         "pa": Num(pa, 3), "na": na, "ej": Num(unrounded, 3), "total": nj + na}
    if rule == Rule.BRAKE:
        message = "Pj < Ei, the brake: Ej = (%(weight)s × %(ei)s + %(nj)s × %(pj)s) / (%(weight)s + %(nj)s) = %(ej)s"
    elif rule == Rule.QUOTA:
        message = "Pj ≥ Ei and the quota is met: Ej = Pj = %(ej)s"
    elif rule == Rule.BARYCENTRE:
        message = ("Pj ≥ Ei, quota not met: the barycentre completed to %(weight)s: "
                   "Ej = (%(pj)s × %(nj)s + (%(weight)s − %(nj)s) × %(ei)s) / %(weight)s = %(ej)s")
    elif rule == Rule.FIRST_RATING:
        message = "Nj ≥ %(entry)s: first rating Ej = Pj = %(ej)s"
    elif rule == Rule.ARCHIVES_MERGED:
        message = ("Nj < %(entry)s but Nj + Na ≥ %(entry)s: "
                   "Ej = (%(pj)s × %(nj)s + %(pa)s × %(na)s) / (%(nj)s + %(na)s) = %(ej)s")
    elif rule == Rule.ARCHIVED:
        message = ("Nj + Na < %(entry)s: no rating yet; archives (R6) Pa' = (%(pj)s × %(nj)s + %(pa)s × %(na)s) / "
                   "%(total)s, Na' = %(total)s" if na else
                   "Nj + Na < %(entry)s: no rating yet; archives (R6) Pa' = (%(pj)s × %(nj)s) / %(total)s, "
                   "Na' = %(total)s")
    elif rule == Rule.UNANCHORED:
        message = "no rated player among this player's group of the period (R11): no estimate, no archive, no rating"
    else:
        message = "no compatible game: nothing changes"
    used = {k: x for k, x in v.items() if f"%({k})s" in message}
    return Line(message, used)


def cards_data(con: duckdb.DuckDBPyConnection, series, rule_set, list_id: str, player_ids=None) -> dict[int, Card]:
    """The calculation cards of a list as data, from one replay of it: of `player_ids`,
    or of every player who played; opponents and events named."""
    r = replay(con, series, rule_set, list_id, player_ids)
    wanted = r.ids[r.result.played > 0] if player_ids is None else np.asarray(player_ids, dtype=np.int64)
    con.register("card_players", pa.table({"player_id": r.ids}))
    names = dict(con.execute("select player_id, name from players join card_players using (player_id)").fetchall())
    con.unregister("card_players")
    con.register("card_games", pa.table({"game_key": np.unique(r.side_game)}))
    details = {k: (d, e) for k, d, e in con.execute(
        "select game_key, date, event from games join card_games using (game_key)").fetchall()}
    con.unregister("card_games")
    fixes = corrections(con, series, list_id)
    at = np.searchsorted(r.ids, wanted)
    # A list's cards (`explain --all`, the site's) a bar; one player's card (`explain ID`) none.
    each = progress(zip(wanted, at), f"cards of {list_id}", total=len(wanted), unit="card",
                    show=None if len(wanted) > 1 else False)
    return {int(pid): _card(r, int(k), names, details, fixes.get(int(pid)), rule_set.parameters)
            for pid, k in each}


def cards(con: duckdb.DuckDBPyConnection, series, rule_set, list_id: str, player_ids=None) -> dict[int, str]:
    """The calculation cards of a list as text, from one replay of it (`cards_data`)."""
    return {pid: card_text(c) for pid, c in cards_data(con, series, rule_set, list_id, player_ids).items()}


def card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> str:
    """The calculation card of a player for a list, as text."""
    return cards(con, series, rule_set, list_id, [player_id])[player_id]


def _reason(score: float, ok: bool, own: float, rating_used: float, gap: float) -> tuple[bool, Line]:
    """Whether a game counts and why (the 350 rule with the numbers)."""
    if np.isnan(rating_used):
        return False, Line("the opponent has no estimate (R11)")
    if score == 0.5:
        return True, Line("draws always count")
    if score == 1.0:
        message = "win, %(own)s − %(opponent)s = %(difference)s " + ("< %(gap)s" if ok else "≥ %(gap)s")
        difference = own - rating_used
    else:
        message = "loss, %(opponent)s − %(own)s = %(difference)s " + ("< %(gap)s" if ok else "≥ %(gap)s")
        difference = rating_used - own
    return bool(ok), Line(message, {"own": Num(own), "opponent": Num(rating_used), "difference": Num(difference),
                                    "gap": Num(gap)})


def _card(r: Replay, me: int, names: dict, details: dict, correction: Correction | None,
          rules: PerformanceRules) -> Card:
    res = r.result
    player_id, previous = int(r.ids[me]), float(r.previous[me])
    archives = (float(r.archives[0][me]), int(r.archives[1][me]))
    rated = not np.isnan(previous)
    own = previous if rated else res.estimation.estimate[me]
    title = Line("%(name)s (%(player)s), list %(list)s (games of %(start)s … %(end)s)",
                 {"name": names.get(player_id, ""), "player": player_id, "list": r.list_id,
                  "start": day(r.window[0]), "end": day(r.window[1])})
    before = [Line("Before: rated %(rating)s", {"rating": Num(previous)}) if rated else
              Line("Before: unrated, archives Pa = %(pa)s over Na = %(na)s",
                   {"pa": Num(archives[0], 3), "na": archives[1]}) if archives[1] else
              Line("Before: unrated, no archives"),
              Line("Junior this season (R2): %(answer)s", {"answer": Line("yes" if res.junior[me] else "no")})]
    if not rated and me in set(res.estimation.players):
        k = int(np.flatnonzero(res.estimation.players == me)[0])
        first, *rounds = res.estimation.history[:, k]
        steps = (Line("first pass: %(value)s", {"value": Num(first, 1)}),
                 *(Line("%(round)s: %(value)s", {"round": i, "value": Num(v, 1)}) for i, v in enumerate(rounds, 1)))
        before += [Line("Estimate per round (R7–R9; the first pass without the compatibility range, then up to "
                        "%(rounds)s rounds with it): %(steps)s", {"rounds": rules.max_rounds, "steps": steps}),
                   Line("Final estimate, used as Ei and as Pj (R10): %(estimate)s", {"estimate": Num(own, 3)})]
    opponents, scores, keys = r.sides(me)
    opp_rating = r.used[opponents]
    counts = compatible(scores, np.full(len(scores), own), opp_rating, rules) & ~np.isnan(opp_rating)
    rows = []
    for opp, rating_used, score, ok, key in sorted(
            zip(r.ids[opponents], opp_rating, scores, counts, keys),
            key=lambda g: (-g[1] if not np.isnan(g[1]) else 0, g[0], details.get(g[4], ("", ""))[0] or "")):
        played, why = _reason(float(score), ok, own, rating_used, rules.compatibility_gap)
        date, event = details.get(key, (None, None))
        who = names.get(int(opp), "") if key != -1 else "(what-if)"
        rows.append(Game(opp, who, chess_cells(rating_used, score, 1), played, why, date, event or None))
    games = Games(CHESS_COLUMNS, tuple(rows))
    t = res.totals
    nj = int(t.games[me])
    pj = float(res.performance[me]) if nj else float("nan")
    after = []
    if nj:
        raw = t.mean_opponent[me] + float(bonus(np.array([t.p[me]]), rules)[0])
        floored = raw < rules.performance_floor
        after += [Line("Nj = %(games)s compatible games, Sc = %(score)s, Ea = %(mean)s, P = Sc / Nj = %(p)s",
                       {"games": nj, "score": Num(t.score[me], None), "mean": Num(t.mean_opponent[me], 3),
                        "p": Num(t.p[me], 4)}),
                  _bonus_line(float(t.p[me]), rules)]
        values = {"raw": Num(raw, 3)} | ({"floor": Num(rules.performance_floor)} if floored else {})
        # An unrated player's Pj is the final estimate (R10): the last round's performance,
        # printed as "Pj =", was read as the value the rule used.
        if rated:
            after.append(Line("Pj = Ea + D(P) = %(raw)s, raised to %(floor)s" if floored else
                              "Pj = Ea + D(P) = %(raw)s", values))
        else:
            after += [Line("Last round's performance Ea + D(P) = %(raw)s, raised to %(floor)s (not Pj: R10)"
                           if floored else "Last round's performance Ea + D(P) = %(raw)s (not Pj: R10)", values),
                      Line("Pj = the final estimate (R10) = %(pj)s", {"pj": Num(pj, 3)})]
    rule = str(res.rule[me])
    after.append(Line("Rule: %(rule)s", {"rule": said(rule, RULES_SAID)}))
    after.append(_formula(rule, previous, nj, pj, archives[0], archives[1], float(res.unrounded[me]), rules))
    if not np.isnan(res.rating[me]):
        after.append(Line("Published (R3: nearest ten, 5 up): %(unrounded)s → %(rating)s",
                          {"unrounded": Num(res.unrounded[me], 3), "rating": Num(res.rating[me])}))
    if correction is not None:
        after.append(Line("Correction by the rating commission: %(rating)s (%(reason)s) replaces it",
                          {"rating": correction.rating, "reason": correction.reason}))
    return Card(player_id, names.get(player_id, ""), r.list_id, r.window, title, tuple(before), (games,),
                tuple(after), correction)


def card_text(card: Card) -> str:
    """The card as the CLI prints it: the games in fixed-width columns."""
    lines = [card.title.text(), *(x.text() for x in card.before[:2]), ""]
    if len(card.before) > 2:  # an unrated player's estimate, a paragraph of its own
        lines += [*(x.text() for x in card.before[2:]), ""]
    lines.append(f"{'opponent':>10}  {'name':<24} {'rating used':>12} {'result':>6}  {'counts?':<42} "
                 f"{'date':<10}  event")
    for g in card.games[0].rows:
        rating_used, result = g.cells
        shown = "-" if rating_used is None else rating_used.text()  # no rating: the opponent has no estimate
        why = f"{'yes' if g.counts else 'no'}: {g.reason.text()}"
        lines.append(f"{g.opponent_id:>10}  {g.opponent_name[:24]:<24} {shown:>12} {result.text():>6}  {why:<42} "
                     f"{text(g.date):<10}  {g.event or ''}".rstrip())
    lines += ["", *(x.text() for x in card.after)]
    return "\n".join(lines)


def whatif(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, opponent: float, list_id: str) -> str:
    """The published rating after a win, a draw or a loss against `opponent`, with
    the player's games of the list's window so far."""
    lines = []
    for score, word in RESULTS.items():
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
