"""The contracts a rule set's class meets when it is loaded (pipeline.systems.rule_set_class
refuses it, one message naming it and its package, when one is broken):

- each own table it declares (`extensions`, `tables`) is made by its schema (RuleSet.schema:
  the schema.sql found along its class hierarchy, or its own `schema()`), and `extensions`
  extends shared tables that take extensions;
- its schema alters, drops or replaces no shared table (those of sql/schema.sql): a rule
  set keeps its own columns in tables of its own, and another rule set's series share them;
- each method of the interface it overrides takes what the pipeline passes.

What its rating returns is checked as it runs (pipeline/rate/contract.py), and its own
tables' grain by `ratings audit` (pipeline/audit.py)."""
from __future__ import annotations

import functools
import inspect
import re

from pipeline.config import SQL_DIR
from pipeline.ruleset.interface import RuleSet
from pipeline.ruleset.tables import SHARED_KEYS

_NAME = r'(?:main\.)?"?(\w+)"?'
CREATED = re.compile(rf"\bcreate\s+(?:or\s+replace\s+)?table\s+(?:if\s+not\s+exists\s+)?{_NAME}", re.IGNORECASE)
# What changes or removes a table that exists: `create or replace` drops it first.
ALTERED = re.compile(rf"\b(alter\s+table|drop\s+table|drop\s+view|create\s+or\s+replace\s+table)\s+"
                     rf"(?:if\s+exists\s+)?{_NAME}", re.IGNORECASE)
COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.DOTALL)


@functools.cache
def shared_tables() -> frozenset[str]:
    """The tables every rule set's series share: those sql/schema.sql makes."""
    return frozenset(t.lower() for t in CREATED.findall(COMMENTS.sub("", (SQL_DIR / "schema.sql").read_text())))


@functools.cache
def broken_contract(cls: type[RuleSet]) -> str | None:
    """What the rule set's class breaks of its contracts, in words (None: nothing)."""
    return _declared_tables(cls) or _signatures(cls)


def _declared_tables(cls: type[RuleSet]) -> str | None:
    wrong = sorted(set(cls.extensions) - set(SHARED_KEYS))
    if wrong:
        return (f"its extensions name {', '.join(wrong)}, not a table a rule set extends "
                f"({', '.join(SHARED_KEYS)})")
    try:
        schema = cls(cls.Parameters()).schema()
    except Exception as err:  # its own code, with its default parameters: any failure of it is the package's
        return f"its schema cannot be read ({type(err).__name__}: {err})"
    sql = COMMENTS.sub("", schema or "")
    touched = sorted({(what.lower().split()[0], table) for what, table in ALTERED.findall(sql)
                      if table.lower() in shared_tables()})
    if touched:
        verb, table = touched[0]
        verb = {"alter": "alters", "drop": "drops", "create": "replaces"}[verb]
        return (f"its schema.sql {verb} {table}, a table every rule set shares (sql/schema.sql): a rule set keeps "
                "its own columns in tables of its own (RuleSet.extensions) and never changes a shared one")
    declared = [*cls.extensions.values(), *cls.tables]
    made = {t.lower() for t in CREATED.findall(sql)}
    missing = [t for t in declared if t.lower() not in made]
    if missing and schema is None:
        return (f"it declares its own tables ({', '.join(missing)}) and no schema.sql makes them (none beside its "
                "module nor beside any rule set it derives from; or give the DDL from its schema())")
    if missing:
        return f"its schema makes no table {', '.join(missing)}, which it declares (RuleSet.extensions, tables)"
    return None


def _signatures(cls: type[RuleSet]) -> str | None:
    """The first method of the interface the class overrides with one that cannot take the
    arguments the interface declares (the required ones by position, the others by name)."""
    for name, member in vars(RuleSet).items():
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        raw = inspect.getattr_static(cls, name)
        if raw is member:
            continue
        declared = inspect.signature(member)
        args = [None for p in declared.parameters.values() if p.default is inspect.Parameter.empty]
        kwargs = {p.name: None for p in declared.parameters.values() if p.default is not inspect.Parameter.empty}
        if isinstance(raw, staticmethod | classmethod):  # called through the class: no `self` to pass
            args = args[1:]
        try:
            inspect.signature(getattr(cls, name)).bind(*args, **kwargs)
        except (TypeError, ValueError):  # not callable, or it takes other arguments
            return (f"its {name} cannot take what the pipeline passes: {name}({', '.join(declared.parameters)}), "
                    f"as pipeline.ruleset.interface.RuleSet declares it")
    return None
