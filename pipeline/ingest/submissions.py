"""Submissions: every input file a user gives, with its id, name, sha256, who took
it in and when, and what became of it (staged, taken in, replaced, withdrawn).

A submission's rows are staged in parts (source_files), one per kind. A later
file may replace it (`ratings ingest NEW --replaces OLD`): the old file's games
are withdrawn, the new file's taken in, and each game matched across the two
versions is recorded as added, changed (from what to what) or withdrawn
(game_changes). Withdrawn rows stay in the warehouse (withdrawn_rows), never rated.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.warehouse import row, scalar, stage_sql, staged

# Submissions whose rows are games: only these can be replaced or withdrawn (a registry,
# initial ratings or a calendar are referred to by the rest of the warehouse).
GAME_FORMATS = {"games": "chess", "trf": "chess", "swar": "chess", "go_games": "go", "opengotha": "go", "egd": "go",
                "ffg": "go", "aga": "go", "pairgoth": "go"}
TOURNAMENT_FORMATS = ("trf", "swar", "opengotha", "egd", "ffg", "aga", "pairgoth")
ACTIVE = ("staged", "taken in")
# Not validated yet: staged, or held (pipeline/validate/holds.py). Withdrawn, any kind is cancelled.
PENDING = ("staged", "held")
# Parts whose rows are withdrawn with their submission (a tournament file's new
# players stay registered); the table each part's rows are stored in.
WITHDRAWN_KINDS = {"games": "games", "go_games": "go_games", "events": "events"}


class SubmissionError(ValueError):
    """A submission that cannot be found, replaced, withdrawn or taken in again; the message says why."""


@dataclass(frozen=True)
class Existing:
    """An earlier submission with the same content."""

    submission_id: int
    name: str
    status: str
    withdrawn_reason: str | None


def same_content(con: duckdb.DuckDBPyConnection, sha: str) -> Existing | None:
    """The latest submission whose file had these bytes."""
    found = row(con, """select submission_id, name, status, withdrawn_reason from submissions
                        where sha256 = ? order by submission_id desc limit 1""", [sha])
    return Existing(*found) if found else None


def refused_again(existing: Existing, path: Path) -> str:
    """Why the content of a replaced or withdrawn submission is not taken in silently."""
    what = (f"was withdrawn ({existing.withdrawn_reason})" if existing.status == "withdrawn"
            else f"was replaced ({existing.withdrawn_reason})")
    return (f"{path}: this content is submission {existing.submission_id} ({existing.name}), which {what}; "
            "to take it in again as a new submission, give --again (or --replaces the file now in force)")


def resolve(con: duckdb.DuckDBPyConnection, ref: str) -> int:
    """A submission named by its id, or by the name (or path) of the file it was
    ingested under; a name shared by several files in force is refused."""
    ref = str(ref).strip()
    if ref.isdigit():
        if row(con, "select 1 from submissions where submission_id = ?", [int(ref)]) is None:
            raise SubmissionError(f"no submission {ref} (`ratings submissions` lists them)")
        return int(ref)
    name = Path(ref).name
    found = con.execute("""select submission_id, status from submissions
                           where name = ? or path = ? order by submission_id""",
                        [name, str(Path(ref).resolve())]).fetchall()
    active = [s for s, status in found if status in (*ACTIVE, "held")]
    if len(active) == 1:
        return active[0]
    if len(active) > 1:
        raise SubmissionError(f"{len(active)} submissions in force are named {name!r} "
                              f"({', '.join(map(str, active))}): give the submission id")
    if found:
        return found[-1][0]  # only inactive ones: the latest, whose status the caller reports
    raise SubmissionError(f"no submission named {name!r} (`ratings submissions` lists them)")


def name_of(con: duckdb.DuckDBPyConnection, submission_id: int) -> str:
    """The name of the file a submission was ingested under."""
    return scalar(con, "select name from submissions where submission_id = ?", [submission_id])


def any_submission(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the warehouse holds a submission (an empty one: `ratings run` offers the sample)."""
    return bool(con.execute("select 1 from submissions limit 1").fetchall())


