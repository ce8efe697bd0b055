"""The wheel carries the whole package: every folder of pipeline/ with Python files is
a package of pyproject.toml, and every data file (SQL, tables, templates) is package
data (.ci/run installs the wheel and tests it as installed)."""
from __future__ import annotations

import tomllib

from tests.conftest import PROJECT_DIR


def test_every_folder_with_python_files_is_a_package_setup_finds():
    # setup.py finds the packages (find_packages): a folder of Python files without an
    # __init__.py would be left out of the wheel, and a rule set in it fail at run time.
    folders = {p.parent for p in (PROJECT_DIR / "pipeline").rglob("*.py") if "__pycache__" not in p.parts}
    assert [f for f in folders if not (f / "__init__.py").is_file()] == []
    setup = (PROJECT_DIR / "setup.py").read_text()
    assert 'find_packages(include=["pipeline", "pipeline.*"])' in setup and '"pipeline.sql", "pipeline.sample"' in setup


def test_every_data_file_is_package_data():
    patterns = tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    suffixes = {p.suffix for p in (PROJECT_DIR / "pipeline").rglob("*") if p.is_file()
                and "__pycache__" not in p.parts and p.suffix != ".py"}
    assert suffixes <= {"." + pattern.rsplit(".", 1)[1] for pattern in patterns}
