"""The shared tables a rule set extends with tables of its own columns (RuleSet.extensions),
their keys, and the SQL that joins its own columns back to them."""
from __future__ import annotations

# The keys of the shared tables: a rule set's own table of its columns of one is keyed the same.
SHARED_KEYS: dict[str, tuple[str, ...]] = {"player_state": ("series", "list_id", "player_id"),
                                           "calculations": ("series", "list_id", "player_id"),
                                           "lists": ("series", "list_id")}


def joined(shared: str, own: str | None, keys_of: str | None = None) -> str:
    """SQL of a relation `shared` with the columns of `own` (a rule set's table of its columns
    of it) joined on the keys of the shared table `keys_of` (default: `shared`)."""
    if own is None:
        return shared
    return f"(select * from {shared} left join {own} using ({', '.join(SHARED_KEYS[keys_of or shared])}))"
