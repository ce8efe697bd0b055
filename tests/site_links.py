"""A link check of a built site: every href and src of every page resolved against
the page's own file (a fragment against the ids of the page it names), and the links
the script builds from the JSON API (pipeline/site/static/site.js): the search's and
the rankings' players, the rankings' clubs, an event's players and lists. Each dead
link is said as `page: target`."""
from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            elif name == "id" and value:
                self.ids.add(value)


def _parsed(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def dead_links(site: Path) -> list[str]:
    """Every dead link of the site in `site`, as "page: link" (none: [])."""
    pages = sorted(site.rglob("*.html"))
    parsed = {p: _parsed(p) for p in pages}
    dead = []
    for page, found in parsed.items():
        for link in found.links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https", "mailto", "data") or parts.netloc:
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
            if not target.is_file() or site.resolve() not in target.parents:
                dead.append(f"{page.relative_to(site)}: {link}")
            elif parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parsed(target).ids
                if parts.fragment not in ids:
                    dead.append(f"{page.relative_to(site)}: {link} (no id {parts.fragment})")
    return dead + _script_dead_links(site)


def _read(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def _script_dead_links(site: Path) -> list[str]:
    """The pages the script links from the JSON, in each language: a player of the
    search's index (players.json: the script links no other player), a ranking's clubs,
    an event's lists."""
    api = site / "api" / "v1"
    languages = [d.name for d in site.iterdir() if (d / "index.html").is_file()]
    players = {row[0] for row in _read(api / "players.json")["rows"]}
    wanted = {f"players/{p}.html" for p in players}
    for path in (api / "lists").glob("*.json"):
        wanted |= {f"clubs/{s}.html" for s in _read(path)["club_slugs"]}
    for path in (api / "events").glob("*.json"):
        event = _read(path)
        columns = event["players"]["columns"]
        wanted |= {f"lists/{row[columns.index('list_id')]}.html" for row in event["players"]["rows"]
                   if row[columns.index("list_id")]}
    return [f"{path.name} (from the JSON): {lang}/{target}" for lang in languages for target in sorted(wanted)
            if not (site / lang / target).is_file()]
