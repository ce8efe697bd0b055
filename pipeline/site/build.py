"""The site written out (`ratings site`): shared files (style, script, the search
index and each list's rows as data the browser reads), then the pages of each
language: the index of lists, a page per list, per player and per club."""
from __future__ import annotations

import gc
import itertools
import json
import math
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd

from pipeline.outputs import claim_folder
from pipeline.progress import progress
from pipeline.publish import write_bytes
from pipeline.publish.svg import line_chart
from pipeline.site.data import UNDER, site_data
from pipeline.site.i18n import LANGUAGES, environment, translations

STATIC = Path(__file__).parent / "static"
LIST_COLUMNS = ("id", "name", "club", "slug", "rating", "change", "games", "sex", "region", "under", "s50", "s65",
                "active")


@dataclass(frozen=True)
class Built:
    players: int
    lists: int
    pages: int
    bytes: int


def _value(v):
    if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA:
        return None
    return v.item() if hasattr(v, "item") else v


def _script(name: str, value) -> bytes:
    """A data file the pages load with <script src> (a file system page may not fetch)."""
    return f"window.{name} = {json.dumps(value, ensure_ascii=False, separators=(',', ':'))};\n".encode("utf-8")


@dataclass
class _Job:
    """What every language's pages are made from (prepared once, read by the workers)."""

    out: Path
    languages: list[str]
    lists: list[dict]
    latest: str | None
    by_player: dict[int, list[dict]]
    carded: set[int]  # players with cards (data/cards/<id>.js)
    clubs: dict[str, list[dict]]
    choices: dict[str, tuple[list, list]]


_JOB: _Job | None = None  # set before the worker processes fork: they inherit it, nothing is pickled


class _Writer:
    """Files written once each (unchanged ones left alone), their folders made once."""

    def __init__(self):
        self.folders: set[Path] = set()
        self.bytes = 0
        self.files = 0

    def __call__(self, path: Path, content: bytes) -> None:
        if path.parent not in self.folders:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.folders.add(path.parent)
        write_bytes(content, path)
        self.bytes += len(content)
        self.files += 1


def build_site(con: duckdb.DuckDBPyConnection, series, out: Path, languages: list[str], card_lists: int = 1,
               since: str | None = None) -> Built:
    """Write the site of `series` to `out` in `languages` (the first: the default),
    its lists from `since` on (default: all)."""
    global _JOB
    data = site_data(con, series, card_lists, since)
    claim_folder(out, "site")
    # The page groups: the lists' data, the cards' data, then each language's pages (or
    # shard of them), as the workers finish them.
    cores = os.cpu_count() or 1
    shards = cores // math.gcd(len(languages), cores)
    parts = [(lang, shard, shards) for lang in languages for shard in range(shards)]
    bar = progress(step="site", total=2 + len(parts), unit="group")
    bar.set_postfix_str("lists")
    write = _Writer()
    for name in ("site.css", "site.js"):
        write(out / name, (STATIC / name).read_bytes())
    rows = data.rows
    latest_rows = rows.sort_values("position").groupby("player_id", sort=True).tail(1)
    write(out / "data" / "search.js", _script("SEARCH", [
        [int(r.player_id), r.name, _value(r.club)] for r in latest_rows.sort_values("player_id").itertuples()]))
    # A list no player is on (its players all still unrated) has a page all the same, and no row.
    by_list = {**{list_id: rows.iloc[:0] for list_id in data.lists["list_id"]},
               **{k: g for k, g in rows.groupby("list_id", sort=False)}}
    for list_id, group in by_list.items():
        table = [[_value(v) for v in t] for t in group[["player_id", "name", "club", "club_slug", "rating", "change",
                                                         "games", "sex", "region", "under", "senior_50", "senior_65",
                                                         "active"]].itertuples(index=False)]
        # Columns named once, rows as arrays: half the size of an object a row.
        write(out / "data" / "lists" / f"{list_id}.js", _script("LIST_ROWS", {"columns": LIST_COLUMNS, "rows": table}))
    bar.update()
    bar.set_postfix_str("cards")
    # The cards are the same in every language: one data file a player, shown by the page.
    cards: dict[int, list] = {}
    position = dict(zip(data.lists["list_id"], data.lists["position"]))
    for (player_id, list_id), text in sorted(data.cards.items(), key=lambda c: (c[0][0], -position[c[0][1]])):
        cards.setdefault(player_id, []).append([list_id, text])
    for player_id, player_cards in cards.items():
        write(out / "data" / "cards" / f"{player_id}.js", _script("CARDS", player_cards))
    bar.update()
    bar.set_postfix_str("pages")
    records = rows.sort_values(["player_id", "position"]).to_dict("records")  # once: a frame per player is slow
    latest = data.lists["list_id"].iloc[-1] if len(data.lists) else None
    clubs = {}
    if latest is not None:
        for slug, group in by_list[latest].dropna(subset=["club_slug"]).groupby("club_slug"):
            clubs[slug] = group.sort_values(["rating", "player_id"], ascending=[False, True]).to_dict("records")
    _JOB = _Job(out, languages, data.lists.to_dict("records"), latest,
                {k: list(g) for k, g in itertools.groupby(records, key=lambda r: r["player_id"])}, set(cards), clubs,
                {list_id: (sorted(g["region"].dropna().unique()), sorted(g["club"].dropna().unique()))
                 for list_id, g in by_list.items()})
    # A worker process a core, each writing a language's pages or a shard of them: each
    # language's players in as many shards as make the parts a multiple of the cores, so
    # that none idles at the end (on two cores: one language in two shards, three in two each).
    try:
        workers = min(len(parts), cores)
        if workers > 1:
            # A forked worker must not run the destructors of what it inherited: DuckDB's
            # objects, collected in a child that has none of DuckDB's threads, crash it
            # (a segmentation fault, seen when other work left a connection in a reference
            # cycle: the tests, pytest-xdist workers). So the garbage goes now, in this
            # process, and what is left is frozen out of the children's collections.
            gc.collect()
            gc.freeze()
            try:
                with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                    done = [_advanced(bar, d) for d in pool.map(_language_pages, *zip(*parts))]
            finally:
                gc.unfreeze()
        else:
            done = [_advanced(bar, _language_pages(*part)) for part in parts]
        players = len(_JOB.by_player)
    finally:
        _JOB = None
        bar.close()
    first = languages[0]
    write(out / "index.html", (f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" '
                               f'content="0; url={first}/index.html"><a href="{first}/index.html">{first}</a>\n'
                               ).encode("utf-8"))
    return Built(players, len(data.lists), sum(d[0] for d in done), write.bytes + sum(d[1] for d in done))


