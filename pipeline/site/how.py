"""The "How ratings are computed" page (DIR/<lang>/how.html): a rule set's explanation
(RuleSet.explanation, pipeline/ruleset/explanation.py) in one of the site's languages,
its words from the catalogues (locale/<lang>/LC_MESSAGES/how.po), its numbers by Babel
as the cards' are (pipeline/site/cards.py). The page is made from the rule set alone,
with its parameters in force: any rule set's site, a Go federation's too, gets it."""
from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup

from pipeline.ruleset.card import Num
from pipeline.ruleset.explanation import Explanation, Section, Table
from pipeline.site.cards import sentence_html, value_html

PAGE = "how.html"
DEPTH = 1  # beside the index


def how_page(rule_set) -> tuple[str, str, int, dict]:
    """The page as the site builds it (template, path, depth, values): the rule set's
    explanation, computed from its parameters in force."""
    return "how", PAGE, DEPTH, {"how": rule_set.explanation()}


def _table(table: Table, lang: str, gettext: Callable[[str], str]) -> Markup:
    """The table in its box, which scrolls sideways on a phone (its caption stays in view)."""
    def cell(value, tag: str, first: bool) -> Markup:
        # A row's first cell names it (text, left); the others are numbers, right-aligned.
        words = first or not isinstance(value, Num)
        return Markup('<{0}{1}>{2}</{0}>').format(tag, Markup(' class="text"') if words else Markup(""),
                                                    value_html(value, lang, gettext))

    head = Markup("").join(cell(c, "th", i == 0) for i, c in enumerate(table.columns))
    rows = Markup("\n").join(Markup("<tr>{}</tr>").format(Markup("").join(cell(v, "td", i == 0)
                                                                          for i, v in enumerate(row)))
                             for row in table.rows)
    return Markup('<div class="scroll"><table class="how">\n<caption><span>{}</span></caption>\n<thead><tr>{}</tr></thead>\n'
                  '<tbody>\n{}\n</tbody></table></div>').format(sentence_html(table.caption, lang, gettext), head, rows)


def _section(section: Section, lang: str, gettext) -> Markup:
    parts = [_table(p, lang, gettext) if isinstance(p, Table)
             else Markup("<p>{}</p>").format(sentence_html(p, lang, gettext)) for p in section.parts]
    return Markup('<section class="how">\n<h2>{}</h2>\n{}\n</section>').format(
        sentence_html(section.heading, lang, gettext), Markup("\n").join(parts))


def explanation_html(explanation: Explanation, lang: str, gettext: Callable[[str], str]) -> Markup:
    """The page's main part in `lang` (`gettext`: the language's catalogue, text in, text out)."""
    return Markup("<h1>{}</h1>\n{}").format(sentence_html(explanation.title, lang, gettext),
                                            Markup("\n").join(_section(s, lang, gettext)
                                                              for s in explanation.sections))


def how_globals(lang: str, gettext: Callable[[str], str]) -> dict[str, Callable]:
    """What how.html.j2 calls to write the page in `lang`: its title and its main part."""
    return {"how_title": lambda explanation: sentence_html(explanation.title, lang, gettext),
            "how_html": lambda explanation: explanation_html(explanation, lang, gettext)}
