"""Ingest: read CSV or Parquet input files into the staging tables, as text.

Nothing is judged here (validation does that). Each file is one part of a
submission (pipeline/ingest/submissions.py); a part staged again (the same content
ingested again) stages only its rows that are still rejected.
"""
from __future__ import annotations

import contextlib
import csv
import functools
import hashlib
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.formats.csv_text import CsvText, csv_text, lf_blocks, utf8_blocks
from pipeline.formats.encodings import file_head
from pipeline.formats.sniff import looks_like_egd, looks_like_opengotha, looks_like_trf
from pipeline.ingest import published
from pipeline.ingest.registry import blanked_columns, blanking_refusal
from pipeline.input_layout import REQUIRED, WITH_EXTRA, columns, layout_refusal
from pipeline.warehouse import scalar, sql_name, sql_text, staged


class InputFileError(Exception):
    """A file that cannot be read at all (not CSV or Parquet, unreadable bytes)."""


@contextlib.contextmanager
def read_as(path: Path, what: str, errors: tuple[type[BaseException], ...] = (duckdb.Error,)) -> Iterator[None]:
    """A failure to read `path` as `what` ("CSV file", ...) becomes one InputFileError
    naming the file; running out of DuckDB's memory is the warehouse's, not the file's,
    and goes on as it is (pipeline.failures.failure_message says what to set)."""
    try:
        yield
    except duckdb.OutOfMemoryException:
        raise
    except errors as err:
        raise InputFileError(f"{path}: not a readable {what} ({str(err).splitlines()[0]})") from err


@dataclass(frozen=True)
class Ingested:
    kind: str
    path: str
    file_id: int
    rows_read: int  # the file's rows; re-examined: the rejected rows staged again
    missing_columns: tuple[str, ...]
    reexamined: bool = False
    notes: tuple[str, ...] = ()  # how the file was read (encoding, blank lines, '#' lines)
    warnings: tuple[str, ...] = ()  # what may be wrong though read (letters a wrong code page gives)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class Readable:
    """How DuckDB reads a file's rows as text, with `__row` = 1 for the first data row."""

    source: str  # the SQL reading them
    records: int  # the file's rows, counted by another reader than DuckDB's (CSV: Python's csv; Parquet: its metadata)
    notes: tuple[str, ...]  # what was decided (encoding, blank lines, '#' lines), for the ingest report
    # Rows too long to read (pipeline.formats.csv_text), read as empty: (__row, why).
    oversized: tuple[tuple[int, str], ...] = ()
    # The same rows without `__row`, in the file's order, read in parallel (a CSV file's
    # numbered read, row_number() over (), takes one thread): a table made of them in one
    # statement keeps that order, and a row's number is its place in it (ingest_file).
    unnumbered: str = ""
    warnings: tuple[str, ...] = ()  # CsvText.warning


@functools.lru_cache(maxsize=16)
def _csv_text(path: str, mtime: int, size: int, encoding: str | None) -> CsvText:
    return csv_text(path, encoding)


# The encodings DuckDB's CSV reader reads itself; a file in any other is read from a UTF-8 copy.
DUCKDB_ENCODINGS = {"utf-8": "utf-8", "latin-1": "latin-1", "iso8859-1": "latin-1"}


