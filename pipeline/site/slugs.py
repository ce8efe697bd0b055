"""File names for what the site names by text (clubs, events): ASCII letters, digits
and '-', accents dropped."""
from __future__ import annotations

import re
import unicodedata


def slug(name: str, fallback: str = "x") -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or fallback


def event_slug(name: str) -> str:
    """An event's file name: its name's slug cut to 40 characters (two names that give
    one are told apart by the caller, in a stable order)."""
    return slug(name, "event")[:40].rstrip("-") or "event"
