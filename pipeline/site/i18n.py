"""The site's four languages: gettext catalogues (locale/<lang>/LC_MESSAGES/site.po,
compiled in memory by Babel) for Jinja2's i18n extension, and Babel's formats of
numbers and dates for each language."""
from __future__ import annotations

import io
import math
from pathlib import Path

import jinja2
from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations
from markupsafe import Markup

LANGUAGES = {"en": "English", "fr": "Français", "nl": "Nederlands", "de": "Deutsch"}
HERE = Path(__file__).parent
LOCALE = HERE / "locale"


def catalogue(lang: str):
    """The catalogue of `lang` as Babel reads it (messages and their translations)."""
    with open(LOCALE / lang / "LC_MESSAGES" / "site.po", "rb") as fh:
        return read_po(fh, locale=lang)


def translations(lang: str) -> Translations:
    buffer = io.BytesIO()
    write_mo(buffer, catalogue(lang))
    buffer.seek(0)
    return Translations(buffer, domain="site")


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


def environment(lang: str, messages: Translations) -> jinja2.Environment:
    """Templates of the site in `lang`: its messages (`translations(lang)`, which the
    caller reads once for its own labels too), its number and date formats."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                             keep_trailing_newline=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(messages, newstyle=True)
    env.globals["_"] = env.globals["gettext"] = _page_gettext(messages.gettext)
    env.filters["count"] = lambda v: "" if _missing(v) else format_decimal(int(v), locale=lang)
    env.filters["rating"] = lambda v: "" if _missing(v) else str(int(round(v)))
    env.filters["signed"] = lambda v: "" if _missing(v) else f"{int(v):+d}"
    env.filters["day"] = lambda d: "" if d is None else format_date(d, format="medium", locale=lang)
    return env
