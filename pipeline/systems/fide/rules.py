"""The FIDE Elo (seed 003, FIDE Handbook B02).

| rule                                                    | where                  |
|---------------------------------------------------------|------------------------|
| expected score, table 8.1.2 (or the logistic option)    | `expected_score`       |
| 400-point rule, 2650+ exception from its date (X4)      | `rating_difference`    |
| K: ever 2400, 30 games, junior never 2300 (X5), K×n ≤ 700 | `k_factor`           |
| each event from its start list, newcomers, matches (X2, | `event_sides`          |
|   X3, X6)                                               |                        |
| one change per list, K per event, 0.5 away (X3)         | `rate_sides`           |
| the 1400 floor (B02 7.2.1)                              | `rate_sides`           |
| unrated: 5 games pooled over 26 lists (X9), 1800 draws, | `initial_ratings`,     |
|   dp at p to the hundredth, at most 2200, from 1400     |   `rate_sides`         |
| a first event with a zero score is ignored (X8)         | `first_event_ignored`, |
|                                                         |   `first_event.py`     |
| monthly lists closing 3 days before their date (X1)     | `calendar.py`          |
| which list rates an event, which it starts from (X1-X2) | `events.sql`           |

Every function is array code: one call handles every player of a period.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.ruleset.parameters import a_date, within
from pipeline.ruleset.texts import first_that_holds

HERE = Path(__file__).parent  # the rule set's tables are data files beside its code
EPOCH = pd.Timestamp("1970-01-01")  # days in the games arrays count from it


def _expected_table() -> tuple[tuple[float, float, float], ...]:
    """(difference from, expected score of the higher rated, of the lower rated) per row."""
    with open(HERE / "fide-8.1.2-expected-score.csv", newline="") as fh:
        return tuple((float(r["diff_from"]), float(r["expected_higher"]), float(r["expected_lower"]))
                     for r in csv.DictReader(fh))


def _dp_table() -> tuple[tuple[float, float], ...]:
    """Table 8.1.1: the performance table with p = 0 → −800 and p = 1 → +800 (fide-elo.md)."""
    with open(HERE / "fide-8.1.1-dp-table.csv", newline="") as fh:
        rows = [(float(r["p"]), float(r["dp"])) for r in csv.DictReader(fh)]
    return ((0.0, -800.0), *rows, (1.0, 800.0))


@dataclass(frozen=True)
class FideRules:
    """Parameters of the FIDE Elo; defaults are the regulations in force (B02, 2024/2025)."""

    # Each default is the regulations'; beside it, what a --rules file may set instead
    # (pipeline/ruleset/parameters.py): ratings run from 1 to 3000.
    difference_cap: float = within(400.0, 0, 3000, above=True)  # seed: "plus de 400 points compte pour 400"
    # B02 since October 2025; None: the seed's rule, no exception
    cap_exempt_from: float | None = within(2650.0, 1, 3000, none=True)
    cap_exempt_since: str = a_date("2025-10-01")  # ruling X4: events that started before it cap everyone
    logistic: bool = False  # True: 1 / (1 + 10^(−D/400)) instead of table 8.1.2 (an option, never the default)
    k_new: int = within(40, 1, "max_k_times_games")  # until 30 rated games are completed
    established_games: int = within(30, 0, 1000)
    # under 18 (to the end of the year of the 18th birthday) while rated under 2300
    k_junior: int = within(40, 1, "max_k_times_games")
    junior_age: int = within(18, 0, 100)
    junior_below: float = within(2300.0, 1, 3000)
    k_standard: int = within(20, 1, "max_k_times_games")  # while rated under 2400
    k_master: int = within(10, 1, "max_k_times_games")  # once the published rating has ever reached 2400
    master_from: float = within(2400.0, 1, 3000)
    max_k_times_games: int = within(700, 1, 100_000)  # B02 8.3.3: K × n ≤ 700
    floor: float = within(1400.0, 0, 3000)  # B02 7.2.1: below it, unrated on the next list
    initial_games: int = within(5, 1, 1000)  # B02 8.2: at least 5 games against rated opponents
    pool_months: int = within(26, 1, 1200)  # pooled over up to 26 months: ruling X9, the 26 lists ending with it
    fictitious_rating: float = within(1800.0, 1, 3000)  # two fictitious draws against 1800
    fictitious_draws: int = within(2, 0, 100)
    initial_cap: float = within(2200.0, 1, 3000)  # Ru at most 2200
    # ruling X1: a list closes three days before its date (B02 7.1.3); within its month
    closing_days: int = within(3, 0, 27)
    inactive_months: int = within(12, 1, 1200)  # B02 7.2.2: no rated game in the last 12 months: flagged inactive
    expected_table: tuple[tuple[float, float, float], ...] = field(default_factory=_expected_table, repr=False)
    dp_table: tuple[tuple[float, float], ...] = field(default_factory=_dp_table, repr=False)


RULES = FideRules()


class Rule(StrEnum):
    """Which rule produced a player's rating on a list."""

    NO_GAMES = "no rated game"
    K_NEW = "K 40: fewer than 30 rated games"
    K_JUNIOR = "K 40: under 18 and never rated 2300"
    K_STANDARD = "K 20: rated under 2400"
    K_MASTER = "K 10: published rating has reached 2400"
    BELOW_FLOOR = "below 1400: unrated on this list (B02 7.2.1)"
    INITIAL = "initial rating (B02 8.2)"
    INITIAL_BELOW_FLOOR = "initial rating below 1400: not published"
    POOLED = "unrated: games pooled, fewer than 5 against rated opponents"
    FIRST_EVENT_IGNORED = "unrated: first event with a zero score ignored"
    UNRATED_OPPONENTS_ONLY = "unrated: no rated opponent"
    MATCH_NOT_RATED = "not rated: a match with an unrated player, or games after it was decided (X6)"