@contextlib.contextmanager
def readable(con: duckdb.DuckDBPyConnection, path: Path, encoding: str | None = None) -> Iterator[Readable]:
    """The file's rows, read by content (Parquet's magic bytes), not by name.

    A CSV file is judged whole first (pipeline/formats/csv_text.py): one encoding,
    one delimiter, its records counted; then DuckDB reads it with exactly those
    settings (no sniffed comment character, no skipped line), in the file's order
    (parallel = false), so row_number() over () is the line order. CP1252, or any
    encoding named with --encoding (`encoding`) or a byte-order mark (UTF-16), which
    DuckDB does not read, is read from a UTF-8 copy in the temporary folder; so is a
    file whose lines end in more than one way (CR LF and LF), each line ending LF there,
    which DuckDB's reader refuses as it finds them.
    """
    path = Path(path)
    with open(path, "rb") as fh:
        head = fh.read(4096)
    if head[:4] == b"PAR1":
        with read_as(path, "Parquet file", (pa.ArrowInvalid, OSError, duckdb.Error)):
            meta = pq.ParquetFile(path)
            records = meta.metadata.num_rows
            _refuse_duplicated_columns(path, meta.schema_arrow.names)
            cols = con.sql(f"select * from read_parquet({sql_text(path)}) limit 0").columns
        text = ", ".join(f"cast({sql_name(c)} as varchar) as {sql_name(c)}" for c in cols)
        yield Readable(f"select file_row_number + 1 as __row, {text} "
                       f"from read_parquet({sql_text(path)}, file_row_number = true)", records, ("Parquet",),
                       unnumbered=f"select {text} from read_parquet({sql_text(path)})")
        return
    if not head:
        raise InputFileError(f"{path}: the file is empty (expected a header line)")
    if b"\x00" in file_head(path, encoding, 4096):  # a UTF-16 file's head is read as its text
        raise InputFileError(f"{path}: binary content, not a CSV or Parquet file")
    stat = path.stat()
    text = _csv_text(str(path), stat.st_mtime_ns, stat.st_size, encoding)
    if text.refusal:
        raise InputFileError(f"{path}: {text.refusal}")
    _refuse_duplicated_columns(path, _csv_header(path, text))
    with contextlib.ExitStack() as stack:
        read, read_in = path, DUCKDB_ENCODINGS.get(text.encoding)
        if text.oversized:
            copy = stack.enter_context(tempfile.TemporaryDirectory(prefix="ratings-")) + "/read.csv"
            _without_lines(path, text, {line for _, line, _ in text.oversized}, Path(copy))
            read, read_in = Path(copy), "utf-8"
        elif read_in is None or text.mixed_endings:
            copy = stack.enter_context(tempfile.TemporaryDirectory(prefix="ratings-")) + "/utf8.csv"
            with open(path, "rb") as fh, open(copy, "wb") as out:
                blocks = utf8_blocks(iter(lambda: fh.read(1 << 20), b""), text.encoding)
                for block in lf_blocks(blocks) if text.mixed_endings else blocks:
                    out.write(block)
            read, read_in = Path(copy), "utf-8"
        delimiter = (text.delimiter or ",").replace("'", "''")
        # null_padding: a short row is read with its missing values null (validation
        # rejects them); a field beyond the header becomes an unnamed column, ignored.
        rows = (f"read_csv({sql_text(read)}, all_varchar = true, header = true, encoding = '{read_in}', "
                f"delim = '{delimiter}', quote = '\"', escape = '\"', comment = '', null_padding = true")
        yield Readable(f"select row_number() over () as __row, * from {rows}, parallel = false)",
                       text.records, text.notes[1:] if text.encoding == "utf-8" else text.notes,
                       tuple((row, why) for row, _, why in text.oversized),
                       # DuckDB's parallel reader cannot tell where a record over several lines starts
                       f"select * from {rows}, parallel = {'false' if text.multiline else 'true'})",
                       (text.warning,) if text.warning else ())


def _without_lines(path: Path, text: CsvText, lines: set[int], copy: Path) -> None:
    """A UTF-8 copy of the file with each of `lines` read as one empty field: the row is
    kept (the rows after it keep their numbers), and DuckDB never meets the long line;
    each line ending LF when the file mixes them (readable)."""
    encoding = "utf-8-sig" if text.encoding == "utf-8" else text.encoding
    with open(path, encoding=encoding, newline="") as fh, open(copy, "w", encoding="utf-8", newline="") as out:
        for number, line in enumerate(fh, start=1):
            content = line.rstrip("\r\n")
            ending = "\n" if text.mixed_endings and content != line else line[len(content):]
            out.write(('""' if number in lines else content) + ending)


def _csv_header(path: Path, text: CsvText) -> list[str]:
    """The header's names as written (DuckDB renames a second `result` to `result_1`)."""
    encoding = "utf-8-sig" if text.encoding == "utf-8" else text.encoding
    with open(path, encoding=encoding, newline="") as fh:
        return next((row for row in csv.reader(fh, delimiter=text.delimiter or ",", quotechar='"', strict=False)
                     if row), [])


def _refuse_duplicated_columns(path: Path, names: list[str]) -> None:
    """Two columns of one name (as columns are matched: without case or spaces) leave
    no way to tell which holds the data, when they disagree: the file is refused whole."""
    seen: dict[str, str] = {}
    for name in names:
        key = name.strip().lower().lstrip("\ufeff")
        if key and key in seen:
            twice = (f"the column {name!r} appears twice" if name == seen[key] else
                     f"the columns {seen[key]!r} and {name!r} are one name twice (columns are matched without case)")
            raise InputFileError(f"{path}: {twice}; nothing of the file is taken in: keep one column of each name")
        seen[key] = name


