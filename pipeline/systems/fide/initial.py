"""FIDE's own columns of the initial ratings file (RuleSet.initial_columns): a player's
rated games to date and highest published rating, which choose K (X5: 40 before 30
games, 10 once 2400 was reached), and its rule about the row: the peak is not below the
rating. Declared as SQL (pipeline.ruleset.checks.check, row_check), so that validation
runs them compiled (pipeline/validate/checks.json) without loading Pandera."""
from __future__ import annotations

import pandera.pandas as pa

from pipeline.config import MAX_RATING, MIN_RATING
from pipeline.ruleset.checks import NUMBER, between, check, parsed, row_check, whole
from pipeline.ruleset.initial import Int, Number

PEAK_RATING = f"absurd peak rating (not a number from {MIN_RATING} to {MAX_RATING})"
GAMES_TOTAL = "games_total must be a whole number of games (0 or more)"


class FideInitialColumns(pa.DataFrameModel):
    """Games to date (none: established, 30 or more) and peak (none: the rating)."""

    games_total: Int = pa.Field(nullable=True, metadata=parsed(whole("[0-9]{1,6}"), GAMES_TOTAL))
    peak_rating: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, PEAK_RATING))

    _peak_rating = check("peak_rating", name=PEAK_RATING, sql=between(MIN_RATING, MAX_RATING))

    _peak_at_least_rating = row_check(
        name="peak_rating is below the rating (the peak is the highest published rating)",
        reads=("peak_rating", "rating"), sql="{peak_rating} >= {rating}")

    class Config:
        strict = False
