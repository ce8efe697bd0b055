"""Where a command may write what it makes: into its own folders, and never over a
published list nor into a folder of published lists.

`site --out` and `compare --out` rewrite index.html and a dozen other names: a user's
folder holding such a file lost it without a word. A folder is taken only when it is
new, empty, or marked by the same command's earlier output (MARKER), so that a
command can be run again into its own output."""
from __future__ import annotations

import re
from pathlib import Path

MARKER = ".ratings-output"  # its content: the command that writes the folder
QUERY_SUFFIXES = (".csv", ".parquet")
# A published revision's file (pipeline.publish: OUT/lists/<id>-r<N>..., never rewritten).
REVISION_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}-r\d+"
                           r"(\.csv|-excel\.csv|\.parquet|\.txt|-swiss-manager\.csv)")


class OutputRefused(Exception):
    """A command would write over what is not its own; the message says where and why."""


def claim_folder(folder: Path, command: str) -> None:
    """Make `folder` the output of `command`, or refuse it: a folder holding anything
    but `command`'s own earlier output is someone else's."""
    folder = Path(folder)
    marker = folder / MARKER
    if folder.exists() and not folder.is_dir():
        raise OutputRefused(f"{folder}: not a folder (give --out a folder for the {command} files)")
    if folder.is_dir() and any(folder.iterdir()):
        owner = marker.read_text(encoding="utf-8").strip() if marker.is_file() else None
        if owner != command:
            made_by = f"`ratings {owner}`'s output" if owner else "files this command did not write"
            raise OutputRefused(f"{folder} holds {made_by}: `ratings {command}` writes only into a new or empty "
                                f"folder, or one it wrote before; give another --out (or empty that folder)")
        return
    folder.mkdir(parents=True, exist_ok=True)
    try:
        marker.write_text(command + "\n", encoding="utf-8")
    except OSError as err:  # a full disk fails in write(), whose error names no file
        raise OSError(err.errno, err.strerror or str(err), str(marker)) from err


def check_query_file(con, out_file: Path, suffixes: tuple[str, ...] | None = QUERY_SUFFIXES) -> None:
    """A query's result goes to a .csv or .parquet file outside every folder of published
    lists (check_place: a published list and state is never replaced by a query's result,
    nor is a query's result uploaded with them) and outside the folders other commands
    marked as their output, and an existing revision's file is refused in any folder;
    `suffixes` None: any name (rejects --out). Other files are replaced, as a shell's `>`
    replaces them: a query written again is the usual case."""
    out_file = Path(out_file)
    if suffixes is not None and out_file.suffix.lower() not in suffixes:
        raise OutputRefused(f"{out_file}: write the result to a {' or '.join(suffixes)} file "
                            f"(the formats --out writes, named by the extension)")
    check_place(con, out_file, "the result")
    target = out_file.resolve()
    if target.exists() and REVISION_FILE.fullmatch(target.name) and target.parent.name == "lists":
        raise OutputRefused(f"{out_file}: refused, it is a published revision of a list, never rewritten "
                            "(write the result elsewhere)")


def check_place(con, path: Path, what: str, command: str | None = None) -> None:
    """`path`, a file or a folder a command writes, is in no folder of published lists and
    in no folder another command marked as its output (`command`'s own folder aside:
    claim_folder says whether it may be written again); else OutputRefused, naming it."""
    target = Path(path).resolve()
    folder = publication_folder(con, target)
    if folder is not None:
        raise OutputRefused(f"{path}: refused, it is in {folder}, a folder of published lists and states "
                            f"(write {what} elsewhere)")
    # A site is uploaded as a whole: a query's result left in it (players' birth years,
    # say) would be published with it, and the folder is no longer the command's own.
    for marked in (target, *target.parents):
        owner = (marked / MARKER).read_text(encoding="utf-8").strip() if (marked / MARKER).is_file() else None
        if owner is not None and not (owner == command and marked == target):
            raise OutputRefused(f"{path}: refused, it is in {marked}, the output of "
                                f"`ratings {owner or 'another command'}` (write {what} elsewhere)")


def publication_folder(con, target: Path) -> Path | None:
    """The folder of published lists holding `target` (resolved), or None: one this
    warehouse published into (its record), or any folder laid out as publication lays
    one out, lists/ beside state/ (another warehouse's, or one this warehouse's record
    no longer names): the current lists and states there are as much the federation's
    as its revisions."""
    recorded = {Path(f) for (f,) in con.execute("select distinct folder from published_files").fetchall()}
    return next((f for f in (target, *target.parents)
                 if f in recorded or ((f / "lists").is_dir() and (f / "state").is_dir())), None)


def submitted_files(con) -> set[Path]:
    """The files the warehouse's submissions were read from, resolved: a command's output
    (query --out, rejects --out) never lands on one."""
    return {Path(p).resolve() for (p,) in con.execute("select path from submissions").fetchall()}