class SideUse(StrEnum):
    """What one game counted for, from one player's side."""

    RATED = "rated"
    POOLED = "joins the pool"
    FIRST_EVENT = "not counted: first event with a zero score (B02 8.2)"
    UNRATED_MATCH = "not rated: a match with a player unrated at its start (X6)"
    DECIDED = "not rated: played after the match was decided (X6)"
    UNRATED_OPPONENT = "not counted: the opponent is unrated"
    UNRATED_PLAYER = "not counted: unrated, against an unrated opponent"


def half_away(x: np.ndarray) -> np.ndarray:
    """Round to a whole number, 0.5 away from zero (FIDE); 6 decimals first, so that
    binary noise in K × Σ(S − E) cannot flip a half (as R3 does for the national list)."""
    x = np.round(np.asarray(x, dtype=float), 6)
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def rating_difference(own: np.ndarray, opponent: np.ndarray, rules: FideRules = RULES,
                      exempt: np.ndarray | bool = True) -> np.ndarray:
    """D = own − opponent, a difference of more than 400 counting as 400, except for
    a player rated 2650 or more (the real difference) when the exception is on and
    `exempt` (X4: the event started on or after the exception's date)."""
    d = np.asarray(own, dtype=float) - np.asarray(opponent, dtype=float)
    capped = np.clip(d, -rules.difference_cap, rules.difference_cap)
    if rules.cap_exempt_from is None:
        return capped
    return np.where(np.asarray(exempt) & (np.asarray(own) >= rules.cap_exempt_from), d, capped)


def expected_score(d: np.ndarray, rules: FideRules = RULES) -> np.ndarray:
    """E(D): table 8.1.2 read at |D| (rounded to a whole point: ratings are whole
    numbers, the table's rows are), the higher rated side's column for D ≥ 0."""
    d = np.asarray(d, dtype=float)
    if rules.logistic:
        return 1.0 / (1.0 + 10.0 ** (-d / 400.0))
    table = np.array(rules.expected_table)
    row = np.searchsorted(table[:, 0], np.floor(np.abs(d) + 0.5), side="right") - 1
    return np.where(d >= 0, table[row, 1], table[row, 2])