def staged_parts(con: duckdb.DuckDBPyConnection) -> int:
    """The parts of files staged and not yet validated, held files aside (they are said
    apart): rating does not read them."""
    return scalar(con, """select count(*) from source_files f join submissions s using (submission_id)
                          where f.status = 'staged' and s.status <> 'held'""")


def check_replaceable(con: duckdb.DuckDBPyConnection, old: int, new_format: str | None = None) -> None:
    """Only a submission in force whose rows are games can be replaced or withdrawn,
    and by a file of the same game (chess or Go)."""
    name, fmt, status, by = row(con, """select s.name, s.format, s.status,
                                               (select min(n.submission_id) from submissions n where n.replaces = s.submission_id)
                                        from submissions s where submission_id = ?""", [old])
    if status == "replaced":
        raise SubmissionError(f"submission {old} ({name}) was already replaced by submission {by}: "
                              f"name that one instead")
    if status == "withdrawn":
        raise SubmissionError(f"submission {old} ({name}) was already withdrawn")
    if status == "held":
        raise SubmissionError(f"submission {old} ({name}) is held, not taken in (its games look like corrections of "
                              f"another file's): say what it is first (`ratings validate` says how), or "
                              f"`ratings withdraw {old}`")
    # A second replacement staged beside the first would take both in, each "replacing" the
    # same file, and the second's rows be called duplicates of the first's.
    pending = con.execute("""select submission_id, name from submissions where replaces = ? and status = 'staged'
                             order by submission_id limit 1""", [old]).fetchone()
    if pending is not None:
        raise SubmissionError(f"submission {old} ({name}) is already to be replaced by submission {pending[0]} "
                              f"({pending[1]}), still staged: `ratings validate` takes it in (then name that one), "
                              f"or `ratings withdraw {pending[0]}` cancels it")
    if fmt not in GAME_FORMATS:
        raise SubmissionError(
            f"submission {old} ({name}) is a {fmt} file, taken in: only game files are replaced or withdrawn once "
            "validated (a registry file is corrected by ingesting the corrected registry: each row updates its "
            "player, and the registry keeps every version; any file is withdrawn before `ratings validate` takes "
            "it in)")
    if new_format is not None and new_format in GAME_FORMATS and GAME_FORMATS[new_format] != GAME_FORMATS[fmt]:
        raise SubmissionError(f"submission {old} ({name}) holds {GAME_FORMATS[fmt]} games, the new file "
                              f"{GAME_FORMATS[new_format]} games: one cannot replace the other")


def open_submission(con: duckdb.DuckDBPyConnection, path: Path, sha: str, fmt: str, by: str, run_id: int,
                    replaces: int | None = None) -> int:
    """A new submission, staged."""
    submission_id = scalar(con, "select nextval('submission_ids')")
    con.execute("""insert into submissions (submission_id, name, path, sha256, format, submitted_by, submitted_at,
                                            run_id, status, replaces)
                   values (?, ?, ?, ?, ?, ?, ?, ?, 'staged', ?)""",
                [submission_id, Path(path).name, str(Path(path).resolve()), sha, fmt, by, dt.datetime.now(), run_id,
                 replaces])
    return submission_id


def take_as_replacement(con: duckdb.DuckDBPyConnection, held: int, old: int) -> None:
    """A held file named a corrected version of `old` (`ingest FILE --replaces OLD`, FILE
    its content): staged again, replacing it at the next validation."""
    con.execute("update submissions set replaces = ?, status = 'staged' where submission_id = ?", [old, held])


def set_format(con: duckdb.DuckDBPyConnection, submission_id: int, fmt: str) -> None:
    """A tournament file's format once read (FIDE TRF or SWAR)."""
    con.execute("update submissions set format = ? where submission_id = ?", [fmt, submission_id])


