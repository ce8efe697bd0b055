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
No class a cell and the end tags HTML leaves out: the style sheet's `.lean` tables."""
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


def player_tables(api_text: str, lang: str, gettext: Callable[[str], str]) -> dict[str, Markup]:
    """The page's history rows and events rows (`history_rows`, `event_rows`: the tables'
    bodies) in `lang`, from the player's JSON text. A list the commission corrected, or a
    revision changed, is marked (its row's data-list and a link to the notes)."""
    data = json.loads(api_text)
    marked = {r["list_id"]: "revised" for r in data["revisions"]}
    marked |= {c["list_id"]: "corrected" for c in data["corrections"]}  # a correction says more
    return {"history_rows": _history_rows(data["history"]["rows"], marked, gettext),
            "event_rows": _event_rows(data["events"]["rows"], lang)}


def _blank(v) -> str:
    return "" if v is None else str(v)


def _history_rows(rows: list[list], marked: dict[str, str], gettext) -> Markup:
    """rows: [list_id, rating, change, games, rank_active], newest first."""
    out = []
    for list_id, rating, change, games, rank in rows:
        mark = marked.get(list_id)
        classes = " ".join(c for c, on in (("marked", mark), ("inactive", rank is None)) if on)
        attributes = (f' data-list="{list_id}"' if mark else "") + (f' class="{classes}"' if classes else "")
        note = f' <a class="mark" href="#notes">{escape(gettext(mark))}</a>' if mark else ""
        signed = "" if change is None else f"{int(change):+d}" if change else "0"  # as the pages' `signed`
        out.append(f'<tr{attributes}><td><a href="../lists/{list_id}.html">{list_id}</a>{note}'
                   f'<td>{_blank(None if rating is None else round(rating))}<td>{signed}<td>{_blank(games)}'
                   f'<td>{_blank(rank)}\n')
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
