"""Publish: write each list as CSV and Parquet, and each state as Parquet.

Each revision of a list is published once, as OUT/lists/<list_id>-r<revision>.csv
(and .parquet, .txt, -swiss-manager.csv as asked), and never rewritten: a file of
that name with other bytes is refused, not replaced. OUT/lists/<list_id>.csv is
the latest revision. A file is written only when its bytes change, under a
temporary name then renamed, so a reader never sees half a list and a run that
changes no rating changes no published file; the same warehouse gives
byte-identical files.
"""
from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.config import PairingSettings
from pipeline.formats.arrow_values import one_chunk
from pipeline.formats.cells import LayoutError
from pipeline.progress import progress
from pipeline.rate.series import own_views
from pipeline.publish.record import (
    file_digest,
    list_fingerprints,
    record_publication,
    unchanged_lists,
)
from pipeline.warehouse import stage, stage_sql
from pipeline.writers import csv_bytes, parquet_bytes, replace_atomically, write_bytes

# List and event ids name files: letters, digits, _ . - (YYYY-MM, an event id).
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
REPORT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}-r\d+")


class PublishedFileConflict(Exception):
    """A revision's file was published before with other bytes: this output folder
    holds another warehouse's lists, or someone edited it."""


def write_once(data: bytes, path: Path) -> bool:
    """A revision's file: written the first time, never rewritten; True when written."""
    if path.is_file():
        if path.read_bytes() != data:
            raise PublishedFileConflict(
                f"{path} was published before with other content, and a published revision is never rewritten: "
                "this output folder holds the lists of another warehouse (or was edited); give another --out")
        return False
    replace_atomically(path, lambda tmp: tmp.write_bytes(data))
    return True