def _advanced(bar, done):
    bar.update()
    return done


def _language_pages(lang: str, shard: int = 0, shards: int = 1) -> tuple[int, int]:
    """The pages of one language, or of one shard of it: every `shards`-th player
    from the `shard`-th, and (shard 0) the index, lists' and clubs' pages. Run in a
    worker process; returns (pages, bytes)."""
    job = _JOB
    messages = translations(lang)  # a catalogue compiled once a worker, for the pages and the labels
    env = environment(lang, messages)
    _ = messages.gettext
    common = {"lang": lang, "languages": [(c, LANGUAGES[c]) for c in job.languages],
              "labels": {"none": _("No player found"), "shown": _("%(shown)s of %(total)s players")}}
    base = job.out / lang
    write = _Writer()
    templates = {name: env.get_template(f"{name}.html.j2") for name in ("index", "list", "player", "club")}

    def page(template: str, path: str, depth: int, **values) -> None:
        html = templates[template].render(root="../" * depth, page=path, **common, **values)
        write(base / path, html.encode("utf-8"))

    if shard == 0:  # the pages that are no player's
        page("index", "index.html", 1, lists=job.lists, latest=job.latest)
        for l in job.lists:
            regions, club_names = job.choices.get(l["list_id"], ([], []))
            page("list", f"lists/{l['list_id']}.html", 2, l=l, under=UNDER, regions=regions, clubs=club_names)
        for slug, players in job.clubs.items():
            page("club", f"clubs/{slug}.html", 2, club=players[0]["club"], list_id=job.latest, players=players)
    for player_id, history in itertools.islice(job.by_player.items(), shard, None, shards):
        peak = max(history, key=lambda h: (h["rating"], -h["position"]))
        last = history[-1]
        summary = {"player_id": player_id, "name": last["name"], "club": _value(last["club"]),
                   "club_slug": _value(last["club_slug"]), "rating": last["rating"], "last_list": last["list_id"],
                   "peak": peak["rating"], "peak_list": peak["list_id"]}
        chart = line_chart({last["name"]: [(h["position"], h["rating"]) for h in history]},
                           {history[0]["position"]: history[0]["list_id"], last["position"]: last["list_id"]},
                           legend=False)
        page("player", f"players/{player_id}.html", 2, p=summary, history=history, chart=chart,
             cards=player_id in job.carded)
    return write.files, write.bytes
