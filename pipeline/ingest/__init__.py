"""Taking files in: each file given to `ingest` or `run` becomes a submission whose
rows are staged, recognised by its content (a tournament report, or a table by its
columns).

The same content again is not a second submission: its rows still rejected are
staged again (a completed registry or --register-new may now let them in), and
nothing else. The content of a replaced or withdrawn submission is refused unless
asked for (--again), so that an old version of a file cannot come back silently.
"""
from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from pipeline.formats.encodings import file_head
from pipeline.formats.sniff import go_report_format, not_read
from pipeline.formats.text_codecs import Encodings
from pipeline.ingest import published, submissions
from pipeline.ingest.submissions import SubmissionError
from pipeline.ingest.tables import (
    Ingested,
    InputFileError,
    file_sha256,
    ingest_file,
    kind_of,
    tournament_format,
)

# The tournament reports' readers load pandas: imported when a report is taken in, so
# that `ratings ingest` of tables loads neither pandas nor Pandera.
if TYPE_CHECKING:
    from pipeline.ingest.go import GoTournamentIngested
    from pipeline.ingest.trf import TournamentIngested


@dataclass(frozen=True)
class Intake:
    """What ingesting one file did."""

    path: Path
    submission_id: int
    format: str
    # "staged" (a new submission), "again" (rejected rows staged again), "nothing", "held" (the
    # content of a held file: nothing staged), "replacing" (a held file now to replace `replaces`)
    outcome: str
    replaces: int | None = None
    parts: tuple[Ingested, ...] = ()
    tournament: TournamentIngested | GoTournamentIngested | None = None


REPORT_NAMES = {"trf": "FIDE TRF or SWAR", "opengotha": "OpenGotha XML", "egd": "EGD results",
                "pairgoth": "pairgoth", "ffg": "FFG .tou", "aga": "AGA results"}


def report_format(path: Path, encoding: str | None = None) -> str | None:
    """What tournament report a file is (its first bytes read as text in `encoding`, or the
    one its byte-order mark says): tables.tournament_format's (trf, opengotha, egd), the Go
    formats it does not know (pairgoth, ffg, aga) asked first."""
    head = file_head(path, encoding)
    if head[:4] == b"PAR1" or b"\x00" in head:
        return None
    return go_report_format(head) or tournament_format(path, encoding)


def refuse_unread(path: Path, encoding: str | None = None) -> None:
    """A file in a format met in the field but not read is refused by name, whatever
    kind it was given as: a cross table staged as a registry would be rejected row by row."""
    with open(path, "rb") as fh:
        raw = fh.read(8192)
    text = file_head(path, encoding)  # a binary save's signature is in its bytes, a text format's in its text
    why = not_read(raw, Path(path).name) or (not_read(text, Path(path).name) if text != raw else None)
    if why is not None:
        raise InputFileError(f"{path}: {why}")


def refuse_published_text(path: Path, kind: str | None, encoding: str | None = None) -> None:
    """A rating list that is no table (FIDE's TXT layout, FIDE's XML) is refused by name,
    whatever kind it was given as (pipeline/ingest/published.py)."""
    head = file_head(path, encoding)
    if head[:4] != b"PAR1" and (found := published.text_layout(head)) is not None:
        what, list_id = found
        raise InputFileError(published.refusal(path, what, list_id or published.list_of_name(path), kind))


def split_tournaments(files: list[tuple[str | None, Path]], encodings: Encodings = Encodings()
                      ) -> tuple[list[tuple[str | None, Path]], list[Path]]:
    """The files split into tables and tournament reports (TRF, SWAR, OpenGotha, EGD, FFG,
    AGA, pairgoth), by content (each read in the encoding named for it, or its own); a known
    format that is not read, or a rating list, is refused first."""
    tables, tournaments = [], []
    for kind, path in files:
        if path.is_file():
            refuse_published_text(path, kind, encodings.of(path))
            refuse_unread(path, encodings.of(path))
    for kind, path in files:
        fmt = report_format(path, encodings.of(path)) if path.is_file() else None
        if kind in (None, "games") and fmt:
            tournaments.append(path)
        elif fmt:  # read as a table, its first line would pass for columns and the refusal name them
            article = "an" if kind[0] in "aeiou" else "a"
            raise InputFileError(f"{path}: given as {article} {kind} file, it is a tournament report "
                                 f"({REPORT_NAMES.get(fmt, fmt)}): nothing of it is taken in; give it as "
                                 "--games, or as a file of `ratings ingest`")
        elif kind is None and path.is_file() and path.suffix.lower() in (".trf", ".trfx"):
            raise InputFileError(f"{path}: named like a TRF file but not a tournament report file "
                                 "(its first lines carry no TRF codes)")
        else:
            tables.append((kind, path))
    return tables, tournaments


def table_kind(con: duckdb.DuckDBPyConnection, kind: str | None, path: Path, encoding: str | None = None) -> str:
    """A table's kind: as named, except that games with a winner column are Go games;
    unnamed, read from the columns."""
    if kind is None:
        return kind_of(con, path, encoding)
    if kind == "games":
        with contextlib.suppress(InputFileError):  # unreadable or columns missing: validation says which
            return "go_games" if kind_of(con, path, encoding) == "go_games" else kind
    return kind


