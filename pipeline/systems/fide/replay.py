"""A FIDE list recomputed for its calculation cards: one replay of the list
(pipeline/ruleset/replay.py) and every term a card shows, for every player and every
game side at once (K and its rule per event, the difference the 400-point rule
leaves, each event's K × Σ(S − E), the tournament performance, an unrated
player's pool), so that the cards of a whole list are read from arrays
(card.py lays each one out). The replay is the published computation: it is
deterministic."""
from __future__ import annotations

from dataclasses import dataclass, replace

import duckdb
import numpy as np
import pandas as pd

from pipeline.ruleset.interface import NotFound
from pipeline.ruleset.replay import replayed
from pipeline.systems.fide.first_event import NO_EVENT, NONE
from pipeline.systems.fide.pool import EPOCH
from pipeline.systems.fide.rules import FideRules, PeriodResult, Rule, SideUse, is_junior, k_factor, \
    rating_difference


@dataclass(frozen=True)
class FideList:
    """One list recomputed: its players (local order, ids ascending), their state
    before it, the sides of its games grouped by player, and the card's terms."""

    list_id: str
    window: tuple
    result: PeriodResult
    ids: np.ndarray  # the list's players (and those asked for without a game)
    previous: np.ndarray  # rating before the list (NaN: unrated)
    games_total: np.ndarray  # rated games to date, before the list
    peak: np.ndarray  # highest published rating, before the list
    birth_year: np.ndarray  # the registry's (NaN: none), for the junior rule
    pool: tuple[np.ndarray, np.ndarray, np.ndarray]  # pooled before the list (X9): games, opponents' sum, score
    opponent_ids: np.ndarray  # per side: the opponent's id
    dates: np.ndarray  # per side: the game's day (datetime.date)
    events: dict  # event key → (name, first day, last day, start list)
    by_player: np.ndarray  # side indices, grouped by player (a player's in the order of the sides)
    starts: np.ndarray  # player k's sides are by_player[starts[k]:starts[k + 1]]
    # Per side, from the start list's state of its event (X2): K and its rule, the K of
    # the rule before the K × n cap, the difference the 400-point rule leaves (X4).
    k: np.ndarray
    k_rule: np.ndarray
    k_full: np.ndarray
    difference: np.ndarray
    # Per (player, event) group of sides: the group of each side, and the group's
    # rated games, score and Σ E (counted sides only).
    group: np.ndarray
    group_games: np.ndarray
    group_score: np.ndarray
    group_expected: np.ndarray
    group_k: np.ndarray  # the event's K (0: no game rated)
    # Per player: the change before rounding (Σ of each event's K × Σ(S − E)), the seed's
    # tournament performance (rated opponents: games, wins, losses, mean), an unrated
    # player's pool after the list (opponents' sum and score, B02 8.2).
    gain: np.ndarray
    performance: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    pooled_opponents: np.ndarray
    pooled_score: np.ndarray

    def sides(self, k: int) -> np.ndarray:
        """Player k's sides, in the order of the games."""
        return self.by_player[self.starts[k]:self.starts[k + 1]]

    def index(self, player_id: int) -> int:
        """The player's place among the list's (a what-if's fictitious opponent, id −1, is last)."""
        return int(np.flatnonzero(self.ids == player_id)[0])


def _with_game(s, g, me: int, opponent: float, score: float, end: pd.Timestamp, rules: FideRules):
    """The state and games with a game of player `me` (global index) against a
    fictitious established opponent (index n) rated `opponent`, on the window's last
    day, in an event that starts from the list before and comes after every stored
    one on its day (X8): the what-if."""
    s.ids, s.rating = np.append(s.ids, -1), np.append(s.rating, opponent)
    s.games_total, s.peak = np.append(s.games_total, rules.established_games), np.append(s.peak, opponent)
    s.birth_year, s.ever_rated = np.append(s.birth_year, np.nan), np.append(s.ever_rated, True)
    day = (end - EPOCH).days
    last = np.iinfo(np.int64).max
    s.firsts.append(NONE, NONE, NONE, NO_EVENT)
    s.firsts.merge(np.array([me]), np.array([day]), np.array([day]), np.array([last]), np.array([-1]))
    one = {"day": day, "event_key": -1, "start_list": s.list_id, "first_day": day, "match": False,
           "after_decided": False, "event_rank": last,
           "game_key": -1}  # the fictitious game: no key of a stored one
    games = g.games
    games = replace(games, white=np.append(games.white, me), black=np.append(games.black, len(s.ids) - 1),
                    white_score=np.append(games.white_score, score), list_index=np.append(games.list_index, 1),
                    extra={k: np.append(v, one[k]).astype(v.dtype) for k, v in games.extra.items()})
    return replace(g, games=games)


