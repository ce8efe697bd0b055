"""A corrected file given without --replaces, held (issue 50).

A game with the same day, players and event as a game of another file, and another
result (or colours, or handicap), is a correction candidate, with or without game_id
(sql/validate/corrections.sql, go_corrections.sql). A file holding one is not validated:
its submission is `held`, its rows stay staged in the warehouse, and nothing of it is
rated (rating reads only what validation stored), until the officer says what it is:
`ratings ingest FILE --replaces OLD` (a corrected version: the old file's games are
withdrawn, changes recorded), `ratings confirm SUBMISSION --reason TEXT` (other games:
each pair is recorded as both kept, in duplicate_decisions), or `ratings withdraw`. A
held file whose candidates are gone (the old file withdrawn) is validated by the next
run. Without the hold, the changed game was rated beside the original, and published.
"""
from __future__ import annotations

import datetime as dt

import duckdb

from pipeline.ingest.submissions import SubmissionError
from pipeline.validate.model_checks import schema_of
from pipeline.validate.staged import staged_rows
from pipeline.validate.typed import typed_rows_sql
from pipeline.warehouse import row, stage_sql, staged

# Each game kind's candidates, and its rows as the candidates read them (the values as they
# are stored: sql/clean/games.sql, go_games.sql).
CANDIDATES = {"games": "validate/corrections", "go_games": "validate/go_corrections"}
VALUES = {
    "games": ("date, white_id, black_id, replace(result, '½-½', '1/2-1/2') as result, game_id, event, round",
              "date is not null and white_id is not null and black_id is not null and result is not null"),
    "go_games": ("event_id, date, black_id, white_id, "
                 "case lower(winner) when 'b' then 'B' when 'w' then 'W' else 'jigo' end as winner, "
                 "coalesce(handicap, 0)::integer as handicap, round::integer as round",
                 "event_id is not null and date is not null and black_id is not null and white_id is not null "
                 "and winner is not null"),
}
STORED = {"games": "games", "go_games": "go_games"}  # where each kind's games in force are
SHOWN = 5  # candidate rows a message names
NO_CANDIDATES = ("select null::integer as submission_id, null::integer as file_id, null::bigint as row_number, "
                 "null::bigint as game_key, null::bigint as other_key, null::integer as other_submission, "
                 "null::varchar as other_name, null::bigint as other_row, null::varchar as game, "
                 "null::varchar as other_game, null::varchar as kind where false")
# What differs between a game and the one it looks like a correction of, by kind.
OTHERWISE = {"games": "another result or colours", "go_games": "another winner, colours or handicap"}


def create_candidates(con: duckdb.DuckDBPyConnection) -> None:
    """The temporary table `correction_candidates`: every candidate row of a file not
    validated yet and given without --replaces, each with a game it looks like a correction
    of (submission_id, file_id, row_number, game_key, other_key, other_submission,
    other_name, other_row, game, other_game: the two games in words, kind)."""
    setting = row(con, "select value from settings where key = 'game'")
    tables = []
    for kind, sql in CANDIDATES.items():
        parts = con.execute("""select f.file_id, f.submission_id, f.staged_in, s.replaces is null
                               from source_files f join submissions s using (submission_id)
                               where f.kind = ? and f.status = 'staged' and s.status in ('staged', 'held')
                               order by f.file_id""", [kind]).fetchall()
        stored = con.execute(f"select 1 from {STORED[kind]} limit 1").fetchall()
        if not any(judged for *_, judged in parts) or (not stored and len({p[1] for p in parts}) < 2):
            continue  # no file to judge, or nothing to judge it against (a first load)
        model = schema_of(kind, setting[0] if setting else None)
        values, present = VALUES[kind]
        rows = []
        for file_id, submission_id, staging, judged in parts:  # each file's rows where they are staged
            relation, _ = staged_rows(con, staging, kind, file_id)
            typed = typed_rows_sql(kind, model, f"select * from {relation} where file_id = {file_id} "
                                                "and problem is null")
            rows.append(f"select {submission_id} as submission_id, {judged} as judged, "
                        f"(file_id::bigint << 32) + row_number as game_key, file_id, row_number, {values} "
                        f"from ({typed}) where {present}")
        con.execute("create or replace temp view pending_rows as " + " union all ".join(rows))
        con.execute(f"create or replace temp table candidates_{kind} as select *, '{kind}' as kind "
                    f"from ({stage_sql(sql)})")
        con.execute("drop view pending_rows")
        tables.append(f"candidates_{kind}")
    con.execute("create or replace temp table correction_candidates as "
                + (" union all ".join(f"select * from {t}" for t in tables) or NO_CANDIDATES))
    for table in tables:
        con.execute(f"drop table {table}")


