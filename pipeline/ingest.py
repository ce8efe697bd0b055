"""Ingest: read CSV or Parquet input files into the staging tables, as text.

Nothing is judged here (validation does that); a file whose content was
already taken in for the same kind adds nothing.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.formats.go_files import looks_like_egd, looks_like_opengotha
from pipeline.formats.trf import looks_like_trf
from pipeline.schemas import REQUIRED, columns
from pipeline.warehouse import row, scalar


class InputFileError(Exception):
    """A file that cannot be read at all (not CSV or Parquet, unreadable bytes)."""


@dataclass(frozen=True)
class Ingested:
    kind: str
    path: str
    file_id: int | None  # None: the same content was already ingested
    rows_read: int
    missing_columns: tuple[str, ...]


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def raw_row_readers(con: duckdb.DuckDBPyConnection, path: Path) -> list[str]:
    """SQL readers of the file's rows as text, with `__row` = 1 for the first data row,
    in the order to try them (CSV: UTF-8, then Latin-1).

    The format is read from the content (Parquet's magic bytes), not the name.
    DuckDB keeps the file's order, so row_number() over () is the line order.
    """
    with open(path, "rb") as fh:
        magic = fh.read(4)
    if magic == b"PAR1":
        cols = con.sql(f"select * from read_parquet({_literal(path)}) limit 0").columns
        text = ", ".join(f"cast({_quote(c)} as varchar) as {_quote(c)}" for c in cols)
        return [f"select file_row_number + 1 as __row, {text} "
                f"from read_parquet({_literal(path)}, file_row_number = true)"]
    if not magic:
        raise InputFileError(f"{path}: the file is empty (expected a header line)")
    with open(path, "rb") as fh:
        if b"\x00" in fh.read(4096):
            raise InputFileError(f"{path}: binary content, not a CSV or Parquet file")
    # null_padding reads rows with fewer fields than the header (their missing
    # values are then rejected row by row) when the plain reading finds no header.
    return [f"select row_number() over () as __row, * from read_csv({_literal(path)}, "
            f"all_varchar = true, header = true, encoding = '{encoding}'{padding})"
            for encoding in ("utf-8", "latin-1") for padding in ("", ", null_padding = true")]


def tournament_format(path: Path) -> str | None:
    """What tournament report a file is, from its first bytes: "trf" (FIDE TRF or
    SWAR), "opengotha" or "egd"; None for anything else (a table)."""
    with open(path, "rb") as fh:
        head = fh.read(8192)
    if head[:4] == b"PAR1" or b"\x00" in head:
        return None
    for name, looks_like in (("trf", looks_like_trf), ("opengotha", looks_like_opengotha), ("egd", looks_like_egd)):
        if looks_like(head):
            return name
    return None


def kind_of(con: duckdb.DuckDBPyConnection, path: Path) -> str:
    """What a CSV or Parquet input holds, from its columns: games (white_id and
    black_id), a calendar (window_start), a registry (name), initial ratings (rating)."""
    names: set[str] = set()
    for source in raw_row_readers(con, Path(path)):
        try:
            names = {n.strip().lower().lstrip("\ufeff") for n in con.sql(source).columns[1:]}
            break
        except duckdb.InvalidInputException:
            continue
    for kind, needed in (("go_games", {"black_id", "white_id", "winner"}), ("games", {"white_id", "black_id"}),
                         ("events", {"event_id", "start_date"}), ("calendar", {"window_start"}),
                         ("players", {"name"}), ("ratings", {"rating"})):
        if needed <= names:
            return kind
    raise InputFileError(f"{path}: cannot tell what the file holds from its columns ({', '.join(sorted(names))}); "
                         "name its kind with --players, --ratings, --calendar or --games")


def _staging_select(kind: str, names: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """The staged columns of a kind from the file's columns (matched without case), and
    the required columns the file lacks."""
    by_name = {n.strip().lower().lstrip("\ufeff"): n for n in names}
    wanted = columns(kind)
    missing = tuple(c for c in REQUIRED[kind] if c not in by_name)
    select = [f"nullif(trim({_quote(by_name[c])}), '')" if c in by_name else "null" for c in wanted]
    if kind == "players":  # extra columns are kept as they came (issue 2)
        pairs = ", ".join(f"'{key}', {_quote(n)}" for key, n in by_name.items() if key not in wanted)
        select.append(f"json_object({pairs})" if pairs else "null")
    return select, missing


def ingest_file(con: duckdb.DuckDBPyConnection, path: Path, kind: str, run_id: int,
                staging: str = "main") -> Ingested:
    """Stage the rows of one input file; the same content twice adds nothing.

    `staging` is the schema of the staging tables: "main" keeps them in the
    warehouse for a later `ratings validate`; "temp" keeps them in memory when
    validation follows in the same transaction (`ratings run`).
    """
    path = Path(path)
    if not path.is_file():
        raise InputFileError(f"{path}: no such file")
    sha = file_sha256(path)
    if row(con, "select file_id from source_files where kind = ? and sha256 = ?", [kind, sha]):
        return Ingested(kind, str(path), None, 0, ())
    file_id = scalar(con, "select nextval('file_ids')")
    readable = []
    for source in raw_row_readers(con, path):
        try:
            select, missing = _staging_select(kind, con.sql(source).columns[1:])
        except duckdb.InvalidInputException as err:  # not this encoding, or not a CSV at all
            problem = err
            continue
        readable.append((source, select, missing))
        if not missing:
            break
    if not readable:
        raise InputFileError(f"{path}: not a readable CSV or Parquet file ({problem})")
    # The first reading that finds every required column; else the first that reads
    # at all, and its rows are rejected for the missing columns.
    source, select, missing = next((r for r in readable if not r[2]), readable[0])
    try:
        staged = ["file_id", "row_number", *columns(kind)] + (["extra"] if kind == "players" else [])
        names = ", ".join(_quote(c) for c in staged)
        con.execute(f"insert into {staging}.staged_{kind} ({names}) "
                    f"select {file_id}, __row, {', '.join(select)} from ({source})")
    except duckdb.InvalidInputException as err:
        raise InputFileError(f"{path}: not a readable CSV file ({err})") from err
    rows = scalar(con, f"select count(*) from {staging}.staged_{kind} where file_id = ?", [file_id])
    message = f"missing column(s): {', '.join(missing)}" if missing else None
    con.execute("insert into source_files values (?, ?, ?, ?, ?, ?, null, null, 'staged', ?)",
                [file_id, run_id, kind, str(path.resolve()), sha, rows, message])
    return Ingested(kind, str(path), file_id, rows, missing)
