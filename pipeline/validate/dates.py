"""The dates of a games part judged (rulings D1, D2; sql/validate/): in the future, before
the history of each series (a history bound is a rule set's: a row one series files
before its first list and another rates is stored, and excluded from the one's lists),
a likely typo (D1), and the rows refused as typos examined again once games come near
them (D2). What validation says of them besides its rejects: the games a series does not
rate, and a file taken in far from every game stored ("the first games since 2011")."""
from __future__ import annotations

import duckdb

from pipeline import systems
from pipeline.input_layout import columns
from pipeline.warehouse import create_temp_table, scalar, stage, stage_sql, staged

# The rows of a games part as they are stored, and the date parse of a staged text
# (pipeline/validate/schemas.py's DATE: a day written YYYY-MM-DD).
STORED_TABLE = {"games": "games", "go_games": "go_games"}
EVENT_COLUMN = {"games": "event", "go_games": "event_id"}
STAGED_DATE = ("case when regexp_full_match({c}, '[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}') and not starts_with({c}, '0000') "
               "then try_cast({c} as date) end")


def create_history_bounds(con: duckdb.DuckDBPyConnection) -> None:
    """The temporary table `history_bounds`: every series of the warehouse, and what its
    rule set files a late game by (RuleSet.history_bound; null: no bound): the first list's
    window bounds the games it may still rate, each series its own way."""
    def bound(system: str) -> str | None:
        try:
            return systems.rule_set_class(system).history_bound
        except systems.UnknownRuleSet:  # a rule set registered by a process that is not this one
            return "date"

    held = con.execute("select series, system from series order by position").fetchall()
    create_temp_table(con, "history_bounds", {"series": ("varchar", [name for name, _ in held]),
                                              "bound": ("varchar", [bound(system) for _, system in held])})


def candidate_dates_sql(con: duckdb.DuckDBPyConnection, kind: str, file_id: int) -> str:
    """The rows' dates (d) and, for chess, the last day of each row's event as FIDE groups
    the games (ruling X1, pipeline/systems/fide/events.sql) within this file: a tournament
    file is one event, an events-file event ends on its end date at the earliest, a name
    recurring after 90 days without games is another event, games without one are one event
    a month. Within the file only: the stored games can only join such groups and move their
    last day later, so a game is never let in that its rule set would file before the first list."""
    files_by_event = scalar(con, """select count(*) > 0 from history_bounds b join lists l using (series)
                                    where b.bound = 'event'""")
    if kind != "games" or not files_by_event:  # no series files a game by its event: its date bounds it
        return "select row_number, date as d, date as event_last, null::varchar as rated_in from candidates " \
               "where date is not null"
    whole = scalar(con, """select count(*) > 0 from source_files f join submissions s using (submission_id)
                           where f.file_id = ? and s.format in ('trf', 'swar')""", [file_id])
    return f"""
        with c as (
            select c.row_number, c.date as d, c.event, e.end_date, e.rated_in, e.event_id is not null as described
            from candidates c left join events e on e.event_id = c.event where c.date is not null
        ),
        opened as (
            select *, case when d > lag(d) over (partition by event order by d, row_number) + interval 90 day
                           then 1 else 0 end as opens
            from c
        ),
        grouped as (
            select *, case when {bool(whole)} then 'file'
                           when described then 'event ' || event
                           when event is not null then 'name ' || event || ' #'
                                || sum(opens) over (partition by event order by d, row_number rows unbounded preceding)
                           else 'month ' || strftime(d, '%Y-%m') end as event_group
            from opened
        )
        select row_number, d, greatest(max(d) over (partition by event_group), coalesce(end_date, d)) as event_last,
               rated_in
        from grouped"""


def own_dates_sql(kind: str, table: str, file_id: int, again: bool) -> str:
    """Every date of the part's own file, each row's once (ruling D1): the rows examined
    (the typed `candidates`, and those a problem found reading rejects), the part's rows
    stored or rejected before (`again`: a part validated before, staged again with only
    the rows still rejected), and, as dates of no row, the file's own dates (file_dates: a
    TRF's start, end and round dates) and the start and end of the events its rows name.
    The same whatever was validated before: the file's content alone (ruling D2)."""
    examined = f"select row_number from {table} where file_id = {file_id}"
    staged_date = STAGED_DATE.format(c="date")
    rejected_date = STAGED_DATE.format(c="(record->>'date')")
    before = f"""
        union all select row_number, date from {STORED_TABLE[kind]}
                  where file_id = {file_id} and row_number not in ({examined})
        union all select row_number, {rejected_date} from rejects
                  where file_id = {file_id} and status <> 'taken in' and {rejected_date} is not null
                    and row_number not in ({examined})""" if again else ""
    return f"""
        select row_number, date as d from candidates where date is not null
        union all select row_number, {staged_date} from {table}
                  where file_id = {file_id} and problem is not null and {staged_date} is not null {before}
        union all select null, date from file_dates where file_id = {file_id}
        union all select null, unnest([start_date, end_date]) from events
                  where event_id in (select {EVENT_COLUMN[kind]} from candidates)"""


