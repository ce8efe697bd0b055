"""One peer's forecasts of the games of a series of windows, each game predicted only
from the games before its window (bench/peers.py runs this in a child process a peer,
so that the peer's time and peak memory are its own).

    python bench/peer_forecasts.py PEER GAMES WINDOWS OUT [--period-months N] [--w2 W2]

PEER is `whr`, `openskill` or `glicko2` (the `peers` extra: pip install -e '.[peers]');
GAMES the input games (Parquet: game_id, date, white_id, black_id, result); WINDOWS a
Parquet file of (window_start, window_end), in order, the windows of our performance
series' lists; OUT the forecasts, Parquet (game_id, probability = White's expected
score), one row for every game of the windows. For each window the peer takes in every
game before window_start it has not seen, predicts the window's games, and goes on.

- whr: Whole History Rating (Coulom 2008), the `whr` package: time in days, w² = --w2
  Elo² a day (14 by default, see WHR_W2), two virtual draws (its default). Refitted
  before each window: the games are added to the same `whr.Base`, whose ratings stay
  where the last fit left them (a warm start, WHR_WARM_ROUNDS Newton rounds; the first
  fit, of every game before the first window, WHR_COLD_ROUNDS from 0). A fit whose
  log-likelihood falls or is no number starts again from 0 with every game taken in
  (the package's Newton steps have no line search; the JSON line counts the restarts).
  A draw is the package's 'D', which its likelihood counts as half a win and half a
  loss. A game is predicted from each player's rating on their latest day,
  1 / (1 + 10^(-(Rw - Rb)/400)) (the package's white_win_probability, no handicap); a
  player it has not seen is at 0, the mean its virtual draws pull towards.
- openskill: the `openskill` package's default model (Plackett-Luce), one game at a
  time in the order of the file, a draw a tie (ranks 1, 1); predicted with the model's
  own probability for two players, the Plackett-Luce likelihood (new players at its
  default rating); the package's `predict_win` (a normal CDF of the same difference)
  is written beside it, OUT's stem + `-predict-win`.
- glicko2: the `glicko2` package (Kirkman's Glickman 2012 implementation, its τ 0.5),
  in periods of --period-months (our Glicko-2 rule set's period_months: periods start
  in January and divide the year); every game of a period rated from the states before
  it; a player who does not play in a period takes `did_not_compete` (applied when the
  player is next needed: it changes only the deviation, period by period, as the
  package does). Only whole periods before a window are taken in. Predicted with
  Glickman's E with g of both deviations: 1 / (1 + exp(-g(√(φw² + φb²)) (μw − μb))).
Every peer starts from the games alone (no initial list).
Prints one JSON line at its end: the peer, games predicted, the child's seconds and its
peak memory (`ru_maxrss` of RUSAGE_SELF, MB).
"""
from __future__ import annotations

import argparse
import json
import math
import resource
import sys
import time
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

GLICKO2_SCALE = 173.7178  # Glickman 2013, step 2: 400 / ln 10
WHR_COLD_ROUNDS = 20  # Newton rounds of a fit from every rating at 0
WHR_WARM_ROUNDS = 5  # and of a fit from the last one's ratings
# Elo² a day. Chosen on the two windows of 2009, before any game scored (log-loss of
# the first, and of the second from a warm start): 3: 0.5800, 0.5456; 7: 0.5760,
# 0.5423; 14: 0.5754, 0.5422; 30: 0.5779, 0.5534. The package's default, 300 (a
# rating moving √(300 × 365) = 330 a year), scored 0.626 on the first window of 2010
# and its warm fits swung off to NaN.
WHR_W2 = 14.0


def read_games(path: Path) -> dict[str, np.ndarray]:
    """The games as arrays, in the order of their date then game_id; `score` White's."""
    return duckdb.sql(f"""
        select game_id, date, white_id, black_id,
               case result when '1-0' then 1.0 when '0-1' then 0.0 else 0.5 end as score,
               (date - date '1970-01-01')::integer as day,
               (year(date) * 12 + month(date) - 1)::integer as month
        from read_parquet('{path}') order by date, game_id""").fetchnumpy()


