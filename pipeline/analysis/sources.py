"""Ratings from a series or a file, in one shape: `source_lists (source, list_id,
list_date)`, a temp table, and `source_ratings (source, list_id, list_date, player_id,
rating)`, a temp view: what every comparison of the connection reads.

A list is in force from its date until the next list's: a list named YYYY-MM from
the first of that month (the month of publication, R1; FIDE's lists are dated so),
another, and a Go event whatever its id, from the day after its window. A series' initial ratings are
its list `(initial)`, in force from the first window's start. A file's list is in
force from its `date` column, else the day after its `window_end` column, else the
day its list id names (YYYY-MM-DD), else the first of its month (YYYY-MM, YYYYMM):
`month_dated`, which `evaluate` checks against the games it scores (the window rule,
pipeline/analysis/evaluate.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.analysis.forecast_files import forecast_rows
from pipeline.analysis.played import game_scored, load_played
from pipeline.config import MAX_RATING, MIN_RATING
from pipeline.ingest.tables import InputFileError, read_as, readable
from pipeline.rate.series import SeriesError, series_in
from pipeline.warehouse import sql_name, sql_text

INITIAL = "(initial)"
FILE_COLUMNS = ("player_id", "list_id", "rating")
DATE_COLUMNS = ("date", "window_end")  # a file's own dating of its lists, either one (optional)
FIT = "fit"  # a file's scale fitted on the games scored (pipeline/analysis/scales.py)


class SourceError(ValueError):
    """A source that cannot be scored as given (the window rule, a scale that does not fit):
    the message names the file and the way out."""


@dataclass(frozen=True)
class Source:
    """Where ratings come from: a series of the warehouse or a file; `name` heads the tables.
    A file's `columns` map FILE_COLUMNS to the file's own names (`--columns list_id=list_period`)."""

    name: str
    series: str | None = None
    path: Path | None = None
    columns: tuple[tuple[str, str], ...] = ()
    state: str | None = None  # where the series' ratings are when not stored: a relation (list_id, player_id, rating)
    # A file's ratings read as offset + r × 400 / scale (the Elo scale: 400, 0); scale FIT: fitted
    scale: float | str = 400.0
    offset: float = 0.0
    forecasts: bool = False  # a file of forecasts (game_id, probability), not of ratings


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
        if ours not in FILE_COLUMNS + DATE_COLUMNS:
            raise ValueError(f"{ours!r} is not a column of a file of ratings: map "
                             f"{', '.join(FILE_COLUMNS + DATE_COLUMNS)}")
        if ours in pairs:
            raise ValueError(f"{ours} is mapped twice")
        pairs[ours] = theirs
    if not pairs:
        raise ValueError("give COLUMN=FILE_COLUMN, e.g. list_id=list_period")
    return tuple(pairs.items())


def source_of(con: duckdb.DuckDBPyConnection, text: str, columns: tuple[tuple[str, str], ...] = (),
              scale: float | str = 400.0, offset: float = 0.0) -> Source:
    """A series named `text`, else a file at that path (read with `columns`, see Source; on
    the scale `scale`, `offset`, or those its name's suffix gives: FILE:scale=S,offset=O)."""
    held = {s.name: s for s in series_in(con)}
    if text in held:
        return Source(text, series=text)
    path, own = Path(text), None
    if not path.is_file() and ":" in text:
        path, own = Path(text.rpartition(":")[0]), text.rpartition(":")[2]
    if path.is_file():
        if own is not None:
            scale, offset = file_scale(own, scale, offset)
        return Source(path.stem, path=path, columns=columns, scale=scale, offset=offset)
    raise SeriesError(f"{text!r} is neither a series of the warehouse ({', '.join(held) or 'none'}) nor a file of ratings "
                      f"({', '.join(FILE_COLUMNS)})")


def scale_value(text: str) -> float | str:
    """A scale as given (`--scale`, FILE:scale=): a number more than 0, or `fit`; a
    ValueError says what is wrong."""
    if text.strip().lower() == FIT:
        return FIT
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"scale {text!r}: give a number more than 0 (a rating difference of `scale` on the file's "
                         "scale is one of 400 on the Elo scale) or fit")
    return value


