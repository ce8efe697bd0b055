"""The rule sets, and the registry: the only place where a rule set's name becomes code.

A rule set is a folder under pipeline/systems/ whose package defines RULE_SET, a
subclass of pipeline.ruleset.interface.RuleSet (its rules, calendar, state, rating of a
period, card, what it publishes). Adding one is adding a folder and one line here;
`register` adds one from anywhere (a test), and a federation's own installed package
adds one by declaring it in the entry-point group `ratings.rule_sets` (name = module).

Modules are imported only when their rule set is asked for: listing the names
(`ratings --help`) imports nothing.
"""
from __future__ import annotations

import dataclasses
import importlib
import os
import re
from typing import TYPE_CHECKING

from pipeline.ruleset.parameters import allowed

if TYPE_CHECKING:
    from pipeline.ruleset.interface import RuleSet

# name → module defining RULE_SET
REGISTRY: dict[str, str] = {
    "performance": "pipeline.systems.performance",
    "fide": "pipeline.systems.fide",
    "go-belgium": "pipeline.systems.go_belgium",
    "go-ffg1984": "pipeline.systems.go_ffg1984",
    "glicko2": "pipeline.systems.glicko2",
}
DEFAULT = "performance"  # a new warehouse's rule set when none is given
# name → what it is, in a few words: the CLI's help lists the rule sets from here, without
# importing any (`ratings --help` loads no rule set)
SUMMARIES: dict[str, str] = {
    "performance": "the national performance Elo, three lists a year",
    "fide": "the FIDE Elo, monthly lists, each event rated whole",
    "go-belgium": "the Belgian Go Federation's ratings, event by event",
    "go-ffg1984": "the French Go Federation's rules of 1984, game by game",
    "glicko2": "Glicko-2 (Glickman 2013), monthly rating periods",
}


class ParameterError(ValueError):
    """A --rules file with a key that is not a parameter of the rule set, or a value of the wrong kind."""


class UnknownRuleSet(LookupError):
    """A rule set name the registry does not know."""


class RuleSetRefused(UnknownRuleSet, ValueError):
    """A rule set whose class breaks a contract of the interface (pipeline/ruleset/contracts.py:
    its tables, its schema, its methods' signatures): not loaded, as one that fails to import."""


ENTRY_POINTS = "ratings.rule_sets"  # an installed package's rule sets: name = "module"
# Set (to anything but empty), the installed packages' rule sets are not loaded: the project's
# own tests set it (tests/conftest.py), so that a rule set installed beside the pipeline
# neither changes what they check (the help, docs/reference.md) nor turns them red.
IGNORE_INSTALLED = "RATINGS_IGNORE_INSTALLED_RULE_SETS"
# A rule set's name names its official lists' series, their folder under --out and its
# tables' rows: a plain name, so that no name reaches outside the folder it names.
PLAIN_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
PLAIN_WORDS = "lower-case letters, digits, _ and -, at most 40"
# name → where it comes from, as the failures name it: an installed package's, or a module
# registered by `register`; the registry's own rule sets are the pipeline's.
ORIGINS: dict[str, str] = {}
REFUSED: dict[str, str] = {}  # name → why an installed package's rule set is not taken
_discovered = False


def _discover() -> None:
    """Add the rule sets installed packages declare (once; the registry's own names win);
    one whose name is not a plain name is refused (REFUSED), the others taken. None while
    IGNORE_INSTALLED is set."""
    global _discovered
    if _discovered or os.environ.get(IGNORE_INSTALLED):
        return
    _discovered = True
    # why: importlib.metadata loads only when installed rule sets are read, not by `ratings query --help`
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINTS):
        if point.name in REGISTRY:
            continue
        package = f"the package {point.dist.name} {point.dist.version}" if point.dist else f"the module {point.value}"
        if not PLAIN_NAME.fullmatch(point.name):
            REFUSED[point.name] = (f"the rule set {point.name!r} of {package} is refused: its name is not a plain "
                                   f"name ({PLAIN_WORDS}), and it names the lists' folder")
            continue
        REGISTRY[point.name] = point.value
        ORIGINS[point.name] = package
        SUMMARIES.setdefault(point.name, f"from the installed package {point.dist.name if point.dist else point.value}")


def names() -> tuple[str, ...]:
    _discover()
    return tuple(REGISTRY)


def refused(name: str) -> str | None:
    """Why an installed package's rule set `name` was not taken (None: it was not refused)."""
    _discover()
    return REFUSED.get(name)


def register(name: str, module: str, summary: str = "") -> None:
    """Add a rule set: `module` (importable) defines RULE_SET, whose name is `name` (a
    plain name); `summary` says what it is in the CLI's help."""
    if not PLAIN_NAME.fullmatch(name):
        raise UnknownRuleSet(f"rule set name {name!r} refused: {PLAIN_WORDS} (it names the lists' folder)")
    REGISTRY[name] = module
    SUMMARIES[name] = summary
    ORIGINS[name] = f"the module {module}"


def origin(name: str) -> str:
    """Where the rule set `name` comes from, in words: its package (or module), or the pipeline."""
    _discover()
    return ORIGINS.get(name, "the pipeline's own")


def described_rule_set(name: str) -> str:
    """The rule set as a failure names it: its name and where it comes from."""
    return f"the rule set {name} ({origin(name)})"


