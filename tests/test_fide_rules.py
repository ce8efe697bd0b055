"""The FIDE rule set (seed 003 and B02), case by case, computed by hand.

The lists are computed through the functions the pipeline calls for each list
(pipeline/systems/fide/__init__.py, Fide.rate_arrays): `event_sides` (each game from
the list in force when its event started, X2; matches, X6; the 2650 exception by the
event's start, X4), then `rate_sides`. These are tests of that code, with the values
worked out by hand; tests/test_fide_independent.py compares the whole pipeline with a
computation that shares no code with it.

Table 8.1.2 rows used below (fide-8.1.2-expected-score.csv):
  0–3: 0.50   4–10: 0.51/0.49   33–39: 0.55/0.45   84–91: 0.62/0.38
  99–106: 0.64/0.36   122–129: 0.67/0.33   392–411: 0.92/0.08   457–484: 0.95/0.05
"""
from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np
import pytest

from pipeline.systems.fide import (RULES, Rule, event_sides, expected_score, half_away, k_factor, rate_sides,
                                   rating_difference)
from pipeline.systems.fide.first_event import NO_EVENT, FirstEvents, rated_opponent_sides

NAN = np.nan
EPOCH = dt.date(1970, 1, 1)  # the games' days count from it, as in the pipeline's arrays
MONDAY = (dt.date(2026, 3, 2) - EPOCH).days  # the games' day 0: a 2026 date, so the junior rule reads 2026


def period(games, rating, games_total=None, peak=None, birth_year=None, year=2026, pool=None, first_elsewhere=(),
           events=None, first_days=None, rules=RULES):
    """One list on a few players, as Fide.rate_arrays computes it: event_sides, then
    rate_sides, every event having started from the list before (`rating`, `games_total`,
    `peak`). Games are (white, black, white's score[, day from 2 March 2026]); `events`
    names each game's event (default: one event); an event starts on its first game's
    day unless `first_days` gives it a date; an event of exactly two players is a match (X6).
    A player's first event (X8) is the event of their earliest game here against a rated
    player, unless they are in `first_elsewhere` (it was on another list)."""
    n = len(rating)
    rating = np.array(rating, dtype=float)
    white = np.array([g[0] for g in games], dtype=np.int64)
    black = np.array([g[1] for g in games], dtype=np.int64)
    score = np.array([g[2] for g in games], dtype=float)
    day = MONDAY + np.array([g[3] if len(g) > 3 else 0 for g in games], dtype=np.int64)
    event = np.array(events if events is not None else [0] * len(games), dtype=np.int64)
    first = {e: int(day[event == e].min()) for e in set(event.tolist())}
    first |= {e: (d - EPOCH).days for e, d in (first_days or {}).items()}
    first_day = np.array([first[e] for e in event.tolist()], dtype=np.int64)
    pairs = {e: {frozenset((w, b)) for w, b, x in zip(white.tolist(), black.tolist(), event.tolist()) if x == e}
             for e in first}
    match = np.array([len(pairs[e]) == 1 for e in event.tolist()], dtype=bool)
    games_total = np.array(games_total if games_total is not None else np.where(np.isnan(rating), 0, 30))
    peak = np.array(peak if peak is not None else rating, dtype=float)
    birth_year = np.array(birth_year if birth_year is not None else [1980] * n, dtype=float)
    pool = pool or (np.zeros(n, dtype=np.int64), np.zeros(n), np.zeros(n))
    start = (rating, games_total, peak)  # X2: the list in force at every event's start is the list before
    sides = event_sides(white, black, score, day, event, first_day, match, np.zeros(len(games), dtype=bool),
                        tuple(a[white] for a in start), tuple(a[black] for a in start), *start, rules)
    first = FirstEvents.none(n)
    first.merge(*rated_opponent_sides(white, black, day, first_day, event, event, match, rating))
    first.event[list(first_elsewhere)] = NO_EVENT
    return rate_sides(sides, rating, games_total, peak, birth_year, year, *pool, first.event, ~np.isnan(rating), rules)


@pytest.mark.parametrize("d, e", [
    (0, 0.50), (3, 0.50), (4, 0.51), (-4, 0.49),  # the first rows' edges
    (100, 0.64), (-100, 0.36),
    (400, 0.92), (-400, 0.08),
    (736, 1.00), (-900, 0.00),  # beyond the last row
])
def test_expected_score_reads_table_8_1_2(d, e):
    assert expected_score(np.array([d]))[0] == e


def test_the_logistic_curve_is_an_option():
    logistic = dataclasses.replace(RULES, logistic=True)
    # The seed: a 200-point favourite should score about 76 % under both.
    assert expected_score(np.array([200.0]), logistic)[0] == pytest.approx(1 / (1 + 10 ** -0.5))  # 0.7597
    assert expected_score(np.array([200.0]))[0] == 0.76  # table row 198–206


