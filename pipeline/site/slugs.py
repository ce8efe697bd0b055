"""File names for what the site names by text (clubs, events): ASCII letters, digits
and '-', accents dropped."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable


def slug(name: str, fallback: str = "x") -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or fallback


def club_slug(name: str) -> str:
    return slug(name, "club")


def event_slug(name: str) -> str:
    """An event's file name: its name's slug cut to 40 characters (two names that give
    one are told apart by unique_slugs)."""
    return slug(name, "event")[:40].rstrip("-") or "event"


def unique_slugs(names: Iterable[str], make: Callable[[str], str]) -> dict[str, str]:
    """name -> file name, two names that give one file name told apart by -2, -3 ... in
    the names' sorted order, so that a name keeps its file from one run to the next."""
    slugs: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(names):
        base = s = make(name)
        n = 1
        while s in taken:
            n += 1
            s = f"{base}-{n}"
        slugs[name] = s
        taken.add(s)
    return slugs
