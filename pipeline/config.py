"""Every path and default of the pipeline, in one place."""
from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent
SQL_DIR = PROJECT_DIR / "sql"
TABLES_DIR = PACKAGE_DIR / "tables"
DATA_DIR = PROJECT_DIR / "data"
SAMPLE_DIR = DATA_DIR / "sample"
DEFAULT_WAREHOUSE = DATA_DIR / "warehouse.duckdb"
DEFAULT_OUT = PROJECT_DIR / "reports"

SAMPLE_FILES = {
    "players": SAMPLE_DIR / "players.csv",
    "ratings": SAMPLE_DIR / "ratings.csv",
    "games": SAMPLE_DIR / "games.csv",
}

# Input kinds in the order they must be validated: games are checked against
# the registry and the calendar, so those come first.
KINDS = ("players", "ratings", "calendar", "games", "events", "go_games")  # Go: events before their games

# Plausibility bounds for validation (issue 2: "impossible birth years,
# negative or absurd ratings").
MIN_BIRTH_YEAR = 1900
MIN_RATING = 1
MAX_RATING = 3000


def today() -> dt.date:
    """Today, or the day set in RATINGS_TODAY (YYYY-MM-DD): games dated after it
    + 31 days are in the future, birth years after its year impossible. Tests and
    replays of a past season set it."""
    given = os.environ.get("RATINGS_TODAY")
    return dt.date.fromisoformat(given) if given else dt.date.today()