def offset_value(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not math.isfinite(value):
        raise ValueError(f"offset {text!r}: give a number (the Elo rating of the file's rating 0)")
    return value


def file_scale(text: str, scale: float | str, offset: float) -> tuple[float | str, float]:
    """FILE:scale=S,offset=O (either or both): the file's own scale, over `scale`, `offset`."""
    for part in (p.strip() for p in text.split(",") if p.strip()):
        key, equals, value = (x.strip() for x in part.partition("="))
        if key in ("scale", "offset") and equals:
            try:
                scale, offset = (scale_value(value), offset) if key == "scale" else (scale, offset_value(value))
            except ValueError as err:
                raise SeriesError(f"{text!r} after the file's name: {err}") from err
        else:
            raise SeriesError(f"{text!r} after the file's name: give scale=S (a number or fit) and offset=O, e.g. "
                              "whr.csv:scale=fit,offset=1500")
    return scale, offset


def _list_date(list_id: str, day_after: str, events: bool) -> str:
    """SQL of a series' list's first day in force: a list of a calendar's window named YYYY-MM
    from the first of its month (R1), any other the day after its window. A Go series' lists
    are its events, whatever their ids: the day after the event, even for an event named
    like a month."""
    if events:
        return day_after
    return (f"case when regexp_full_match({list_id}, '\\d{{4}}-\\d{{2}}') then strptime({list_id} || '-01', '%Y-%m-%d')::date "
            f"else {day_after} end")


def file_tables(sources: list[Source]) -> dict[str, str]:
    """The temp table holding each file of ratings' rows once loaded (load_sources), by name."""
    return {s.name: f"source_file_{k}" for k, s in enumerate(sources) if s.path is not None and not s.forecasts}


def load_sources(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> None:
    """(Re)make the view source_ratings and the table source_lists from `sources` (their
    names distinct), and the games they are scored on (pipeline/analysis/played.py). A
    series' ratings are read where they are, not copied: a long history's millions of rows
    are slow to copy, and the list reports read them at every run; a file of ratings is
    read into a table of its own. `list_order` orders a series' lists in force from one day
    (Go events that end on the same day: the last rated holds the others' games too)."""
    held = {s.name: s.rule_set for s in series_in(con)}
    rule_sets = {s.name: held[s.series] for s in sources if s.series is not None}
    load_played(con, game_scored(con, {rs.game for rs in rule_sets.values()}))
    typed = ("select null::varchar as source, null::varchar as list_id, null::date as list_date, "
             "null::bigint as player_id, null::double as rating, null::bigint as list_order where false")
    parts = [typed]  # the view's columns and types, whatever the sources
    month_dated, forecasts = [], []
    for k, source in enumerate(sources):
        name = sql_text(source.name)
        if source.series is not None:
            series = sql_text(source.series)
            state = "player_state" if source.state is None else \
                f"(select {series} as series, list_id, player_id, rating from {source.state})"
            dated = _list_date("list_id", "window_end + 1", rule_sets[source.name].periods_are == "events")
            # Each list dated before the join: once a list, not once a rating.
            parts.append(f"""select {name}, s.list_id, s.list_date, p.player_id, p.rating, s.position
                from (select series, list_id, {dated} as list_date, position from lists where series = {series}) s
                join {state} p using (series, list_id)
                where p.rating is not null""")
            parts.append(f"""select {name}, {sql_text(INITIAL)}, (select min(window_start) from lists where series = {series}),
                       player_id, rating, 0
                from initial_ratings where rating is not null
                  and exists (select 1 from lists where series = {series})""")
        elif source.forecasts:
            forecasts.append(forecast_rows(con, source.name, source.path))
        else:
            table = file_tables(sources)[source.name]
            _file_table(con, source, table)
            parts.append(f"select source, list_id, list_date, player_id, rating, null from {table}")
            month_dated.append(f"select distinct source, list_id from {table} where month_dated")
    con.execute("create or replace temp view source_ratings as " + " union all ".join(parts))
    con.execute("""create or replace temp table source_lists as
        select source, list_id, list_date, list_order, count(*) as players from source_ratings group by all""")
    # The files of forecasts: each game's probability, scored as it is (sql/analysis/scored_games.sql)
    # Typed by SQL, not by an empty Arrow table: making one in Python loads pandas (pyarrow
    # looks for it), which the list reports, reading a series alone, never need.
    con.execute("create or replace temp table source_forecasts (source varchar, game_key bigint, probability double)")
    for rows in forecasts:
        con.register("forecast_rows", rows)
        con.execute("insert into source_forecasts select source, game_key, probability from forecast_rows")
        con.unregister("forecast_rows")
    # The files' lists dated by their month alone (the window rule: pipeline/analysis/evaluate.py)
    con.execute("create or replace temp table month_dated_lists as "
                + " union all ".join(["select null::varchar as source, null::varchar as list_id where false",
                                      *month_dated]))


def _file_table(con: duckdb.DuckDBPyConnection, source: Source, table: str) -> None:
    """A file of ratings: player_id, list_id, rating (and a date or window_end); a row that
    does not read is an error naming the file and the row, never skipped. Read by a
    connection of its own (the warehouse may be open read-only, with no file access)."""
    with duckdb.connect() as reader:
        ratings = _rating_file(reader, source)
    con.register("file_ratings", ratings)
    con.execute(f"""create or replace temp table {table} as
        select {sql_text(source.name)} as source, l as list_id, list_date, p as player_id, r as rating, month_dated,
               __row, raw
        from file_ratings""")
    con.unregister("file_ratings")


def _rating_file(reader: duckdb.DuckDBPyConnection, source: Source):
    """The file's rows checked, as an Arrow table (__row, p, l, r, list_date, month_dated);
    its columns mapped as `source.columns` says (see column_map), its ratings on the Elo
    scale (Source.scale, offset; a scale to fit is applied once fitted, and checked then)."""
    path, mapped = source.path, dict(source.columns)
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
        chosen = {c: names[mapped.get(c, c).strip().lower()] for c in FILE_COLUMNS + DATE_COLUMNS
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
        if all(c in chosen for c in DATE_COLUMNS):
            raise InputFileError(f"{path}: the file has both a date column ({chosen['date']}: the first day a list "
                                 f"is in force) and a window_end column ({chosen['window_end']}: the last day of "
                                 "its games); give one (map the other away with --columns)")
        player, list_id, rating = (sql_name(chosen[c]) for c in FILE_COLUMNS)
        dated = next((c for c in DATE_COLUMNS if c in chosen), None)
        given_day = f"{sql_name(chosen[dated])}" if dated else "null::varchar"
        reader.execute(f"""create temp table file_ratings as
            select __row, try_cast({player} as bigint) as p, try_cast({rating} as double) as r,
                   regexp_replace(trim(cast({list_id} as varchar)), '^(\\d{{4}})-?(\\d{{2}})$', '\\1-\\2') as l,
                   try_cast(trim({given_day}) as date) as d,
                   {player} as given_player, {list_id} as given_list, {rating} as given_rating,
                   {given_day} as given_day
            from ({file.source})""")
    bad = reader.execute("""select __row, given_player, given_list, given_rating from file_ratings
                            where p is null or r is null
                               or not (regexp_full_match(l, '\\d{4}-\\d{2}')
                                       and try_strptime(l || '-01', '%Y-%m-%d') is not null
                                       or regexp_full_match(l, '\\d{4}-\\d{2}-\\d{2}')
                                       and try_strptime(l, '%Y-%m-%d') is not null)
                            order by __row limit 1""").fetchall()
    if bad:
        row, *values = bad[0]
        raise InputFileError(f"{path}, row {row}: {dict(zip(FILE_COLUMNS, values))} is not a player id, a list id "
                             "(YYYY-MM, YYYYMM or YYYY-MM-DD) and a rating")
    if dated:
        undated = reader.execute("""select __row, given_day from file_ratings where d is null
                                    order by __row limit 1""").fetchall()
        if undated:
            row, value = undated[0]
            raise InputFileError(f"{path}, row {row}: {dated} {value!r} is not a day (YYYY-MM-DD)" if value is not None
                                 else f"{path}, row {row}: no {dated}: every list of the file is dated by its {dated}")
    if reader.execute("select count(*) from file_ratings").fetchall()[0][0] == 0:
        raise InputFileError(f"{path}: a file of ratings with no rows (only its header): nothing to compare or score")
    # The day each list comes into force (the module's docstring): its date; the day after its
    # window; the day its id names; the first of its month, which `evaluate` checks.
    in_force = {"date": "d", "window_end": "d + 1"}.get(dated, "null")
    reader.execute(f"""create or replace temp table file_ratings as
        select *, coalesce({in_force}, try_strptime(l, '%Y-%m-%d')::date, strptime(l || '-01', '%Y-%m-%d')::date)
                  as list_date,
               {in_force} is null and not regexp_full_match(l, '\\d{{4}}-\\d{{2}}-\\d{{2}}') as month_dated,
               {source.offset!r} + r * 400 / {400.0 if source.scale == FIT else float(source.scale)!r} as rating
        from file_ratings""")
    two_dates = reader.execute("""select l, list(distinct list_date order by list_date), list(__row order by __row)
                                  from (select l, list_date, min(__row) as __row from file_ratings
                                        group by l, list_date)
                                  group by l having count(*) > 1 order by min(__row) limit 1""").fetchall()
    if two_dates:
        list_name, days, rows = two_dates[0]
        raise InputFileError(f"{path}, rows {', '.join(map(str, rows[:5]))}: list {list_name} is dated "
                             f"{' and '.join(str(d) for d in days[:2])}{' and more' if len(days) > 2 else ''}: "
                             f"one list, one {dated or 'date'}")
    # Two lists in force from one day: which of them scores that day's games is a guess.
    same_day = reader.execute("""select list_date, list(l order by l), list(__row order by __row)
                                 from (select l, list_date, min(__row) as __row from file_ratings group by l, list_date)
                                 group by list_date having count(*) > 1 order by min(__row) limit 1""").fetchall()
    if same_day:
        day, names, rows = same_day[0]
        raise InputFileError(f"{path}, rows {', '.join(map(str, rows[:5]))}: lists {' and '.join(names[:2])}"
                             f"{' and more' if len(names) > 2 else ''} are both in force from {day}: "
                             "give each list a day of its own")
    if source.scale != FIT:
        implausible_rating(reader, path, "file_ratings", source)
    twice = reader.execute("""select p, l, list(__row order by __row) from file_ratings group by p, l
                              having count(*) > 1 order by min(__row) limit 1""").fetchall()
    if twice:
        player_id, list_name, rows = twice[0]
        shown = ", ".join(map(str, rows[:5])) + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")
        raise InputFileError(f"{path}, rows {shown}: player {player_id} has {'two' if len(rows) == 2 else len(rows)} "
                             f"ratings on list {list_name}")
    return reader.sql("select __row, p, l, rating as r, list_date, month_dated, given_rating as raw "
                      "from file_ratings").to_arrow_table()


def implausible_rating(con: duckdb.DuckDBPyConnection, path: Path, table: str, source: Source) -> None:
    """Refuse a file whose rating, on the Elo scale, is outside the bounds the validation
    applies to the initial ratings (pipeline.config): a typo or a unit mix-up, and nan or
    inf would poison every mean and log-loss computed from the file. `table` holds
    __row, rating (on the Elo scale) and given_rating (as the file wrote it)."""
    implausible = con.execute(f"""select __row, given_rating, rating from {table}
                                  where not isfinite(rating) or rating < {MIN_RATING} or rating > {MAX_RATING}
                                  order by __row limit 1""").fetchall()
    if implausible:
        row, value, scaled = implausible[0]
        read = "" if (source.scale, source.offset) == (400.0, 0.0) else \
            f", read as {scaled:g} on the Elo scale (scale {source.scale:g}, offset {source.offset:g})"
        raise InputFileError(f"{path}, row {row}: rating {value}{read} is not a plausible chess rating "
                             f"(from {MIN_RATING} to {MAX_RATING}, the bounds of the input ratings"
                             + ("" if read else "; a file on another scale: give --scale and --offset") + ")")
