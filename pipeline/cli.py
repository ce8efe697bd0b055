"""The `ratings` command: one subcommand per task of a rating officer. The group is
here (its help, its failure handling, the console script); the commands are in
pipeline/commands/, one module per task, each parsing its options, calling the
pipeline (pipeline/flow.py and the stages) and printing (pipeline/console.py). The
group imports a command's module only when that command is called or its help shown
(click's lazy group), so that `ratings --help` loads no command and `ratings query`
starts without pandas or Pandera."""
from __future__ import annotations

import importlib
import sys

import click

from pipeline import commands, config, systems


def failure_message(err: BaseException) -> str:
    """One line for a failure of the environment (a file, the disk, memory): what and where."""
    import duckdb

    if isinstance(err, OSError):
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}{err.strerror or err}"
    if isinstance(err, MemoryError):
        return "out of memory: give the run more memory, or smaller files"
    if isinstance(err, duckdb.OutOfMemoryException):
        from pipeline.warehouse import memory_limit

        return (f"the warehouse ran out of memory: DuckDB may use {memory_limit()} (RATINGS_DUCKDB_MEMORY); "
                f"give it more, e.g. RATINGS_DUCKDB_MEMORY=4GB ({str(err).splitlines()[0]})")
    if isinstance(err, duckdb.Error):
        return f"the warehouse failed: {str(err).splitlines()[0]}"
    return f"unexpected {type(err).__name__}: {err} (run again with --debug for the details)"


def _user_errors() -> tuple[type[Exception], ...]:
    """The refusals a user can meet, each one message (their modules load only when a command runs)."""
    from pipeline.analysis.evaluate import NoCommonGames
    from pipeline.analysis.sources import SourceError
    from pipeline.formats.cells import LayoutError
    from pipeline.ingest.submissions import SubmissionError
    from pipeline.ingest.tables import InputFileError
    from pipeline.outputs import OutputRefused
    from pipeline.publish import PublishedFileConflict
    from pipeline.rate import UnknownList
    from pipeline.rate.corrections import CorrectionRefused
    from pipeline.rate.series import SeriesError
    from pipeline.ruleset.interface import NotFound
    from pipeline.site.data import UnknownSince
    from pipeline.tune.space import SpaceError
    from pipeline.tune.study import StudyError
    from pipeline.warehouse import WarehouseError

    return (InputFileError, SubmissionError, CorrectionRefused, PublishedFileConflict, SeriesError, NotFound,
            UnknownList, WarehouseError, systems.UnknownRuleSet, systems.ParameterError, NoCommonGames, UnknownSince,
            LayoutError, OutputRefused, config.SettingsError, SpaceError, StudyError, SourceError)


class RuleSetsHelp:
    """Help text naming the rule sets, filled from the registry when it is shown (a rule set
    registered from outside is listed too, and no rule set is named here)."""

    def format_help_text(self, ctx, formatter):
        self.help = self.help_template.replace("{rule_sets}", systems.described())
        super().format_help_text(ctx, formatter)


class LazyGroup(click.Group):
    """click's group that loads its subcommands lazily (click's documentation, "Lazily Loading
    Subcommands"): `lazy_subcommands` maps a name to ("module:attribute", short help); the
    module is imported when the command is called or its help shown. The group's own help
    lists the commands with the short helps of the table, importing none of them."""

    def __init__(self, *args, lazy_subcommands: dict[str, tuple[str, str]] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = lazy_subcommands or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy_subcommands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            return self._lazy_load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def _lazy_load(self, cmd_name: str) -> click.Command:
        module_name, attribute = self.lazy_subcommands[cmd_name][0].split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise ValueError(f"{module_name}:{attribute}, the command {cmd_name!r}, is not a click command")
        return command

    def _listed(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command as the group's help lists it: a lazy one as a stand-in holding its short
        help (click shortens it to the width as it would the command's own)."""
        if cmd_name in self.lazy_subcommands:
            return click.Command(cmd_name, help=self.lazy_subcommands[cmd_name][1])
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own listing (Group.format_commands), each command taken from _listed.
        listed = [(name, cmd) for name in self.list_commands(ctx)
                  if (cmd := self._listed(ctx, name)) is not None and not cmd.hidden]
        if listed:
            limit = formatter.width - 6 - max(len(name) for name, _ in listed)
            with formatter.section("Commands"):
                formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in listed])


class Commands(RuleSetsHelp, LazyGroup):
    """The `ratings` group: every failure is one message and a non-zero exit, never a
    traceback (--debug shows it)."""

    help_template = """Compute and publish rating lists under each rule set of the registry:
    {rule_sets}.

    Example: ratings run --players players.csv --games games.csv --ratings ratings.csv --out lists/"""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except Exception as err:
            if ctx.params.get("debug"):
                raise
            if isinstance(err, _user_errors()):
                raise click.ClickException(str(err)) from err
            raise click.ClickException(failure_message(err)) from err


@click.group(cls=Commands, lazy_subcommands=commands.LAZY)
@click.version_option(package_name="ratings-pipeline", prog_name="ratings")
@click.option("--debug", is_flag=True, help="Show the traceback of an unexpected failure.")
def main(debug: bool) -> None:
    """Compute and publish rating lists under each rule set of the registry (ratings --help lists them).

    Example: ratings run --players players.csv --games games.csv --ratings ratings.csv --out lists/
    """


def entry() -> None:
    """The `ratings` console script: `main` in a process of its own."""
    # Pandera loads its data-synthesis strategies, and hypothesis (a test extra) with them,
    # whenever hypothesis is installed: a cost on every validating command, for a feature
    # the pipeline never uses. A None entry in sys.modules makes that import fail as if
    # hypothesis were absent, which Pandera expects; only this process's, never a caller's.
    sys.modules.setdefault("hypothesis", None)
    main()
