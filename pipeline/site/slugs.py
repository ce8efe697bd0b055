"""File names for what the site names by text (clubs, events): the name's slug (ASCII
letters, digits and '-', accents dropped) and a short hash of the name itself.

A name's file is a function of that name alone: adding, renaming or removing another
club never moves a club's page (nor its links and bookmarks). Two names of one slug
("Club A", "CLUB A") differ in their hash; 40 bits of it make two such names with
one file name a chance in a trillion."""
from __future__ import annotations

import hashlib
import re
import unicodedata

LONGEST = 40  # characters of the slug kept before the hash


def slug(name: str, fallback: str = "x") -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or fallback


def _file_name(name: str, fallback: str) -> str:
    """The name's slug, cut to LONGEST characters, and the hash of the name's own text."""
    readable = slug(name, fallback)[:LONGEST].rstrip("-") or fallback
    return f"{readable}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:10]}"


def club_slug(name: str) -> str:
    """A club's file name (clubs/<slug>.html) and its id in the JSON API."""
    return _file_name(name, "club")


def event_slug(name: str) -> str:
    """An event's file name (events/<slug>.html) and its id in the JSON API."""
    return _file_name(name, "event")
