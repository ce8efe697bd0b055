"""A file of ratings on a scale of its own, fitted (`--scale fit`): the scale S under which
its ratings, read as offset + r × 400 / S, predict the games scored best, by maximum
likelihood of the logistic yardstick (one parameter), then applied to the file's table and
to its games scored. A series whose ratings are not Elo ratings (a Go rule set's points)
has its yardstick's scale fitted so too."""
from __future__ import annotations

import math

import duckdb
import numpy as np

from pipeline.analysis.sources import FIT, Source, SourceError, implausible_rating
from pipeline.ruleset.interface import RuleSet

MAX_STEPS = 200  # safeguarded Newton: a handful of steps; the bisections that guard it 60 more at most
LARGEST_B = math.log(10) / 1e-6  # a scale under a millionth of a rating point: the games are separated


def _gradient(b: float, difference: np.ndarray, score: np.ndarray) -> tuple[float, float]:
    """The log-likelihood's first and second derivative in b (the second ≤ 0)."""
    e = 1 / (1 + np.exp(-b * difference))
    return float(np.sum((score - e) * difference)), -float(np.sum(e * (1 - e) * difference ** 2))


def fitted_scale(difference: np.ndarray, score: np.ndarray) -> float | None:
    """S maximising the log-likelihood of E = 1 / (1 + 10^(−d/S)) = 1 / (1 + exp(−b d)),
    b = ln 10 / S, over the games (d: White's rating − Black's on the file's scale, s: White's
    score). The log-likelihood is concave in b: its gradient falls from b = 0 on, and the b
    where it crosses 0 is bracketed, then found by Newton's steps from the Elo scale's b
    (S = 400), a step that leaves the bracket replaced by a bisection (plain Newton overshoots
    to a negative b when a few games lie far apart: a Go season's handicap games). None: no
    fit (no difference, games every one won by the higher rated, or ratings that predict the
    games the wrong way round)."""
    if not np.any(difference):
        return None
    # Every game won by the higher rated (a jigo or a draw between unequal ratings aside): the
    # likelihood rises to 1 as S falls to 0, no finite S is best.
    if np.all((difference == 0) | (score == (difference > 0))):
        return None
    with np.errstate(over="ignore"):  # e^x = inf is the limit 0 of E, as wanted
        if _gradient(0.0, difference, score)[0] <= 0:  # the flattest curve is the best: wrong way round
            return None
        low, high, b = 0.0, math.log(10) / 400, math.log(10) / 400
        while _gradient(high, difference, score)[0] > 0:  # widen until the gradient turns
            low, high = high, 2 * high
            if high > LARGEST_B:
                return None
        b = high if b <= low else b
        for _ in range(MAX_STEPS):
            gradient, curvature = _gradient(b, difference, score)
            step = -gradient / curvature if curvature < 0 else math.inf
            if abs(step) <= 1e-13 * b:  # converged (a step this small may not leave b in float)
                break
            low, high = (b, high) if gradient > 0 else (low, b)
            b = b + step if low < b + step < high else (low + high) / 2
            if high - low <= 1e-13 * high:
                break
    return math.log(10) / b


def apply_fitted_scales(con: duckdb.DuckDBPyConnection, sources: list[Source], tables: dict[str, str]) -> list[str]:
    """Fit each file's scale given as FIT on its games in `scored`, rescale its ratings in its
    table (`tables`: source name → its table) and in `scored`; returns what is printed of each
    (the scale fitted, the games it was fitted on)."""
    said = []
    for source in (s for s in sources if s.path is not None and s.scale == FIT):
        games = con.execute("""select white_rating - black_rating, white_score from scored where source = ?""",
                            [source.name]).fetchnumpy()
        difference, score = (np.asarray(v, dtype=float) for v in games.values())
        scale = fitted_scale(difference, score)
        if scale is None:
            raise SourceError(f"{source.path}: no scale fits its ratings to the {len(score):,} games scored "
                              "(every game between equal ratings or won by the higher rated, or ratings that predict "
                              "the games the wrong way round): give --scale")
        factor = 400.0 / scale  # the file's table holds offset + r, read at the scale of 400
        table = tables[source.name]
        con.execute(f"""create or replace temp table {table} as
                        select * replace ({source.offset!r} + (rating - {source.offset!r}) * {factor!r} as rating)
                        from {table}""")
        implausible_rating(con, source.path, f"(select __row, raw as given_rating, rating from {table})",
                           Source(source.name, path=source.path, scale=scale, offset=source.offset))
        con.execute("""create or replace temp table scored as
            select * replace (
                case when source = $name then $offset + (white_rating - $offset) * $factor else white_rating end
                    as white_rating,
                case when source = $name then $offset + (black_rating - $offset) * $factor else black_rating end
                    as black_rating,
                case when source = $name then 1 / (1 + pow(10, -(white_rating - black_rating) * $factor / 400))
                     else expected end as expected)
            from scored""", {"name": source.name, "offset": source.offset, "factor": factor})
        said.append(f"{source.name}: scale fitted by maximum likelihood on its {len(score):,} games: {scale:.6g} "
                    f"(its ratings read as {source.offset:g} + r × 400 / {scale:.6g})")
    return said


def apply_yardstick_scales(con: duckdb.DuckDBPyConnection, sources: list[Source],
                           rule_sets: dict[str, RuleSet]) -> list[str]:
    """The yardstick of each series whose ratings are not on the Elo scale (Go points: 100 a
    grade, against the yardstick's 400 a 10-to-1 odds), on a scale of their own fitted as a
    file's `--scale fit` is: 1 / (1 + 10^(−D/S)), D White's points less Black's, S by maximum
    likelihood on the games scored (`rule_sets`: each series source's). The points themselves
    are left as they are (the lists compared, the rule set's own forecast). Returns what is
    printed of each: the scale, the games it was fitted on."""
    said = []
    for source in (s for s in sources if s.series is not None and rule_sets[s.name].game != "chess"):
        games = con.execute("select white_rating - black_rating, white_score from scored where source = ?",
                            [source.name]).fetchnumpy()
        difference, score = (np.asarray(v, dtype=float) for v in games.values())
        scale = fitted_scale(difference, score)
        if scale is None:  # every game between equal points, or points that predict the games backwards
            said.append(f"{source.name}: the yardstick 1 / (1 + 10^(−D/400)) on its {rule_sets[source.name].game} "
                        f"ratings: no scale fits them to its {len(score):,} games (every game between equal ratings "
                        "or won by the higher rated, or ratings that predict the games the wrong way round)")
            continue
        con.execute("""create or replace temp table scored as
            select * replace (case when source = $name then 1 / (1 + pow(10, -(white_rating - black_rating) / $scale))
                                   else expected end as expected)
            from scored""", {"name": source.name, "scale": scale})
        said.append(f"{source.name}: the yardstick 1 / (1 + 10^(−D/S)) on its {rule_sets[source.name].game} ratings "
                    f"(not on the Elo scale), S fitted by maximum likelihood on its {len(score):,} games: {scale:.6g}")
    return said
