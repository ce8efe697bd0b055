"""The Glicko-2 rules (Mark E. Glickman, "Example of the Glicko-2 system", 2013),
as pure array code: every player of a rating period at once, from the state before
the period (the games of a period are simultaneous: step 2 onwards read only the
pre-period values).

Arrays are indexed by player; the games are three arrays (white, black: player
indices; white_score). Loops run over iterations of the volatility's root finding
(step 5), never over players or games.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pipeline.ruleset.parameters import one_of, within

SCALE = 173.7178  # Glickman 2013, step 2: the Glicko-2 scale is the Glicko scale divided by 173.7178
CENTRE = 1500.0  # Glickman 2013, step 2: mu = (r - 1500) / 173.7178, whatever a newcomer starts from
MAX_ITERATIONS = 200  # step 5: the Illinois iteration converges in a handful; more means a bug, not a hard case


@dataclass(frozen=True)
class Glicko2Rules:
    # Glickman 2013, step 1: "reasonable choices are between 0.3 and 1.2", even 0.2 for improbable results
    tau: float = within(0.5, 0.0, 2.0, above=True, why="the system constant, Glickman 2013, step 1")
    initial_rating: float = within(1500.0, 1.0, 3000.0, why="a chess rating")  # Glickman 2013, step 1: r = 1500
    initial_deviation: float = within(350.0, 0.0, 500.0, above=True)  # Glickman 2013, step 1: RD = 350
    initial_volatility: float = within(0.06, 0.0, 1.0, above=True)  # Glickman 2013, step 1: "sigma = 0.06"
    # Glickman 2013, step 5: the convergence tolerance of the Illinois algorithm
    epsilon: float = within(0.000001, 0.0, 0.001, above=True)
    # Glickman 2013, step 1 leaves the period to the federation ("at least 10-15 games per player"): one
    # month by default; periods of several months start in January, so that they divide the year
    period_months: int = one_of(1, 1, 2, 3, 4, 6, 12, why="rating periods that divide the year")
    # Glickman, "The Glicko system" (1999), step 1: the pre-period deviation never exceeds an unrated
    # player's 350; Glicko-2 (2013) states no cap: "none" follows it to the letter
    max_deviation: float | None = within(350.0, 0.0, 500.0, above=True, none=True)


RULES = Glicko2Rules()


def to_glicko2(rating: np.ndarray, deviation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mu, phi): Glickman 2013, step 2."""
    return (rating - CENTRE) / SCALE, deviation / SCALE