def fide_list(con: duckdb.DuckDBPyConnection, series, rule_set, list_id: str, player_ids=None,
              extra_game: tuple[float, float] | None = None) -> FideList:
    """Recompute `list_id` with its players (and `player_ids`, even without a game);
    `extra_game` = (opponent rating, score) adds a game of the one player asked for
    against a rated opponent who is not in the registry (what-if)."""
    rules = rule_set.parameters
    r = replayed(con, series, None, list_id)
    s, g = r.state, r.games
    asked = np.asarray([] if player_ids is None else player_ids, dtype=np.int64)
    at = np.searchsorted(s.ids, asked)
    missing = [int(p) for p, k in zip(asked, at) if k >= len(s.ids) or s.ids[k] != p]
    if missing:
        raise NotFound(f"player {missing[0]} is not in the registry")
    end = pd.Timestamp(r.period.end)
    if extra_game is not None:
        g = _with_game(s, g, int(at[0]), *extra_game, end, rules)
    s.pool.within(s.place + 1, rules.pool_months)  # X9: this list and the 25 before it
    pool = s.pool.totals(len(s.ids))  # before the list: rate_arrays adds its games
    local, _, _, res = rule_set.rate_arrays(s, g, end, also=at if len(at) else None)
    sd = res.sides
    player = sd.player
    by_player = np.argsort(player, kind="stable")
    starts = np.searchsorted(player[by_player], np.arange(len(local) + 1))
    # K of every side as its event's start list gives it, K × n counting every rated game of the list
    birth_year = s.birth_year[local]
    k, k_rule = k_factor(sd.own, sd.games_total, sd.peak, is_junior(birth_year[player], sd.year, rules),
                         res.games[player], rules)
    k_full = np.select([k_rule == Rule.K_NEW, k_rule == Rule.K_JUNIOR, k_rule == Rule.K_MASTER],
                       [rules.k_new, rules.k_junior, rules.k_master], rules.k_standard)
    rated = res.side_use == SideUse.RATED
    pairs, group = np.unique(np.stack([player, sd.event]), axis=1, return_inverse=True)
    group = group.reshape(-1)
    groups = pairs.shape[1]
    group_games = np.bincount(group[rated], minlength=groups)
    group_score = np.bincount(group[rated], weights=sd.score[rated], minlength=groups)
    group_expected = np.bincount(group[rated], weights=res.side_expected[rated], minlength=groups)
    group_k = np.zeros(groups, dtype=np.int64)
    group_k[group[rated]] = res.side_k[rated]  # one K an event
    gain = np.bincount(pairs[0], weights=group_k * (group_score - group_expected), minlength=len(local))
    known = ~np.isnan(sd.opponent_rating)
    n = len(local)
    opponents = np.bincount(player[known], minlength=n)
    wins = np.bincount(player[known & (sd.score == 1)], minlength=n)
    losses = np.bincount(player[known & (sd.score == 0)], minlength=n)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(player[known], weights=sd.opponent_rating[known], minlength=n) / opponents
    played = np.where(res.games > 0, res.mean_opponent * res.games, 0.0)
    events = {int(key): row for key, *row in con.execute("""
        select distinct (hash(event_key) >> 1)::bigint, event_name, first_day, last_day, start_list
        from fide_placed where rated_on = ?""", [list_id]).fetchall()}
    events[-1] = ("the game asked about", end.date(), end.date(), s.list_id)
    dates = (np.datetime64("1970-01-01") + sd.day.astype("timedelta64[D]")).astype(object)
    return FideList(list_id, (r.period.start, r.period.end), res, s.ids[local], s.rating[local],
                    s.games_total[local], s.peak[local], birth_year, tuple(a[local] for a in pool), s.ids[local][sd.opponent],
                    dates, events, by_player, starts, k, k_rule, k_full,
                    rating_difference(sd.own, sd.opponent_rating, rules, sd.exempt), group, group_games,
                    group_score, group_expected, group_k, gain, (opponents, wins, losses, mean),
                    pool[1][local] + played, pool[2][local] + res.score)