def prepare(con: duckdb.DuckDBPyConnection, kind: str, table: str, file_id: int, again: bool) -> str:
    """The tables and views the date checks read, made for one part (`again`: validated
    before); returns the SQL of their rejects (row_number, reason). `filed_before` stays
    for `record_exclusions`."""
    create_history_bounds(con)
    con.execute(f"create or replace temp view candidate_dates as {candidate_dates_sql(con, kind, file_id)}")
    con.execute(f"create or replace temp table own_dates as {own_dates_sql(kind, table, file_id, again)}")
    con.execute(f"""create or replace temp view stored_days as
        select date as d, count(*) as n from {STORED_TABLE[kind]} group by date""")
    con.execute(f"create or replace temp table filed_before as {stage_sql('validate/filed_before')}")
    return stage_sql("validate/plausible_dates")


def record_exclusions(con: duckdb.DuckDBPyConnection, file_id: int, run_id: int) -> list[str]:
    """The rows taken in that some series files before its history (filed_before, read
    after the insert: `accepted`) kept out of those series' lists (excluded_games), and
    what the report says of them: a series, how many, the first one's reason."""
    con.execute(f"""insert into excluded_games
        select series, ({file_id}::bigint << 32) + row_number, reason, {run_id}
        from filed_before where row_number in (select row_number from accepted)""")
    said = con.execute("""select series, count(*), min(row_number), arg_min(reason, row_number)
                          from filed_before where row_number in (select row_number from accepted)
                          group by series order by series""").fetchall()
    return [f"the {series} lists do not rate {n} of these games, filed before their history (row {first}: {reason}); "
            "the warehouse's other lists rate them: `ratings rejects --excluded` lists them"
            for series, n, first, reason in said]


def far_from_stored(con: duckdb.DuckDBPyConnection, kind: str, file_id: int) -> list[str]:
    """What the report says of the part's rows just taken in (`accepted`) whose dates lie
    more than two years from every game stored from other files (ruling D1: "the first
    games since 2011", "games before 2003"), so that a wrong year is seen."""
    table = STORED_TABLE[kind]
    con.execute(f"""create or replace temp view taken_days as
        select distinct date as d from {table}
        where file_id = {file_id} and row_number in (select row_number from accepted)""")
    con.execute(f"""create or replace temp view other_days as
        select distinct date as d from {table} where file_id <> {file_id}""")
    found = stage(con, "validate/far_from_stored").fetchall()
    con.execute("drop view taken_days")
    con.execute("drop view other_days")
    notes = []
    for before, after, first, last in found:
        days = f"date {first}" if first == last else f"dates {first} … {last}"
        if after is None:
            where = f"the first games since {before.year} (the latest stored before them: {before})"
        elif before is None:
            where = f"games before {after.year} (the earliest stored: {after})"
        else:
            where = f"the first games since {before.year} (the games stored stop at {before} and resume at {after})"
        notes.append(f"{days}: {where}, more than two years from every game stored: check the year "
                     "if this is no old event sent late (ruling D1)")
    return notes


def drop(con: duckdb.DuckDBPyConnection) -> None:
    """What `prepare` made, once the part is validated."""
    for name in ("candidate_dates", "stored_days"):
        con.execute(f"drop view if exists {name}")
    for name in ("own_dates", "filed_before", "history_bounds"):
        con.execute(f"drop table if exists {name}")


def typos_near_stored(con: duckdb.DuckDBPyConnection) -> dict[int, str]:
    """The parts holding rows refused as typos alone that games stored since have come
    within two years of, staged again with those rows (from their rejects' records): file
    id → kind, for validation to take them in or refuse them as it would now (ruling D2)."""
    found = stage(con, "validate/typos_near_stored").fetchall()
    parts = {file_id: kind for file_id, _, kind in found}
    for file_id, kind in parts.items():
        names = columns(kind)
        values = ", ".join(f"record->>'{c}'" for c in names)
        con.execute(f"""insert into {staged(con, 'main', kind)} (file_id, row_number, {', '.join(names)})
                        select file_id, row_number, {values} from rejects
                        where file_id = ? and status = 'open'
                          and row_number in (select unnest(?::bigint[]))""",
                    [file_id, [r for f, r, _ in found if f == file_id]])
        con.execute("update source_files set status = 'staged', staged_in = 'main' where file_id = ?", [file_id])
    return parts