@pytest.mark.parametrize("own, opponent, d", [
    (2000, 1500, 400),  # 500 counts as 400
    (1500, 2000, -400),
    (2000, 1700, 300),  # under 400: the real difference
    (2700, 2200, 500),  # 2650 or more: the real difference (B02, October 2025)
    (2649, 2149, 400),  # just under 2650: capped
    (2200, 2700, -400),  # the lower player is not 2650+: capped
])
def test_the_400_point_rule_and_the_2650_exception(own, opponent, d):
    assert rating_difference(np.array([own]), np.array([opponent]))[0] == d


@pytest.mark.parametrize("start, after_0, after_1", [
    # Ruling X4, by the event's first day. 0 (2700, K 10: rated 2400 or more) beats 1
    # (2200, K 20: 30 games, under 2400, born 1980); the real difference is 500.
    # Started 30 September 2025, before the exception's date: 0 is capped at 400,
    #   E = 0.92 (row 392–411), 10 × (1 − 0.92) = 0.8 → +1 → 2701.
    (dt.date(2025, 9, 30), 2701, 2198),
    # Started 1 October 2025, the date itself: 0 uses the real 500, E = 0.96 (row 485–517),
    #   10 × 0.04 = 0.4 → 0 → 2700.
    (dt.date(2025, 10, 1), 2700, 2198),
    # 1 is never 2650+: D = −500 counts as −400 either way, E = 0.08, 20 × (0 − 0.08) = −1.6
    #   → −2 → 2198.
])
def test_the_2650_exception_applies_by_the_events_start(start, after_0, after_1):
    # The game itself is on 2 October 2025 in both: the start of its event decides (X4).
    day = (dt.date(2025, 10, 2) - dt.date(2026, 3, 2)).days
    r = period([(0, 1, 1.0, day)], [2700, 2200], games_total=[500, 30], first_days={0: start}, year=2025)
    assert (r.k[0], r.k[1]) == (10, 20)
    assert (r.rating[0], r.rating[1]) == (after_0, after_1)


def test_without_the_2650_exception_everyone_is_capped():
    seed_rules = dataclasses.replace(RULES, cap_exempt_from=None)
    assert rating_difference(np.array([2700.0]), np.array([2200.0]), seed_rules)[0] == 400


@pytest.mark.parametrize("rating, games_total, peak, junior, n, k, rule", [
    (1800, 29, 1800, False, 5, 40, Rule.K_NEW),  # 29 games completed: still 40
    (1800, 30, 1800, False, 5, 20, Rule.K_STANDARD),  # 30 completed: 20
    (2299, 100, 2299, True, 5, 40, Rule.K_JUNIOR),  # under 18, rated under 2300
    (2300, 100, 2300, True, 5, 20, Rule.K_STANDARD),  # a junior at 2300: 20
    (2350, 100, 2400, False, 5, 10, Rule.K_MASTER),  # peaked at 2400, fell back: keeps 10
    (2399, 100, 2399, False, 5, 20, Rule.K_STANDARD),  # never reached 2400
    (1800, 10, 1800, False, 18, 38, Rule.K_NEW),  # 40 × 18 = 720 > 700: ⌊700 / 18⌋ = 38
    (1800, 10, 1800, False, 17, 40, Rule.K_NEW),  # 40 × 17 = 680 ≤ 700
    (1800, 100, 1800, False, 36, 19, Rule.K_STANDARD),  # 20 × 36 = 720: ⌊700 / 36⌋ = 19
    (2500, 100, 2500, False, 70, 10, Rule.K_MASTER),  # 10 × 70 = 700 exactly: kept
    (2500, 100, 2500, False, 71, 9, Rule.K_MASTER),  # 10 × 71 = 710: ⌊700 / 71⌋ = 9
    # Ruling X5: the precedence, first match wins.
    (2250, 100, 2310, True, 5, 20, Rule.K_STANDARD),  # a junior once rated 2310, now 2250: never again 40
    (2299, 100, 2300, True, 5, 20, Rule.K_STANDARD),  # peak exactly 2300: "never reached 2300" fails
    (2380, 12, 2400, False, 5, 10, Rule.K_MASTER),  # once 2400 with 12 games: 10, before the 30-game 40
    (2380, 12, 2400, True, 5, 10, Rule.K_MASTER),  # ... and before the junior 40
    (1700, 12, 1700, True, 5, 40, Rule.K_NEW),  # a junior with 12 games: 40 (the 30-game line)
    (2310, 20, 2310, True, 5, 40, Rule.K_NEW),  # 20 games, once 2310: 40 (the 30-game line comes before)
])
def test_k_factor(rating, games_total, peak, junior, n, k, rule):
    got_k, got_rule = k_factor(np.array([rating]), np.array([games_total]), np.array([peak]), np.array([junior]),
                               np.array([n]))
    assert (got_k[0], got_rule[0]) == (k, rule)