def write_dataset(table: pa.Table, out: Path, partition: str) -> None:
    """A Parquet dataset with one folder per value of `partition` (hive style),
    written beside `out` and swapped in whole, so readers never see half of it."""
    out = Path(out).resolve()  # `.` has no name to put a temporary one beside
    if out.exists() and any(not (p.is_dir() and p.name.startswith(f"{partition}=")) for p in out.iterdir()):
        raise FileExistsError(f"{out} exists and holds other files than a dataset by {partition}: "
                              "choose an empty or new folder")
    tmp = out.with_name(f".{out.name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    for key, rows in by_key(table, partition).items():
        folder = tmp / f"{partition}={key}"
        folder.mkdir(parents=True)
        pq.write_table(rows.drop_columns([partition]), folder / "part-0.parquet", compression="zstd")
    if out.exists():
        shutil.rmtree(out)
    os.replace(tmp, out)


FORMATS = ("csv", "parquet", "txt", "swiss-manager")
DEFAULT_FORMATS = ("csv", "parquet")
# The threads that write the lists: one a core, at most four. Each holds one list's
# files in memory (a list of 800,000 players: 52 MB of CSV, Parquet and state), and
# past a few threads the writers' Python parts, which hold the GIL, leave little to gain.
WRITERS = min(4, os.cpu_count() or 1)
# The files of a list's revision, by the suffix list_and_state_files names them with.
LIST_SUFFIXES = (".csv", "-excel.csv", ".parquet", ".txt", "-swiss-manager.csv")
PAIRING_SUFFIXES = (".txt", "-swiss-manager.csv")


def pairing_layouts() -> dict[str, tuple[str, Callable[[pa.Table, str], str]]]:
    """The pairing programs' layouts by format: their suffix and writer (a list, its id:
    its text). Their module loads pandas, which a CSV or Parquet publication never needs;
    called on the main thread before the writers' threads start, since a module loaded
    by a thread can race another thread loading it (tests/test_thread_imports.py)."""
    # why: list_files loads pandas at its top, which a CSV or Parquet publication never needs
    from pipeline.formats import list_files

    return {"txt": (".txt", list_files.fide_list_text),
            "swiss-manager": ("-swiss-manager.csv", lambda table, _: list_files.swiss_manager_csv(table))}


def list_and_state_files(list_id: str, formats: tuple[str, ...], rows: pa.Table | None = None,
                         pairing: pa.Table | None = None,
                         layouts: dict[str, tuple[str, Callable[[pa.Table, str], str]]] | None = None,
                         state: pa.Table | None = None) -> dict[str, bytes]:
    """A list's published files, by their names in its series' folder as its latest revision
    has them: lists/<list_id><suffix> for each of `formats` made from the list's public
    `rows` (`public_lists`: .csv, -excel.csv, .parquet) or, for the pairing programs'
    `layouts` (`pairing_layouts()`), from its `pairing` rows (.txt, -swiss-manager.csv);
    and state/<list_id>.parquet from its `state` rows (the rule set's published_state, with
    list_id). What is not given is not made. `ratings publish` writes these bytes (a
    revision's copy of each list file too) and the site offers them: one maker for both."""
    files = {}
    if rows is not None:
        if "csv" in formats:
            files[f"lists/{list_id}.csv"] = csv_bytes(rows)
        if "excel" in formats:  # beside the CSV other programs load (a published revision never changes)
            files[f"lists/{list_id}-excel.csv"] = csv_bytes(rows, "excel")
        if "parquet" in formats:
            files[f"lists/{list_id}.parquet"] = parquet_bytes(rows)
    if pairing is not None:
        for fmt, (suffix, write) in layouts.items():
            if fmt in formats:
                try:
                    files[f"lists/{list_id}{suffix}"] = write(pairing, list_id).encode("utf-8")
                except LayoutError as err:  # a registry value the layout cannot hold: never cut, never forged
                    raise LayoutError(
                        f"list {list_id}, --format {fmt}: {err}. Publish without --format {fmt}; a registry "
                        "row corrected now shows from the list's next revision (a revision keeps the registry "
                        "it was computed with)") from err
    if state is not None:
        files[f"state/{list_id}.parquet"] = parquet_bytes(state.drop_columns(["list_id"]))
    return files


@dataclass(frozen=True)
class Published:
    list_ids: list[str]
    written: int  # files written (unchanged files are not)
    lists: pa.Table | None  # the public rows (sql/50_published_lists.sql) of every list, when every list was
    # built; None when lists that kept their revision were left alone, when they were not asked for (rows=False)
    # or the rule set has no list files


def publish_series(con: duckdb.DuckDBPyConnection, out: Path, series, formats: tuple[str, ...] = DEFAULT_FORMATS,
                   writers: int = WRITERS, record: bool = True,
                   settings: PairingSettings = PairingSettings(), rows: bool = True) -> Published:
    """Write a series' files into its folder (OUT/ for the warehouse's first series,
    OUT/<series>/ for the others), as its rule set publishes them: for each list
    OUT/state/<list_id>.parquet and, where the rule set publishes list files,
    OUT/lists/<list_id>-r<revision>.{csv,parquet} once (and, as asked, .txt in FIDE's
    list layout and -swiss-manager.csv for pairing programs), the latest revision as
    OUT/lists/<list_id>.* and, for each revision after the first,
    OUT/diffs/<list_id>-r<revision>.csv; a current list where the rule set has one.
    A list whose files this warehouse recorded in this folder, unchanged since and
    still on disk as written, is left alone (pipeline/publish/record.py).
    Returns the list ids, the number of files written and, when every list was built,
    their rows (which the reports read too). `writers`: the threads writing the lists
    (bench/publication.py compares them with one); `record`: False builds every list and
    records nothing (the bench, on a read-only warehouse); `settings`: what the pairing
    files carry besides the public columns (ratings.toml's federation and
    publish_birth_year, which `pipeline.flow.publish` reads; the default: neither); `rows`:
    False returns no rows (Published.lists None), and holds no more than a batch of them
    (BATCH_ROWS): the reports read them, a publication without reports need not."""
    rs = series.rule_set
    out = Path(series.folder(Path(out)))
    (out / "lists").mkdir(parents=True, exist_ok=True)
    (out / "state").mkdir(parents=True, exist_ok=True)
    con.execute("set variable series = ?", [series.name])
    con.execute("set variable estimates = ?", [rs.publishes_estimates])
    own_views(con, series)
    revisions = con.execute("select list_id, revision from lists where series = ? order by position",
                            [series.name]).fetchall()
    for stale in out.glob("*/.*.tmp"):  # left by a killed run
        stale.unlink()
    for list_id, _ in revisions:
        if not FILE_NAME.fullmatch(list_id):  # a file name: never a path out of OUT (validation checks it too)
            raise ValueError(f"list id {list_id!r} cannot name a file")
    folder = out.resolve()
    pairing_formats = rs.list_files and bool({"txt", "swiss-manager"} & set(formats))
    fingerprints = list_fingerprints(con, series, formats, settings if pairing_formats else None)
    kept = unchanged_lists(con, folder, series, fingerprints, writers) if record else set()
    revisions = [r for r in revisions if r[0] not in kept]
    layouts = pairing_layouts() if pairing_formats else None
    # Each batch's rows, read when its lists are written (`batches`); the rows of every list,
    # for the reports, only when asked for (`rows`) and every list is published.
    pairing: dict[str, pa.Table] = {}
    pairing_rows = state_rows = rows_by_list = empty_state = empty_list = None
    kept_rows: list[pa.Table] = []

    def read(batch: list[str]) -> None:
        nonlocal pairing_rows, state_rows, rows_by_list, empty_state, empty_list, pairing
        # the batch before let go first: held while this one was read, two batches' rows
        # were the process's at once (bench/README.md, issue 53's item 7)
        pairing_rows = state_rows = rows_by_list = empty_state = empty_list = None
        pairing = {}
        with only_lists(con, batch):
            states = stage(con, "51_published_states").select(", ".join(("list_id", *rs.published_state))).to_arrow_table()
            lists = public_lists(con, rs) if rs.list_files else None
            pairing_rows = pairing_lists(con, rs, settings) if pairing_formats else None
        pairing = by_key(pairing_rows) if pairing_formats else {}
        state_rows, empty_state = by_key(states), states.slice(0, 0)
        rows_by_list = by_key(lists) if rs.list_files else {}
        empty_list = lists.slice(0, 0) if rs.list_files else None
        if rows and rs.list_files and not kept:
            kept_rows.append(lists)

    refused = threading.Event()
    recorded: dict[str, dict[str, tuple[str, int]]] = {}

    def list_and_state(list_id: str, revision: int) -> int:
        written, files = 0, {}
        if refused.is_set():  # a list failed (a folder of another warehouse, a value a layout cannot hold):
            return written  # no list not yet started is written
        try:
            # a list no player is on yet is a header alone, in the pairing layouts too
            made = list_and_state_files(
                list_id, formats, rows_by_list.get(list_id, empty_list) if rs.list_files else None,
                pairing.get(list_id, pairing_rows.slice(0, 0)) if pairing_formats else None, layouts,
                # an event after which nobody is rated has no state file
                state_rows.get(list_id, empty_state) if rs.list_files or list_id in state_rows else None)
            for name, data in made.items():
                if name.startswith("lists/"):  # the revision's own copy, written once, then the latest
                    suffix = name.removeprefix(f"lists/{list_id}")
                    written += _write_revision(data, out / "lists" / f"{list_id}-r{revision}{suffix}", suffix)
                    files[f"lists/{list_id}-r{revision}{suffix}"] = file_digest(data)
                written += write_bytes(data, out / name)
                files[name] = file_digest(data)
        except BaseException:
            refused.set()
            raise
        recorded[list_id] = files
        return written

    # Arrow's writers and the file system release the GIL: the lists are written in
    # threads, each list's files by one of them, so no file is written twice at once;
    # the first failure, in the lists' order, is the one raised. The revisions published
    # before go first: a folder holding another warehouse's lists is refused before a
    # new revision is added to it.
    again = {(list_id, revision) for list_id, revision in revisions
             if any((out / "lists" / f"{list_id}-r{revision}{suffix}").exists() for suffix in LIST_SUFFIXES)}
    written = 0
    sizes = dict(con.execute("select list_id, count(*) from player_state where series = ? group by list_id",
                             [series.name]).fetchall())
    with ThreadPoolExecutor(max_workers=writers) as pool, \
            progress(step=f"publish {series.name}", total=len(revisions), unit="list") as bar:
        for part in ([r for r in revisions if r in again], [r for r in revisions if r not in again]):
            for batch in batches(part, sizes):
                read([list_id for list_id, _ in batch])
                for files_written in pool.map(list_and_state, *zip(*batch)):
                    written += files_written
                    bar.update()
    if record:
        record_publication(con, folder, series, fingerprints, recorded)
    if rs.current_list:
        current = con.sql(rs.current_list).to_arrow_table()
        if "parquet" in formats:
            written += write_bytes(parquet_bytes(current), out / "lists" / "current.parquet")
        if "csv" in formats:
            written += write_bytes(csv_bytes(current), out / "lists" / "current.csv")
        if "excel" in formats:
            written += write_bytes(csv_bytes(current, "excel"), out / "lists" / "current-excel.csv")
    if rs.list_files:  # the diffs too a batch of lists at a time: a revision of a long history changes millions
        changed = dict(con.execute("select list_id, count(*) from rating_changes where series = ? group by list_id",
                                   [series.name]).fetchall())
        every_list = con.execute("select list_id, revision from lists where series = ? order by position",
                                 [series.name]).fetchall()
        for batch in batches(every_list, changed):
            with only_lists(con, [list_id for list_id, _ in batch]):
                changes = stage(con, "52_published_changes").to_arrow_table()
            if changes.num_rows:
                (out / "diffs").mkdir(exist_ok=True)
            for report, rows_of in by_key(changes, "report").items():
                if REPORT.fullmatch(report):
                    written += write_once(csv_bytes(rows_of.drop_columns(["report"])), out / "diffs" / f"{report}.csv")
            del changes
    every = None
    if rows and rs.list_files and not kept:
        if not kept_rows:  # no list: the rows' columns alone
            with only_lists(con, []):
                kept_rows.append(public_lists(con, rs))
        every = pa.concat_tables(kept_rows)
    return Published(list(fingerprints), written, every)


# The rows a batch of lists is published from (their public rows and states, as Arrow,
# and DuckDB's joins and sort making them): lists are read and written a batch at a time,
# never the whole history at once. Glicko-2 on the Belgian history, 411 monthly lists of
# 4.55 M rows, peaked at 2.1 GB read whole (bench/glicko2_memory.py, bench/README.md).
BATCH_ROWS = 500_000


def batches(revisions: list[tuple[str, int]], sizes: dict[str, int]) -> Iterator[list[tuple[str, int]]]:
    """The lists in their order, in runs of consecutive lists of at most BATCH_ROWS rows
    (`sizes`: each list's; a larger list is a batch alone)."""
    batch, rows = [], 0
    for revision in revisions:
        n = sizes.get(revision[0], 0)
        if batch and rows + n > BATCH_ROWS:
            yield batch
            batch, rows = [], 0
        batch.append(revision)
        rows += n
    if batch:
        yield batch


def _write_revision(data: bytes, path: Path, suffix: str) -> bool:
    """`write_once`, the refusal of a pairing file naming the settings it may come from."""
    try:
        return write_once(data, path)
    except PublishedFileConflict as err:
        if suffix not in PAIRING_SUFFIXES:
            raise
        raise PublishedFileConflict(
            f"{err}. Or ratings.toml's federation or publish_birth_year changed since: a published revision "
            "keeps what it carried, so the pairing files of the new settings go to another --out") from err


@contextmanager
def only_lists(con: duckdb.DuckDBPyConnection, list_ids: list[str] | None) -> Iterator[None]:
    """The publication stages (sql/50, 51, 52, 53: getvariable('publish_lists')) read only
    these lists meanwhile (None: every list), and every list again after."""
    con.execute("set variable publish_lists = ?::varchar[]", [list_ids])
    try:
        yield
    finally:
        con.execute("set variable publish_lists = null::varchar[]")


def public_lists(con: duckdb.DuckDBPyConnection, rule_set) -> pa.Table:
    """The lists' public rows (sql/50_published_lists.sql, for getvariable('series')), with
    the rule set's own columns after the rating (RuleSet.list_columns: Glicko-2's RD), read
    from series_player_state (own_views)."""
    if not rule_set.list_columns:
        return stage(con, "50_published_lists").to_arrow_table()
    rows = con.sql(stage_sql("50_published_lists"))
    chosen = [x for c in rows.columns for x in (f"p.{c}", *(rule_set.list_columns if c == "rating" else ()))]
    # The stage's order, which a join does not keep. The states of the lists asked for alone
    # are joined: the view's join of the shared and the rule set's tables runs over no other list.
    return con.sql(f"""
        select {', '.join(chosen)} from ({stage_sql('50_published_lists')}) p
        join (select * from series_player_state
              where series = getvariable('series')
                and (getvariable('publish_lists') is null or list_contains(getvariable('publish_lists'), list_id))) s
          on s.list_id = p.list_id and s.player_id = p.player_id
        order by p.list_id, p.rating desc, p.player_id""").to_arrow_table()


def list_rows(con: duckdb.DuckDBPyConnection, series, list_ids: list[str]) -> pa.Table:
    """These lists' public rows (`public_lists`), for the reports and the site's downloads."""
    con.execute("set variable series = ?", [series.name])
    own_views(con, series)
    with only_lists(con, list_ids):
        return public_lists(con, series.rule_set)


def pairing_lists(con: duckdb.DuckDBPyConnection, rule_set, settings: PairingSettings = PairingSettings()
                  ) -> pa.Table:
    """The lists as pairing programs load them (sql/53_pairing_lists.sql), with the
    columns the rule set adds (RuleSet.pairing_state: FIDE's K and inactive flag);
    `settings.federation` where the registry gives a player none; the birth year only
    with `settings.publish_birth_year` (private: the federation's decision, whatever
    room the rule set's layout has for it)."""
    extra = [c for c in rule_set.pairing_state if c != "birth_year"]  # read from series_player_state (own_views)
    chosen = ", ".join(["p.* replace (coalesce(p.federation, getvariable('default_federation')) as federation)"]
                       + [f"s.{c}" for c in extra])
    con.execute("set variable default_federation = ?::varchar", [settings.federation])
    table = con.sql(f"""
        select {chosen} from ({stage_sql('53_pairing_lists')}) p
        left join series_player_state s
          on s.series = getvariable('series') and s.list_id = p.list_id and s.player_id = p.player_id
        order by p.list_id, p.estimated, p.rating desc, p.player_id""").to_arrow_table()
    return table if settings.publish_birth_year else table.drop_columns(["birth_year"])


def by_key(table: pa.Table, key: str = "list_id") -> dict[str, pa.Table]:
    """Each list's rows of a table sorted by `key`, as zero-copy slices."""
    if not table.num_rows:
        return {}
    counts = pc.value_counts(one_chunk(table.column(key)))  # in order of first appearance
    keys, sizes = counts.field("values").to_pylist(), counts.field("counts")
    # Arrow's to_numpy would load pandas for a command that has no other use for it.
    ends = pc.cumulative_sum(sizes).to_pylist()
    return {k: table.slice(end - n, n) for k, end, n in zip(keys, ends, sizes.to_pylist())}
