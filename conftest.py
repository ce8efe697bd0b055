"""The checkout's `tests` package, whatever else is installed under that name.

The `glicko2` package (2.1.0, the `peers` extra) installs a top-level package named
`tests`. The checkout goes at the end of sys.path (pyproject.toml: `--import-mode=append`),
so in a venv with the extra, `tests.conftest` was looked for in that package and no test
ran. pytest loads this file first; the checkout's package is put in its place.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_OURS = Path(__file__).resolve().parent / "tests" / "__init__.py"
_spec = importlib.util.spec_from_file_location("tests", _OURS, submodule_search_locations=[str(_OURS.parent)])
sys.modules["tests"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sys.modules["tests"])