def month_of(day: int) -> int:
    """The month (year × 12 + month − 1, as read_games's `month`) of a day since 1970-01-01."""
    return 1970 * 12 + int(np.datetime64(day, "D").astype("datetime64[M]").astype(int))


def read_windows(path: Path) -> list[tuple[int, int]]:
    """The windows as (first day, last day), days since 1970-01-01."""
    rows = duckdb.sql(f"""select (window_start - date '1970-01-01')::integer, (window_end - date '1970-01-01')::integer
                          from read_parquet('{path}') order by window_start""").fetchall()
    return [(start, end) for start, end in rows]


class WholeHistory:
    """The `whr` package's Base, refitted before each window."""

    def __init__(self, w2: float) -> None:
        import whr  # the optional `peers` extra: imported only by the peer that uses it
        self.new_base = lambda: whr.Base(config={"w2": w2, "virtual_games": 2})
        self.base = self.new_base()
        self.games: dict[str, np.ndarray] = {}
        self.taken = 0  # the rows of `games` taken in: a refit from the start takes them again
        self.fits: list[tuple[int, float]] = []
        self.restarts = 0

    def take(self, games: dict[str, np.ndarray], rows: slice, start: int | None = None) -> None:
        winner = np.where(games["score"][rows] == 1.0, "W", np.where(games["score"][rows] == 0.0, "B", "D"))
        self.base.create_games([[str(b), str(w), r, int(d)] for w, b, r, d in zip(
            games["white_id"][rows], games["black_id"][rows], winner, games["day"][rows])])
        self.games, self.taken = games, rows.stop

    def climbed(self, rounds: int) -> bool:
        """`rounds` Newton rounds; False when the log-likelihood fell or is no number:
        the package's Newton steps have no line search, and a player's ratings can swing
        off to infinity (seen with w² = 300 from a warm start)."""
        before = self.base.log_likelihood()
        self.base.iterate(rounds)
        after = self.base.log_likelihood()
        return math.isfinite(after) and after >= before

    def fit(self) -> None:
        start = time.perf_counter()
        rounds = WHR_WARM_ROUNDS if self.fits else WHR_COLD_ROUNDS
        if not self.climbed(rounds):
            # From the start: every game taken in, every rating at 0.
            self.restarts += 1
            self.base = self.new_base()
            self.take(self.games, slice(0, self.taken))
            rounds = WHR_COLD_ROUNDS
            if not self.climbed(rounds):
                raise SystemExit("whr: the fit diverged from every rating at 0 too")
        self.fits.append((rounds, time.perf_counter() - start))
        print(json.dumps({"whr_fit": len(self.fits), "rounds": rounds, "restarts": self.restarts,
                          "seconds": round(self.fits[-1][1], 1)}), file=sys.stderr, flush=True)

    def predict(self, games: dict[str, np.ndarray], rows: slice, start: int) -> np.ndarray:
        self.fit()
        white, black = games["white_id"][rows], games["black_id"][rows]
        players = np.unique(np.concatenate([white, black]))
        latest = np.array([(self.base.ratings_for_player(str(p)) or [[0, 0.0, 0.0]])[-1][1] for p in players])
        rating_white = latest[np.searchsorted(players, white)]
        rating_black = latest[np.searchsorted(players, black)]
        return 1.0 / (1.0 + np.power(10.0, -(rating_white - rating_black) / 400.0))

    def said(self) -> dict:
        return {"fits": len(self.fits), "restarts": self.restarts,
                "fit_seconds": round(sum(s for _, s in self.fits), 1)}