def hold_corrections(con: duckdb.DuckDBPyConnection) -> set[int]:
    """Hold each file not validated yet whose games look like corrections of another
    file's (its rows kept staged in the warehouse, a run's own parts too), release those
    held whose candidates are gone; returns the submissions held."""
    create_candidates(con)
    held = [s for (s,) in con.execute("select distinct submission_id from correction_candidates").fetchall()]
    con.execute("drop table correction_candidates")
    con.execute("update submissions set status = 'staged' where status = 'held' and not list_contains(?, submission_id)",
                [held])
    con.execute("update submissions set status = 'held' where list_contains(?, submission_id)", [held])
    for file_id, kind in con.execute("""select file_id, kind from source_files where list_contains(?, submission_id)
                                        and status = 'staged' and staged_in = 'temp' order by file_id""",
                                     [held]).fetchall():
        _staged_in_warehouse(con, file_id, kind)
    return set(held)


def _staged_in_warehouse(con: duckdb.DuckDBPyConnection, file_id: int, kind: str) -> None:
    """A run's part (staged in memory) moved to the warehouse's staging tables: held, it
    outlives the run, for a later validate."""
    relation, own = staged_rows(con, "temp", kind, file_id)
    con.execute(f"insert into {staged(con, 'main', kind)} by name select * from {relation} where file_id = {file_id}")
    if own:
        con.execute(f"drop table {own}")
        con.execute("delete from temp.part_tables where file_id = ?", [file_id])
    else:
        con.execute(f"delete from {staged(con, 'temp', kind)} where file_id = ?", [file_id])
    con.execute("update source_files set staged_in = 'main' where file_id = ?", [file_id])


def held_messages(con: duckdb.DuckDBPyConnection) -> list[str]:
    """One message for each held file: its rows that look like corrections and the games
    they look like corrections of, and the ways on."""
    held = con.execute("""select submission_id, name, path from submissions where status = 'held'
                          order by submission_id""").fetchall()
    if not held:
        return []
    create_candidates(con)
    said = []
    for submission_id, name, path in held:
        found = con.execute("""select row_number, game, other_submission, other_name, other_row, other_game, kind
                               from (select *, row_number() over (partition by file_id, row_number
                                                                   order by other_key) as k
                                     from correction_candidates where submission_id = ?)
                               where k = 1 order by file_id, row_number""", [submission_id]).fetchall()
        said.append(_held_message(submission_id, name, path, found))
    con.execute("drop table correction_candidates")
    return said


def _held_message(submission_id: int, name: str, path: str, found: list[tuple]) -> str:
    head = f"{name} (submission {submission_id}) is held: nothing of it is taken in or rated"
    if not found:
        return head + "; the games it looked like corrections of are gone: the next `ratings validate` takes it in."
    rows = "; ".join(f"row {r} ({game}) against submission {other} ({other_name}) row {other_row} ({other_game})"
                     for r, game, other, other_name, other_row, other_game, _ in found[:SHOWN])
    more = f"; and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    olds = sorted({(other, other_name) for _, _, other, other_name, _, _, _ in found})
    games = "1 of its games looks like a correction" if len(found) == 1 else \
        f"{len(found)} of its games look like corrections"
    return (f"{head}. {games} of " + ", ".join(f"submission {o} ({n})" for o, n in olds)
            + f", the same day, players and event with {OTHERWISE[found[0][-1]]}: {rows}{more}. "
            f"If it corrects submission {olds[0][0]}: `ratings ingest {path} --replaces {olds[0][0]}`; if those are "
            f"other games: `ratings confirm {submission_id} --reason TEXT`; then `ratings run`. Given by mistake: "
            f"`ratings withdraw {submission_id} --reason TEXT`.")


def confirm(con: duckdb.DuckDBPyConnection, submission_id: int, by: str, reason: str, run_id: int) -> int:
    """A held file's games are other games than those they look like corrections of: each
    pair recorded as both kept (duplicate_decisions: who, when, why), the file staged again
    for the next validation; returns its games so confirmed."""
    name, status = row(con, "select name, status from submissions where submission_id = ?", [submission_id])
    if status != "held":
        raise SubmissionError(f"submission {submission_id} ({name}) is {status}, not held: nothing to confirm "
                              "(a file is held by `validate` or `run` when its games look like corrections)")
    create_candidates(con)
    con.execute("""insert into duplicate_decisions
                   select distinct other_key, game_key, 'kept', ?::timestamp, ?, ?, ? from correction_candidates
                   where submission_id = ?""", [dt.datetime.now(), by, reason, run_id, submission_id])
    games = row(con, "select count(distinct game_key) from correction_candidates where submission_id = ?",
                [submission_id])[0]
    con.execute("drop table correction_candidates")
    con.execute("update submissions set status = 'staged' where submission_id = ?", [submission_id])
    return games
