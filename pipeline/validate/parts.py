"""Every staged part's rows stored or rejected: each part typed and checked
(validate_file), every staged part in the order of its kind (validate_staged), a
submission withdrawn once what it had staged is validated (withdraw_submission).
Loads the models' checks (numpy, Arrow), the readers' submissions and the rule sets:
the reading commands, which import pipeline.validate for its rejects, load none of them
(tests/test_command_imports.py)."""
from __future__ import annotations

from dataclasses import dataclass, replace

import duckdb

from pipeline.config import KINDS, today
from pipeline.ingest import submissions
from pipeline.input_layout import WITH_EXTRA, columns
from pipeline.progress import progress
from pipeline.rate.initial import refuse_unreadable, rule_sets_of_run
from pipeline.validate import dates
from pipeline.validate.holds import hold_corrections
from pipeline.validate.initial import initial_column_reasons, part_columns, with_initial_columns
from pipeline.validate.model_checks import schema_of
from pipeline.validate.staged import staged_rows
from pipeline.validate.typed import type_and_check
from pipeline.warehouse import row, scalar, stage_sql, transaction

CLEAN_TABLE = {"players": "players", "ratings": "initial_ratings", "calendar": "calendar", "games": "games",
               "events": "events", "go_games": "go_games"}
# Where a part's stored rows are: the registry keeps every version of a player.
STORED_TABLE = CLEAN_TABLE | {"players": "player_versions"}
WITH_PROBLEMS = ("games", "go_games")  # staged from tournament files, with the problems found reading them
REEXAMINED_TYPOS = ("rows refused as likely typos, examined again: games stored since lie within two years of "
                    "them (ruling D2)")


@dataclass(frozen=True)
class Validated:
    file_id: int
    kind: str
    path: str
    rows_read: int  # the rows examined: all the file's, or those staged again
    rows_accepted: int
    rows_rejected: int
    reexamined: bool = False
    # What the report says besides the rejects: the games a series does not rate, a file
    # far from every game stored (pipeline/validate/dates.py).
    notes: tuple[str, ...] = ()


def reexamined_typos(v: Validated) -> str:
    """What the report of a part says of its rows refused as typos above and examined again."""
    return (f"{v.rows_read} of its rows refused as likely typos, examined again once games stored since lie within "
            f"two years of them: {v.rows_accepted} taken in (ruling D2)")


