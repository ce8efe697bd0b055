"""The files of a list players download from the site: byte for byte those `ratings
publish` writes for the list's latest revision (made by the function publication calls,
pipeline.publish.list_and_state_files), each with its SHA-256, and the SHA256SUMS file
that checks a folder of them (`sha256sum -c SHA256SUMS`)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.config import PairingSettings, pairing_settings
from pipeline.formats.cells import LayoutError
from pipeline.publish import (
    FILE_NAME,
    REPORT,
    by_key,
    csv_bytes,
    list_and_state_files,
    list_rows,
    only_lists,
    pairing_layouts,
    pairing_lists,
)
from pipeline.publish.record import file_digest
from pipeline.rate.series import SeriesError, own_views
from pipeline.ruleset.words import span
from pipeline.warehouse import stage

# Each format: the suffix publish names its file by (OUT/lists/<list_id><suffix>), its label.
LIST_FORMATS = {"csv": (".csv", "CSV"), "excel": ("-excel.csv", "CSV (spreadsheet)"),
                "parquet": (".parquet", "Parquet"), "txt": (".txt", "TXT (FIDE layout)"),
                "swiss-manager": ("-swiss-manager.csv", "Swiss-Manager")}
PAIRING_FORMATS = ("txt", "swiss-manager")
# Each revision's diff (OUT/diffs/<list_id>-r<revision>.csv), named apart from the
# list files: lists/<list_id>-r<revision>.csv is the revision's list, not its changes.
DIFF = ("-diff.csv", "Changes (CSV)")
FORMATS = (*LIST_FORMATS, "diff")
# What a public site offers: the pairing layouts carry birth years (an arbiter's files,
# never a public page's).
PUBLIC = ("csv", "excel", "parquet", "diff")


@dataclass(frozen=True)
class Download:
    name: str  # the file's name: 2019-09.csv, 2019-09-swiss-manager.csv, 2019-09-r2-diff.csv
    label: str  # the format's short English name
    data: bytes
    sha256: str  # hex
    size: int


def download(name: str, label: str, data: bytes) -> Download:
    return Download(name, label, data, *file_digest(data))


class Downloads(dict):
    """Each list's downloads (list id -> [Download], in the order of FORMATS), and
    `skipped`: the files left out, by name, and why (a value a layout cannot hold)."""

    def __init__(self, files: dict[str, list[Download]], skipped: dict[str, str]):
        super().__init__(files)
        self.skipped = skipped


def list_downloads(con: duckdb.DuckDBPyConnection, series, list_ids: list[str], formats: Iterable[str] = FORMATS,
                   settings: PairingSettings | None = None) -> Downloads:
    """The files of these lists of `series` as publish writes them for their latest
    revision: the CSV, the spreadsheet's CSV, Parquet, FIDE's TXT and Swiss-Manager's
    CSV, and the diff of each revision after the first (`formats`: those wanted, of
    FORMATS). A format whose layout cannot hold a registry value is left out of that
    list, the reason in `skipped`. `settings`: what the pairing files carry
    (default: ratings.toml's, as `ratings publish` reads them). A rule set that
    publishes no list files (Go's events) has none. Every list's files are held in
    memory: ask for the few lists the site offers."""
    given = set(formats)
    if given - set(FORMATS):
        raise ValueError(f"formats {', '.join(sorted(given - set(FORMATS)))}: not among {', '.join(FORMATS)}")
    formats = [f for f in FORMATS if f in given]
    revisions = dict(con.execute("""select list_id, revision from lists where series = ?
                                    and list_id in (select unnest(?::varchar[]))""",
                                 [series.name, list(list_ids)]).fetchall())
    missing = [l for l in list_ids if l not in revisions]
    if missing:
        held = [r[0] for r in con.execute("select list_id from lists where series = ? order by position",
                                          [series.name]).fetchall()]
        raise SeriesError(f"no list {', '.join(map(repr, missing))} in {series.name}: its lists are {span(held)}")
    for list_id in list_ids:
        if not FILE_NAME.fullmatch(list_id):  # it names the files: never a path (publish refuses it too)
            raise ValueError(f"list id {list_id!r} cannot name a file")
    rs = series.rule_set
    if not rs.list_files:
        return Downloads({list_id: [] for list_id in list_ids}, {})
    # What publish_series sets before its stages read the lists.
    con.execute("set variable series = ?", [series.name])
    con.execute("set variable estimates = ?", [rs.publishes_estimates])
    own_views(con, series)
    lists = None  # only what the formats asked for read (the diffs alone: no list's rows)
    if {"csv", "excel", "parquet"} & set(formats):
        lists = list_rows(con, series, list(list_ids))
    rows = by_key(lists) if lists is not None else {}
    pairing_rows, pairing = None, {}
    if set(PAIRING_FORMATS) & set(formats):
        if settings is None:  # ratings.toml's, read only when the pairing files are made (as publish does)
            settings = pairing_settings()
        with only_lists(con, list(list_ids)):
            pairing_rows = pairing_lists(con, rs, settings)
        pairing = by_key(pairing_rows)
    layouts = pairing_layouts() if pairing_rows is not None else None
    # Every revision's diff, not the latest's alone: a player page links the revision that
    # changed the player's rating, which an even later revision does not replace.
    wanted = [f"{l}-r{n}" for l in list_ids for n in range(2, revisions[l] + 1)]
    reports = _diffs(con, wanted) if "diff" in formats else {}
    files, skipped = {}, {}
    for list_id in list_ids:  # a few lists, each a few files: the rows are Arrow slices
        # a list no player is on: a header alone, as published
        one = rows.get(list_id, lists.slice(0, 0)) if lists is not None else None
        found = []
        for fmt in (f for f in formats if f in LIST_FORMATS):
            suffix, label = LIST_FORMATS[fmt]
            one_pairing = pairing.get(list_id, pairing_rows.slice(0, 0)) if fmt in PAIRING_FORMATS else None
            try:
                data = list_and_state_files(list_id, (fmt,), one, one_pairing, layouts)[f"lists/{list_id}{suffix}"]
            except LayoutError as err:  # never cut to fit, never the site refused for one file
                skipped[f"{list_id}{suffix}"] = str(err)
                continue
            found.append(download(f"{list_id}{suffix}", label, data))
        for n in range(2, revisions[list_id] + 1):
            report = f"{list_id}-r{n}"
            if report in reports:
                found.append(download(f"{report}{DIFF[0]}", DIFF[1], reports[report]))
        files[list_id] = found
    return Downloads(files, skipped)


def _diffs(con: duckdb.DuckDBPyConnection, wanted: list[str]) -> dict[str, bytes]:
    """The diffs (OUT/diffs/<report>.csv) of these revisions, as publish writes them."""
    if not wanted:
        return {}
    changes = stage(con, "52_published_changes").to_arrow_table()
    # A filter keeps the stage's order, which by_key's slices need.
    changes = changes.filter(pc.is_in(changes["report"], pa.array(wanted, pa.string())))
    return {report: csv_bytes(rows.drop_columns(["report"])) for report, rows in by_key(changes, "report").items()
            if REPORT.fullmatch(report)}


def checksums_text(downloads: Iterable[Download] | Mapping[str, Iterable[Download]]) -> bytes:
    """SHA256SUMS of these files (or of every list's, given list_downloads' result), in
    sha256sum's layout, by name: `sha256sum -c SHA256SUMS` checks the folder that holds them."""
    files = [d for many in downloads.values() for d in many] if isinstance(downloads, Mapping) else list(downloads)
    named: dict[str, str] = {}
    for d in files:
        if named.setdefault(d.name, d.sha256) != d.sha256:
            raise ValueError(f"two files named {d.name} with other content: one folder cannot hold both")
    # Two spaces: text mode, which sha256sum reads as it reads binary on POSIX systems.
    return "".join(f"{sha}  {name}\n" for name, sha in sorted(named.items())).encode("ascii")
