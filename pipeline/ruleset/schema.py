"""The schema lookup: where a rule set's own tables' DDL (schema.sql) is found, along its class
hierarchy (a subclass of a shipped rule set keeps its parent's tables)."""
from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path


def _module_folder(cls: type) -> Path | None:
    """The folder of the module defining `cls` (None: a module without a file)."""
    file = getattr(sys.modules.get(cls.__module__), "__file__", None)
    return Path(file).parent if file else None


def schema_file(hierarchy: Iterable[type]) -> Path | None:
    """The schema.sql of a rule set's class: beside its module, else beside the module of the
    nearest class of its `hierarchy` (the class, then those it derives from, nearest first,
    up to RuleSet, left out) that has one (None: none of them has one)."""
    for klass in hierarchy:
        folder = _module_folder(klass)
        if folder is not None and (folder / "schema.sql").is_file():
            return folder / "schema.sql"
    return None
