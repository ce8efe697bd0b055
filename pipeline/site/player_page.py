"""What a player page holds in its HTML besides its facts: the history (every list,
newest first) and the events, read from the player's own JSON file
(api/v1/players/<id>.json, sql/site/player_api.sql), so that the page and the API say
the same by construction and a reader without JavaScript (or whose browser cannot
fetch the JSON) sees them. Read in the worker that writes the page: the parent holds
the JSON text once, never a second copy as rows."""
from __future__ import annotations

import json


def player_api_path(player_id: int) -> str:
    """The player's JSON file, under api/v1/."""
    return f"players/{int(player_id)}.json"


def player_tables(api_text: str) -> dict:
    """The page's `history` and `events` (lists of dicts, as their JSON columns name
    them) and the lists marked corrected or revised (`marked`: list_id -> "correction"
    or "revision", a correction first, as the chart's marks say)."""
    data = json.loads(api_text)
    history = [dict(zip(data["history"]["columns"], row)) for row in data["history"]["rows"]]
    events = [dict(zip(data["events"]["columns"], row)) for row in data["events"]["rows"]]
    marked = {r["list_id"]: "revision" for r in data["revisions"]}
    marked |= {c["list_id"]: "correction" for c in data["corrections"]}
    return {"history": history, "events": events, "marked": marked}
