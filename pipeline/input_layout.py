"""The columns of each input kind (required first, then optional) and the form of an
event id: what ingest needs to stage a file, without validation's libraries
(Pandera and pandas take long to load; `ratings ingest` and the reading commands need neither)."""
from __future__ import annotations

import difflib

# Input columns per kind: required first, then optional ones.
REQUIRED = {
    "players": ("player_id", "name"),
    "ratings": ("player_id", "rating"),
    "calendar": ("list_id", "window_start", "window_end"),
    "games": ("date", "white_id", "black_id", "result"),
    "events": ("event_id", "name", "start_date", "end_date"),
    "go_games": ("event_id", "date", "black_id", "white_id", "winner"),
}
OPTIONAL = {
    "players": ("birth_year", "club", "estimated_rating", "grade"),
    "ratings": (),  # the rule sets' own columns are kept in `extra` (RuleSet.initial_columns)
    "calendar": (),
    "games": ("game_id", "event", "round"),
    "events": ("class", "board_size", "rated_in", "games_scheduled"),
    "go_games": ("handicap", "weight", "round"),
}


# The kinds whose other columns are kept, as the file gave them, in `extra` (JSON): the
# registry's (federation, title, sex, ...) and the initial ratings' (the rule sets' own
# starting state: RuleSet.initial_columns).
WITH_EXTRA = ("players", "ratings")


def columns(kind: str) -> tuple[str, ...]:
    return REQUIRED[kind] + OPTIONAL[kind]


EVENT_ID = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"  # it names a file


def layout_refusal(kind: str, found: list[str]) -> str | None:
    """Why a table given as `kind` cannot be taken in as one, in words (None: it can): the
    required columns it lacks, what it has, the closest of its columns to each missing one,
    and the kind its columns are instead. A table in the wrong layout is refused whole:
    staged, it would be rejected row by row, and every row of the files that follow it
    with it (a registry without names rejects every rating and game of its players)."""
    names = [n.strip().lower().lstrip("\ufeff") for n in found]
    missing = [c for c in REQUIRED[kind] if c not in names]
    if not missing:
        return None
    known = {c for k in REQUIRED for c in columns(k)}  # another kind's column is no misspelling of this one's
    strays = [n for n in names if n not in known]
    closest = [f"{match[0]} → {c}" for c in missing if (match := difflib.get_close_matches(c, strays, n=1, cutoff=0.5))]
    other = next((k for k in REQUIRED if k != kind and set(REQUIRED[k]) <= set(names)), None)
    return (f"given as a {kind} file, it lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
            f"it has {', '.join(names) if names else 'no column'}"
            + (f" (closest: {', '.join(closest)})" if closest else "")
            + (f"; its columns are those of a {other} file: give it as --{KIND_OPTION[other]}" if other else ""))


KIND_OPTION = {"players": "players", "ratings": "ratings", "calendar": "calendar", "games": "games",
               "events": "events", "go_games": "games"}