def validate_file(con: duckdb.DuckDBPyConnection, file_id: int, kind: str, run_id: int,
                  system: str | None = None) -> Validated:
    """Check one staged part; accepted rows go to their table, the others to rejects. An
    initial rating is checked as an input (a number in the ratings' range), never by a rule
    set's rules: each rule set checks those it reads when it rates from them, by its own
    (pipeline/rate/initial.py; ruling R14). A rule set's initial columns are checked by its
    own model, for a part that gives them or a run that rates its lists (`system`: the
    rule set the run adds; pipeline/validate/initial.py)."""
    path, rows_read, message, staging, validated_before = row(con,
        "select path, rows_read, message, staged_in, taken_in_run is not null from source_files where file_id = ?",
        [file_id])
    table, own = staged_rows(con, staging, kind, file_id)
    examined = scalar(con, f"select count(*) from {table} where file_id = ?", [file_id])
    missing = set(message.removeprefix("missing column(s): ").split(", ")) if message else set()
    game = row(con, "select value from settings where key = 'game'")
    game = game[0] if game else None
    model = schema_of(kind, game)
    if kind == "ratings":
        model = with_initial_columns(model, part_columns(con, table, file_id),
                                     {rs.name for rs in rule_sets_of_run(con, system)}, game)
    with transaction(con):
        con.execute("set variable today = ?", [today()])
        # Each row typed once (pipeline/validate/typed.py): the model's checks, the SQL
        # checks and the insert all read these. Rows with a problem found while reading
        # (a bad TRF line) are rejected with it and take no part in the other checks.
        read_problem = "and problem is null" if kind in WITH_PROBLEMS else ""
        type_and_check(con, kind, model, table, file_id, missing, read_problem)
        if kind == "ratings":  # the initial columns rule sets declare, checked by their own models
            if found := initial_column_reasons(con):
                con.executemany("insert into schema_rejects values (?, ?)", found)
        con.execute("create or replace temp view candidates as select * from typed_rows")
        problems = (f"union all select row_number, problem from {table} "
                    f"where file_id = {file_id} and problem is not null" if kind in WITH_PROBLEMS else "")
        if kind in WITH_PROBLEMS:  # games: plausible dates, of the file and against the games stored
            problems += f" union all select * from ({dates.prepare(con, kind, table, file_id, validated_before)})"
        con.execute(f"""create or replace temp table file_rejects as
            select row_number, string_agg(reason, '; ' order by reason) as reason from (
                select * from schema_rejects
                union all select * from ({stage_sql(f"validate/{kind}")})
                {problems}
            ) group by row_number""")
        record = ", ".join(f"'{c}': s.\"{c}\"" for c in columns(kind))
        # the row's other columns too (a rule set's initial columns): a fix file gives them back
        record = f"json_merge_patch(to_json({{{record}}}), coalesce(s.extra, '{{}}'))" if kind in WITH_EXTRA \
            else f"to_json({{{record}}})"
        con.execute(f"""insert or replace into rejects (file_id, row_number, reason, record, status)
            select s.file_id, s.row_number, r.reason, {record}, 'open'
            from {table} s join file_rejects r using (row_number)
            where s.file_id = {file_id}""")
        # A fix rejected in turn: its own reject is now the open one.
        con.execute(f"""update rejects set status = 'superseded', resolved_run = {run_id},
                               resolved_by_file = {file_id}, resolved_by_row = s.row_number
                        from {table} s join file_rejects r using (row_number)
                        where s.file_id = {file_id} and rejects.file_id = s.fixes_file
                          and rejects.row_number = s.fixes_row and rejects.status = 'open'""")
        con.execute(f"""create or replace temp view accepted as
            select *, {run_id} as run_id from candidates c
            where not exists (select 1 from file_rejects r where r.row_number = c.row_number)""")
        if kind == "players":  # every version is kept; `players` is the latest of each player
            con.execute(f"create or replace temp table clean_rows as {stage_sql('clean/players')}")
            con.execute(f"""insert into player_versions
                            select nextval('player_versions_seq'), {run_id}, * from clean_rows""")
            con.execute("insert or replace into players select * from clean_rows")
            con.execute("drop table clean_rows")
        else:  # straight from the typed rows: a million games are not copied again
            con.execute(f"insert into {CLEAN_TABLE[kind]} by name {stage_sql(f'clean/{kind}')}")
        notes = []
        if kind in WITH_PROBLEMS:
            notes = [*dates.record_exclusions(con, file_id, run_id), *dates.far_from_stored(con, kind, file_id)]
        # Rows staged again from the same content, and rows of a fix file, close their rejects.
        con.execute(f"""update rejects set status = 'taken in', resolved_run = {run_id},
                               resolved_by_file = file_id, resolved_by_row = row_number
                        where file_id = {file_id} and status = 'open'
                          and row_number in (select row_number from accepted)""")
        con.execute(f"""update rejects set status = 'fixed', resolved_run = {run_id},
                               resolved_by_file = {file_id}, resolved_by_row = a.row_number
                        from accepted a
                        where rejects.file_id = a.fixes_file and rejects.row_number = a.fixes_row
                          and rejects.status = 'open'""")
        rejected = scalar(con, "select count(*) from file_rejects")
        accepted = examined - rejected
        if own:
            con.execute(f"drop table {own}")
            con.execute("delete from temp.part_tables where file_id = ?", [file_id])
        else:
            con.execute(f"delete from {table} where file_id = {file_id}")
        con.execute(f"""update source_files set
                          rows_accepted = (select count(*) from {STORED_TABLE[kind]} where file_id = {file_id})
                                        + (select count(*) from withdrawn_rows where file_id = {file_id}),
                          rows_rejected = (select count(*) from rejects where file_id = {file_id}
                                           and status <> 'taken in'),
                          status = 'validated', taken_in_run = {run_id}
                        where file_id = {file_id}""")
        for name in ("accepted", "candidates"):
            con.execute(f"drop view if exists {name}")
        dates.drop(con)
        con.execute("drop table file_rejects")
        con.execute("drop table typed_rows")
        con.execute("drop table schema_rejects")
    return Validated(file_id, kind, path, examined if validated_before else rows_read, accepted, rejected,
                     bool(validated_before), tuple(notes))




