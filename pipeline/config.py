"""Every path and default of the pipeline, in one place."""
from __future__ import annotations

import datetime as dt
import importlib.util
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def _package_data(package: str, checkout: Path) -> Path:
    """A folder shipped as a package of its own (a namespace package: no __init__.py):
    found by the import system in a wheel or an editable install; in a checkout imported from its own folder (which
    shadows the install), the top-level folder itself."""
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    return Path(next(iter(spec.submodule_search_locations))) if spec else checkout


# The SQL stages (sql/) and the embedded sample (data/sample/) stay at the top of the
# repository and ship in the wheel as pipeline.sql and pipeline.sample (pyproject.toml).
SQL_DIR = _package_data("pipeline.sql", PACKAGE_DIR.parent / "sql")
SAMPLE_DIR = _package_data("pipeline.sample", PACKAGE_DIR.parent / "data" / "sample")
# Defaults are in the working folder, never in the installed package's.
DEFAULT_WAREHOUSE = Path("data") / "warehouse.duckdb"
DEFAULT_OUT = Path("reports")
SETTINGS_FILE = "ratings.toml"  # in the working folder: warehouse = "...", out = "...", the pairing files' settings
SETTINGS = {"warehouse": ("RATINGS_WAREHOUSE", DEFAULT_WAREHOUSE), "out": ("RATINGS_OUT", DEFAULT_OUT)}
# The pairing programs' files (--format txt, swiss-manager): a federation's decisions, so
# ratings.toml alone gives them, never an environment variable a shell may carry along.
# federation: the Fed of players whose registry row has none. publish_birth_year: the birth
# year in FIDE's B-day column and Swiss-Manager's Birthday; off unless the federation decides
# to publish that private datum (FIDE's own TXT lists do); never in any other public file.
PAIRING_SETTINGS = ("federation", "publish_birth_year")
FEDERATION = re.compile(r"[A-Z]{3}")  # FIDE's codes: the TXT's Fed column holds three letters
# The site's (`ratings site --pending`): contact, whom a player writes to about a game
# received for the next list (the rating officer's address), shown on the pending pages.
SITE_SETTINGS = ("contact",)
CONTACT_LONGEST = 200  # characters: an address or a line saying how to write, never a letter


class SettingsError(ValueError):
    """A ratings.toml that does not read, or holds a key it should not."""


@dataclass(frozen=True)
class PairingSettings:
    """What the pairing programs' files carry besides the lists' public columns."""

    federation: str | None = None
    publish_birth_year: bool = False


def _settings_file() -> dict:
    """ratings.toml in the working folder, read and its keys checked ({} when there is none)."""
    path = Path(SETTINGS_FILE)
    if not path.is_file():
        if path.exists():  # a folder of that name: the settings the user meant to give would be ignored
            raise SettingsError(f"{path.resolve()} is not a file: the settings are a TOML file of that name "
                                "(warehouse = \"...\", out = \"...\"); rename or remove the folder")
        return {}
    try:
        values = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise SettingsError(f"{path.resolve()}: not a TOML file ({err})") from err
    unknown = sorted(set(values) - set(SETTINGS) - set(PAIRING_SETTINGS) - set(SITE_SETTINGS))
    if unknown:
        raise SettingsError(f"{path.resolve()}: {', '.join(unknown)}: not a setting (they are "
                            f"{', '.join([*SETTINGS, *PAIRING_SETTINGS, *SITE_SETTINGS])})")
    return values


def setting(name: str) -> Path:
    """The default of --warehouse or --out: the environment variable (RATINGS_WAREHOUSE,
    RATINGS_OUT), else ratings.toml in the working folder, else the built-in default;
    relative paths are taken from the working folder."""
    variable, default = SETTINGS[name]
    if os.environ.get(variable):
        return Path(os.environ[variable])
    values = _settings_file()
    value = values.get(name, default)
    if not isinstance(value, str | Path) or not str(value).strip():
        raise SettingsError(f"{Path(SETTINGS_FILE).resolve()}: {name} must be a path in quotes")
    return Path(value)


def site_contact() -> str | None:
    """ratings.toml's contact (None: not given): one line of text in quotes, at most
    CONTACT_LONGEST characters, its spaces at either end dropped."""
    value = _settings_file().get("contact")
    if value is None:
        return None
    where = Path(SETTINGS_FILE).resolve()
    if not isinstance(value, str) or not value.strip() or "\n" in value.strip() or len(value) > CONTACT_LONGEST:
        shown = repr(value) if not isinstance(value, str) or len(value) <= 60 else repr(value[:60] + "…")
        raise SettingsError(f"{where}: contact must be one line of text in quotes, at most {CONTACT_LONGEST} "
                            f"characters, saying whom to write to about a game received (contact = "
                            f"\"elo@federation.be\"), not {shown}")
    return value.strip()


def pairing_settings() -> PairingSettings:
    """ratings.toml's federation and publish_birth_year (none given: no federation, no
    birth year). Only true publishes the birth year: a value in quotes ("yes", "false")
    is refused, not read as a wish."""
    values = _settings_file()
    where = Path(SETTINGS_FILE).resolve()
    federation = values.get("federation")
    if federation is not None and not (isinstance(federation, str) and FEDERATION.fullmatch(federation)):
        raise SettingsError(f"{where}: federation must be a federation's three capital letters in quotes, "
                            f"as FIDE writes them (federation = \"BEL\"), not {federation!r}")
    birth_year = values.get("publish_birth_year", False)
    if not isinstance(birth_year, bool):
        raise SettingsError(f"{where}: publish_birth_year must be true or false, without quotes, "
                            f"not {birth_year!r}")
    return PairingSettings(federation, birth_year)


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
GO_MIN_RATING, GO_MAX_RATING = -2450, 1000  # ruling G6: Go points from the floor (25 kyu) to just above 9 dan


def today() -> dt.date:
    """Today, or the day set in RATINGS_TODAY (YYYY-MM-DD): games dated after it
    + 31 days are in the future, birth years after its year impossible. Tests and
    replays of a past season set it."""
    given = os.environ.get("RATINGS_TODAY")
    if not given:
        return dt.date.today()
    try:
        return dt.datetime.strptime(given.strip(), "%Y-%m-%d").date()
    except ValueError:
        raise SettingsError(f"RATINGS_TODAY={given!r}: not a date; give it as YYYY-MM-DD "
                            "(e.g. RATINGS_TODAY=2027-01-15), or unset it for today") from None
