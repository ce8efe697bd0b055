"""The site written out (`ratings site`): the JSON API (api/v1/, shared by the
languages, read by the pages' script), the lists' files to download with their
checksums, then the pages of each language: the index of lists, a page per list
(its ranking's first page in the HTML), per player, per club and per event.

A re-run rewrites only what changed: each page's inputs and each data file's text
are hashed into the folder's manifest (.site-manifest.json); a page whose hash is
unchanged and whose file is there is not rendered again, and files of an earlier
run that this one no longer makes are removed. The data step itself computes only
the lists, events and players a change touched, the rest taken from what the run
before kept beside the folder (pipeline/site/kept.py).

The folder is copied to and from a public host: a manifest this command did not
write, or a symbolic link in the folder, would have it remove or write files
elsewhere (the warehouse, the officer's own). Both are refused before anything is
written or removed."""
from __future__ import annotations

import ctypes
import gc
import json
import multiprocessing
import os
import re
import shutil
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from pipeline.outputs import OutputRefused, claim_folder
from pipeline.progress import progress
from pipeline.publish.record import code_digest
from pipeline.site.calculator import calculator_files, calculator_page
from pipeline.site.cards import card_html
from pipeline.site.data import (PAGE_ROWS, UNDER, SiteData, events_json, first_position, json_text, lists_json,
                                site_data)
from pipeline.site.downloads import PUBLIC, checksums_text, list_downloads
from pipeline.site.how import how_globals, how_page
from pipeline.site.i18n import LANGUAGES, catalogue_files, environment, translations
from pipeline.site.kept import Kept, digest, kept_path
from pipeline.site.pending import pending_games, pending_json
from pipeline.site.pending_contact import pending_contact
from pipeline.site.player_page import player_api_path, player_tables
from pipeline.site.states import state_downloads
from pipeline.writers import write_bytes

STATIC = Path(__file__).parent / "static"
SCHEMA = Path(__file__).parent / "api"
MANIFEST = ".site-manifest.json"
API = "api/v1/"
POOL_FROM = 64  # pages to write from which worker processes are worth their start
PARTS, PART_MOST = 8, 500  # the files written are dealt in parts: 8 a core, 500 files at most
DIGEST = re.compile(r"[0-9a-f]{16}")  # a manifest's hash (_digest)
PR_SET_PDEATHSIG = 1  # Linux's prctl option: the signal a process gets when its parent dies


@dataclass(frozen=True)
class Built:
    players: int
    lists: int
    pages: int  # pages of this site
    bytes: int  # the site's size (every file it holds)
    changed: int  # files written by this run
    unchanged: int  # files left as they were
    removed: int  # files of an earlier run no longer part of the site


@dataclass
class _Job:
    """What every language's pages are made from (prepared once, read by the workers)."""

    out: Path
    languages: list[str]
    data: SiteData
    downloads: dict[str, list]
    pending: dict[int, dict]
    contact: str | None  # ratings.toml's contact, on the pending pages
    rated: frozenset[int]  # players with a page: a card's other opponents are named, not linked
    events: dict[str, str]  # event name -> its page's file name (a card links its events by them)
    code: str  # the code's digest (publish.record.code_digest)
    plans: dict[str, list] = field(default_factory=dict)  # the pages to write, by language
    files: list[tuple[str, bytes]] = field(default_factory=list)  # the data files to write
    # each language's templates, made once a process (a worker's own, after the fork) for all its parts
    renderers: dict[str, object] = field(default_factory=dict)


_JOB: _Job | None = None  # set before the worker processes fork: they inherit it, nothing is pickled


def _files(folder: Path) -> dict[str, int]:
    """Every file under `folder`: its path (with /) and its size, from one walk;
    OutputRefused at a symbolic link (this command writes none, and would write or
    remove files through it, wherever it points)."""
    found = {}
    stack = [("", str(folder))]
    while stack:
        prefix, where = stack.pop()
        with os.scandir(where) as entries:
            for e in entries:
                if e.is_symlink():
                    raise OutputRefused(f"{e.path}: a symbolic link in the site folder (to {os.readlink(e.path)}): "
                                        "`ratings site` writes no link and would write or remove files through "
                                        "it; remove the link, or give another --out")
                if e.is_dir(follow_symlinks=False):
                    stack.append((f"{prefix}{e.name}/", e.path))
                elif e.is_file(follow_symlinks=False):
                    found[f"{prefix}{e.name}"] = e.stat().st_size
    return found


