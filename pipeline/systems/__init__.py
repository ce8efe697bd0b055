"""The rule sets: the performance Elo (the default), the FIDE Elo, and the two Go ratings.

A warehouse holds the lists of one rule set: it is recorded at the first
rating, and asking a warehouse for the other one is refused with a message.
"""
from __future__ import annotations

import duckdb

GO_SYSTEMS = ("go-belgium", "go-ffg1984")
SYSTEMS = ("performance", "fide", *GO_SYSTEMS)
DEFAULT_SYSTEM = "performance"


class SystemMismatch(ValueError):
    """The warehouse's lists were computed with another rule set."""


def stored_system(con: duckdb.DuckDBPyConnection) -> str | None:
    rows = con.execute("select value from settings where key = 'system'").fetchall()
    return rows[0][0] if rows else None


def warehouse_system(con: duckdb.DuckDBPyConnection, requested: str | None) -> str:
    """The rule set to use: the warehouse's, which `requested` must match if given;
    for a warehouse that has none yet, `requested` or the default."""
    stored = stored_system(con)
    if stored is not None and requested is not None and requested != stored:
        raise SystemMismatch(f"this warehouse holds {stored} lists; the {requested} lists need a warehouse "
                             f"of their own (give another --warehouse)")
    return stored or requested or DEFAULT_SYSTEM


def record_system(con: duckdb.DuckDBPyConnection, system: str) -> None:
    con.execute("insert or ignore into settings values ('system', ?)", [system])
