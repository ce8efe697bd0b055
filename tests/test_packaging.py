"""The wheel carries the whole package: every folder of pipeline/ with Python files is
a package of pyproject.toml, and every data file (SQL, tables, templates) is package
data (.ci/run installs the wheel and tests it as installed)."""
from __future__ import annotations

import tomllib

from tests.conftest import PROJECT_DIR


def test_every_package_folder_is_listed():
    listed = set(tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(PROJECT_DIR).parts) for p in (PROJECT_DIR / "pipeline").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert folders - listed == set()
    assert {"pipeline.sql", "pipeline.sample"} <= listed


def test_every_data_file_is_package_data():
    patterns = tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    suffixes = {p.suffix for p in (PROJECT_DIR / "pipeline").rglob("*") if p.is_file()
                and "__pycache__" not in p.parts and p.suffix != ".py"}
    assert suffixes <= {"." + pattern.rsplit(".", 1)[1] for pattern in patterns}