def parts(con: duckdb.DuckDBPyConnection, submission_id: int) -> dict[str, int]:
    """The submission's first part of each kind: kind → file_id."""
    return dict(con.execute("""select kind, min(file_id) from source_files where submission_id = ?
                               group by kind""", [submission_id]).fetchall())


def pending(con: duckdb.DuckDBPyConnection, submission_id: int) -> bool:
    """Whether a submission is not validated yet (staged or held): withdrawn, it is cancelled."""
    return scalar(con, "select status from submissions where submission_id = ?", [submission_id]) in PENDING


def cancel(con: duckdb.DuckDBPyConnection, submission_id: int, run_id: int, by: str, reason: str) -> int:
    """Withdraw a submission not validated yet, of any kind (a registry, initial ratings, a
    calendar, games): each staged row goes to withdrawn_rows as it was read, none is taken
    in, and its parts are marked withdrawn; returns the rows withdrawn. A registry staged by
    mistake (a published list) never reaches the registry."""
    why = f"withdrawn before validation: {reason}"
    rows = 0
    for file_id, kind in con.execute("""select file_id, kind from source_files where submission_id = ?
                                        and status = 'staged' order by file_id""", [submission_id]).fetchall():
        table = staged(con, "main", kind)  # a run's own parts never outlive it unvalidated
        con.execute(f"""insert into withdrawn_rows select file_id, row_number, ?, to_json(t), ?, null, ?
                        from {table} t where file_id = ?""", [kind, run_id, why, file_id])
        rows += con.execute(f"delete from {table} where file_id = ?", [file_id]).fetchall()[0][0]
    con.execute("""update source_files set status = 'withdrawn', rows_accepted = 0, rows_rejected = 0
                   where submission_id = ? and status = 'staged'""", [submission_id])
    con.execute("""update submissions set status = 'withdrawn', withdrawn_at = ?, withdrawn_by = ?,
                                          withdrawn_reason = ?, withdrawn_run = ? where submission_id = ?""",
                [dt.datetime.now(), by, why, run_id, submission_id])
    return rows


def withdraw(con: duckdb.DuckDBPyConnection, submission_id: int, run_id: int, by: str, reason: str,
             replaced_by: int | None = None) -> int:
    """Withdraw a submission's games (and a Go file's event) from the warehouse into
    withdrawn_rows, its byes and open rejects with them; returns the rows withdrawn.
    Its staged parts must have been validated first."""
    status = "replaced" if replaced_by is not None else "withdrawn"
    why = (f"replaced by submission {replaced_by} ({scalar(con, 'select name from submissions where submission_id = ?', [replaced_by])})"
           if replaced_by is not None else f"withdrawn: {reason}")
    withdrawn = 0
    # The rows other files took in as fixes of its rejected rows go with it (sql/replace/fixes_of.sql).
    con.execute("set variable fixes_of = ?", [submission_id])
    con.execute(f"create or replace temp table fixes as {stage_sql('replace/fixes_of')}")
    for kind, table in WITHDRAWN_KINDS.items():
        files = f"(select file_id from source_files where submission_id = {int(submission_id)} and kind = '{kind}')"
        fixes = "(select file_id, row_number from fixes where what = 'stored')"
        con.execute(f"""insert into withdrawn_rows
                        select file_id, row_number, '{kind}', to_json(t), ?, ?, ? from {table} t
                        where file_id in {files}""", [run_id, replaced_by, why])
        con.execute(f"""insert into withdrawn_rows
                        select file_id, row_number, '{kind}', to_json(t), ?, ?, ? from {table} t
                        where (file_id, row_number) in {fixes}""",
                    [run_id, replaced_by, f"{why}: the fix of one of its rejected rows"])
        withdrawn += con.execute(f"delete from {table} where file_id in {files} or (file_id, row_number) in {fixes}"
                                 ).fetchall()[0][0]
    con.execute("""update rejects set status = 'withdrawn', resolved_run = ? where status in ('open', 'closed')
                   and (file_id, row_number) in (select file_id, row_number from fixes where what = 'reject')""",
                [run_id])
    con.execute("drop table fixes")
    con.execute("""update byes set withdrawn_run = ? where withdrawn_run is null and file_id in
                   (select file_id from source_files where submission_id = ?)""", [run_id, submission_id])
    # A closed reject goes with its file too: reopened, it would be open on a file no longer in force.
    con.execute("""update rejects set status = 'withdrawn', resolved_run = ? where status in ('open', 'closed')
                   and file_id in (select file_id from source_files where submission_id = ?)""",
                [run_id, submission_id])
    con.execute("""update submissions set status = ?, withdrawn_at = ?, withdrawn_by = ?, withdrawn_reason = ?,
                                          withdrawn_run = ? where submission_id = ?""",
                [status, dt.datetime.now(), by, why if replaced_by is not None else reason, run_id, submission_id])
    if replaced_by is None:
        _record_changes(con, run_id, submission_id, None)
    return withdrawn


