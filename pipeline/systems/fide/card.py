"""The FIDE calculation cards of a list, and what-if outcomes of a game (the seed
003 page's features: every step with the player's own numbers).

The list is replayed once from the warehouse with every term of every player
(replay.py): a whole list's cards (the site's, `explain --all`) and one player's
(`ratings explain`) are laid out from the same arrays.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

import duckdb
import numpy as np
import pyarrow as pa

from pipeline.progress import progress
from pipeline.ruleset.card import (CHESS_COLUMNS, RESULTS, Card, Correction, Game, Games, Line, Num, chess_cells,
                                   corrections, day, said, text)
from pipeline.systems.fide.replay import FideList, fide_list
from pipeline.systems.fide.rules import FideRules, Rule, SideUse, expected_score, rating_difference


RULES_SAID = frozenset(str(rule) for rule in Rule)
USES_SAID = frozenset(str(use) for use in SideUse)
K_SAID = frozenset(str(rule).partition(": ")[2] for rule in (Rule.K_NEW, Rule.K_JUNIOR, Rule.K_MASTER, Rule.K_STANDARD))
WARNING = ("Warning: at 100 %% or 0 %% the approximation breaks: it gives the mean ± 400 "
           "whatever the real strength")


def _k_line(f: FideList, rules: FideRules, me: int, side: int) -> Line:
    """The K of one event (from the player's state on the list it started from) and why."""
    sd = f.result.sides
    n = int(f.result.games[me])
    games_total, peak, year = int(sd.games_total[side]), float(sd.peak[side]), int(sd.year[side])
    k, rule, full = int(f.k[side]), Rule(f.k_rule[side]), int(f.k_full[side])
    # Only the rule that applies is said: a player without a birth year (a senior, the
    # registry's blank) has no junior clause to fill.
    if rule == Rule.K_NEW:
        why = Line("%(games)s rated games to date, fewer than %(established)s",
                   {"games": games_total, "established": rules.established_games})
    elif rule == Rule.K_JUNIOR:
        why = Line("born %(born)s, under 18 in %(year)s, never rated %(limit)s",
                   {"born": int(f.birth_year[me]), "year": year, "limit": Num(rules.junior_below)})
    elif rule == Rule.K_MASTER:
        why = Line("highest published rating %(peak)s ≥ %(master)s",
                   {"peak": Num(peak), "master": Num(rules.master_from)})
    else:
        why = Line("%(games)s games, highest rating %(peak)s, not a junior", {"games": games_total, "peak": Num(peak)})
    values = {"k": k, "rule": said(str(rule).partition(": ")[2], K_SAID), "why": why}
    if full * n > rules.max_k_times_games:
        return Line("K = %(k)s: %(rule)s (%(why)s); %(full)s × %(n)s games rated on the list = %(product)s > "
                    "%(cap)s: K = ⌊%(cap)s / %(n)s⌋ = %(k)s",
                    values | {"full": full, "n": n, "product": full * n, "cap": rules.max_k_times_games})
    return Line("K = %(k)s: %(rule)s (%(why)s)", values)


def _difference(own: float, opponent: float, used: float, rules: FideRules, exempt: bool = True) -> Num | Line:
    """D as counted (`used`: the 400-point rule applied, X4), and why it differs from own − opponent."""
    d = own - opponent
    if used != d:
        values = {"real": Num(d, 0, True), "used": Num(used, 0, True)}
        if exempt or rules.cap_exempt_from is None or own < rules.cap_exempt_from:
            return Line("%(real)s → %(used)s (400-point rule)", values)
        return Line("%(real)s → %(used)s (400-point rule: the event started before %(since)s, X4)",
                    values | {"since": dt.date.fromisoformat(rules.cap_exempt_since)})
    if abs(d) > rules.difference_cap:
        return Line("%(real)s (rated %(exempt)s or more: the real difference, X4)",
                    {"real": Num(d, 0, True), "exempt": Num(rules.cap_exempt_from)})
    return Num(d, 0, True)


def _performance_lines(f: FideList, me: int) -> list[Line]:
    """The seed's linear approximation, with its warning where it breaks."""
    n, wins, losses, mean = (a[me] for a in f.performance)
    if not n:
        return [Line("Tournament performance: no rated opponent")]
    value = mean + 400 * (wins - losses) / n
    lines = [Line("Tournament performance (linear approximation): mean opponent %(mean)s + 400 × "
                  "(%(wins)s − %(losses)s) / %(games)s = %(value)s",
                  {"mean": Num(mean, 1), "wins": wins, "losses": losses, "games": n, "value": Num(value, 1)})]
    if wins == n or losses == n:
        lines.append(Line(WARNING))
    return lines


def _event_name(name) -> str | Line:
    """An event's name; the name the warehouse gives a month's games without an event, said."""
    month = re.fullmatch(r"games of (\d{4}-\d{2}) without an event", name or "")
    return Line("games of %(month)s without an event", {"month": month[1]}) if month else name


def _event_games(f: FideList, rules: FideRules, me: int, key: int, sides: np.ndarray, names: dict
                 ) -> tuple[Games, float]:
    """One event's part of the card: where its ratings come from, its games, its
    K × Σ(S − E); returns them and that sum (0 for an unrated player)."""
    res, sd = f.result, f.result.sides
    name, first, last, start = f.events.get(key, (None, None, None, None))
    source = Line("the ratings of list %(list)s", {"list": start}) if start else Line("the initial ratings")
    event = _event_name(name) if name is not None else Line("an event")
    before = [Line("Event: %(event)s (%(first)s … %(last)s), from %(source)s (in force when it started, X2)",
                   {"event": event, "first": day(first), "last": day(last), "source": source})
              if first is not None else
              Line("Event: %(event)s, from %(source)s (in force when it started, X2)",
                   {"event": event, "source": source})]
    counted = sides[res.side_use[sides] == SideUse.RATED]
    if len(counted):
        own = float(sd.own[counted[0]])
        if sd.newcomer is not None and sd.newcomer[counted[0]]:
            before.append(Line("own rating counted: %(rating)s (unrated when the event started, rated since: "
                               "counted as rated, X3)", {"rating": Num(own)}))
        elif own != f.previous[me]:
            before.append(Line("own rating counted: %(rating)s (from %(source)s)",
                               {"rating": Num(own), "source": source}))
        before.append(_k_line(f, rules, me, counted[0]))
    rows = []
    for i in sorted(sides, key=lambda i: (-np.nan_to_num(sd.opponent_rating[i]), int(f.opponent_ids[i]))):
        opp = int(f.opponent_ids[i])
        rating, score, use = sd.opponent_rating[i], float(sd.score[i]), res.side_use[i]
        if use == SideUse.RATED:
            e = float(res.side_expected[i])
            counts, why = True, Line("D = %(difference)s, E = %(expected)s, S − E = %(surplus)s",
                                     {"difference": _difference(float(sd.own[i]), float(rating),
                                                                float(f.difference[i]), rules, bool(sd.exempt[i])),
                                      "expected": Num(e, 2), "surplus": Num(score - e, 2, True)})
        else:  # a pooled game counts for a first rating, not for this list's
            counts, why = (None if use == SideUse.POOLED else False), said(str(use), USES_SAID)
        rows.append(Game(opp, names.get(opp, ""), chess_cells(rating, score), counts, why, f.dates[i], name))
    games = Games(CHESS_COLUMNS, tuple(rows), tuple(before))
    if not len(counted):
        return games, 0.0
    group = f.group[counted[0]]
    k, sc, ex = int(f.group_k[group]), float(f.group_score[group]), float(f.group_expected[group])
    gain = k * (sc - ex)
    total = Line("%(games)s rated games, score %(score)s, Σ E = %(expected)s: "
                 "K × Σ(S − E) = %(k)s × %(surplus)s = %(gain)s",
                 {"games": int(f.group_games[group]), "score": Num(sc, None), "expected": Num(ex, 2), "k": k,
                  "surplus": Num(sc - ex, 2, True), "gain": Num(gain, 2, True)})
    return replace(games, after=(total,)), gain


def _sum(gains: list[float]) -> Num | Line:
    """g1 + g2 − g3 ...: each event's K × Σ(S − E), a clause a term."""
    terms: Num | Line = Num(gains[0], 2)
    for g in gains[1:]:
        terms = Line("%(a)s + %(b)s" if g >= 0 else "%(a)s − %(b)s", {"a": terms, "b": Num(abs(g), 2)})
    return terms


def _card(f: FideList, me: int, names: dict, correction: Correction | None, rules: FideRules) -> Card:
    """Player `me`'s card (their place among the list's players): each event the list
    rates with the list it took ratings from (X1-X3)."""
    res, sd = f.result, f.result.sides
    player_id = int(f.ids[me])
    name = names.get(player_id, "")
    previous = float(f.previous[me])
    rated = not np.isnan(previous)
    title = Line("%(name)s (%(player)s), list %(list)s (events ending %(start)s … %(end)s, its closing date), "
                 "FIDE rules", {"name": name, "player": player_id, "list": f.list_id, "start": day(f.window[0]),
                                "end": day(f.window[1])})
    before = (Line("Before: rated %(rating)s, %(games)s rated games to date, highest published rating %(peak)s",
                   {"rating": Num(previous), "games": int(f.games_total[me]), "peak": Num(f.peak[me])}) if rated else
              Line("Before: unrated; pooled from earlier lists (26 months): %(games)s games, score %(score)s",
                   {"games": int(f.pool[0][me]), "score": Num(f.pool[2][me], None)}))
    tables, gains = [], []
    mine = f.sides(me)
    for key in dict.fromkeys(sd.event[mine].tolist()):  # the player's events, in the order of their games
        table, gain = _event_games(f, rules, me, int(key), mine[sd.event[mine] == key], names)
        tables.append(table)
        gains.append(gain)
    rule = str(res.rule[me])
    if rated and res.games[me]:
        k, sc, ex = int(res.k[me]), float(res.score[me]), float(res.expected[me])
        sums = (Line("%(terms)s (each event's K × Σ(S − E))", {"terms": _sum(gains)}) if len(gains) > 1 else
                Line("K × Σ(S − E) = %(k)s × %(surplus)s", {"k": k, "surplus": Num(sc - ex, 2, True)}))
        after = [Line("Change = %(sums)s = %(total)s → %(change)s (a whole number, 0.5 away from zero, "
                      "once for the list: X3)",
                      {"sums": sums, "total": Num(f.gain[me], 2, True), "change": Num(res.change[me], 0, True)}),
                 Line("New rating = %(before)s %(change)s = %(after)s",
                      {"before": Num(previous), "change": Num(res.change[me], 0, True),
                       "after": Num(previous + res.change[me])})]
        if rule == Rule.BELOW_FLOOR:
            after.append(Line("Below %(floor)s: unrated on this list (B02 7.2.1)", {"floor": Num(rules.floor)}))
    elif rated:
        after = [Line("Rule: %(rule)s: the rating stays %(rating)s",
                      {"rule": said(rule, RULES_SAID), "rating": Num(previous)})]
    else:
        after = _initial_lines(f, me, rules)
    after += _performance_lines(f, me)
    return Card(player_id, name, f.list_id, f.window, title, (before,), tuple(tables), tuple(after), correction)


def fide_cards_data(con: duckdb.DuckDBPyConnection, series, rule_set, list_id: str, player_ids=None
                    ) -> dict[int, Card]:
    """The FIDE calculation cards of a list as data, from one replay of it: of
    `player_ids`, or of every player with a calculation on it (who played)."""
    f = fide_list(con, series, rule_set, list_id, player_ids)
    wanted = f.ids[f.result.played > 0] if player_ids is None else np.asarray(player_ids, dtype=np.int64)
    at = np.searchsorted(f.ids, wanted)
    named = np.union1d(wanted, f.opponent_ids[np.isin(f.result.sides.player, at)])
    con.register("card_players", pa.table({"player_id": named}))
    names = dict(con.execute("select player_id, name from players join card_players using (player_id)").fetchall())
    con.unregister("card_players")
    fixes = corrections(con, series, list_id)
    # A list's cards (`explain --all`, the site's) a bar; one player's card (`explain ID`) none.
    each = progress(zip(wanted.tolist(), at.tolist()), f"cards of {list_id}", total=len(wanted), unit="card",
                    show=None if len(wanted) > 1 else False)
    return {pid: _card(f, k, names, fixes.get(pid), rule_set.parameters) for pid, k in each}


def fide_card_data(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> Card:
    """The FIDE calculation card of a player for a list, as data."""
    return fide_cards_data(con, series, rule_set, list_id, [player_id])[player_id]


def fide_card_text(card: Card) -> str:
    """The card as the CLI prints it: each event's games in fixed-width columns."""
    lines = [card.title.text(), *(x.text() for x in card.before)]
    for table in card.games:
        first, *more = table.before
        lines += ["", first.text(), *(f"  {x.text()}" for x in more),
                  f"  {'opponent':>10}  {'name':<24} {'date':<10} {'rating':>7} {'result':>6}  counts"]
        for g in table.rows:
            rating, result = g.cells
            shown = "-" if rating is None else rating.text()
            lines.append(f"  {g.opponent_id:>10}  {g.opponent_name[:24]:<24} {text(g.date):<10} {shown:>7} "
                         f"{result.text():>6}  {g.reason.text()}")
        lines += [f"  {x.text()}" for x in table.after]
    lines.append("")
    lines += [f"  {x.text()}" if x.message == WARNING else x.text() for x in card.after]
    return "\n".join(lines)


def fide_card(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> str:
    """The FIDE calculation card of a player for a list, as text."""
    return fide_card_text(fide_card_data(con, series, rule_set, player_id, list_id))


def _initial_lines(f: FideList, me: int, rules: FideRules) -> list[Line]:
    res = f.result
    rule = str(res.rule[me])
    lines = [Line("Rule: %(rule)s", {"rule": said(rule, RULES_SAID)})]
    if res.ignored_games[me]:
        lines.append(Line("%(games)s games of a first event with a zero score are ignored (B02 8.2)",
                          {"games": res.ignored_games[me]}))
    pooled = int(res.pooled[me])
    lines.append(Line("Pool after this list: %(games)s games against rated opponents (%(needed)s needed)",
                      {"games": pooled, "needed": rules.initial_games}))
    if np.isnan(res.ra[me]):
        return lines
    draws, fr = rules.fictitious_draws, rules.fictitious_rating
    opp_sum, score = float(f.pooled_opponents[me]), float(f.pooled_score[me])
    capped = res.performance[me] > rules.initial_cap
    published = not np.isnan(res.rating[me])
    ru = ("Ru = Ra + dp = %(ru)s" + (", at most %(cap)s" if capped else "")
          + (" → %(rating)s" if published else " → below %(floor)s: not published"))
    lines += [Line("Ra = (%(sum)s + %(draws)s × %(rating)s) / (%(games)s + %(draws)s) = %(ra)s "
                   "(with %(draws)s fictitious draws against %(rating)s)",
                   {"sum": Num(opp_sum), "draws": draws, "rating": Num(fr), "games": pooled, "ra": Num(res.ra[me], 3)}),
              Line("p = (%(score)s + %(draws)s × 0.5) / (%(games)s + %(draws)s) = %(p)s → %(rounded)s, "
                   "dp = %(dp)s (table 8.1.1, looked up, not interpolated)",
                   {"score": Num(score, None), "draws": draws, "games": pooled, "p": Num(res.p[me], 4),
                    "rounded": Num(round(res.p[me] + 1e-9, 2), 2), "dp": Num(res.dp[me], 0, True)}),
              Line(ru, {"ru": Num(res.performance[me], 3)} | ({"cap": Num(rules.initial_cap)} if capped else {})
                   | ({"rating": Num(res.rating[me])} if published else {"floor": Num(rules.floor)}))]
    return lines


def fide_whatif(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, opponent: float,
                list_id: str) -> str:
    """The rating after a win, a draw or a loss against `opponent`, with the
    player's games of the list's window so far."""
    rules = rule_set.parameters
    lines = []
    for score, word in RESULTS.items():
        replay = fide_list(con, series, rule_set, list_id, [player_id], extra_game=(opponent, score))
        res, me = replay.result, replay.index(player_id)
        previous = replay.previous[me]
        after = res.rating[me]
        if np.isnan(previous):
            outcome = (f"unrated → {after:.0f}" if not np.isnan(after) else
                       f"still unrated ({int(res.pooled[me])} of {rules.initial_games} games pooled)")
            lines.append(f"{word:>5}: {outcome}   [{res.rule[me]}]")
            continue
        shown = f"{after:.0f} ({after - previous:+.0f})" if not np.isnan(after) else "unrated (below 1400)"
        e = float(expected_score(rating_difference(np.array([previous]), np.array([opponent]), rules), rules)[0])
        lines.append(f"{word:>5}: {previous:.0f} → {shown}   [K {res.k[me]}, E of this game {e:.2f}, "
                     f"Σ(S − E) = {res.score[me] - res.expected[me]:+.2f} over {res.games[me]} games]")
    return "\n".join(lines)