def tournament_format(path: Path, encoding: str | None = None) -> str | None:
    """What tournament report a file is, from its first bytes (as text in `encoding`, or
    the one its byte-order mark says): "trf" (FIDE TRF or SWAR), "opengotha" or "egd";
    None for anything else (a table)."""
    head = file_head(path, encoding)
    if head[:4] == b"PAR1" or b"\x00" in head:
        return None
    for name, looks_like in (("trf", looks_like_trf), ("opengotha", looks_like_opengotha), ("egd", looks_like_egd)):
        if looks_like(head):
            return name
    return None


def kind_of(con: duckdb.DuckDBPyConnection, path: Path, encoding: str | None = None) -> str:
    """What a CSV or Parquet input holds, from its columns: games (white_id and
    black_id), a calendar (window_start), a registry (name), initial ratings (rating)."""
    with readable(con, Path(path), encoding) as file:
        with read_as(path, "CSV file"):
            names = {n.strip().lower().lstrip("\ufeff") for n in con.sql(file.source).columns[1:]}
    for kind, needed in (("go_games", {"black_id", "white_id", "winner"}), ("games", {"white_id", "black_id"}),
                         ("events", {"event_id", "start_date"}), ("calendar", {"window_start"}),
                         ("players", {"name"}), ("ratings", {"rating"})):
        if needed <= names:
            return kind
    raise InputFileError(f"{path}: cannot tell what the file holds from its columns ({', '.join(sorted(names))}); "
                         "name its kind with --players, --ratings, --calendar or --games")


# The staged kinds with a `problem` column, found while reading a row (sql/schema.sql).
WITH_READING_PROBLEMS = ("games", "go_games")


# Columns `ratings rejects` adds to the rows it writes out: kept out of the data,
# `file` and `row` name the rejected row a fixed row replaces.
FIX_COLUMNS = ("reason", "submission", "file", "row")


