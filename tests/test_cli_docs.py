"""Every `ratings` command is documented in the README and has an example in its help."""
from __future__ import annotations

import pytest

from pipeline.cli import main
from tests.conftest import PROJECT_DIR

README = (PROJECT_DIR / "README.md").read_text()


@pytest.mark.parametrize("name", sorted(main.commands))
def test_command_is_documented(name):
    assert f"`ratings {name}" in README
    assert "Example:" in (main.commands[name].help or "")
