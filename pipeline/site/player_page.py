"""What a player page holds in its HTML besides its facts: the history (every list,
newest first) and the events, read from the player's own JSON file
(api/v1/players/<id>.json, sql/site/player_api.sql), so that the page and the API say
the same by construction and a reader without JavaScript (or whose browser cannot
fetch the JSON) sees them. Read in the worker that writes the page: the parent holds
the JSON text once, never a second copy as rows.

The rows are written here rather than by the template: a long history is a hundred
rows, the site thirty thousand pages, and Jinja's escaping of every cell was most of
the pages' time. Only text from outside (an event's name) is escaped; the rest are
numbers, dates in the language and list ids (pipeline.publish.FILE_NAME: never markup).
No class a cell and the end tags HTML leaves out: the style sheet's `.lean` tables.
The pages stay light: a run of lists on which nothing happened to the player is one
row, and the newest EVENTS_SHOWN events are in the HTML (the script shows the rest)."""
from __future__ import annotations

import functools
import json
from collections.abc import Callable

from babel.numbers import format_decimal
from markupsafe import Markup, escape

from pipeline.site.i18n import day_text, locale


def player_api_path(player_id: int) -> str:
    """The player's JSON file, under api/v1/."""
    return f"players/{int(player_id)}.json"


EVENTS_SHOWN = 10  # the newest events in the HTML (pages stay light); the script shows every one
_INACTIVE = ' class="inactive"'  # a list on which the player is not ranked (no game in 12 months)


def player_tables(api_text: str, lang: str, gettext: Callable[[str], str]) -> dict:
    """The page's history rows and events rows (`history_rows`, `event_rows`: the tables'
    bodies) in `lang`, from the player's JSON text, `events_shown` of `events_total`. A list the
    commission corrected, or a revision changed, is marked (its row's data-list and a
    link to the notes)."""
    data = json.loads(api_text)
    marked = {r["list_id"]: "revised" for r in data["revisions"]}
    marked |= {c["list_id"]: "corrected" for c in data["corrections"]}  # a correction says more
    events = data["events"]["rows"]
    return {"history_rows": _history_rows(data["history"]["rows"], marked, gettext),
            "event_rows": _event_rows(events[:EVENTS_SHOWN], lang), "events_shown": min(len(events), EVENTS_SHOWN),
            "events_total": len(events)}


def _history_rows(rows: list[list], marked: dict[str, str], gettext) -> Markup:
    """rows: [list_id, rating, change, games, rank_active, *the rule set's own values
    (SiteFace.state: a Go grade, Glicko-2's RD)], newest first; the own values follow the
    rating, as on the ranking. A run of lists on which nothing happened to the player (no
    game, no change, not ranked, not marked: the same values list after list) is one row,
    "2005-01 – 2012-09" (a long history is mostly such runs: the Belgian one, 643,000 of its
    million rows in 29,000 runs)."""
    idle = [not row[3] and not row[2] and row[4] is None and row[0] not in marked for row in rows]
    out = []
    k, n = 0, len(rows)
    while k < n:
        list_id, rating, change, games, rank, *own = rows[k]
        last = k
        if idle[k]:
            while last + 1 < n and idle[last + 1] and rows[last + 1][1] == rating and rows[last + 1][5:] == own:
                last += 1
        lists = list_id if last == k else f"{rows[last][0]} – {list_id}"  # newest first: the run's first is last
        mark = marked.get(list_id)
        if mark:
            head = (f'<tr data-list="{list_id}" class="marked{" inactive" if rank is None else ""}"><td>{lists} '
                    f'<a class="mark" href="#notes">{escape(gettext(mark))}</a>')
        else:
            head = f'<tr{_INACTIVE if rank is None else ""}><td>{lists}'
        signed = "" if change is None else f"{int(change):+d}" if change else "0"  # as the pages' `signed`
        shown = "".join(f'<td>{"" if v is None else escape(v)}' for v in own)
        out.append(f'{head}<td>{"" if rating is None else round(rating)}{shown}<td>{signed}'
                   f'<td>{"" if games is None else games}<td>{"" if rank is None else rank}\n')
        k = last + 1
    return Markup("".join(out))


def _event_rows(rows: list[list], lang: str) -> Markup:
    """rows: [event_id, name, first_day, last_day, games, score], newest first."""
    out = []
    for event_id, name, first, last, games, score in rows:
        days = day_text(first, lang) + ("" if last == first else f" – {day_text(last, lang)}")
        out.append(f'<tr><td><a href="../events/{event_id}.html">{escape(name)}</a><td>{days}<td>{games}'
                   f'<td>{_score(score, lang)}\n')
    return Markup("".join(out))


@functools.lru_cache(maxsize=1 << 12)
def _score(score: float | None, lang: str) -> str:
    """A score in the language: 2,5 in French (a few values, formatted once each)."""
    return "" if score is None else format_decimal(score, locale=locale(lang))