def is_junior(birth_year: np.ndarray, year: int, rules: FideRules = RULES) -> np.ndarray:
    """Under 18 until the end of the year of the 18th birthday: year − birth year ≤ 18,
    the year being that of the period's last day; no birth year: not a junior."""
    by = np.asarray(birth_year, dtype=float)
    return np.where(np.isnan(by), False, year - by <= rules.junior_age)


def k_factor(rating: np.ndarray, games_total: np.ndarray, peak: np.ndarray, junior: np.ndarray,
             games: np.ndarray, rules: FideRules = RULES) -> tuple[np.ndarray, np.ndarray]:
    """K of each player for the period, and the rule that gave it (B02 8.3.3).

    Ruling X5, the first that applies: 10 once the highest published rating reached
    2400 (a master who falls back keeps 10, whatever their age or games); 40 before
    30 completed games; 40 for a junior whose published rating never reached 2300;
    else 20. Then K × n ≤ 700: K is at most ⌊700 / n⌋.
    """
    cases = [peak >= rules.master_from, games_total < rules.established_games,
             junior & ~(np.fmax(peak, rating) >= rules.junior_below)]
    # The first case that applies, by its number; then K and the rule's text looked up by
    # it (np.select over the texts would copy 39 characters a player, once a call).
    which = np.where(cases[0], 0, np.where(cases[1], 1, np.where(cases[2], 2, 3)))
    k = np.array([rules.k_master, rules.k_new, rules.k_junior, rules.k_standard])[which]
    rule = np.array([r.value for r in (Rule.K_MASTER, Rule.K_NEW, Rule.K_JUNIOR, Rule.K_STANDARD)],
                    dtype=object)[which]
    limit = np.floor_divide(rules.max_k_times_games, np.maximum(games, 1))
    return np.minimum(k, limit).astype(np.int64), rule


def initial_ratings(games: np.ndarray, opponents_sum: np.ndarray, score: np.ndarray,
                    rules: FideRules = RULES) -> tuple[np.ndarray, ...]:
    """Ru of unrated players from their pooled games against rated opponents (B02 8.2):
    Ra counts two fictitious 1800 opponents drawn with; p is read to the hundredth
    in table 8.1.1 (looked up, not interpolated); Ru rounded, at most 2200.
    Returns Ra, p, dp, Ra + dp and Ru (NaN below 5 games)."""
    f = rules.fictitious_draws
    n = games + f
    ra = (opponents_sum + f * rules.fictitious_rating) / n
    p = (score + f * 0.5) / n
    table = np.array(rules.dp_table)
    hundredth = np.floor(np.round(p * 100, 6) + 0.5) / 100
    dp = table[np.searchsorted(table[:, 0], hundredth - 1e-9), 1]
    raw = ra + dp
    ru = np.where(games >= rules.initial_games, np.minimum(half_away(raw), rules.initial_cap), np.nan)
    return ra, p, dp, raw, ru


def first_event_ignored(player: np.ndarray, event: np.ndarray, score: np.ndarray, first_event: np.ndarray,
                        ever_rated: np.ndarray) -> np.ndarray:
    """Which game sides belong to a first event with a zero score (ignored, B02 8.2).

    Sides are an unrated player's games against rated opponents; `first_event` is each
    player's first event (ruling X8: the event of their earliest game against a rated
    opponent, whichever list rates it: first_event.py), whose games are all on one
    list; `ever_rated` marks players rated before (their first event is behind them:
    a player rated from a later event plays the first one as a rated player, X3).
    """
    in_first = ~ever_rated[player] & (event == first_event[player])
    first_score = np.bincount(player[in_first], weights=score[in_first], minlength=len(first_event))
    return in_first & (first_score[player] == 0)


