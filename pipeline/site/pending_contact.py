"""Whom a player writes to about a game received for the next list (ratings.toml's
`contact`, pipeline.config.site_contact), as the pending pages show it: an e-mail
address as a link that opens a message to it, any other text as it is."""
from __future__ import annotations

import re

# An address alone (no space, one @, a dot in the domain): what a mailto: link may hold.
EMAIL = re.compile(r"[^@\s<>\"]+@[^@\s<>\"]+\.[^@\s<>\"]+")


def pending_contact(contact: str | None) -> dict:
    """The pending pages' values: `contact` (None: not given) and `contact_mail` (whether
    it is an e-mail address, then linked)."""
    return {"contact": contact, "contact_mail": bool(contact and EMAIL.fullmatch(contact))}