def _key(*parts) -> str:
    return digest(json.dumps(parts, default=str, ensure_ascii=False, sort_keys=True).encode())


class _Manifest:
    """The site's files and the hash of what made each (a page: its inputs; a data
    file: its bytes), so that a re-run skips what is unchanged."""

    def __init__(self, out: Path, whole: bool = False):
        self.out, self.whole = out, whole  # whole: every file written again
        # One walk of the folder rather than a stat a file (a hundred thousand of them);
        # it refuses a link before the manifest is read (the manifest a link, too). Its
        # sizes, kept up to date as files are written and removed, are the site's size.
        self.sizes = _files(out)
        self.there = set(self.sizes)
        self.before = _manifest_before(out)
        # A worker killed with its parent (_die_with) may have left the temporary copy of
        # the file it was writing (.NAME.tmp: publish.replace_atomically), which no run makes.
        for name in [n for n in self.there if n.rpartition("/")[2].startswith(".") and n.endswith(".tmp")]:
            (out / name).unlink()
            self.there.discard(name)
            del self.sizes[name]
        self.now: dict[str, str] = {}
        self.files: list[tuple[str, bytes]] = []  # the data files to write
        self.changed = self.unchanged = 0

    def wanted(self, path: str, key: str) -> bool:
        """Whether `path` must be (re)written: its key is new or its file is gone."""
        self.now[path] = key
        if not self.whole and self.before.get(path) == key and path in self.there:
            self.unchanged += 1
            return False
        self.changed += 1
        return True

    def write(self, path: str, content: bytes) -> None:
        """Keep `content` to be written to `path` (by the workers, with the pages) if it changed."""
        if self.wanted(path, digest(content)):
            self.files.append((path, content))

    def forget(self, prefix: str) -> None:
        """Files under `prefix` were removed (the old layout's): no longer counted."""
        for name in [n for n in self.sizes if n.startswith(prefix)]:
            del self.sizes[name]
            self.there.discard(name)

    def close(self) -> int:
        """Remove the files of the run before that this one did not make; save."""
        removed = 0
        folders = set()
        for path in sorted(set(self.before) - set(self.now)):
            target = self.out / path
            if target.is_file():
                target.unlink()
                self.sizes.pop(path, None)
                removed += 1
                folders.update(target.parents[:len(Path(path).parts) - 1])
        for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
            if not any(folder.iterdir()):  # a folder left empty (a language, a list's downloads) goes too
                folder.rmdir()
        saved = json.dumps(self.now, sort_keys=True, indent=0).encode()
        write_bytes(saved, self.out / MANIFEST)
        self.sizes[MANIFEST] = len(saved)
        return removed


def _manifest_before(out: Path) -> dict[str, str]:
    """The manifest the run before wrote (none: {}): each file of the site, by its path in
    the folder, and its hash. OutputRefused when it is not what this command writes
    (always written whole: pipeline.publish.write_bytes), since its names are the files a
    re-run removes."""
    path = out / MANIFEST
    if not path.exists():
        return {}
    try:
        before = json.loads(path.read_bytes())
    except ValueError as err:
        before, problem = None, f"not JSON ({err})"
    else:
        problem = _manifest_problem(before)
    if problem is None:
        return before
    raise OutputRefused(f"{path}: not the manifest `ratings site` writes, {problem}. Its names are the files a "
                        f"re-run removes, and it was changed outside the pipeline: nothing was written or removed; "
                        f"write the site into a new folder (or empty {out})")


