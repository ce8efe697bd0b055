"""Ratings from a series or a file, in one shape: `source_lists (source, list_id,
list_date)`, a temp table, and `source_ratings (source, list_id, list_date, player_id,
rating)`, a temp view: what every comparison of the connection reads.

A list is in force from its date until the next list's: a list named YYYY-MM from
the first of that month (the month of publication, R1; FIDE's lists are dated so),
another (a Go event) from the day after its window. A series' initial ratings are
its list `(initial)`, in force from the first window's start.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.config import MAX_RATING, MIN_RATING
from pipeline.rate.series import SeriesError, series_in
from pipeline.warehouse import sql_text

INITIAL = "(initial)"
FILE_COLUMNS = ("player_id", "list_id", "rating")


@dataclass(frozen=True)
class Source:
    """Where ratings come from: a series of the warehouse or a file; `name` heads the tables.
    A file's `columns` map FILE_COLUMNS to the file's own names (`--columns list_id=list_period`)."""

    name: str
    series: str | None = None
    path: Path | None = None
    columns: tuple[tuple[str, str], ...] = ()
    state: str | None = None  # where the series' ratings are when not stored: a relation (list_id, player_id, rating)


def column_map(text: str | None) -> tuple[tuple[str, str], ...]:
    """`--columns list_id=list_period,player_id=...`: (our column, the file's) pairs; a
    ValueError names what is wrong."""
    if not text:
        return ()
    pairs = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        ours, equals, theirs = (x.strip() for x in part.partition("="))
        ours = ours.lower()  # names are matched without case, ours as the file's
        if not equals or not theirs:
            raise ValueError(f"{part!r}: give COLUMN=FILE_COLUMN, e.g. list_id=list_period")
        if ours not in FILE_COLUMNS:
            raise ValueError(f"{ours!r} is not a column of a file of ratings: map {', '.join(FILE_COLUMNS)}")
        if ours in pairs:
            raise ValueError(f"{ours} is mapped twice")
        pairs[ours] = theirs
    if not pairs:
        raise ValueError("give COLUMN=FILE_COLUMN, e.g. list_id=list_period")
    return tuple(pairs.items())


def source_of(con: duckdb.DuckDBPyConnection, text: str, columns: tuple[tuple[str, str], ...] = ()) -> Source:
    """A series named `text`, else a file at that path (read with `columns`, see Source)."""
    held = {s.name: s for s in series_in(con)}
    if text in held:
        if held[text].rule_set.game != "chess":
            raise SeriesError(f"{text!r}: comparisons and evaluations read chess lists (the games table); "
                              "the Go rule sets' are not supported yet")
        return Source(text, series=text)
    path = Path(text)
    if path.is_file():
        return Source(path.stem, path=path, columns=columns)
    raise SeriesError(f"{text!r} is neither a series of the warehouse ({', '.join(held) or 'none'}) nor a file of ratings "
                      f"({', '.join(FILE_COLUMNS)})")


def _list_date(list_id: str, day_after: str) -> str:
    return (f"case when regexp_full_match({list_id}, '\\d{{4}}-\\d{{2}}') then strptime({list_id} || '-01', '%Y-%m-%d')::date "
            f"else {day_after} end")


def load_sources(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> None:
    """(Re)make the view source_ratings and the table source_lists from `sources` (their
    names distinct). A series' ratings are read where they are, not copied: a long
    history's millions of rows are slow to copy, and the list reports read them at every run;
    a file of ratings is read into a table of its own."""
    typed = ("select null::varchar as source, null::varchar as list_id, null::date as list_date, "
             "null::bigint as player_id, null::double as rating where false")
    parts = [typed]  # the view's columns and types, whatever the sources
    for k, source in enumerate(sources):
        name = sql_text(source.name)
        if source.series is not None:
            series = sql_text(source.series)
            state = "player_state" if source.state is None else \
                f"(select {series} as series, list_id, player_id, rating from {source.state})"
            # Each list dated before the join: once a list, not once a rating.
            parts.append(f"""select {name}, s.list_id, s.list_date, p.player_id, p.rating
                from (select series, list_id, {_list_date('list_id', 'window_end + 1')} as list_date
                      from lists where series = {series}) s
                join {state} p using (series, list_id)
                where p.rating is not null""")
            parts.append(f"""select {name}, {sql_text(INITIAL)}, (select min(window_start) from lists where series = {series}),
                       player_id, rating
                from initial_ratings where rating is not null
                  and exists (select 1 from lists where series = {series})""")
        else:
            table = f"source_file_{k}"
            _file_table(con, source, table)
            parts.append(f"select * from {table}")
    con.execute("create or replace temp view source_ratings as " + " union all ".join(parts))
    con.execute("""create or replace temp table source_lists as
        select source, list_id, list_date, count(*) as players from source_ratings group by all""")


def _file_table(con: duckdb.DuckDBPyConnection, source: Source, table: str) -> None:
    """A file of ratings: player_id, list_id (YYYY-MM or YYYYMM), rating; a row that
    does not read is an error naming the file and the row, never skipped. Read by a
    connection of its own (the warehouse may be open read-only, with no file access)."""
    with duckdb.connect() as reader:
        ratings = _rating_file(reader, source.path, dict(source.columns))
    con.register("file_ratings", ratings)
    con.execute(f"""create or replace temp table {table} as
        select {sql_text(source.name)} as source, l as list_id, strptime(l || '-01', '%Y-%m-%d')::date as list_date,
               p as player_id, r as rating from file_ratings""")
    con.unregister("file_ratings")


def _rating_file(reader: duckdb.DuckDBPyConnection, path: Path, mapped: dict[str, str]):
    """The file's rows checked, as an Arrow table (__row, p, l, r); `mapped` names the
    file's column for each of FILE_COLUMNS it does not hold by that name."""
    # The readers of the input files (and pandas, which the tournament files' use) only
    # for a file of ratings: the list reports read a series.
    from pipeline.ingest.tables import InputFileError, read_as, readable

    with readable(reader, path) as file:
        if file.oversized:
            raise InputFileError(f"{path}: {file.oversized[0][1]}")
        with read_as(path, "CSV or Parquet file"):
            rel = reader.sql(file.source)
            names = {c.strip().lower(): c for c in rel.columns}
        held = ", ".join(c for c in rel.columns if c != "__row")
        absent = [theirs for theirs in mapped.values() if theirs.strip().lower() not in names]
        if absent:
            raise InputFileError(f"{path}: --columns names {', '.join(absent)}, not a column of the file "
                                 f"(it has {held})")
        chosen = {c: names[mapped.get(c, c).strip().lower()] for c in FILE_COLUMNS
                  if mapped.get(c, c).strip().lower() in names}
        read_as_two = [c for c in set(chosen.values()) if list(chosen.values()).count(c) > 1]
        if read_as_two:
            which = [ours for ours, theirs in chosen.items() if theirs == read_as_two[0]]
            raise InputFileError(f"{path}: the column {read_as_two[0]} would be read as both {' and '.join(which)} "
                                 f"(--columns {','.join(f'{a}={b}' for a, b in mapped.items())}): map each to a "
                                 "column of its own")
        missing = [c for c in FILE_COLUMNS if c not in chosen]
        if missing:
            raise InputFileError(f"{path}: a file of ratings needs the columns {', '.join(FILE_COLUMNS)}; "
                                 f"missing: {', '.join(missing)} (the file has {held}: map its own names "
                                 f"with --columns, e.g. --columns {missing[0]}=COLUMN)")
        player, list_id, rating = ('"' + chosen[c].replace('"', '""') + '"' for c in FILE_COLUMNS)
        reader.execute(f"""create temp table file_ratings as
            select __row, try_cast({player} as bigint) as p, try_cast({rating} as double) as r,
                   regexp_replace(cast({list_id} as varchar), '^(\\d{{4}})-?(\\d{{2}})$', '\\1-\\2') as l,
                   {player} as given_player, {list_id} as given_list, {rating} as given_rating
            from ({file.source})""")
    bad = reader.execute("""select __row, given_player, given_list, given_rating from file_ratings
                            where p is null or r is null or not regexp_full_match(l, '\\d{4}-\\d{2}')
                               or try_strptime(l || '-01', '%Y-%m-%d') is null
                            order by __row limit 1""").fetchall()
    if bad:
        row, *values = bad[0]
        raise InputFileError(f"{path}, row {row}: {dict(zip(FILE_COLUMNS, values))} is not a "
                             "player id, a list id (YYYY-MM or YYYYMM) and a rating")
    if reader.execute("select count(*) from file_ratings").fetchall()[0][0] == 0:
        raise InputFileError(f"{path}: a file of ratings with no rows (only its header): nothing to compare or score")
    # The bounds the validation applies to the initial ratings (pipeline.config): a
    # chess rating outside them is a typo or a unit mix-up, and nan or inf would
    # poison every mean and log-loss computed from the file.
    implausible = reader.execute(f"""select __row, given_rating from file_ratings
                                     where not isfinite(r) or r < {MIN_RATING} or r > {MAX_RATING}
                                     order by __row limit 1""").fetchall()
    if implausible:
        row, value = implausible[0]
        raise InputFileError(f"{path}, row {row}: rating {value} is not a plausible chess rating "
                             f"(from {MIN_RATING} to {MAX_RATING}, the bounds of the input ratings)")
    twice = reader.execute("""select p, l, list(__row order by __row) from file_ratings group by p, l
                              having count(*) > 1 order by min(__row) limit 1""").fetchall()
    if twice:
        player_id, list_name, rows = twice[0]
        shown = ", ".join(map(str, rows[:5])) + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")
        raise InputFileError(f"{path}, rows {shown}: player {player_id} has {'two' if len(rows) == 2 else len(rows)} "
                             f"ratings on list {list_name}")
    return reader.sql("select __row, p, l, r from file_ratings").to_arrow_table()