def test_junior_until_the_end_of_the_year_of_the_18th_birthday():
    # Period in 2026: born 2008 turns 18 in 2026 → junior all year; born 2007 → not.
    r = period([(0, 2, 1.0), (1, 2, 1.0)], [2000, 2000, 2000], birth_year=[2008, 2007, 1980])
    assert list(r.k[:2]) == [40, 20]


def test_a_whole_period_is_one_application_of_k():
    # Player 0, rated 2000, K 20, beats 2000 and 2100 and draws with 1900:
    #   E = 0.50, 0.36 (D = −100), 0.64 (D = +100); Σ(S − E) = 0.50 + 0.64 − 0.14 = 1.00
    #   change = 20 × 1.00 = +20 → 2020.
    r = period([(0, 1, 1.0), (0, 2, 1.0), (0, 3, 0.5)], [2000, 2000, 2100, 1900])
    assert r.expected[0] == pytest.approx(1.50)
    assert (r.k[0], r.change[0], r.rating[0]) == (20, 20, 2020)
    # Game by game with the rating updated after each game gives another number (the seed: "wrong"):
    #   vs 2000: +10 → 2010; vs 2100: D = −90, E = 0.38, +12.4 → 2022; vs 1900: D = 122, E = 0.67, −3.4 → 2019.
    rating = 2000.0
    for opponent, score in ((2000, 1.0), (2100, 1.0), (1900, 0.5)):
        rating = period([(0, 1, score)], [rating, opponent]).rating[0]
    assert rating == 2019 != 2020


@pytest.mark.parametrize("opponent, after", [
    (2435, 2401),  # draw, D = −35, E = 0.45: 10 × +0.05 = +0.5 → +1 (away from zero)
    (2365, 2399),  # draw, D = +35, E = 0.55: 10 × −0.05 = −0.5 → −1
])
def test_halves_round_away_from_zero(opponent, after):
    r = period([(0, 1, 0.5)], [2400, opponent], peak=[2400, opponent])  # player 0: K 10 (reached 2400)
    assert r.k[0] == 10 and r.rating[0] == after


def test_half_away():
    np.testing.assert_array_equal(half_away(np.array([0.5, -0.5, 1.5, -2.5, 2.4999, 0.1 * 3 * 5])),
                                  [1, -1, 2, -3, 2, 2])  # 0.1 × 3 × 5 = 1.5000000000000002 in binary


def test_the_1400_floor():
    # 0: 1405 loses to 1405: E 0.50, −10 → 1395 < 1400: unrated on this list.
    # 2: 1410 loses to 1420: D = −10, E 0.49, −9.8 → −10 → 1400: not below, stays.
    # 4: 1300 on the start list, no game: keeps 1300 (falling below takes a rated game).
    r = period([(0, 1, 0.0), (2, 3, 0.0)], [1405, 1405, 1410, 1420, 1300])
    assert np.isnan(r.rating[0]) and r.rule[0] == Rule.BELOW_FLOOR
    assert r.rating[2] == 1400
    assert r.rating[4] == 1300 and r.rule[4] == Rule.NO_GAMES


def test_games_of_rated_players_against_unrated_ones_change_nothing():
    r = period([(0, 1, 1.0), (0, 2, 1.0)], [1800, NAN, 1800])
    # Only the game against 2 counts for 0: E = 0.5, +0.5 × 20 = +10.
    assert (r.games[0], r.rating[0]) == (1, 1810)


def test_an_initial_rating_with_the_two_1800_draws():
    # Player 0, unrated, scores 3 / 5 against 1500, 1600, 1700, 1800, 1900 (sum 8500):
    #   Ra = (8500 + 2 × 1800) / 7 = 1728.571; p = (3 + 2 × 0.5) / 7 = 0.5714 → 0.57 → dp = +50
    #   Ru = 1778.571 → 1779 (at most 2200, at least 1400: published).
    games = [(0, 1, 1.0), (0, 2, 1.0), (0, 3, 1.0), (0, 4, 0.0), (0, 5, 0.0)]
    r = period(games, [NAN, 1500, 1600, 1700, 1800, 1900])
    assert r.ra[0] == pytest.approx(12100 / 7) and r.p[0] == pytest.approx(4 / 7) and r.dp[0] == 50
    assert (r.rating[0], r.rule[0], r.games_total[0], r.peak[0]) == (1779, Rule.INITIAL, 5, 1779)