def _manifest_problem(manifest) -> str | None:
    """What makes `manifest` (read from JSON) other than this command's: None, nothing."""
    if not isinstance(manifest, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
        return f"{kind.get(type(manifest), 'null')} where the site's files are an object"
    for name, key in manifest.items():
        if not _site_name(name):
            return f"its entry {name!r} is not a file inside the site folder"
        if not (isinstance(key, str) and DIGEST.fullmatch(key)):
            return f"its entry {name!r} holds {json.dumps(key)}, not a hash this command writes"
    return None


def _site_name(name: str) -> bool:
    """Whether `name` can be a file the site writes: a path inside the folder, of plain
    parts (no '..', not absolute, no hidden file such as the manifest or the marker)."""
    return bool(name) and all(part and not part.startswith(".") and "\\" not in part and "\0" not in part
                              for part in name.split("/"))


def build_site(con: duckdb.DuckDBPyConnection, series, out: Path, languages: list[str], card_lists: int = 1,
               since: str | None = None, download_lists: int | None = 1, pending: bool = False,
               contact: str | None = None, whole: bool = False) -> Built:
    """Write the site of `series` to `out` in `languages` (the first: the default),
    its lists from `since` on (default: all), the files of its latest
    `download_lists` lists (None: every list) to download, and with `pending` the
    games received for the next list, with whom to write to about them (`contact`);
    `whole`: every list's data computed and every file written again, nothing taken
    from the run before."""
    global _JOB
    # Two bars, one after the other: the steps before the pages, then the files written,
    # counted as the workers finish each part (the pages are most of the run).
    bar = progress(step="site", total=2, unit="step")
    bar.set_postfix_str("data")
    first_position(con, series, since)  # an unknown list refused before the folder is made
    claim_folder(out, "site")
    manifest = _Manifest(out, whole)  # refused before any file is written or removed
    code = code_digest()
    # The JSON files the folder holds as its manifest says: a text kept is the file there.
    on_disk = {path[len(API):]: key for path, key in manifest.before.items()
               if path.startswith(API) and path in manifest.there}
    data = site_data(con, series, card_lists, since, Kept(kept_path(out), whole, on_disk), code)
    if _remove_old_layout(out):
        manifest.forget("data/")
    bar.update()
    bar.set_postfix_str("downloads")
    downloads = _downloads(con, series, data.lists, download_lists)
    pending_players = {}
    if pending:
        pending_players = pending_json(pending_games(con, series))
    _data_files(manifest, data, downloads, pending_players, languages)
    bar.update()
    bar.close()
    job = _JOB = _Job(out, languages, data, downloads, pending_players, contact,
                      frozenset(p["player_id"] for p in data.players), {e["event"]: e["slug"] for e in data.events},
                      code)
    try:
        pages = _pages(job)
        for lang in languages:
            # A page's words are in its language's catalogues, which the code's digest leaves out.
            words = digest(b"".join(f.read_bytes() for f in catalogue_files(lang)))
            # Both are hashes already: joined as text, not encoded again as JSON.
            job.plans[lang] = [page for page, key in pages
                               if manifest.wanted(f"{lang}/{page[1]}", digest(f"{words}{key}".encode()))]
        job.files = manifest.files
        manifest.sizes.update(_write(job))
    finally:
        _JOB = None
    removed = manifest.close()
    return Built(len(data.players), len(data.lists), len(pages) * len(languages), sum(manifest.sizes.values()),
                 manifest.changed, manifest.unchanged, removed)


def _remove_old_layout(out: Path) -> bool:
    """A site written before the JSON API (no manifest) kept its data as scripts in
    DIR/data/ (search.js, lists/, cards/): this command's own old files, removed once
    (True)."""
    old = out / "data"
    if not (out / MANIFEST).exists() and (old / "search.js").is_file():
        shutil.rmtree(old)
        return True
    return False


def _downloads(con: duckdb.DuckDBPyConnection, series, lists: list[dict], download_lists: int | None
               ) -> dict[str, list]:
    """The files to download of the latest `download_lists` lists (None: all), and of
    every revised list its changes (the player pages link them)."""
    ids = [l["list_id"] for l in lists]
    chosen = ids if download_lists is None else ids[max(len(ids) - download_lists, 0):]
    if not series.rule_set.list_files:  # a rule set of events publishes states (Go): no list, no diff
        return state_downloads(con, series, chosen) if chosen else {}
    revised = [l["list_id"] for l in lists if l["revision"] > 1 and l["list_id"] not in chosen]
    downloads = list_downloads(con, series, chosen, formats=PUBLIC) if chosen else {}
    if revised:
        downloads.update(list_downloads(con, series, revised, formats=("diff",)))
    return downloads


def _data_files(manifest: _Manifest, data: SiteData, downloads: dict[str, list], pending: dict[int, dict],
                languages: list[str]) -> None:
    """The files shared by the languages (style, script, the JSON API, the downloads and
    their checksums, the redirect to the first language) and each language's labels,
    given to the manifest (which keeps those that changed)."""
    for name in ("site.css", "site.js"):
        manifest.write(name, (STATIC / name).read_bytes())
    for name, content in calculator_files(data.series.rule_set).items():
        manifest.write(name, content)
    for path, key in sorted(data.digests.items()):
        # a text kept from the run before is not there: its file is, with this digest (kept.py)
        if manifest.wanted(f"{API}{path}", key):
            manifest.files.append((f"{API}{path}", data.api[path].encode("utf-8")))
    manifest.write("api/v1/lists.json", lists_json(data, downloads).encode("utf-8"))
    manifest.write("api/v1/events.json", events_json(data).encode("utf-8"))
    for name in sorted(p.name for p in SCHEMA.iterdir() if p.suffix in (".json", ".html")):
        manifest.write(f"api/v1/{name}", (SCHEMA / name).read_bytes())
    for list_id, files in downloads.items():
        for d in files:
            manifest.write(f"downloads/{list_id}/{d.name}", d.data)
        manifest.write(f"downloads/{list_id}/SHA256SUMS", checksums_text(files))
    for player_id, p in sorted(pending.items()):
        manifest.write(f"api/v1/pending/{player_id}.json", json_text(p).encode("utf-8"))
    first = languages[0]
    manifest.write("index.html", (f'<!doctype html><html lang="{first}"><meta charset="utf-8"><title>{first}</title>'
                                  f'<meta http-equiv="refresh" content="0; url={first}/index.html">'
                                  f'<a href="{first}/index.html">{LANGUAGES[first]}</a></html>\n').encode("utf-8"))
    for lang in languages:
        manifest.write(f"{lang}/labels.js", _labels(lang, data.series.rule_set))


def _write(job: _Job) -> dict[str, int]:
    """Write the job's data files and pages planned: a worker process a core, each writing
    parts of them in turn (the data files, then every language's pages), the bar moved as
    each part is written: the same files whatever the number of cores. Returns each file
    written (its path in the site) and its size."""
    todo = [("", k) for k in range(len(job.files))] + [(lang, i) for lang in job.languages
                                                        for i in range(len(job.plans[lang]))]
    cores = os.cpu_count() or 1
    bar = progress(step="site pages", total=len(todo), unit="file")
    try:
        return _write_parts(todo, cores, bar)
    finally:
        bar.close()


def _write_parts(todo: list[tuple[str, int]], cores: int, bar) -> dict[str, int]:
    """Write `todo` in parts (PARTS a core: the bar moves often, a worker is never idle long),
    by `cores` worker processes from POOL_FROM files on; each file's path and size."""
    size = max(1, min(PART_MOST, -(-len(todo) // (cores * PARTS))))
    shares = [todo[k:k + size] for k in range(0, len(todo), size)]
    sizes: dict[str, int] = {}
    if len(todo) < POOL_FROM or cores < 2:
        for share in shares:
            sizes.update(_render(share))
            bar.update(len(share))
        return sizes
    # A forked worker must not run the destructors of what it inherited: DuckDB's
    # objects, collected in a child that has none of DuckDB's threads, crash it
    # (a segmentation fault, seen when other work left a connection in a reference
    # cycle: the tests, pytest-xdist workers). So the garbage goes now, in this
    # process, and what is left is frozen out of the children's collections.
    gc.collect()
    gc.freeze()
    try:
        with ProcessPoolExecutor(min(cores, len(shares)), mp_context=multiprocessing.get_context("fork"),
                                 initializer=_die_with, initargs=(os.getpid(),)) as pool:
            written = {pool.submit(_render, share): len(share) for share in shares}
            for done in as_completed(written):
                sizes.update(done.result())  # a worker's error, raised here
                bar.update(written[done])
    finally:
        gc.unfreeze()
    return sizes


def _die_with(parent: int) -> None:
    """A worker's start: it dies when `parent`, the process that made it, dies (killed,
    kill -9 included), instead of writing on into a folder no run manages, holding the
    warehouse's file and the job's memory."""
    if sys.platform.startswith("linux"):
        # The kernel sends the signal when the thread that forked the worker ends: the
        # main thread (the pool forks its workers all at once, from the caller's thread).
        if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    else:  # no such signal: a thread watches whether the worker was given to another parent
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the worker could ask
        os._exit(1)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _pages(job: _Job) -> list[tuple[tuple, str]]:
    """Every page of a language, (template, path, depth, values[, cards]), with the hash
    of what makes it (its values, the languages, the code's digest): the same in every
    language, checked against the manifest for each with that language's words."""
    d = job.data
    # The code, and what the rule set declares the pages show (its columns' headings): a
    # federation's rule set lives outside the code's digest.
    code = (job.code, repr(d.series.rule_set.site))
    latest = d.lists[-1]["list_id"] if d.lists else None
    calculator = calculator_page(d.series.rule_set)
    pages = [("index", "index.html", 1, {"lists": d.lists, "latest": latest, "pending": len(job.pending),
                                         "calculator": calculator is not None}),
             how_page(d.series.rule_set)]
    if calculator:
        pages.append(calculator)
    for l in d.lists:
        regions, clubs, aged, sexed = d.choices.get(l["list_id"], ([], [], False, False))
        files = [{"name": f.name, "label": f.label, "sha256": f.sha256, "size": f.size}
                 for f in job.downloads.get(l["list_id"], [])]
        pages.append(("list", f"lists/{l['list_id']}.html", 2,
                      {"l": l, "rows": d.first_rows.get(l["list_id"], []), "regions": regions, "clubs": clubs,
                       "aged": aged, "sexed": sexed, "files": files}))
    for slug_, players in d.clubs.items():
        pages.append(("club", f"clubs/{slug_}.html", 2, {"club": players[0]["club"], "list_id": latest,
                                                          "players": players}))
    for e in d.events:
        pages.append(("event", f"events/{e['slug']}.html", 2, {"e": e}))
    for p in d.players:
        pid = p["player_id"]
        cards = d.cards.get(pid, [])
        # The history and events in the HTML are the player's JSON file's, read by the worker
        # (_page): the page's hash holds that file's.
        api = player_api_path(pid)
        pages.append(("player", f"players/{pid}.html", 2,
                      {"p": p, "notes": d.notes.get(pid), "pending": pid in job.pending,
                       "total_active": d.lists[-1]["active_players"] if d.lists else 0,
                       "api": api, "api_digest": d.digests[api]},
                      cards))
    if job.pending:
        contact = pending_contact(job.contact)
        pages.append(("pending-index", "pending/index.html", 2, {"players": sorted(
            job.pending.values(), key=lambda p: (p["name"] or "", p["player_id"])), **contact}))
        for pid, p in job.pending.items():
            # an opponent is linked only to a page there is (a newcomer has none yet)
            rated = sorted({g["opponent_id"] for g in p["games"]} & job.rated)
            pages.append(("pending", f"pending/{pid}.html", 2, {"player": p, "rated": rated, **contact}))
    languages = job.languages
    return [(page, _key(code, languages, page[0], page[1], page[3],
                        _cards_key(page[4], job.events) if len(page) > 4 else None)) for page in pages]


def _cards_key(cards: list, events: dict[str, str]) -> list:
    """What a player's cards show: the cards and the pages their events link to."""
    named = sorted({g.event for _, card in cards for table in card.games for g in table.rows if g.event})
    return [[(l, c.to_json()) for l, c in cards], [(name, events.get(name)) for name in named]]


# Where a page's own parts go in its language's frame (base.html.j2 rendered once a
# language and depth): its title, its path (the links to the other languages), its main.
TITLE, PATH, MAIN = "\x01", "\x02", "\x03"


class _Language:
    """A language's templates and frames, made once a worker."""

    def __init__(self, lang: str, languages: list[str], rule_set):
        messages = translations(lang)
        self.lang, self.gettext = lang, messages.gettext
        self.env = environment(lang, messages)
        self.env.globals.update(how_globals(lang, self.gettext))
        self.common = {"lang": lang, "languages": [(c, LANGUAGES[c]) for c in languages], "under": UNDER,
                       "page_rows": PAGE_ROWS, "rating_word": rule_set.rating_word, "face": rule_set.site}
        self.templates: dict[str, object] = {}
        self.frames: dict[int, list[str]] = {}
        self.shell = self.env.from_string('{% extends "base.html.j2" %}{% block title %}' + TITLE +
                                          '{% endblock %}{% block main %}' + MAIN + '{% endblock %}')

    def page(self, template: str, path: str, depth: int, values: dict) -> str:
        """The page: its title and main blocks rendered, put in the frame. The frame (head,
        header, footer: the same on every page of a depth) is rendered once a depth."""
        if template not in self.templates:
            self.templates[template] = self.env.get_template(f"{template}.html.j2")
        t = self.templates[template]
        root = "../" * depth
        context = t.new_context({**self.common, **values, "root": root, "page": path})
        title, main = ("".join(t.blocks[name](context)) for name in ("title", "main"))
        if depth not in self.frames:
            frame = self.shell.render(**self.common, root=root, page=PATH)
            head, rest = frame.split(TITLE)
            middle, tail = rest.split(MAIN)
            self.frames[depth] = [head, middle, tail]
        head, middle, tail = self.frames[depth]
        return "".join((head.replace(PATH, path), title, middle.replace(PATH, path), main, tail))


def _render(share: list[tuple[str, int]]) -> dict[str, int]:
    """Write a share of the files: (lang, index into its plan) a page rendered, ("", index)
    a data file; run in a worker process or in this one. Returns each file's path in the
    site and its size (the site's size without a second walk of the folder)."""
    job = _JOB
    languages: dict[str, _Language] = job.renderers
    folders: set[Path] = set()
    sizes = {}
    for lang, i in share:
        if not lang:  # a data file (the JSON, the downloads): written as it is
            path, content = job.files[i]
        else:
            if lang not in languages:
                languages[lang] = _Language(lang, job.languages, job.data.series.rule_set)
            path = f"{lang}/{job.plans[lang][i][1]}"
            content = _page(languages[lang], *job.plans[lang][i]).encode("utf-8")
        target = job.out / path
        if target.parent not in folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            folders.add(target.parent)
        write_bytes(content, target)
        sizes[path] = len(content)
    return sizes


def _page(language: _Language, template: str, path: str, depth: int, values: dict, cards=None) -> str:
    """A page in its language, with its player's cards if any."""
    if template == "player":
        api = values["api"]
        # a text kept from the run before is the folder's file (the page's hash holds its digest)
        text = _JOB.data.api[api] if api in _JOB.data.api else (_JOB.out / API / api).read_text(encoding="utf-8")
        values = {**values, **player_tables(text, language.lang, language.gettext)}
    if cards:
        values = {**values, "card_html": [(list_id, card_html(card, language.lang, language.gettext, _JOB.rated,
                                                                   _JOB.events))
                                          for list_id, card in cards]}
    return language.page(template, path, depth, values)


def _labels(lang: str, rule_set) -> bytes:
    """<lang>/labels.js: the words the script writes, in the language (one file a
    language, cached by the browser, rather than in every page): with the headings of the
    rule set's own columns (SiteFace), by their keys in the JSON API."""
    _ = translations(lang).gettext
    rating_word, face = rule_set.rating_word, rule_set.site
    labels = {"none": _("No player found"), "shown": _("%(shown)s of %(total)s players"),
              "page": _("Page %(page)s of %(pages)s"),
              "offline": _("This part of the page is read from the site's data files: serve the folder with a "
                           "web server (python -m http.server) to see it."),
              "chart": _("Rating history of %(name)s: %(first)s to %(last)s, from %(from)s to %(to)s"),
              "correction": _("corrected"), "revision": _("revised"),
              # the search box, drawn by the script (it needs it to search)
              "search": _("Search a player"), "search_label": _("Search a player by name or id"),
              "found": _("Players found"), "more": _("%(n)s more: type more of the name or id"),
              "event_note": _("Rating and change: the list that rated the event's last game (its change counts "
                              "every game of that list's window)."),
              # the headings of the tables the script draws (a player's history and events, an event's)
              "list": _("List"), "rating": _(rating_word), "change": _("Change"), "games": _("Games"),
              "rank_active": _("Rank (active)"), "event": _("Event"), "dates": _("Dates"), "score": _("Score"),
              "player": _("Player"), "date": _("Date"), "round": _("Round"), "white": _("White"),
              "black": _("Black"), "result": _("Result")}
    labels |= {c.key: _(c.heading) for c in (*face.state, *face.event, *face.game_columns)}
    if face.periods == "events":  # an event is a period: its players' numbers are its own calculations
        labels["event_note"] = _("Points and grades before and after the event, as the rules computed them.")
        labels["list"] = _("Event")  # a player's history: a row an event
    return f"window.LABELS = {json.dumps(labels, ensure_ascii=False, sort_keys=True)};\n".encode("utf-8")
