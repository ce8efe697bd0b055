"""A calculation card (pipeline/ruleset/card.py) as HTML in one of the site's languages:
its sentences from the gettext catalogues (locale/<lang>/LC_MESSAGES/cards.po), its
numbers and dates by Babel, opponents and events linked to their pages, every name
escaped. The games table fits a phone: the columns a reader can do without are
marked `wide` (the style sheet hides them), the table scrolls sideways in its box."""
from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Container, Mapping
from decimal import Decimal

from babel.dates import format_date
from babel.numbers import format_decimal
from markupsafe import Markup, escape

from pipeline.ruleset.card import RATING_USED, Card, Game, Games, Line, Num
from pipeline.site.i18n import locale
from pipeline.site.slugs import event_slug

# The page's own words, besides each card's: the columns every games table has, and
# whether a game counts. (tests/test_site_cards.py checks them in every catalogue.)
OPPONENT, COUNTS, DATE, EVENT = "Opponent", "Counts?", "Date", "Event"
ANSWERS = {True: "yes", False: "no"}
ANSWERED = "%(answer)s: %(reason)s"  # French puts a space before the colon
LABELS = (OPPONENT, COUNTS, DATE, EVENT, *ANSWERS.values(), ANSWERED)
MISSING = "–"  # a number the rule set does not have (an unrated opponent)


def number(n: Num, lang: str, rating: bool = False) -> str:
    """The number in `lang`, with the digits the CLI prints (Python's rounding, then the
    language's decimal sign): 1234.5 → 1234,500 in French with three places. No
    thousands separator: a card's numbers are ratings, their differences and sums, and a
    rating is printed 1450 on every page of the site, as the CLI prints it. A `rating`
    (a column of ratings) that is a whole number is printed as one (2070, not 2070.0);
    an estimate keeps its decimals."""
    if n.missing:
        return MISSING
    if rating and n.places and n.value.is_integer():
        n = Num(n.value, 0, n.signed)
    return _formatted(n.text(), n.signed, lang)


@functools.lru_cache(maxsize=1 << 16)
def _formatted(text: str, signed: bool, lang: str) -> str:
    """Babel's number for the CLI's digits (cached: a list's cards repeat the same
    ratings and scores thousands of times, and Babel parses its pattern each call)."""
    digits = Decimal(text)
    exponent = digits.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    pattern = "0" + ("." + "0" * places if places else "")
    return format_decimal(digits, format=f"+{pattern};-{pattern}" if signed else pattern, locale=locale(lang))


@functools.lru_cache(maxsize=1 << 14)
def _day(d: dt.date, lang: str) -> str:
    return format_date(d, format="medium", locale=locale(lang))


def value_html(value, lang: str, gettext: Callable[[str], str], rating: bool = False) -> Markup:
    """One value of a sentence: a clause translated, a number or a date in the
    language, text (names, ids, reasons) escaped; `rating`: a number is a rating."""
    if value is None:
        return Markup("")
    if isinstance(value, Line):
        return sentence_html(value, lang, gettext)
    if isinstance(value, Num):
        return escape(number(value, lang, rating))
    if isinstance(value, tuple):
        return Markup(", ").join(value_html(v, lang, gettext) for v in value)
    if isinstance(value, dt.date):
        return escape(_day(value, lang))
    return escape(str(value))


def sentence_html(line: Line, lang: str, gettext: Callable[[str], str]) -> Markup:
    """A sentence in `lang`: its message translated (the catalogue's text is text too:
    escaped), its values put in."""
    return Markup(escape(gettext(line.message))) % {k: value_html(v, lang, gettext) for k, v in line.values.items()}


def _opponent(g: Game, players: Container[int] | None) -> Markup:
    name = escape(g.opponent_name or str(g.opponent_id))
    if g.opponent_id < 0 or (players is not None and g.opponent_id not in players):  # what-if, or no page
        return name
    return Markup(f'<a href="../players/{int(g.opponent_id)}.html">{name}</a>')


