"""The columns of each input kind (required first, then optional) and the form of an
event id: what ingest needs to stage a file, without validation's libraries
(Pandera and pandas load in 0.8 s; `ratings ingest` and the reading commands need neither)."""
from __future__ import annotations

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
    "ratings": ("archive_performance", "archive_games", "games_total", "peak_rating"),
    "calendar": (),
    "games": ("game_id", "event", "round"),
    "events": ("class", "board_size", "rated_in", "games_scheduled"),
    "go_games": ("handicap", "weight", "round"),
}


def columns(kind: str) -> tuple[str, ...]:
    return REQUIRED[kind] + OPTIONAL[kind]


EVENT_ID = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"  # it names a file
