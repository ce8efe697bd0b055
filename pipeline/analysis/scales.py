"""A file of ratings on a scale of its own, fitted (`--scale fit`): the scale S under which
its ratings, read as offset + r × 400 / S, predict the games scored best, by maximum
likelihood of the logistic yardstick (one parameter), then applied to the file's table and
to its games scored."""
from __future__ import annotations

import math

import duckdb
import numpy as np

from pipeline.analysis.sources import FIT, Source, SourceError, implausible_rating

MAX_STEPS = 100  # Newton's method on a concave log-likelihood: a handful of steps; more is a file that does not fit


def fitted_scale(difference: np.ndarray, score: np.ndarray) -> float | None:
    """S maximising the log-likelihood of E = 1 / (1 + 10^(−d/S)) = 1 / (1 + exp(−b d)),
    b = ln 10 / S, over the games (d: White's rating − Black's on the file's scale, s: White's
    score): Newton's method on b, from the Elo scale's b (S = 400) on. None: no fit (no
    difference, or ratings that predict the games the wrong way round)."""
    b = math.log(10) / 400
    if not np.any(difference):
        return None
    for _ in range(MAX_STEPS):
        e = 1 / (1 + np.exp(-b * difference))
        gradient = np.sum((score - e) * difference)
        curvature = np.sum(e * (1 - e) * difference ** 2)
        step = gradient / curvature
        b += step
        if abs(step) <= 1e-12 * abs(b):
            break
    return math.log(10) / float(b) if b > 0 else None


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
                              "(every game between equal ratings, or ratings that predict the games the wrong way "
                              "round): give --scale")
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