def _event(name: str | None, events: Mapping[str, str] | None) -> Markup:
    """The event named, linked to its page: `events` gives the file names of the events the
    site has a page for; None: every event's (its name's slug)."""
    if not name:
        return Markup("")
    slug = event_slug(name) if events is None else events.get(name)
    if slug is None:  # an event the site has no page for
        return escape(name)
    return Markup('<a href="../events/{}.html">{}</a>').format(slug, name)


def _cell(content: Markup, wide: bool = False, tag: str = "td") -> Markup:
    # `content` is markup already (escaped where it needed it): put in as it is, without
    # Markup.format's escaping pass (the site writes some 200,000 cells of cards).
    return Markup(f'<{tag} class="wide">{content}</{tag}>' if wide else f"<{tag}>{content}</{tag}>")


def _counts(g: Game, lang: str, gettext) -> Markup:
    reason = Markup("") if g.reason is None else sentence_html(g.reason, lang, gettext)
    if g.counts is None:
        return reason
    answer = escape(gettext(ANSWERS[g.counts]))
    if g.reason is None:
        return answer
    return Markup(escape(gettext(ANSWERED))) % {"answer": answer, "reason": reason}


def games_html(table: Games, lang: str, gettext, players: Container[int] | None = None,
               events: Mapping[str, str] | None = None) -> Markup:
    """A table of games, with its sentences before and after; a date or event column
    only where a game has one."""
    dated, named = any(g.date for g in table.rows), any(g.event for g in table.rows)
    _ = gettext
    head = [_cell(escape(_(OPPONENT)), tag="th"),
            *(_cell(escape(_(c.heading)), c.wide, "th") for c in table.columns),
            _cell(escape(_(COUNTS)), tag="th")]
    head += [_cell(escape(_(DATE)), True, "th")] if dated else []
    head += [_cell(escape(_(EVENT)), True, "th")] if named else []
    rows = []
    for g in table.rows:
        cells = [_cell(_opponent(g, players)),
                 *(_cell(value_html(v, lang, gettext, c is RATING_USED), c.wide)
                   for c, v in zip(table.columns, g.cells)),
                 _cell(_counts(g, lang, gettext))]
        cells += [_cell(escape(_day(g.date, lang)) if g.date else Markup(""), True)] if dated else []
        cells += [_cell(_event(g.event, events), True)] if named else []
        state = {True: ' class="counted"', False: ' class="not-counted"', None: ""}[g.counts]
        rows.append(Markup(f"<tr{state}>{''.join(cells)}</tr>"))
    parts = [*(Markup("<p>{}</p>").format(sentence_html(x, lang, gettext)) for x in table.before),
             Markup('<div class="scroll"><table class="card-games">\n<thead><tr>{}</tr></thead>\n<tbody>\n{}\n'
                    '</tbody></table></div>').format(Markup("").join(head), Markup("\n").join(rows)),
             *(Markup("<p>{}</p>").format(sentence_html(x, lang, gettext)) for x in table.after)]
    return Markup("\n").join(parts)


def card_html(card: Card, lang: str, gettext: Callable[[str], str], players: Container[int] | None = None,
              events: Mapping[str, str] | None = None) -> Markup:
    """The card as a `<section class="card">` in `lang`; `gettext` is the catalogue's
    (`pipeline.site.i18n.translations(lang).gettext`: text in, text out), `players`
    the ids that have a page (None: every opponent is linked), `events` each event's
    page by its name (None: the name's slug)."""
    paragraphs = [Markup("<p>{}</p>").format(sentence_html(x, lang, gettext)) for x in card.before]
    tables = [games_html(t, lang, gettext, players, events) for t in card.games]
    closing = [Markup("<p>{}</p>").format(sentence_html(x, lang, gettext)) for x in card.after]
    return Markup('<section class="card" data-list="{}">\n<h3>{}</h3>\n{}\n</section>\n').format(
        card.list_id, sentence_html(card.title, lang, gettext), Markup("\n").join([*paragraphs, *tables, *closing]))