@dataclass(frozen=True)
class PeriodResult:
    """One period computed: everyone's state after it and each player's card."""

    rating: np.ndarray  # published (whole number), NaN while unrated
    games_total: np.ndarray
    peak: np.ndarray
    ever_rated: np.ndarray  # rated on this list or before (a first event is then behind them)
    pool_games: np.ndarray  # this period's games against rated opponents that join the pool
    pool_opponents: np.ndarray
    pool_score: np.ndarray
    ignored_games: np.ndarray
    played: np.ndarray
    games: np.ndarray  # games rated this period (rated: vs rated opponents; unrated: joining the pool)
    score: np.ndarray
    mean_opponent: np.ndarray
    expected: np.ndarray  # Σ E (rated players)
    junior: np.ndarray
    k: np.ndarray
    change: np.ndarray  # K × Σ(S − E) rounded 0.5 away from zero
    pooled: np.ndarray  # unrated: games in the pool after this period
    ra: np.ndarray
    p: np.ndarray
    dp: np.ndarray
    performance: np.ndarray  # Ra + dp
    unrounded: np.ndarray  # rated: R0 + K Σ(S − E); unrated: Ra + dp
    rule: np.ndarray
    last_rated: np.ndarray  # the day of the latest game rated this period (−1: none)
    sides: Sides | None = None  # each game from each player's side, as counted
    side_expected: np.ndarray | None = None  # E of each side rated (NaN: not rated for that player)
    side_k: np.ndarray | None = None  # K of each side rated (its event's)
    side_use: np.ndarray | None = None  # what each side counted for (SideUse)


@dataclass(frozen=True)
class Sides:
    """Each game twice, once from each player's side, with what the side counts from:
    the ratings (and K) of the list in force when the game's event started (ruling X2)."""

    player: np.ndarray  # the player's index
    opponent: np.ndarray
    score: np.ndarray
    day: np.ndarray  # days since 1970-01-01
    event: np.ndarray  # the event's key
    own: np.ndarray  # the player's rating counted from (NaN: unrated for this game)
    opponent_rating: np.ndarray  # the opponent's rating at the event's start (NaN: unrated)
    games_total: np.ndarray  # the player's rated games to date, at the event's start (K)
    peak: np.ndarray  # the player's highest published rating, at the event's start (K)
    year: np.ndarray  # the year the junior rule reads: the event's start
    exempt: np.ndarray  # the 2650 exception applies: the event started on or after its date (X4)
    excluded: np.ndarray  # not rated: a match with an unrated player, or after it was decided (X6)
    newcomer: np.ndarray | None = None  # unrated when the event started, rated since: counted as rated (X3)
    decided: np.ndarray | None = None  # excluded because played after the match was decided (X6)


def event_sides(white: np.ndarray, black: np.ndarray, white_score: np.ndarray, day: np.ndarray,
                event: np.ndarray, first_day: np.ndarray, match: np.ndarray, after_decided: np.ndarray,
                start_white: tuple[np.ndarray, ...], start_black: tuple[np.ndarray, ...],
                rating: np.ndarray, games_total: np.ndarray, peak: np.ndarray, rules: FideRules = RULES) -> Sides:
    """The sides of a list's games, each from the list in force when its event started.

    `start_white` and `start_black` are, per game, the (rating, games to date,
    highest rating) of white and of black on that start list (X2); `rating`,
    `games_total`, `peak` are the players' state on the list before (the current
    one). X3: a newcomer rated since the start list plays as a rated player, from
    their current rating and K, while their opponents still count them unrated.
    X4: the 2650 exception applies to events that started on or after its date.
    X6: a match with a player unrated at its start is not rated, nor are the games
    of a match played after it was decided.
    """
    player, opponent = np.concatenate([white, black]), np.concatenate([black, white])
    start_own = [np.concatenate([w, b]) for w, b in zip(start_white, start_black)]
    start_opponent = np.concatenate([start_black[0], start_white[0]])
    newcomer = np.isnan(start_own[0]) & ~np.isnan(rating[player])
    own = np.where(newcomer, rating[player], start_own[0])
    own_games = np.where(newcomer, games_total[player], start_own[1])
    own_peak = np.where(newcomer, peak[player], start_own[2])
    both_days = np.concatenate([first_day, first_day])
    since = (pd.Timestamp(rules.cap_exempt_since) - EPOCH).days
    unrated_match = match & (np.isnan(start_white[0]) | np.isnan(start_black[0]))
    excluded = np.concatenate([unrated_match | after_decided] * 2)
    years = (EPOCH + pd.to_timedelta(both_days, unit="D")).year.to_numpy()
    return Sides(player, opponent, np.concatenate([white_score, 1.0 - white_score]), np.concatenate([day, day]),
                 np.concatenate([event, event]), own, start_opponent, own_games, own_peak, years,
                 both_days >= since, excluded, newcomer, np.concatenate([after_decided & ~unrated_match] * 2))