class OpenSkill:
    """The `openskill` package's default model, one game at a time."""

    def __init__(self) -> None:
        from openskill.models import PlackettLuce  # the optional `peers` extra
        self.model = PlackettLuce()
        self.ratings: dict[int, object] = {}
        self.predicted_wins: list[np.ndarray] = []

    def rating(self, player: int):
        if player not in self.ratings:
            self.ratings[player] = self.model.rating()
        return self.ratings[player]

    def take(self, games: dict[str, np.ndarray], rows: slice, start: int | None = None) -> None:
        ranks = {1.0: [1, 2], 0.0: [2, 1], 0.5: [1, 1]}
        for w, b, s in zip(games["white_id"][rows].tolist(), games["black_id"][rows].tolist(),
                           games["score"][rows].tolist()):
            [[self.ratings[w]], [self.ratings[b]]] = self.model.rate(
                [[self.rating(w)], [self.rating(b)]], ranks=ranks[s])

    def predict(self, games: dict[str, np.ndarray], rows: slice, start: int) -> np.ndarray:
        """The model's own probability that White finishes first: the Plackett-Luce
        likelihood its update climbs, 1 / (1 + exp(-(μw - μb) / c)) with
        c = √(σw² + σb² + 2β²) (Weng and Lin 2011, as `PlackettLuce.rate` computes c).
        The package's `predict_win` is kept beside it (`extra`): it puts the same
        difference through the normal distribution, Φ((μw - μb) / c), steeper than the
        model's logistic, and so more sure of itself than the model is."""
        pairs = [(self.rating(w), self.rating(b))
                 for w, b in zip(games["white_id"][rows].tolist(), games["black_id"][rows].tolist())]
        mu_w, sigma_w, mu_b, sigma_b = np.array([(w.mu, w.sigma, b.mu, b.sigma) for w, b in pairs]).T.reshape(4, -1)
        c = np.sqrt(sigma_w ** 2 + sigma_b ** 2 + 2 * self.model.beta ** 2)
        self.predicted_wins.append(np.array([self.model.predict_win([[w], [b]])[0] for w, b in pairs]))
        return 1 / (1 + np.exp(-(mu_w - mu_b) / c))

    def extra(self) -> tuple[str, np.ndarray]:
        return "predict-win", np.concatenate(self.predicted_wins) if self.predicted_wins else np.array([])

    def said(self) -> dict:
        return {"players": len(self.ratings)}