@pytest.mark.parametrize("opponents, score, ru, published", [
    # 5 wins against 2200: Ra = (11000 + 3600) / 7 = 2085.7; p = 6/7 → 0.86 → +309; 2394.7 → at most 2200.
    ([2200] * 5, 1.0, 2200, 2200),
    # 5 losses against 1400: Ra = (7000 + 3600) / 7 = 1514.3; p = 1/7 → 0.14 → −309; 1205.3 → 1205 < 1400.
    ([1400] * 5, 0.0, 1205, NAN),
])
def test_initial_rating_bounds(opponents, score, ru, published):
    # (0's first event was on an earlier list, so five losses are not a first event to ignore)
    r = period([(0, i + 1, score) for i in range(5)], [NAN, *opponents], first_elsewhere=[0])
    assert half_away(r.unrounded[0]) == ru
    np.testing.assert_equal(r.rating[0], published)
    if np.isnan(published):
        assert r.rule[0] == Rule.INITIAL_BELOW_FLOOR and r.pool_games[0] == 5  # the pool goes on


def test_games_are_pooled_until_five():
    # Four games now: pooled, no rating; with 1 earlier pooled game (1800, a win) it makes 5:
    #   opponents 1800 + 4 × 1600 = 8200; Ra = (8200 + 3600) / 7 = 1685.714; p = (1 + 2 + 1) / 7 = 0.5714 → +50
    #   Ru = 1735.714 → 1736.
    # (Two opponents at 1600: an event of two players would be a match, not rated with an
    # unrated player, X6.)
    games = [(0, 1, 0.5), (0, 2, 0.5), (0, 1, 1.0), (0, 2, 0.0)]
    alone = period(games, [NAN, 1600, 1600], first_elsewhere=[0])
    assert np.isnan(alone.rating[0]) and alone.rule[0] == Rule.POOLED and alone.pool_games[0] == 4
    pool = (np.array([1, 0, 0]), np.array([1800.0, 0, 0]), np.array([1.0, 0, 0]))
    pooled = period(games, [NAN, 1600, 1600], pool=pool, first_elsewhere=[0])
    assert pooled.rating[0] == 1736 and pooled.games_total[0] == 5 and pooled.pool_games[0] == 0


def test_a_first_event_with_a_zero_score_is_ignored():
    # Player 0 (never met a rated player) loses both games of event 7 (days 1, 2), then
    # scores 1 / 2 in event 9 (days 3, 4): only event 9's two games join the pool.
    # (Each event has two rated opponents at 1600: not a match, X6.)
    games = [(0, 1, 0.0, 1), (0, 2, 0.0, 2), (0, 1, 1.0, 3), (0, 2, 0.0, 4)]
    r = period(games, [NAN, 1600, 1600], events=[7, 7, 9, 9])
    assert (r.pool_games[0], r.ignored_games[0], r.pool_score[0]) == (2, 2, 1.0)
    # Someone whose first event was on an earlier list keeps a zero-score event.
    again = period(games, [NAN, 1600, 1600], events=[7, 7, 9, 9], first_elsewhere=[0])
    assert (again.pool_games[0], again.ignored_games[0]) == (4, 0)
    # A first event with a point is kept.
    kept = period([(0, 1, 0.5, 1), (0, 2, 0.0, 2)], [NAN, 1600, 1600], events=[7, 7])
    assert (kept.pool_games[0], kept.ignored_games[0]) == (2, 0)


def test_games_between_two_unrated_players_never_count():
    # 0 and 1 are unrated and meet twice; 0 also meets rated 2 once (a draw, first event kept).
    # Only that draw joins 0's pool; 1 met nobody rated: nothing pooled, and the rule says so.
    r = period([(0, 1, 1.0), (1, 0, 0.0), (0, 2, 0.5)], [NAN, NAN, 1800], first_elsewhere=[0, 1])
    assert (r.pool_games[0], r.pool_score[0], r.pool_opponents[0]) == (1, 0.5, 1800)
    assert r.pool_games[1] == 0 and r.rule[1] == Rule.UNRATED_OPPONENTS_ONLY
    assert r.games[2] == 0 and r.rating[2] == 1800  # and the rated player's game against 0 changes nothing


@pytest.mark.parametrize("d, e", [(3.4, 0.50), (3.5, 0.51), (-3.6, 0.49), (10.49, 0.51), (10.5, 0.52)])
def test_the_table_is_read_at_the_difference_rounded_to_a_whole_point(d, e):
    # Rows 0–3, 4–10, 11–17: 3.4 → 3 (0.50), 3.5 → 4 (0.51), 10.5 → 11 (0.52).
    assert expected_score(np.array([d]))[0] == e
