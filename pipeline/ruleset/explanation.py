"""How a rule set computes its ratings, as data: the site's "How ratings are computed"
page (pipeline/site/how.py renders it in each language). The sentences are the cards'
`Line`s (pipeline/ruleset/card.py: an English msgid and its values), so every number
on the page is a value the rule set computed from its parameters in force, never
text typed beside the code: a scenario's parameters give its own page.

| part          | what it holds                                                      |
|---------------|--------------------------------------------------------------------|
| `Table`       | a caption, its column headings and rows of values                  |
| `Section`     | a heading and, in reading order, sentences and tables              |
| `Explanation` | a title and the sections                                           |

`parameters_section` is what every rule set gets for free (RuleSet.explanation's
default): its parameters in force, by name, with their values.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass
from typing import Union

from pipeline.ruleset.card import Line, Num, Value, _checked, _nested


@dataclass(frozen=True)
class Table:
    """A table: `columns` are its headings (a `Line` for words, a str or `Num` for data),
    each row a tuple of values (those of a card's sentences)."""

    caption: Line
    columns: tuple[Value, ...]
    rows: tuple[tuple[Value, ...], ...]

    def __post_init__(self):
        object.__setattr__(self, "columns", _checked(tuple(self.columns)))
        object.__setattr__(self, "rows", tuple(_checked(tuple(r)) for r in self.rows))
        if any(len(r) != len(self.columns) for r in self.rows):
            raise ValueError(f"a row of the table {self.caption.message!r} has not {len(self.columns)} cells")


Part = Union[Line, Table]


@dataclass(frozen=True)
class Section:
    heading: Line
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Explanation:
    title: Line
    sections: tuple[Section, ...]

    def lines(self) -> Iterator[Line]:
        """Every sentence of the page, clauses, captions, headings and cells included."""
        for line in (self.title, *(x for s in self.sections for x in _section_lines(s))):
            yield from _nested(line)

    def messages(self) -> set[str]:
        """Every msgid the page uses (its catalogue's words)."""
        return {line.message for line in self.lines()}

    def numbers(self) -> list[float]:
        """Every number the page shows, in reading order (for the tests' comparisons)."""
        found = []
        for line in self.lines():
            found += [v.value for v in line.values.values() if isinstance(v, Num)]
        for s in self.sections:
            for part in s.parts:
                if isinstance(part, Table):
                    found += [c.value for row in part.rows for c in row if isinstance(c, Num)]
        return found


def _section_lines(section: Section) -> Iterator[Line]:
    yield section.heading
    for part in section.parts:
        if isinstance(part, Line):
            yield part
            continue
        yield part.caption
        for cell in (*part.columns, *(c for row in part.rows for c in row)):
            for x in cell if isinstance(cell, tuple) else (cell,):
                if isinstance(x, Line):
                    yield x


def shown(value) -> Value:
    """A parameter's value as the page shows it: a number as written in the rules (no
    decimals it does not have), a switch as yes or no, None as off, a date as it is."""
    if value is None:
        return Line("off")
    if isinstance(value, bool):
        return Line("yes" if value else "no")
    if isinstance(value, int | float):
        return Num(value, None)
    return str(value)


def parameters_section(rule_set) -> Section:
    """The parameters in force (the rule set's defaults, or a scenario's or a rules
    file's values), by their names in a rules file: what a sixth rule set's page shows
    with no code of its own."""
    values = rule_set.parameter_values()
    names = [f.name for f in fields(rule_set.parameters)] if is_dataclass(rule_set.parameters) else sorted(values)
    rows = tuple((name, shown(values[name])) for name in names if name in values)
    return Section(Line("The parameters in force"), (
        Line("These are the values the lists are computed with; a scenario or a rules file (--rules, --set) "
             "sets its own, and its page shows them."),
        Table(Line("Parameters of the %(rules)s rules", {"rules": rule_set.name}),
              (Line("Parameter"), Line("Value")), rows)))


def default_explanation(rule_set) -> Explanation:
    """A rule set's page when it says nothing more: its parameters in force."""
    return Explanation(Line("How ratings are computed: the %(rules)s rules", {"rules": rule_set.name}),
                       (parameters_section(rule_set),))