def rate_sides(s: Sides, rating: np.ndarray, games_total: np.ndarray, peak: np.ndarray, birth_year: np.ndarray,
               year: int, pool_games: np.ndarray, pool_opponents: np.ndarray, pool_score: np.ndarray,
               first_event: np.ndarray, ever_rated: np.ndarray, rules: FideRules = RULES) -> PeriodResult:
    """Rate one list: the events it rates, each from the ratings of the list in force
    at its start (X2), one change a player, K per event, rounded once (X3). Players
    are dense indices 0..n-1; `rating` is the list before's (NaN: unrated);
    `pool_*` are the unrated players' pooled games of the 25 lists before (X9);
    `first_event` each player's first event and `ever_rated` whether they were rated
    before (X8: first_event_ignored)."""
    n = len(rating)
    player, score = s.player, s.score
    rated = ~np.isnan(rating)
    played = np.bincount(player, minlength=n)
    counts = ~s.excluded
    # Games against unrated opponents change nothing for the rated player.
    both = counts & rated[player] & ~np.isnan(s.own) & ~np.isnan(s.opponent_rating)
    who = player[both]
    e = expected_score(rating_difference(s.own[both], s.opponent_rating[both], rules, s.exempt[both]), rules)
    games = np.bincount(who, minlength=n)
    scored = np.bincount(who, weights=score[both], minlength=n)
    expected = np.bincount(who, weights=e, minlength=n)
    opp_sum = np.bincount(who, weights=s.opponent_rating[both], minlength=n)
    junior = is_junior(birth_year, year, rules)
    # One K an event, from the start list's state; K × n ≤ 700 counts every game of the list.
    side_k, side_rule = k_factor(s.own[both], s.games_total[both], s.peak[both],
                                 is_junior(birth_year[who], s.year[both], rules), games[who], rules)
    gain = np.bincount(who, weights=side_k * (score[both] - e), minlength=n)
    # The K and rule shown: those of the player's event with the largest K (events may differ).
    by_k = np.lexsort((side_k, who))
    last = by_k[np.r_[who[by_k][1:] != who[by_k][:-1], True]] if len(by_k) else by_k
    k = np.zeros(n, dtype=np.int64)
    k[who[last]] = side_k[last]
    k_rule = np.full(n, Rule.K_STANDARD.value, dtype=object)
    k_rule[who[last]] = side_rule[last]
    change = half_away(gain)
    unrounded_rated = rating + gain
    after = rating + change
    # Unrated players: their games against rated opponents join the pool.
    sides = counts & ~rated[player] & ~np.isnan(s.opponent_rating)
    ignored = first_event_ignored(player[sides], s.event[sides], score[sides], first_event, ever_rated)
    keep = np.flatnonzero(sides)[~ignored]
    new_games = np.bincount(player[keep], minlength=n)
    new_opponents = np.bincount(player[keep], weights=s.opponent_rating[keep], minlength=n)
    new_score = np.bincount(player[keep], weights=score[keep], minlength=n)
    ignored_games = np.bincount(player[np.flatnonzero(sides)[ignored]], minlength=n)
    pooled = pool_games + new_games
    ra, p, dp, raw, ru = initial_ratings(pooled, pool_opponents + new_opponents, pool_score + new_score, rules)
    enters = ~rated & (new_games > 0) & (ru >= rules.floor)
    # "Falling" below 1400 takes a rated game: a start list's lower ratings stay until then.
    stays_rated = rated & ~((games > 0) & (after < rules.floor))

    new_rating = np.select([stays_rated, enters], [after, ru], np.nan)
    excluded_games = np.bincount(player[s.excluded], minlength=n)
    unrated_rule = first_that_holds(
        [enters, (new_games > 0) & (pooled >= rules.initial_games),
         (new_games > 0), ignored_games > 0, excluded_games > 0, played > 0],
        [Rule.INITIAL, Rule.INITIAL_BELOW_FLOOR, Rule.POOLED, Rule.FIRST_EVENT_IGNORED, Rule.MATCH_NOT_RATED,
         Rule.UNRATED_OPPONENTS_ONLY], Rule.NO_GAMES)
    rated_rule = first_that_holds([(games == 0) & (excluded_games > 0), games == 0, ~stays_rated],
                                  [Rule.MATCH_NOT_RATED, Rule.NO_GAMES, Rule.BELOW_FLOOR], k_rule)
    counted = np.where(rated, games, new_games)
    counted_sum = np.where(rated, opp_sum, new_opponents)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_opponent = np.where(counted > 0, counted_sum / counted, np.nan)
    unrated_attempt = ~rated & (new_games > 0) & (pooled >= rules.initial_games)
    side_e = np.full(len(player), np.nan)
    side_e[both] = e
    side_k_all = np.zeros(len(player), dtype=np.int64)
    side_k_all[both] = side_k
    pooled_side = np.zeros(len(player), dtype=bool)
    pooled_side[keep] = True
    decided = s.decided if s.decided is not None else np.zeros(len(player), dtype=bool)
    use = first_that_holds([both, pooled_side, sides, decided, s.excluded, np.isnan(s.opponent_rating)],
                           [SideUse.RATED, SideUse.POOLED, SideUse.FIRST_EVENT, SideUse.DECIDED,
                            SideUse.UNRATED_MATCH, SideUse.UNRATED_OPPONENT], SideUse.UNRATED_PLAYER)
    last_rated = np.full(n, -1, dtype=np.int64)  # the day of the latest game rated for the player
    np.maximum.at(last_rated, who, s.day[both])
    np.maximum.at(last_rated, player[keep], s.day[keep])
    return PeriodResult(
        rating=new_rating,
        games_total=games_total + np.where(rated, games, np.where(enters, pooled, 0)),
        peak=np.fmax(peak, new_rating),
        ever_rated=ever_rated | ~np.isnan(new_rating),
        pool_games=np.where(enters, 0, new_games),
        pool_opponents=np.where(enters, 0.0, new_opponents),
        pool_score=np.where(enters, 0.0, new_score),
        ignored_games=ignored_games,
        played=played,
        games=counted,
        score=np.where(rated, scored, new_score),
        mean_opponent=mean_opponent,
        expected=np.where(rated & (games > 0), expected, np.nan),
        junior=junior,
        k=np.where(rated & (games > 0), k, 0),
        change=np.where(rated & (games > 0), change, np.nan),
        pooled=np.where(rated, 0, pooled),
        ra=np.where(unrated_attempt, ra, np.nan),
        p=np.where(unrated_attempt, p, np.nan),
        dp=np.where(unrated_attempt, dp, np.nan),
        performance=np.where(unrated_attempt, raw, np.nan),
        unrounded=np.where(rated, np.where(games > 0, unrounded_rated, rating),
                           np.where(unrated_attempt, np.minimum(raw, rules.initial_cap), np.nan)),
        rule=np.where(rated, rated_rule, unrated_rule),
        last_rated=last_rated,
        sides=s,
        side_expected=side_e,
        side_k=side_k_all,
        side_use=use,
    )
