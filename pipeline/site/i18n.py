"""The site's four languages: gettext catalogues (locale/<lang>/LC_MESSAGES/site.po,
compiled in memory by Babel) for Jinja2's i18n extension, and Babel's formats of
numbers and dates for each language."""
from __future__ import annotations

import datetime as dt
import functools
import io
import math
from pathlib import Path

import jinja2
from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel import Locale
from babel.support import Translations
from markupsafe import Markup

LANGUAGES = {"en": "English", "fr": "Français", "nl": "Nederlands", "de": "Deutsch"}
HERE = Path(__file__).parent
LOCALE = HERE / "locale"


def catalogue_files(lang: str) -> list[Path]:
    """The .po files of `lang`: the pages' (site.po) and each part's own file beside it
    (cards.po: the calculation cards; pending.po: the pre-publication check)."""
    return sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po"))


def catalogue(lang: str):
    """The catalogue of `lang` as Babel reads it (messages and their translations): its
    catalogue_files, each part's merged into site.po's."""
    folder = LOCALE / lang / "LC_MESSAGES"
    with open(folder / "site.po", "rb") as fh:
        merged = read_po(fh, locale=lang)
    for part in catalogue_files(lang):
        if part.name != "site.po":
            with open(part, "rb") as fh:
                for message in read_po(fh, locale=lang):
                    if message.id:
                        merged[message.id] = message
    return merged


def translations(lang: str) -> Translations:
    buffer = io.BytesIO()
    write_mo(buffer, catalogue(lang))
    buffer.seek(0)
    return Translations(buffer, domain="site")


@functools.cache
def locale(lang: str) -> Locale:
    """Babel's data of a language, parsed once (Babel parses a locale's name on every
    call given a string, and the site formats a number or a date in every table cell)."""
    return Locale.parse(lang)


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _page_gettext(translate):
    """Jinja2's new-style gettext (the translation trusted as markup, always a format
    string, its variables escaped), without its two context calls a message, and each
    message without variables translated once: a player page asks for 14 of them."""
    plain: dict[str, Markup] = {}

    def gettext(string: str, **variables) -> Markup:
        if variables:
            return Markup(translate(string)) % variables
        if string not in plain:
            plain[string] = Markup(translate(string)) % {}
        return plain[string]

    return gettext


def _region_name(translate, code: str) -> str:
    """A region's name in the language: the catalogue's "region:<code>" (a federation
    adds its own codes there), else the code as the file gives it."""
    name = translate(f"region:{code}")
    return code if name == f"region:{code}" else name


def environment(lang: str, messages: Translations) -> jinja2.Environment:
    """Templates of the site in `lang`: its messages (`translations(lang)`, which the
    caller reads once for its own labels too), its number and date formats."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                             keep_trailing_newline=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(messages, newstyle=True)
    env.globals["_"] = env.globals["gettext"] = _page_gettext(messages.gettext)
    env.globals["region_name"] = lambda code: _region_name(messages.gettext, code)
    here = locale(lang)
    env.filters["count"] = lambda v: "" if _missing(v) else format_decimal(int(v), locale=here)
    env.filters["kilobytes"] = lambda n: format_decimal(n / 1000, format="#,##0.0", locale=here) + " kB"
    env.filters["score"] = lambda v: "" if _missing(v) else format_decimal(v, locale=here)  # 2.5: "2,5" in French
    env.filters["rating"] = lambda v: "" if _missing(v) else str(int(round(v)))
    env.filters["signed"] = lambda v: "" if _missing(v) else f"{int(v):+d}" if v else "0"  # as the script shows it
    env.filters["day"] = lambda d: "" if d is None else day_text(d, lang)
    return env


@functools.lru_cache(maxsize=1 << 14)
def day_text(d: dt.date | str, lang: str) -> str:
    """A day in the language (cached: a player page's events repeat the same few hundred
    days thousands of times, and Babel parses its pattern each call)."""
    return format_date(dt.date.fromisoformat(d) if isinstance(d, str) else d, format="medium", locale=locale(lang))
