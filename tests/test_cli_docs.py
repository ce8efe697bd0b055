"""Every `ratings` command and option is documented: each command in docs/commands.md
with an example in its help, and docs/reference.md is the commands' help as the CLI
gives it (regenerate it with `python -m tests.test_cli_docs`), so no option is missing
from the manual. The README names the commands of a season."""
from __future__ import annotations

import sys

import click
import pytest

from pipeline.cli import main
from tests.conftest import PROJECT_DIR

COMMANDS = (PROJECT_DIR / "docs" / "commands.md").read_text()
REFERENCE = PROJECT_DIR / "docs" / "reference.md"


def reference() -> str:
    """The Markdown of every command's help and options, in command order."""
    parts = ["# Options of each command", "",
             "Each command's help as `ratings COMMAND --help` prints it: generated from the CLI "
             "(`python -m tests.test_cli_docs`), and checked by the tests to be current.", ""]
    for name in sorted(main.commands):
        command = main.commands[name]
        with click.Context(command, info_name=f"ratings {name}", terminal_width=100, max_content_width=100) as ctx:
            text = command.get_help(ctx)
        parts += [f"## `ratings {name}`", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(parts)


@pytest.mark.parametrize("name", sorted(main.commands))
def test_command_is_documented(name):
    assert f"`ratings {name}" in COMMANDS
    assert "Example:" in (main.commands[name].help or "")


def test_every_option_is_in_the_reference():
    assert REFERENCE.read_text() == reference(), "docs/reference.md is stale: run python -m tests.test_cli_docs"
    for name, command in main.commands.items():
        for option in (o for p in command.params for o in p.opts if o.startswith("--")):
            assert option in REFERENCE.read_text().split(f"## `ratings {name}`")[1].split("\n## ")[0], (name, option)


if __name__ == "__main__":
    REFERENCE.write_text(reference())
    sys.exit(0)
