"""A player's FIDE calculation card for one list, and what-if outcomes of a game
(the seed 003 page's features: every step with the player's own numbers).

The period is replayed from the warehouse, as for the performance Elo
(pipeline/rate/replay.py): the replay is the published computation.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace

import duckdb
import numpy as np
import pandas as pd

from pipeline.rate.replay import replayed
from pipeline.systems.card import (CHESS_COLUMNS, RESULTS, Card, Game, Games, Line, Num, chess_cells, corrections,
                                   day, said, text)
from pipeline.systems.fide.first_event import NO_EVENT, NONE
from pipeline.systems.fide.pool import EPOCH
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
    s.pool.within(s.place + 1, rules.pool_months)  # X9: this list and the 25 before it
    pool = s.pool.totals(len(s.ids))
    if extra_game is not None:  # a fictitious established opponent, index n, on the window's last day
        opponent, extra_score = extra_game
        s.ids, s.rating = np.append(s.ids, -1), np.append(s.rating, opponent)
        s.games_total, s.peak = np.append(s.games_total, rules.established_games), np.append(s.peak, opponent)
        s.birth_year, s.ever_rated = np.append(s.birth_year, np.nan), np.append(s.ever_rated, True)
        day = (end - EPOCH).days
        last = np.iinfo(np.int64).max  # the asked game's event comes after every stored one on its day (X8)
        s.firsts.append(NONE, NONE, NONE, NO_EVENT)
        s.firsts.merge(np.array([me]), np.array([day]), np.array([day]), np.array([last]), np.array([-1]))
        one = {"day": day, "event_key": -1, "start_list": s.list_id, "first_day": day, "match": False,
               "after_decided": False, "event_rank": last,
               "game_key": -1}  # the fictitious game: no key of a stored one
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


RULES_SAID = frozenset(str(rule) for rule in Rule)
USES_SAID = frozenset(str(use) for use in SideUse)
K_SAID = frozenset(str(rule).partition(": ")[2] for rule in (Rule.K_NEW, Rule.K_JUNIOR, Rule.K_MASTER, Rule.K_STANDARD))
WARNING = ("Warning: at 100 %% or 0 %% the approximation breaks: it gives the mean ± 400 "
           "whatever the real strength")


def _k_line(r: FideReplay, rules: FideRules, side: int) -> Line:
    """The K of one event (from the player's state on the list it started from) and why."""
    res, sd = r.result, r.result.sides
    n = int(res.games[r.me])
    games_total, peak, year = int(sd.games_total[side]), float(sd.peak[side]), int(sd.year[side])
    junior = is_junior(np.array([r.birth_year]), year, rules)
    k, rule = (v[0] for v in k_factor(np.array([sd.own[side]]), np.array([games_total]), np.array([peak]),
                                      junior, np.array([n]), rules))
    why = {Rule.K_NEW: Line("%(games)s rated games to date, fewer than %(established)s",
                            {"games": games_total, "established": rules.established_games}),
           Rule.K_JUNIOR: Line("born %(born)s, under 18 in %(year)s, never rated %(limit)s",
                               {"born": int(r.birth_year), "year": year, "limit": Num(rules.junior_below)}),
           Rule.K_MASTER: Line("highest published rating %(peak)s ≥ %(master)s",
                               {"peak": Num(peak), "master": Num(rules.master_from)}),
           Rule.K_STANDARD: Line("%(games)s games, highest rating %(peak)s, not a junior",
                                 {"games": games_total, "peak": Num(peak)})}[rule]
    values = {"k": k, "rule": said(str(rule).partition(": ")[2], K_SAID), "why": why}
    full = {Rule.K_NEW: rules.k_new, Rule.K_JUNIOR: rules.k_junior, Rule.K_MASTER: rules.k_master,
            Rule.K_STANDARD: rules.k_standard}[rule]
    if full * n > rules.max_k_times_games:
        return Line("K = %(k)s: %(rule)s (%(why)s); %(full)s × %(n)s games rated on the list = %(product)s > "
                    "%(cap)s: K = ⌊%(cap)s / %(n)s⌋ = %(k)s",
                    values | {"full": full, "n": n, "product": full * n, "cap": rules.max_k_times_games})
    return Line("K = %(k)s: %(rule)s (%(why)s)", values)


def _difference(own: float, opponent: float, rules: FideRules, exempt: bool = True) -> Num | Line:
    d = own - opponent
    used = float(rating_difference(np.array([own]), np.array([opponent]), rules, exempt)[0])
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


def _performance_lines(r: FideReplay) -> list[Line]:
    """The seed's linear approximation, with its warning where it breaks."""
    rated = ~np.isnan(r.opponent_ratings)
    if not rated.any():
        return [Line("Tournament performance: no rated opponent")]
    s = r.scores[rated]
    n, wins, losses = len(s), int((s == 1).sum()), int((s == 0).sum())
    mean = float(r.opponent_ratings[rated].mean())
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


def _event_games(r: FideReplay, rules: FideRules, key: int, sides: np.ndarray, names: dict) -> tuple[Games, float]:
    """One event's part of the card: where its ratings come from, its games, its
    K × Σ(S − E); returns them and that sum (0 for an unrated player)."""
    res, sd = r.result, r.result.sides
    name, first, last, start = r.events.get(key, (None, None, None, None))
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
        elif own != r.previous:
            before.append(Line("own rating counted: %(rating)s (from %(source)s)",
                               {"rating": Num(own), "source": source}))
        before.append(_k_line(r, rules, counted[0]))
    rows = []
    for i in sorted(sides, key=lambda i: (-np.nan_to_num(sd.opponent_rating[i]), int(r.opponent_ids[i]))):
        opp = int(r.opponent_ids[i])
        rating, score, use = sd.opponent_rating[i], float(sd.score[i]), res.side_use[i]
        if use == SideUse.RATED:
            e = float(res.side_expected[i])
            counts, why = True, Line("D = %(difference)s, E = %(expected)s, S − E = %(surplus)s",
                                     {"difference": _difference(float(sd.own[i]), float(rating), rules,
                                                                bool(sd.exempt[i])),
                                      "expected": Num(e, 2), "surplus": Num(score - e, 2, True)})
        else:  # a pooled game counts for a first rating, not for this list's
            counts, why = (None if use == SideUse.POOLED else False), said(str(use), USES_SAID)
        rows.append(Game(opp, names.get(opp, ""), chess_cells(rating, score), counts, why,
                         (EPOCH + pd.Timedelta(days=int(sd.day[i]))).date(), name))
    games = Games(CHESS_COLUMNS, tuple(rows), tuple(before))
    if not len(counted):
        return games, 0.0
    k = int(res.side_k[counted[0]])
    sc, ex = float(sd.score[counted].sum()), float(res.side_expected[counted].sum())
    gain = k * (sc - ex)
    total = Line("%(games)s rated games, score %(score)s, Σ E = %(expected)s: "
                 "K × Σ(S − E) = %(k)s × %(surplus)s = %(gain)s",
                 {"games": len(counted), "score": Num(sc, None), "expected": Num(ex, 2), "k": k,
                  "surplus": Num(sc - ex, 2, True), "gain": Num(gain, 2, True)})
    return replace(games, after=(total,)), gain


def _sum(gains: list[float]) -> Num | Line:
    """g1 + g2 − g3 ...: each event's K × Σ(S − E), a clause a term."""
    terms: Num | Line = Num(gains[0], 2)
    for g in gains[1:]:
        terms = Line("%(a)s + %(b)s" if g >= 0 else "%(a)s − %(b)s", {"a": terms, "b": Num(abs(g), 2)})
    return terms


def fide_card_data(con: duckdb.DuckDBPyConnection, series, rule_set, player_id: int, list_id: str) -> Card:
    """The FIDE calculation card of a player for a list, as data: each event the list
    rates with the list it took ratings from (X1-X3)."""
    rules = rule_set.parameters
    r = fide_replay(con, series, rule_set, player_id, list_id)
    res, me, sd = r.result, r.me, r.result.sides
    name = con.execute("select name from players where player_id = ?", [player_id]).fetchall()[0][0]
    rated = not np.isnan(r.previous)
    title = Line("%(name)s (%(player)s), list %(list)s (events ending %(start)s … %(end)s, its closing date), "
                 "FIDE rules", {"name": name, "player": player_id, "list": list_id, "start": day(r.window[0]),
                                "end": day(r.window[1])})
    before = (Line("Before: rated %(rating)s, %(games)s rated games to date, highest published rating %(peak)s",
                   {"rating": Num(r.previous), "games": r.games_total, "peak": Num(r.peak)}) if rated else
              Line("Before: unrated; pooled from earlier lists (26 months): %(games)s games, score %(score)s",
                   {"games": r.pool[0], "score": Num(r.pool[2], None)}))
    tables, gains = [], []
    names = dict(con.execute("select player_id, name from players where player_id in (select unnest(?::bigint[]))",
                             [sorted({int(i) for i in r.opponent_ids[r.mine]})]).fetchall())
    for key in dict.fromkeys(sd.event[r.mine].tolist()):  # the player's events, in the order of their games
        table, gain = _event_games(r, rules, int(key), r.mine[sd.event[r.mine] == key], names)
        tables.append(table)
        gains.append(gain)
    rule = str(res.rule[me])
    if rated and res.games[me]:
        total = sum(gains)
        k, sc, ex = int(res.k[me]), float(res.score[me]), float(res.expected[me])
        sums = (Line("%(terms)s (each event's K × Σ(S − E))", {"terms": _sum(gains)}) if len(gains) > 1 else
                Line("K × Σ(S − E) = %(k)s × %(surplus)s", {"k": k, "surplus": Num(sc - ex, 2, True)}))
        after = [Line("Change = %(sums)s = %(total)s → %(change)s (a whole number, 0.5 away from zero, "
                      "once for the list: X3)",
                      {"sums": sums, "total": Num(total, 2, True), "change": Num(res.change[me], 0, True)}),
                 Line("New rating = %(before)s %(change)s = %(after)s",
                      {"before": Num(r.previous), "change": Num(res.change[me], 0, True),
                       "after": Num(r.previous + res.change[me])})]
        if rule == Rule.BELOW_FLOOR:
            after.append(Line("Below %(floor)s: unrated on this list (B02 7.2.1)", {"floor": Num(rules.floor)}))
    elif rated:
        after = [Line("Rule: %(rule)s: the rating stays %(rating)s",
                      {"rule": said(rule, RULES_SAID), "rating": Num(r.previous)})]
    else:
        after = _initial_lines(r, rules)
    after += _performance_lines(r)
    return Card(player_id, name, list_id, r.window, title, (before,), tuple(tables), tuple(after),
                corrections(con, series, list_id).get(player_id))


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


def _initial_lines(r: FideReplay, rules: FideRules) -> list[Line]:
    res, me = r.result, r.me
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
    f, fr = rules.fictitious_draws, rules.fictitious_rating
    opp_sum = r.pool[1] + float(res.mean_opponent[me] * res.games[me] if res.games[me] else 0)
    score = r.pool[2] + float(res.score[me])
    capped = res.performance[me] > rules.initial_cap
    published = not np.isnan(res.rating[me])
    ru = ("Ru = Ra + dp = %(ru)s" + (", at most %(cap)s" if capped else "")
          + (" → %(rating)s" if published else " → below %(floor)s: not published"))
    lines += [Line("Ra = (%(sum)s + %(draws)s × %(rating)s) / (%(games)s + %(draws)s) = %(ra)s "
                   "(with %(draws)s fictitious draws against %(rating)s)",
                   {"sum": Num(opp_sum), "draws": f, "rating": Num(fr), "games": pooled, "ra": Num(res.ra[me], 3)}),
              Line("p = (%(score)s + %(draws)s × 0.5) / (%(games)s + %(draws)s) = %(p)s → %(rounded)s, "
                   "dp = %(dp)s (table 8.1.1, looked up, not interpolated)",
                   {"score": Num(score, None), "draws": f, "games": pooled, "p": Num(res.p[me], 4),
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