def duplicates_left(con: duckdb.DuckDBPyConnection, submission_id: int) -> str | None:
    """In words, the games of other files withdrawn as duplicates of a game of `submission_id`
    (None: none): withdrawing it whole leaves no copy of them rated, and nothing says so
    else. Read before the withdrawal."""
    found = con.execute("""
        select o.submission_id, o.name, w.row_number, w.record->>'date', w.record->>'white_id',
               w.record->>'black_id', w.record->>'result', d.other_key & 4294967295
        from duplicate_decisions d
        join source_files f on f.file_id = (d.other_key >> 32) and f.submission_id = ?
        join withdrawn_rows w on w.file_id = (d.game_key >> 32) and w.row_number = (d.game_key & 4294967295)
        join source_files wf on wf.file_id = w.file_id
        join submissions o on o.submission_id = wf.submission_id and o.status in ('staged', 'taken in')
        where d.decision = 'withdrawn' and o.submission_id <> ?
        order by o.submission_id, w.row_number""", [submission_id, submission_id]).fetchall()
    if not found:
        return None
    lost = "; ".join(f"submission {sub} ({name}), row {r}: {date} {white}-{black} {result} (a copy of row {here})"
                     for sub, name, r, date, white, black, result, here in found)
    return (f"Withdrawn as duplicates of its games, these stay withdrawn and no copy of them is rated now: {lost}; "
            "a game that was played is taken in again in a file of its own.")


def replacement_left(con: duckdb.DuckDBPyConnection, submission_id: int) -> str | None:
    """What withdrawing `submission_id` leaves of the submission it was to replace, in words
    (None: it replaces nothing). A replacement still staged has not withdrawn the old file
    yet: withdrawing it cancels the replacement and the old file stays in force."""
    found = row(con, """select s.status, o.submission_id, o.name, o.status from submissions s
                        join submissions o on o.submission_id = s.replaces where s.submission_id = ?""",
                [submission_id])
    if found is None:
        return None
    status, old, name, old_status = found
    if status == "staged" and old_status in ACTIVE:
        return (f"It was to replace submission {old} ({name}): the replacement is cancelled, "
                f"and submission {old} stays in force.")
    return (f"It had replaced submission {old} ({name}), whose games stay withdrawn: to take that file in "
            f"again, `ratings ingest {name} --again`.")


def record_replacement(con: duckdb.DuckDBPyConnection, run_id: int, new: int, old: int) -> dict[str, int]:
    """What replacing `old` by `new` did to each game (once both are settled); counts by change."""
    return _record_changes(con, run_id, new, old)


