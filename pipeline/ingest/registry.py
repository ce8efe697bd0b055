"""A registry file as an update of the registry in force: each of its rows becomes its
player's new version whole (sql/clean/players.sql), so a column the file lacks is
emptied for every player it lists. A file lacking columns the registry holds for those
players is refused, naming them, unless the officer says they are to be emptied
(--blank-missing): a registry once updated keeps the blanks in every later list (a
player without birth year is no junior, ruling R2), and a validated registry file is
never withdrawn.
"""
from __future__ import annotations

from pathlib import Path

import duckdb

from pipeline.input_layout import OPTIONAL
from pipeline.warehouse import sql_name, sql_text


def blanked_columns(con: duckdb.DuckDBPyConnection, source: str, found: list[str]) -> list[tuple[str, int]]:
    """(column, players) for each column of the registry in force that the file (`source`:
    its staged rows as text, `found`: its columns) lacks and that holds a value for some of
    the players it lists: how many of them would lose it. Extra columns are keyed as
    ingest keys them (lower case)."""
    by_name = {n.strip().lower().lstrip("\ufeff"): n for n in found}
    if "player_id" not in by_name:
        return []
    own = [c for c in OPTIONAL["players"] if c not in by_name]
    held = [f"select {sql_text(c)} as col, count(*) filter (where {sql_name(c)} is not null) as players "
            f"from listed" for c in own]
    held.append("select key, count(distinct player_id) from listed, json_each(extra) "
                "where nullif(trim(value->>'$'), '') is not null group by key")
    return con.execute(f"""
        with listed as (
            select * from players
            where player_id in (select try_cast(trim({sql_name(by_name['player_id'])}) as bigint) from ({source}))
        ),
        held as ({' union all '.join(held)})
        select col, players::bigint from held
        where players > 0 and not list_contains(?::varchar[], col)
        order by players desc, col""", [list(by_name)]).fetchall()


def blanking_refusal(path: Path, blanked: list[tuple[str, int]]) -> str:
    """The one message refusing a registry file that would blank `blanked`."""
    what = ", ".join(f"{column} ({players:,} of them)" for column, players in blanked)
    return (f"{path}: as a registry update it would blank {what} for the players it lists: the registry holds "
            f"{'this column' if len(blanked) == 1 else 'these columns'} and the file has no such column, and each "
            "row replaces its player's entry whole; nothing of it is taken in. Give the complete registry file "
            "(every column the registry holds), or --blank-missing if they are to be emptied")
