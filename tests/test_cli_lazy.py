"""The `ratings` group loads a command's module when the command is called or its help shown
(issue 54, item 5: click's lazy group), so `ratings --help` imports no command's module. Its
table (pipeline/commands/__init__.py, LAZY) names every command of every command module, and
the help lists them exactly as a group holding the commands themselves would."""
from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import click
import click.testing
import pytest

from pipeline import commands
from pipeline.cli import LazyGroup, main

MODULES = ("analysis", "intake", "lists", "players", "query", "record", "rejects", "series", "studies", "tools", "tune")

# Run as the console script runs, in a process of its own: which command modules were imported.
PROBE = ("import atexit, sys; atexit.register(lambda: print('IMPORTED', sorted(m for m in sys.modules "
         "if m.startswith('pipeline.commands.')), file=sys.stderr)); sys.argv = ['ratings', *sys.argv[1:]]; "
         "from pipeline.cli import entry; entry()")


def imported(tmp_path, *args) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    line = [x for x in done.stderr.splitlines() if x.startswith("IMPORTED")][-1]
    return ast.literal_eval(line.removeprefix("IMPORTED "))


def eager_group() -> click.Group:
    """The group as it was before it loaded lazily: every module's COMMANDS added."""
    group = click.Group("ratings")
    for name in MODULES:
        for command in importlib.import_module(f"pipeline.commands.{name}").COMMANDS:
            group.add_command(command)
    return group


def test_the_table_names_every_command_of_every_module_with_its_short_help():
    expected = {}
    for name in MODULES:
        module = importlib.import_module(f"pipeline.commands.{name}")
        for command in module.COMMANDS:
            attribute = next(a for a, v in vars(module).items() if v is command)
            expected[command.name] = (f"pipeline.commands.{name}:{attribute}", command.get_short_help_str(10_000))
    assert commands.LAZY == expected


def test_every_command_module_is_in_the_table():
    # A new module of commands not registered would be missed by the test above.
    found = {p.stem for p in Path(commands.__file__).parent.glob("*.py") if "\nCOMMANDS = " in p.read_text()}
    assert found == set(MODULES)


@pytest.mark.parametrize("width", [60, 80, 100, 200])
def test_the_help_lists_the_commands_as_a_group_holding_them_does(width):
    eager = eager_group()
    texts = []
    for group in (main, eager):
        with click.Context(group, info_name="ratings", terminal_width=width, max_content_width=width) as ctx:
            formatter = ctx.make_formatter()
            group.format_commands(ctx, formatter)
            texts.append(formatter.getvalue())
    assert texts[0] == texts[1]
    assert texts[0].count("\n") == len(commands.LAZY) + 1  # "Commands:" and one line each


def test_the_help_imports_no_command_module(tmp_path):
    assert imported(tmp_path, "--help") == []


def test_a_commands_help_imports_its_module_and_those_it_uses_only(tmp_path):
    # query's module and what every command module shares (its options, the warehouse opened).
    assert imported(tmp_path, "query", "--help") == [
        "pipeline.commands.common", "pipeline.commands.options", "pipeline.commands.query"]
    assert "pipeline.commands.intake" in imported(tmp_path, "run", "--help")


def test_an_unknown_command_is_refused_as_click_refuses_it():
    result = click.testing.CliRunner().invoke(main, ["rnu"])
    assert result.exit_code == 2 and "No such command 'rnu'" in result.output


def test_a_table_entry_that_is_not_a_command_is_named():
    group = LazyGroup("g", lazy_subcommands={"x": ("pipeline.commands:LAZY", "Not a command.")})
    with click.Context(group) as ctx, pytest.raises(ValueError, match="pipeline.commands:LAZY, the command 'x'"):
        group.get_command(ctx, "x")