def _record_changes(con: duckdb.DuckDBPyConnection, run_id: int, submission_id: int,
                    replaced: int | None) -> dict[str, int]:
    """game_changes rows: the games withdrawn from `replaced` (or from `submission_id`
    itself when it is withdrawn) matched with the games `submission_id` brought."""
    fmt = scalar(con, "select format from submissions where submission_id = ?", [submission_id])
    go = GAME_FORMATS[fmt] == "go"
    old = submission_id if replaced is None else replaced
    old_fmt = scalar(con, "select format from submissions where submission_id = ?", [old])
    con.execute("set variable fixes_of = ?", [old])
    con.execute(f"create or replace temp view old_games as {_identities(go, old_fmt, withdrawn_of=old, run_id=run_id)}")
    con.execute(f"create or replace temp view new_games as "
                f"{_identities(go, fmt, stored_of=submission_id if replaced is not None else None)}")
    con.execute(f"""insert into game_changes
                    select ?, ?, ?, change, old_file, old_row, new_file, new_row, date, first_id, second_id,
                           old_result, new_result, description
                    from ({stage_sql('replace/game_changes')})""", [run_id, submission_id, replaced])
    con.execute("drop view old_games")
    con.execute("drop view new_games")
    return dict(con.execute("select change, count(*) from game_changes where run_id = ? and submission_id = ? "
                            "group by change", [run_id, submission_id]).fetchall())


def _identities(go: bool, fmt: str, withdrawn_of: int | None = None, stored_of: int | None = None,
                run_id: int | None = None) -> str:
    """A submission's games with the identity that finds the same game in another
    version of the file: event, round and players for tournament files; for plain
    tables game_id when given, else date and players (colours aside, so that a
    colour corrected is a change). Withdrawn games come from their records."""
    kind = "go_games" if go else "games"
    if withdrawn_of is not None:
        fields = {c: f"(record->>'{c}')" for c in ("date", "white_id", "black_id", "result", "game_id", "event",
                                                  "round", "event_id", "winner", "handicap")}
        # Only this run's: a game withdrawn before as a duplicate is no change of this one. The
        # fixes of its rejected rows (getvariable('fixes_of'): _record_changes) were its games too.
        source = (f"from withdrawn_rows where kind = '{kind}' and run_id = {int(run_id)} and (file_id in "
                  f"(select file_id from source_files where submission_id = {int(withdrawn_of)}) or "
                  f"(file_id, row_number) in (select file_id, row_number from ({stage_sql('replace/fixes_of')}) "
                  "where what = 'stored'))")
    else:
        fields = {c: f"({c}::varchar)" for c in ("date", "white_id", "black_id", "result", "game_id", "event",
                                                "round", "event_id", "winner", "handicap")}
        source = (f"from {kind} where file_id in (select file_id from source_files where submission_id = "
                  f"{int(stored_of) if stored_of is not None else -1})")
    if go:  # Go games: Black first, the winner as result, the handicap beside it
        first, second, result = fields["black_id"], fields["white_id"], fields["winner"]
        detail = f"'handicap ' || {fields['handicap']}"
        place = f"{fields['event_id']} || '|' || coalesce({fields['round']}, {fields['date']})"
    else:
        first, second, result = fields["white_id"], fields["black_id"], fields["result"]
        detail = "null::varchar"
        place = (f"coalesce({fields['event']}, '') || '|' || coalesce({fields['round']}, '')"
                 if fmt in TOURNAMENT_FORMATS else
                 f"coalesce('id ' || {fields['game_id']}, {fields['date']})")
    players = (f"least({first}::bigint, {second}::bigint) || '-' || greatest({first}::bigint, {second}::bigint)")
    return f"""select file_id, row_number, {place} || '|' || {players} as identity,
                      ({fields['date']})::date as date, ({first})::bigint as first_id, ({second})::bigint as second_id,
                      {result} as result, {detail} as detail {source}"""


def settle(con: duckdb.DuckDBPyConnection) -> None:
    """Staged submissions whose parts are all validated are taken in."""
    con.execute("""update submissions set status = 'taken in' where status = 'staged'
                   and not exists (select 1 from source_files f
                                   where f.submission_id = submissions.submission_id and f.status = 'staged')""")