def _submission(con: duckdb.DuckDBPyConnection, path: Path, fmt: str, run_id: int, by: str,
                replaces: int | None, again: bool) -> tuple[int, dict[str, int] | None, str | None]:
    """The submission a file's rows are staged in: a new one, or, for content taken
    in before, that one with its parts (kind → file_id) to stage again; the content of a
    held file stages nothing (outcome "held"), or, --replaces given, becomes that
    file's replacement (outcome "replacing")."""
    sha256 = file_sha256(path)
    existing = submissions.same_content(con, sha256)
    if existing is not None and existing.status == "held" and not again:
        if replaces is None:
            return existing.submission_id, {}, "held"
        submissions.check_replaceable(con, replaces, fmt)
        submissions.take_as_replacement(con, existing.submission_id, replaces)
        return existing.submission_id, {}, "replacing"
    if existing is not None and not again:
        if existing.status in submissions.ACTIVE:
            if replaces is not None:
                raise SubmissionError(f"{path}: the same content as submission {existing.submission_id} "
                                      f"({existing.name}): nothing to replace")
            return existing.submission_id, submissions.parts(con, existing.submission_id), None
        if replaces is None:
            raise SubmissionError(submissions.refused_again(existing, path))
    if replaces is not None:
        submissions.check_replaceable(con, replaces, fmt)
    return submissions.open_submission(con, path, sha256, fmt, by, run_id, replaces), None, None


def submit_tables(con: duckdb.DuckDBPyConnection, files: list[tuple[str | None, Path]], run_id: int, by: str,
                  staging: str = "main", replaces: int | None = None, again: bool = False,
                  blank_missing: bool = False, encodings: Encodings = Encodings()) -> list[Intake]:
    """Stage CSV and Parquet tables, each as a submission; `blank_missing`: a registry file
    may blank the columns it lacks (pipeline/ingest/registry.py); `encodings`: those named
    with --encoding."""
    done = []
    for kind, path in files:
        if not Path(path).is_file():
            raise InputFileError(f"{path}: no such file")
        encoding = encodings.of(path)
        kind = table_kind(con, kind, path, encoding)
        submission_id, before, said = _submission(con, path, kind, run_id, by, replaces, again)
        if said is not None:
            done.append(Intake(Path(path), submission_id, kind, said, replaces))
            continue
        if before is None:
            staged = ingest_file(con, path, kind, run_id, submission_id, staging, blank_missing=blank_missing,
                                 encoding=encoding)
            done.append(Intake(Path(path), submission_id, kind, "staged", replaces, (staged,)))
            continue
        again_parts = tuple(ingest_file(con, path, k, run_id, submission_id, staging, part=f, encoding=encoding)
                            for k, f in before.items() if _still_rejected(con, f))
        done.append(Intake(Path(path), submission_id, kind, "again" if again_parts else "nothing", None, again_parts))
    return done


def submit_tournaments(con: duckdb.DuckDBPyConnection, paths: list[Path], run_id: int, by: str,
                       staging: str = "main", register_new: bool = False, replaces: int | None = None,
                       again: bool = False, default_date: dt.date | None = None,
                       ratings_from_files: bool = False, encodings: Encodings = Encodings()) -> list[Intake]:
    """Stage tournament reports (FIDE TRF, SWAR, OpenGotha, EGD, FFG, AGA, pairgoth), each as a submission,
    their players matched to the registry as it stands; `default_date` dates the
    rounds of a TRF that gives them no date (--date); `ratings_from_files`: a TRF's
    printed ratings become the initial ratings of its players who have none; `encodings`:
    those named with --encoding."""
    # why: the tournament readers build frames (pandas); a table taken in loads none (tests/test_command_imports.py)
    from pipeline.ingest.go import ingest_go_tournament
    from pipeline.ingest.trf import ingest_tournament

    done = []
    for path in paths:
        fmt = report_format(path, encodings.of(path))
        submission_id, before, said = _submission(con, path, fmt, run_id, by, replaces, again)
        if said is not None:
            done.append(Intake(Path(path), submission_id, fmt, said, replaces))
            continue
        if before is not None and not any(_still_rejected(con, f) for f in before.values()):
            done.append(Intake(Path(path), submission_id, fmt, "nothing"))
            continue
        if fmt == "trf":
            t = ingest_tournament(con, path, run_id, submission_id, staging, register_new, before, default_date,
                                  ratings_from_files, encodings.of(path))
            fmt = t.flavour
            if before is None:
                submissions.set_format(con, submission_id, fmt)
        else:
            t = ingest_go_tournament(con, path, run_id, submission_id, staging, register_new, before,
                                     encodings.of(path))
        outcome = "staged" if before is None else "again"
        done.append(Intake(Path(path), submission_id, fmt, outcome, replaces if before is None else None, (), t))
    return done


def _still_rejected(con: duckdb.DuckDBPyConnection, file_id: int) -> bool:
    return bool(con.execute("select 1 from rejects where file_id = ? and status = 'open' limit 1",
                            [file_id]).fetchall())
