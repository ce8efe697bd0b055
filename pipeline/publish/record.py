"""What each list's publication wrote in a folder (the published_files table), so
that a list which kept its revision is neither rebuilt nor reread at the next run.

A late result revises the last lists; before this record, every run rebuilt every
list in memory to compare it with the files on disk, though it wrote only the few a
late result changed (bench/README.md). A list is now left alone when its fingerprint is the one recorded for
this folder and each of its recorded files is on disk with the recorded SHA-256:
an edited, truncated or deleted file is published again (a revision's file, then
refused as ever, since a published revision is never rewritten). Anything else
goes the whole way, so the record can only save work, never change a byte.
"""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb
import pyarrow

from pipeline.config import PACKAGE_DIR, SQL_DIR
from pipeline.warehouse import transaction


@functools.cache
def code_digest() -> str:
    """The pipeline's code and SQL and the libraries that write the bytes: a new
    version of any of them publishes every list again (and so checks it byte for byte)."""
    digest = hashlib.sha256(f"{sys.version}, pyarrow {pyarrow.__version__}, duckdb {duckdb.__version__}".encode())
    for path in sorted([*PACKAGE_DIR.rglob("*.py"), *PACKAGE_DIR.rglob("*.j2"), *SQL_DIR.rglob("*.sql")]):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def list_fingerprints(con: duckdb.DuckDBPyConnection, series, formats: tuple[str, ...],
                      pairing_settings=None) -> dict[str, str]:
    """list_id → what its files depend on: its revision and the registry version it was
    computed with (the names it shows), the previous list's revision (the previous
    ratings it shows; for the first list, the initial ratings), the rule set, the
    formats asked for, the code and, with the pairing files, their settings
    (pipeline.config.PairingSettings): a changed setting is never taken for a list
    left as it was."""
    # The first list's previous ratings are the initial ratings (the rating_history view):
    # they are in its fingerprint, hashed as sql/22_list_signatures.sql hashes them.
    rows = con.execute("""
        select list_id, revision, registry_version,
               lag(list_id) over (order by position), lag(revision) over (order by position),
               case when position = min(position) over ()
                    then (select coalesce(sum(hash(player_id, rating)), 0) from initial_ratings)::varchar end
        from lists where series = ? order by position""", [series.name]).fetchall()
    common = [code_digest(), series.name, series.rule_set.name, sorted(formats)]
    if pairing_settings is not None:
        common.append([pairing_settings.federation, pairing_settings.publish_birth_year])
    return {r[0]: hashlib.sha256(json.dumps([*common, *r]).encode()).hexdigest() for r in rows}


def file_digest(data: bytes) -> tuple[str, int]:
    return hashlib.sha256(data).hexdigest(), len(data)


def _on_disk(path: Path, sha256: str, size: int) -> bool:
    try:
        return path.stat().st_size == size and file_digest(path.read_bytes())[0] == sha256
    except OSError:
        return False


def unchanged_lists(con: duckdb.DuckDBPyConnection, folder: Path, series, fingerprints: dict[str, str],
                    readers: int) -> set[str]:
    """The lists whose recorded publication in `folder` has today's fingerprint and whose
    recorded files are all on disk with their recorded bytes (hashed in `readers` threads:
    hashlib and the file system release the GIL)."""
    recorded: dict[str, list[tuple]] = {}
    for list_id, fingerprint, file, sha256, size in con.execute(
            "select list_id, fingerprint, file, sha256, size from published_files where folder = ? and series = ?",
            [str(folder), series.name]).fetchall():
        recorded.setdefault(list_id, []).append((fingerprint, file, sha256, size))
    candidates = {list_id: files for list_id, files in recorded.items()
                  if all(f[0] == fingerprints.get(list_id) for f in files)}
    checks = [(list_id, folder / file, sha256, size) for list_id, files in candidates.items()
              for _, file, sha256, size in files]
    with ThreadPoolExecutor(max_workers=readers) as pool:
        found = list(pool.map(lambda c: _on_disk(*c[1:]), checks))
    failed = {c[0] for c, ok in zip(checks, found) if not ok}
    return set(candidates) - failed


def record_publication(con: duckdb.DuckDBPyConnection, folder: Path, series, fingerprints: dict[str, str],
                       files: dict[str, dict[str, tuple[str, int]]]) -> None:
    """Record what was written (or found identical) for the lists in `files`
    (list_id → file → (sha256, size)); forget lists the series no longer has, and the
    folders no longer on disk (a test's or a trial's scratch folder)."""
    rows = [(list_id, fingerprints[list_id], file, sha256, size)
            for list_id, written in files.items() for file, (sha256, size) in written.items()]
    columns = [list(c) for c in zip(*rows)] or [[]] * 5
    with transaction(con):
        con.execute("""delete from published_files where folder = ? and series = ?
                       and (list_id in (select unnest(?::varchar[])) or list_id not in (select unnest(?::varchar[])))""",
                    [str(folder), series.name, list(files), list(fingerprints)])
        gone = [f for (f,) in con.execute("select distinct folder from published_files").fetchall()
                if not Path(f).is_dir()]
        con.execute("delete from published_files where list_contains(?::varchar[], folder)", [gone])
        # The columns as parameters, unnested side by side (an Arrow table made from them would load pandas).
        con.execute("""insert into published_files
                       select ?, ?, unnest(?::varchar[]), unnest(?::varchar[]), unnest(?::varchar[]),
                              unnest(?::varchar[]), unnest(?::bigint[]), ?""",
                    [str(folder), series.name, *columns, dt.datetime.now()])
