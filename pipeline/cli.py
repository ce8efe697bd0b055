"""The `ratings` command: one subcommand per task of a rating officer. The group is
here (its help, its failure handling, the console script); the commands are in
pipeline/commands/, one module per task, each parsing its options, calling the
pipeline (pipeline/flow.py and the stages) and printing (pipeline/console.py). Each
command imports only what it needs, so that `ratings --help` and `ratings query`
start without pandas or Pandera."""
from __future__ import annotations

import sys

import click

from pipeline import config, systems
from pipeline.commands import analysis, intake, lists, players, record, rejects, tools, tune


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
    from pipeline.site.data import UnknownSince
    from pipeline.systems.base import NotFound
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
        from pipeline import systems
        self.help = self.help_template.replace("{rule_sets}", systems.described())
        super().format_help_text(ctx, formatter)


class Commands(RuleSetsHelp, click.Group):
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


@click.group(cls=Commands)
@click.version_option(package_name="ratings-pipeline", prog_name="ratings")
@click.option("--debug", is_flag=True, help="Show the traceback of an unexpected failure.")
def main(debug: bool) -> None:
    """Compute and publish rating lists under each rule set of the registry (ratings --help lists them).

    Example: ratings run --players players.csv --games games.csv --ratings ratings.csv --out lists/
    """


# Every command of pipeline/commands/, by task: taking files in, the rejects, the lists'
# record, the lists, scenarios and analysis, parameter studies, what players see, the tools.
for _module in (intake, rejects, record, lists, analysis, tune, players, tools):
    for _command in _module.COMMANDS:
        main.add_command(_command)


def entry() -> None:
    """The `ratings` console script: `main` in a process of its own."""
    # Pandera loads its data-synthesis strategies, and hypothesis (a test extra) with them,
    # whenever hypothesis is installed: a cost on every validating command, for a feature
    # the pipeline never uses. A None entry in sys.modules makes that import fail as if
    # hypothesis were absent, which Pandera expects; only this process's, never a caller's.
    sys.modules.setdefault("hypothesis", None)
    main()
