"""Every `ratings` command and option is documented: each command in docs/commands.md
with an example in its help, and docs/reference.md is the commands' help as the CLI
gives it (regenerate it with `python -m tests.test_cli_docs`), so no option is missing
from the manual. The README names the commands of a season."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from pipeline.cli import main
from pipeline.systems import IGNORE_INSTALLED
from tests.as_user import ratings
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



def test_a_rule_set_installed_beside_the_pipeline_leaves_the_reference_as_it_is(tmp_path):
    """docs/reference.md is the pipeline's help with its own rule sets: the toy installed from
    its wheel (tests/toy_rule_set, its entry point), which `ratings --help` then lists, turns
    neither the reference check nor any other red."""
    source, target = tmp_path / "src", tmp_path / "site"  # built from a copy: the build leaves files beside it
    shutil.copytree(PROJECT_DIR / "tests" / "toy_rule_set", source,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(target), str(source)], check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k != IGNORE_INSTALLED} | {"PYTHONPATH": str(target)}
    script = Path(sys.executable).parent / "ratings"
    assert "plain-elo" in subprocess.run([str(script), "--help"], capture_output=True, text=True, env=env,
                                         cwd=tmp_path).stdout  # installed: a user's help lists it
    check = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                            f"{Path(__file__).resolve()}::test_every_option_is_in_the_reference"],
                           capture_output=True, text=True, env=env, cwd=PROJECT_DIR)
    assert check.returncode == 0, check.stdout + check.stderr


# The examples a warehouse alone can run (the others name input files, players and lists
# of their own): run as the help shows them, as a user runs them, on a real warehouse.
RUNNABLE = ("audit", "corrections", "query", "scenarios", "submissions", "tunes", "validate")


def examples(name: str) -> list[list[str]]:
    """The examples of a command's help, each as its arguments after `ratings`."""
    return [shlex.split(line.strip().removeprefix("Example: ratings "))
            for line in (main.commands[name].help or "").splitlines() if line.strip().startswith("Example: ratings ")]


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    """The embedded sample (a Belgian season) run into a warehouse: a scratch folder holding w.duckdb."""
    folder = tmp_path_factory.mktemp("sample")
    ratings(folder, "run", "--sample", "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    return folder


@pytest.mark.parametrize("name", RUNNABLE)
def test_the_help_examples_run_on_a_real_warehouse(sample, name):
    # Issue 50: query's example read lists.rounds_used, which layout 9 moved to performance_lists.
    assert examples(name), name
    for args in examples(name):
        said = ratings(sample, *args, *([] if "--warehouse" in args else ["--warehouse", "w.duckdb"]))
        if name == "query":  # the sample's three lists, each with its estimation's rounds
            assert said.splitlines()[0].split() == ["list_id", "players_rated", "rounds_used"]
            assert sorted(line.split()[0] for line in said.splitlines()[1:]) == ["2019-01", "2019-05", "2019-09"]
            assert all(line.split()[2].isdigit() for line in said.splitlines()[1:])


if __name__ == "__main__":
    os.environ[IGNORE_INSTALLED] = "1"  # the pipeline's own rule sets, whatever is installed beside it
    REFERENCE.write_text(reference())
    sys.exit(0)