def described() -> str:
    """The rule sets as the CLI's help lists them: each name, with what it is, the default marked."""
    return "; ".join(f"{name} ({SUMMARIES.get(name) or 'a rule set'}{', the default' if name == DEFAULT else ''})"
                     for name in names())


def rule_set_class(name: str) -> type[RuleSet]:
    """The rule set `name`'s class, loaded: UnknownRuleSet when no rule set of that name is
    installed, or its package cannot give one (it fails to import, defines no RULE_SET, or
    one of another name), RuleSetRefused when its class breaks a contract of the interface,
    the message naming the package."""
    from pipeline.ruleset.contracts import broken_contract  # why: imports the interface (NumPy), as the line below
    from pipeline.ruleset.interface import RuleSet  # why: NumPy, loaded with a rule set, not by `ratings --help`

    _discover()
    if name in REFUSED:
        raise UnknownRuleSet(REFUSED[name])
    if name not in REGISTRY:
        raise UnknownRuleSet(f"no rule set {name!r}: the rule sets are {', '.join(REGISTRY)}")
    try:
        cls = getattr(importlib.import_module(REGISTRY[name]), "RULE_SET", None)
    except Exception as err:  # the package's own import: any failure of it is the package's
        raise UnknownRuleSet(f"{described_rule_set(name)} cannot be loaded: importing {REGISTRY[name]} failed "
                             f"({type(err).__name__}: {err})") from err
    if not (isinstance(cls, type) and issubclass(cls, RuleSet)):
        raise UnknownRuleSet(f"{described_rule_set(name)} cannot be loaded: {REGISTRY[name]} defines no RULE_SET "
                             "subclass of pipeline.ruleset.interface.RuleSet")
    if cls.name != name:
        raise UnknownRuleSet(f"{REGISTRY[name]} defines the rule set {cls.name!r}, registered as {name!r}")
    if broken := broken_contract(cls):
        raise RuleSetRefused(f"{described_rule_set(name)} cannot be loaded: {broken}")
    return cls


class RulesFile(dict):
    """The parameters a --rules file gives (field → value), and the file, which the
    refusals name."""

    def __init__(self, values: dict, path):
        super().__init__(values)
        self.path = path


def rule_set(name: str, parameters: dict | None = None, stored: bool = False) -> RuleSet:
    """The rule set `name` with its default parameters, or with `parameters`
    (field → value, as a --rules file or a stored list gives them) replacing them:
    of the default's type and, unless `stored` (the parameters of lists already
    computed, which are read as they were), within the field's range."""
    cls = rule_set_class(name)
    defaults = cls.Parameters()
    if not parameters:
        return cls(defaults)
    where = f"{parameters.path}: " if isinstance(parameters, RulesFile) else ""
    fields = {f.name: f for f in dataclasses.fields(defaults) if f.init}
    unknown = sorted(set(parameters) - set(fields))
    if unknown:
        raise ParameterError(f"{where}{', '.join(unknown)}: not a parameter of the {name} rules "
                         f"(they are {', '.join(sorted(k for k in fields if not isinstance(getattr(defaults, k), tuple | list | dict)))})")
    try:
        values = {key: _checked(name, fields[key], value, getattr(defaults, key)) for key, value in parameters.items()}
    except ParameterError as err:
        raise ParameterError(f"{where}{err}") from err
    chosen = dataclasses.replace(defaults, **values)
    if not stored:
        _refuse_out_of_range(name, chosen, where)
    return cls(chosen)


def _refuse_out_of_range(system: str, chosen, where: str) -> None:
    """ParameterError for the first parameter outside what its field allows
    (pipeline/ruleset/parameters.py), nan and infinities included."""
    values = dataclasses.asdict(chosen)
    for f in dataclasses.fields(chosen):
        rule = allowed(f)
        if rule is not None and not rule.holds(values[f.name], values):
            raise ParameterError(f"{where}{f.name} = {_shown(values[f.name])} refused: the {system} rules take "
                                 f"{rule.words(values)}; nothing was rated")


def _shown(value) -> str:
    return "none" if value is None else repr(value) if isinstance(value, str) else f"{value}"


def _checked(system: str, field: dataclasses.Field, value, default):
    """A parameter's value of the default's type: a whole number where the default is
    one, a number where it is a number (a whole one is taken), true or false for a
    switch, "none" where the field may be none; tables are data, not parameters."""
    key = field.name
    if isinstance(default, tuple | list | dict):
        raise ParameterError(f"{key}: a table of the {system} rules, read from its data file, not a parameter")
    if (value == "none" or value is None) and "None" in str(field.type):  # None: as stored (JSON null)
        return None
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(default, bool) and isinstance(value, bool):
        return value
    if isinstance(default, int) and not isinstance(default, bool) and isinstance(value, int) and number:
        return value
    if (isinstance(default, float) or default is None) and number:
        return float(value)
    if isinstance(default, str) and isinstance(value, str):
        return value
    raise ParameterError(f"{key} = {value!r}: the {system} rules take {_kind(default, field)} (default {default!r})")


def _kind(default, field: dataclasses.Field) -> str:
    optional = ' or "none"' if "None" in str(field.type) else ""
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "a whole number" + optional
    if isinstance(default, float) or default is None:
        return "a number" + optional
    return f"a {type(default).__name__}"
