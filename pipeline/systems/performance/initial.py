"""The national Elo's own columns of the initial ratings file (RuleSet.initial_columns):
an unrated player's archives, Pa and Na (R6, R7), and its rules about the row: the
archives go together, only an unrated player has them, and a row gives a rating or
archives. Declared as SQL (pipeline.ruleset.checks.check, row_check), so that
validation runs them compiled (pipeline/validate/checks.json) without loading Pandera."""
from __future__ import annotations

import pandera.pandas as pa

from pipeline.config import MAX_RATING, MIN_RATING
from pipeline.ruleset.checks import NUMBER, between, check, parsed, row_check, whole
from pipeline.ruleset.initial import Int, Number

ARCHIVE_PERFORMANCE = f"absurd archived performance (not a number from {MIN_RATING} to {MAX_RATING})"
ARCHIVE_GAMES = "archived games must be a whole number from 1 to 7"


class PerformanceInitialColumns(pa.DataFrameModel):
    """Pa and Na of a still-unrated player; the row checks read the shared `rating` too."""

    archive_performance: Number = pa.Field(nullable=True, metadata=parsed(NUMBER, ARCHIVE_PERFORMANCE))
    # ruling R6: archives are kept while fewer than 8 games are rated, so at most 7
    archive_games: Int = pa.Field(nullable=True, metadata=parsed(whole("[1-7]"), ARCHIVE_GAMES))

    _archive_performance = check("archive_performance", name=ARCHIVE_PERFORMANCE,
                                 sql=between(MIN_RATING, MAX_RATING))

    _archives_paired = row_check(name="archive_performance and archive_games go together",
                                 reads=("archive_performance", "archive_games"),
                                 sql="({archive_performance} is null) = ({archive_games} is null)")
    _archives_unrated = row_check(name="a rated player has no archives (seed: Pa/Na only for unrated players)",
                                  reads=("rating", "archive_games"), sql="{rating} is null or {archive_games} is null")
    # A row the national Elo could start nobody from: judged where its lists are rated, not
    # where another rule set's are (FIDE's unrated player with games to date has neither).
    _something = row_check(name="neither a rating nor archives", reads=("rating", "archive_games"),
                           sql="{rating} is not null or {archive_games} is not null")

    class Config:
        strict = False