def _staging_select(kind: str, names: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """The staged columns of a kind from the file's columns (matched without case), then
    fixes_file and fixes_row, and the required columns the file lacks."""
    by_name = {n.strip().lower().lstrip("\ufeff"): n for n in names}
    wanted = columns(kind)
    missing = tuple(c for c in REQUIRED[kind] if c not in by_name)
    select = [f"nullif(trim({sql_name(by_name[c])}), '')" if c in by_name else "null" for c in wanted]
    fixes = "file" in by_name and "row" in by_name
    select += [f"try_cast({sql_name(by_name[c])} as bigint)" if fixes else "null" for c in ("file", "row")]
    if kind in WITH_EXTRA:  # extra columns are kept as they came (issue 2; a rule set's initial columns)
        # A header is the file's text: its name goes in as a string literal, never as SQL (issue 50).
        pairs = ", ".join(f"{sql_text(key)}, {sql_name(n)}" for key, n in by_name.items()
                          if key not in wanted and key not in FIX_COLUMNS)
        select.append(f"json_object({pairs})" if pairs else "null")
    return select, missing


def _refuse_stray_fixes(con: duckdb.DuckDBPyConnection, path: Path, kind: str, source: str) -> None:
    """A row of a fix file (`file` and `row` columns, as `ratings rejects --out` writes
    them) must name an open reject of its kind: one that names none (a mistyped number,
    a reject fixed already) would be taken in as a new row beside the one it meant to fix."""
    by_name = {n.strip().lower().lstrip("\ufeff"): n for n in con.sql(source).columns[1:]}
    if "file" not in by_name or "row" not in by_name:
        return
    given_file, given_row = (f"nullif(trim({sql_name(by_name[c])}), '')" for c in ("file", "row"))
    stray = con.execute(f"""
        select s.__row, {given_file}, {given_row}, r.status, f.submission_id
        from ({source}) s
        left join rejects r on r.file_id = try_cast({given_file} as bigint)
                           and r.row_number = try_cast({given_row} as bigint)
        left join source_files f on f.file_id = r.resolved_by_file
        where ({given_file} is not null or {given_row} is not null)
          and (r.status is distinct from 'open'
               or not exists (select 1 from source_files k where k.file_id = r.file_id and k.kind = ?))
        order by s.__row""", [kind]).fetchall()
    if not stray:
        return
    said = []
    for row, file_id, row_number, status, by in stray[:5]:
        if status is None:
            why = "no reject"
        elif status != "open":
            why = f"a reject already {status}" + (f" by submission {by}" if by else "")
        else:
            why = f"a reject of another kind than {kind}"
        said.append(f"row {row} (file {file_id or '?'}, row {row_number or '?'}: {why})")
    more = f" and {len(stray) - 5} more" if len(stray) > 5 else ""
    raise InputFileError(f"{path}: a fix file's rows must name an open reject with their file and row columns "
                         f"(`ratings rejects` lists them); {'; '.join(said)}{more}: nothing of the file is taken in "
                         "(empty both cells of a row to take it in as a new one)")


# The temporary table of a part staged on its own (ingest_file, in a run): its rows in the
# file's order, without their numbers, which are their places (pipeline.validate.staged.staged_rows).
PART_TABLE = "part_{file_id}"


def ingest_file(con: duckdb.DuckDBPyConnection, path: Path, kind: str, run_id: int, submission_id: int,
                staging: str = "main", part: int | None = None, blank_missing: bool = False,
                encoding: str | None = None) -> Ingested:
    """Stage the rows of one input file as a part of a submission; with `part` (the
    file_id of a part staged before from the same content), only its rows that are
    still rejected, which validation then examines again.

    A published rating list is refused whole (pipeline/ingest/published.py), and so is a
    registry file that would blank columns the registry holds, unless `blank_missing`
    (pipeline/ingest/registry.py).

    `staging` is the schema of the staging tables: "main" keeps them in the
    warehouse for a later `ratings validate`; "temp" keeps them in memory when
    validation follows in the same transaction (`ratings run`), each file's rows in a
    table of their own (PART_TABLE). `encoding`: the one named with --encoding.
    """
    path = Path(path)
    if not path.is_file():
        raise InputFileError(f"{path}: no such file")
    file_id = part if part is not None else scalar(con, "select nextval('file_ids')")
    only = ("" if part is None else
            f" where __row in (select row_number from rejects where file_id = {file_id} and status = 'open')")
    with readable(con, path, encoding) as file, read_as(path, "CSV file"):
        if file.oversized and kind not in WITH_READING_PROBLEMS:
            raise InputFileError(f"{path}: {file.oversized[0][1]}; nothing of the file is taken in")
        if part is None:
            _refuse_stray_fixes(con, path, kind, file.source)
        found = con.sql(file.source).columns[1:]
        if part is None and (what := published.layout_of(found, kind)):
            raise InputFileError(published.refusal(path, what, _list_of(con, file.source, found) or
                                                   published.list_of_name(path), kind, found))
        if refusal := layout_refusal(kind, found):
            raise InputFileError(f"{path}: {refusal}: nothing of it is taken in")
        if kind == "ratings" and part is None:
            _refuse_several_lists(con, path, file.source, found)
        if kind == "players" and part is None and not blank_missing and (
                blanked := blanked_columns(con, file.source, found)):
            raise InputFileError(blanking_refusal(path, blanked))
        select, missing = _staging_select(kind, found)
        names = [*columns(kind), "fixes_file", "fixes_row"] + (["extra"] if kind in WITH_EXTRA else [])
        if staging == "temp" and part is None and not file.oversized:
            # In a run, the rows go to a table of the part's own, made in one statement from
            # the parallel read, which keeps the file's order: a row's number is its place
            # (pipeline.validate.staged.staged_rows).
            con.execute(f"create temp table {PART_TABLE.format(file_id=file_id)} as select "
                        + ", ".join(f"{expr} as {sql_name(name)}" for expr, name in zip(select, names))
                        + f" from ({file.unnumbered})")
            con.execute("insert into temp.part_tables values (?)", [file_id])
            return _recorded(con, path, kind, run_id, submission_id, staging, file_id, file, missing,
                             f"temp.{PART_TABLE.format(file_id=file_id)}")
        listed = ", ".join(sql_name(c) for c in ["file_id", "row_number", *names])
        con.execute(f"insert into {staged(con, staging, kind)} ({listed}) "
                    f"select {file_id}, __row, {', '.join(select)} from ({file.source}){only}")
    if file.oversized:  # validation rejects them with the reason, and takes in the others
        con.execute(f"""update {staged(con, staging, kind)} set problem = o.why
                        from (select unnest(?::bigint[]) as row_number, unnest(?::varchar[]) as why) o
                        where file_id = ? and {staged(con, staging, kind)}.row_number = o.row_number""",
                    [[r for r, _ in file.oversized], [w for _, w in file.oversized], file_id])
    if part is not None:
        rows = scalar(con, f"select count(*) from {staged(con, staging, kind)} where file_id = ?", [file_id])
        con.execute("update source_files set status = 'staged', staged_in = ? where file_id = ?", [staging, part])
        return Ingested(kind, str(path), file_id, rows, missing, reexamined=True, notes=file.notes,
                        warnings=file.warnings)
    return _recorded(con, path, kind, run_id, submission_id, staging, file_id, file, missing,
                     f"{staged(con, staging, kind)} where file_id = {file_id}")


# A column naming the list a row belongs to: list_id (`ratings export history`), list_period (the
# federation's history file), period, list, rating_period...
LIST_COLUMN = re.compile(r"(?:^|_)(?:list|period)(?:_|$)")


def _refuse_several_lists(con: duckdb.DuckDBPyConnection, path: Path, source: str, found: list[str]) -> None:
    """Initial ratings are one list, the one in force before the first window: a file of
    several (the federation's history file, 85 lists a player) is refused whole, naming
    its list column. Staged row by row, each player's first row would be taken, from
    whichever list it is in, and every other rejected as listed again (889,394 of the
    Belgian history's rows). A column of lists in which no player appears twice (each
    player's latest rating, with its list) is one list of ratings, and taken."""
    by_name = {n.strip().lower().lstrip("\ufeff"): n for n in found}
    if "player_id" not in by_name:
        return
    player = sql_name(by_name["player_id"])
    for key, name in by_name.items():
        if not LIST_COLUMN.search(key):
            continue
        column = sql_name(name)
        lists, first, last, players, who, times = con.execute(f"""
            with rows as (select nullif(trim({column}), '') as list, nullif(trim({player}), '') as player
                          from ({source})),
                 per_player as (select player, count(distinct list) as lists from rows
                                where player is not null and list is not null group by player)
            select (select count(distinct list) from rows), (select min(list) from rows),
                   (select max(list) from rows), (select count(*) from per_player where lists > 1),
                   (select player from per_player order by lists desc, try_cast(player as bigint), player limit 1),
                   (select max(lists) from per_player)""").fetchone()
        if lists > 1 and players:
            raise InputFileError(
                f"{path}: a file of several lists: its column {name!r} names {lists:,} lists ({first} … {last}) and "
                f"{players:,} players are in more than one (player {who} in {times}); initial ratings are one list, "
                "the one in force before the first window: nothing of it is taken in. Give the rows of that list "
                "alone, as a file of their own")


def _list_of(con: duckdb.DuckDBPyConnection, source: str, found: list[str]) -> str | None:
    """The list a published file's first row names in its list_id column (None: no such column)."""
    column = next((n for n in found if n.strip().lower() == "list_id"), None)
    if column is None:
        return None
    return scalar(con, f"select {sql_name(column)} from ({source}) where {sql_name(column)} is not null limit 1")


def _recorded(con: duckdb.DuckDBPyConnection, path: Path, kind: str, run_id: int, submission_id: int, staging: str,
              file_id: int, file: Readable, missing: tuple[str, ...], rows_in: str) -> Ingested:
    """The part recorded, once the rows staged (`rows_in`: from ... where) are the file's records."""
    rows = scalar(con, f"select count(*) from {rows_in}")
    if rows != file.records:  # every record read, none skipped, none made up
        raise InputFileError(f"{path}: {rows} rows were read but the file holds {file.records} records; "
                             "nothing of it is taken in")
    message = f"missing column(s): {', '.join(missing)}" if missing else None
    record_part(con, file_id, run_id, kind, path, rows, submission_id, staging, message)
    return Ingested(kind, str(path), file_id, rows, missing, notes=file.notes, warnings=file.warnings)


def record_part(con: duckdb.DuckDBPyConnection, file_id: int, run_id: int, kind: str, path: Path, rows: int,
                submission_id: int, staging: str, message: str | None = None) -> None:
    """A staged part in source_files (its sha256 is its submission's)."""
    con.execute("""insert into source_files (file_id, run_id, kind, path, sha256, rows_read, status, message,
                                             submission_id, staged_in)
                   select ?, ?, ?, ?, sha256, ?, 'staged', ?, submission_id, ? from submissions
                   where submission_id = ?""",
                [file_id, run_id, kind, str(Path(path).resolve()), rows, message, staging, submission_id])