class Glicko2Package:
    """The `glicko2` package's Player, rated period by period."""

    def __init__(self, period_months: int) -> None:
        import glicko2  # the optional `peers` extra
        self.new_player = glicko2.Player
        self.period_months = period_months
        self.players: dict[int, object] = {}
        self.last_period: dict[int, int] = {}
        self.taken = 0  # games taken in: the periods before this row are rated

    def caught_up(self, player: int, period: int):
        """The player's state at the start of `period`: a missed period is a did_not_compete."""
        if player not in self.players:
            self.players[player] = self.new_player()
            self.last_period[player] = period - 1
        state = self.players[player]
        for _ in range(period - 1 - self.last_period[player]):
            state.did_not_compete()
        self.last_period[player] = period - 1
        return state

    def rate_period(self, games: dict[str, np.ndarray], rows: slice, period: int) -> None:
        white, black = games["white_id"][rows].tolist(), games["black_id"][rows].tolist()
        before = {p: (s.rating, s.rd) for p in set(white) | set(black)
                  for s in [self.caught_up(p, period)]}
        opponents: dict[int, tuple[list, list, list]] = {p: ([], [], []) for p in before}
        for w, b, s in zip(white, black, games["score"][rows].tolist()):
            for player, other, score in ((w, b, s), (b, w, 1.0 - s)):
                ratings, deviations, scores = opponents[player]
                ratings.append(before[other][0])
                deviations.append(before[other][1])
                scores.append(score)
        for player, (ratings, deviations, scores) in opponents.items():
            self.players[player].update_player(ratings, deviations, scores)
            self.last_period[player] = period

    def take(self, games: dict[str, np.ndarray], rows: slice, start: int) -> None:
        # Only the periods over by the window's first day: with periods longer than a
        # month, the games of the one the window starts in wait for the next window.
        period_of = games["month"] // self.period_months
        stop = min(rows.stop, int(np.searchsorted(period_of, month_of(start) // self.period_months, side="left")))
        bounds = np.flatnonzero(np.diff(period_of[self.taken:stop])) + self.taken + 1
        for first, last in zip([self.taken, *bounds.tolist()], [*bounds.tolist(), stop]):
            if last > first:
                self.rate_period(games, slice(first, last), int(period_of[first]))
        self.taken = stop

    def predict(self, games: dict[str, np.ndarray], rows: slice, start: int) -> np.ndarray:
        # The states at the window's first day: a window's first game may be months later.
        period = month_of(start) // self.period_months
        white, black = games["white_id"][rows].tolist(), games["black_id"][rows].tolist()
        state = {p: (s.rating, s.rd) for p in set(white) | set(black) for s in [self.caught_up(p, period)]}
        rw, dw = np.array([state[p] for p in white]).T
        rb, db = np.array([state[p] for p in black]).T
        mu_w, mu_b = (rw - 1500) / GLICKO2_SCALE, (rb - 1500) / GLICKO2_SCALE
        phi = np.sqrt(dw ** 2 + db ** 2) / GLICKO2_SCALE
        g = 1 / np.sqrt(1 + 3 * phi ** 2 / math.pi ** 2)
        return 1 / (1 + np.exp(-g * (mu_w - mu_b)))

    def said(self) -> dict:
        return {"players": len(self.players), "period_months": self.period_months}


def windows_forecast(peer, games: dict[str, np.ndarray], windows: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """(game_id, probability) of every game of the windows, each from the games before its window."""
    ids, probabilities, taken = [], [], 0
    for start, end in windows:
        first = int(np.searchsorted(games["day"], start, side="left"))
        last = int(np.searchsorted(games["day"], end, side="right"))
        if first > taken:
            peer.take(games, slice(taken, first), start)
            taken = first
        if last > first:
            ids.append(games["game_id"][first:last])
            probabilities.append(peer.predict(games, slice(first, last), start))
    if not ids:
        return np.array([], dtype=np.int64), np.array([], dtype=np.float64)
    return np.concatenate(ids), np.concatenate(probabilities)


def peer_named(name: str, period_months: int = 1, w2: float = WHR_W2):
    return {"whr": lambda: WholeHistory(w2), "openskill": OpenSkill,
            "glicko2": lambda: Glicko2Package(period_months)}[name]()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("peer", choices=("whr", "openskill", "glicko2"))
    parser.add_argument("games", type=Path)
    parser.add_argument("windows", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--period-months", type=int, default=1, help="glicko2: months a rating period")
    parser.add_argument("--w2", type=float, default=WHR_W2, help="whr: the variance of a rating's drift, Elo² a day")
    args = parser.parse_args()
    start = time.perf_counter()
    games, windows = read_games(args.games), read_windows(args.windows)
    peer = peer_named(args.peer, args.period_months, args.w2)
    game_ids, probabilities = windows_forecast(peer, games, windows)
    order = np.argsort(game_ids, kind="stable")
    pq.write_table(pa.table({"game_id": game_ids[order], "probability": probabilities[order]}), args.out)
    if hasattr(peer, "extra"):
        suffix, extra = peer.extra()
        pq.write_table(pa.table({"game_id": game_ids[order], "probability": extra[order]}),
                       args.out.with_name(f"{args.out.stem}-{suffix}{args.out.suffix}"))
    print(json.dumps({"peer": args.peer, "games": int(len(game_ids)),
                      "seconds": round(time.perf_counter() - start, 1),
                      "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                      **peer.said()}))


if __name__ == "__main__":
    main()