@dataclass(frozen=True)
class Replacement:
    new: int
    old: int
    withdrawn: int  # the old file's rows withdrawn
    changes: dict[str, int]  # added / changed / withdrawn games


def validate_staged(con: duckdb.DuckDBPyConnection, run_id: int, by: str = "", system: str | None = None
                    ) -> tuple[list[Validated], list[Replacement]]:
    """Validate every staged part (registry, ratings and calendar before games); a
    submission that replaces another first withdraws it (after validating what
    it still had staged), so that its games are not taken for duplicates of the
    old version's; then the changes game by game are recorded. A file whose games look
    like corrections of another's, given without --replaces, is held, not validated
    (pipeline/validate/holds.py). Each rule set the run rates (`system`: the one it adds)
    then checks the initial ratings it will start from."""
    held = hold_corrections(con)
    pending = [p for p in con.sql("""select f.file_id, f.kind, s.submission_id, s.replaces,
                                            (select status from submissions o where o.submission_id = s.replaces)
                                     from source_files f join submissions s using (submission_id)
                                     where f.status = 'staged' order by f.file_id""").fetchall()
               if p[2] not in held]
    order = {kind: i for i, kind in enumerate(KINDS)}
    pending.sort(key=lambda p: (order[p[1]], p[0]))
    done: list[Validated] = []
    replaced: dict[int, tuple[int, int]] = {}  # new → (old, rows withdrawn)
    seen: set[int] = set()

    bar = progress(step="validate", total=len(pending), unit="file")

    def check(file_id: int, kind: str) -> None:
        if file_id not in seen:
            seen.add(file_id)
            bar.set_postfix_str(kind)
            done.append(validate_file(con, file_id, kind, run_id, system))
            bar.update()

    with bar:
        for file_id, kind, submission_id, old, old_status in pending:
            if old is not None and old_status in submissions.ACTIVE and submission_id not in replaced:
                for other_file, other_kind, other_submission, *_ in pending:
                    if other_submission == old:
                        check(other_file, other_kind)
                replaced[submission_id] = (old, submissions.withdraw(con, old, run_id, by, "",
                                                                     replaced_by=submission_id))
            check(file_id, kind)
    # Ruling D2: rows refused as typos that the games stored since have come near are taken
    # in as they would have been had those games come first, until none is left; a part
    # validated above is reported once, with what it has now.
    while again := dates.typos_near_stored(con):
        for file_id, kind in again.items():
            v = validate_file(con, file_id, kind, run_id)
            first = next((i for i, d in enumerate(done) if d.file_id == file_id), None)
            if first is None:
                done.append(replace(v, notes=(REEXAMINED_TYPOS, *v.notes)))
                continue
            d = done[first]
            done[first] = replace(d, rows_accepted=d.rows_accepted + v.rows_accepted,
                                  rows_rejected=d.rows_rejected - v.rows_accepted,
                                  notes=(*d.notes, reexamined_typos(v), *v.notes))
    submissions.settle(con)
    changes = [Replacement(new, old, rows, submissions.record_replacement(con, run_id, new, old))
               for new, (old, rows) in replaced.items()]
    if system is not None or any(v.kind == "ratings" and v.rows_accepted for v in done):
        # ruling R14: each by its own rules, before anything is kept, so that the file is given
        # again corrected (a stored initial rating is never replaced)
        refuse_unreadable(con, rule_sets_of_run(con, system), "nothing of the run was taken in")
    return done, changes


def withdraw_submission(con: duckdb.DuckDBPyConnection, submission_id: int, run_id: int, by: str,
                        reason: str) -> int:
    """Withdraw a game file; what it still had staged is validated first, so that
    every one of its rows ends up withdrawn. Returns the rows withdrawn."""
    submissions.check_replaceable(con, submission_id)
    for file_id, kind in con.execute("""select file_id, kind from source_files where submission_id = ?
                                        and status = 'staged' order by file_id""", [submission_id]).fetchall():
        validate_file(con, file_id, kind, run_id)
    return submissions.withdraw(con, submission_id, run_id, by, reason)