def from_glicko2(mu: np.ndarray, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(r, RD): Glickman 2013, step 8."""
    return SCALE * mu + CENTRE, SCALE * phi


def g(phi: np.ndarray) -> np.ndarray:
    """Glickman 2013, step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)."""
    return 1 / np.sqrt(1 + 3 * phi ** 2 / math.pi ** 2)


def expected(mu: np.ndarray, mu_opponent: np.ndarray, phi_opponent: np.ndarray) -> np.ndarray:
    """Glickman 2013, step 3: E(mu, mu_j, phi_j) = 1 / (1 + exp(-g(phi_j)(mu - mu_j)))."""
    return 1 / (1 + np.exp(-g(phi_opponent) * (mu - mu_opponent)))


def game_expectation(mu_white: np.ndarray, phi_white: np.ndarray, mu_black: np.ndarray,
                     phi_black: np.ndarray) -> np.ndarray:
    """White's expected score of one game, from both players' state (its forecast): Glickman,
    "Parameter estimation in large dynamic paired comparison experiments" (1999), the
    predicted outcome of a game between two players, g of both deviations:
    E = 1 / (1 + exp(-g(sqrt(phi_w^2 + phi_b^2)) (mu_w - mu_b))), on the Glicko-2 scale."""
    return 1 / (1 + np.exp(-g(np.sqrt(phi_white ** 2 + phi_black ** 2)) * (mu_white - mu_black)))


def new_volatility(sigma: np.ndarray, phi: np.ndarray, v: np.ndarray, delta: np.ndarray, tau: float,
                   epsilon: float) -> np.ndarray:
    """sigma' of each player (arrays of the players who played): Glickman 2013, step 5, the
    Illinois algorithm run on every player at once, each stopping when its bracket is
    narrower than epsilon."""
    a = np.log(sigma ** 2)  # step 5.1
    phi2, delta2, tau2 = phi ** 2, delta ** 2, tau ** 2

    def f(x: np.ndarray, at: np.ndarray | slice = slice(None)) -> np.ndarray:
        ex = np.exp(x)
        return (ex * (delta2[at] - phi2[at] - v[at] - ex) / (2 * (phi2[at] + v[at] + ex) ** 2)
                - (x - a[at]) / tau2)

    # step 5.2: A = a; B = ln(Delta^2 - phi^2 - v), or a - k tau for the first k with f(a - k tau) >= 0
    big = delta2 > phi2 + v
    upper = np.where(big, np.log(np.where(big, delta2 - phi2 - v, 1.0)), a - tau)
    k = np.ones(len(a))
    searching = np.flatnonzero(~big)
    for _ in range(MAX_ITERATIONS):
        searching = searching[f(a[searching] - k[searching] * tau, searching) < 0]
        if not len(searching):
            break
        k[searching] += 1
    else:
        raise ArithmeticError("Glicko-2 step 5.2: no k with f(a - k tau) >= 0")
    lower_a, upper_b = a.copy(), np.where(big, upper, a - k * tau)
    fa, fb = f(lower_a), f(upper_b)  # step 5.3
    # step 5.4: while |B - A| > epsilon; each player leaves the loop when its own bracket is narrow
    moving = np.flatnonzero(np.abs(upper_b - lower_a) > epsilon)
    for _ in range(MAX_ITERATIONS):
        if not len(moving):
            break
        A, B, fA, fB = lower_a[moving], upper_b[moving], fa[moving], fb[moving]
        C = A + (A - B) * fA / (fB - fA)  # step 5.4(a)
        fC = f(C, moving)
        swap = fC * fB <= 0  # step 5.4(b): A <- B, f_A <- f_B; otherwise f_A <- f_A / 2
        lower_a[moving] = np.where(swap, B, A)
        fa[moving] = np.where(swap, fB, fA / 2)
        upper_b[moving], fb[moving] = C, fC  # step 5.4(c)
        moving = moving[np.abs(C - lower_a[moving]) > epsilon]
    else:
        raise ArithmeticError("Glicko-2 step 5.4: the Illinois iteration did not converge")
    return np.exp(lower_a / 2)  # step 5.5


@dataclass(frozen=True)
class PeriodResult:
    """A rating period of every player: the terms of the calculation (NaN for those
    who did not play), and the state after it (on the Glicko scale)."""

    games: np.ndarray  # games played in the period
    score: np.ndarray
    expected: np.ndarray  # sum of E over the games (step 3)
    v: np.ndarray  # step 3, on the Glicko-2 scale
    delta: np.ndarray  # step 4, on the Glicko-2 scale
    rating: np.ndarray  # r' (step 8), exact
    deviation: np.ndarray  # RD' (step 8)
    volatility: np.ndarray  # sigma' (step 5)


def period_result(rating: np.ndarray, deviation: np.ndarray, volatility: np.ndarray, white: np.ndarray,
                black: np.ndarray, white_score: np.ndarray, rules: Glicko2Rules = RULES) -> PeriodResult:
    """One rating period of every player (rating, deviation, volatility: the state before
    it, every entry a number), Glickman 2013, steps 2-8; a player with no game keeps
    rating and volatility, and the deviation grows (step 6)."""
    n = len(rating)
    mu, phi = to_glicko2(rating, deviation)  # step 2
    player = np.concatenate([white, black])
    opponent = np.concatenate([black, white])
    score = np.concatenate([white_score, 1 - white_score])
    g_opponent = g(phi[opponent])
    e = expected(mu[player], mu[opponent], phi[opponent])  # step 3
    games = np.bincount(player, minlength=n)
    played = np.flatnonzero(games > 0)
    information = np.bincount(player, weights=g_opponent ** 2 * e * (1 - e), minlength=n)[played]
    surprise = np.bincount(player, weights=g_opponent * (score - e), minlength=n)[played]
    v = 1 / information  # step 3
    delta = v * surprise  # step 4
    sigma = volatility.copy()
    sigma[played] = new_volatility(volatility[played], phi[played], v, delta, rules.tau, rules.epsilon)  # step 5
    phi_star = np.sqrt(phi ** 2 + sigma ** 2)  # step 6; the players with no game stop here
    if rules.max_deviation is not None:
        phi_star = np.minimum(phi_star, rules.max_deviation / SCALE)
    phi_new, mu_new = phi_star.copy(), mu.copy()
    phi_new[played] = 1 / np.sqrt(1 / phi_star[played] ** 2 + 1 / v)  # step 7
    mu_new[played] = mu[played] + phi_new[played] ** 2 * surprise  # step 7
    r, rd = from_glicko2(mu_new, phi_new)  # step 8

    def per_player(values: np.ndarray) -> np.ndarray:
        out = np.full(n, np.nan)
        out[played] = values
        return out

    return PeriodResult(games, np.bincount(player, weights=score, minlength=n),
                        np.bincount(player, weights=e, minlength=n), per_player(v), per_player(delta),
                        r, rd, sigma)


def published(exact: np.ndarray) -> np.ndarray:
    """Whole numbers, halves away from zero (NaN stays NaN)."""
    return np.sign(exact) * np.floor(np.abs(exact) + 0.5)
