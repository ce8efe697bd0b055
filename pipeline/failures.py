"""A failed command as one message (pipeline/cli.py, the group's failure handling): the
refusals a user can meet, each module's own error, said as they are; any other failure of
the environment (a file, the disk, memory, the warehouse) in one line, what and where.

The group imports this module only once a command has failed: it names a refusal of every
part of the pipeline, and `ratings --help` loads none of them."""
from __future__ import annotations

import duckdb

from pipeline import config, systems
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
from pipeline.warehouse import WarehouseError, memory_limit

# The refusals a user can meet, each one message: their text is the message.
USER_ERRORS = (InputFileError, SubmissionError, CorrectionRefused, PublishedFileConflict, SeriesError, NotFound,
               UnknownList, WarehouseError, systems.UnknownRuleSet, systems.ParameterError, NoCommonGames,
               UnknownSince, LayoutError, OutputRefused, config.SettingsError, SpaceError, StudyError, SourceError)


def failure_message(err: BaseException) -> str:
    """One line for a failure of the environment (a file, the disk, memory): what and where."""
    if isinstance(err, OSError):
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}{err.strerror or err}"
    if isinstance(err, MemoryError):
        return "out of memory: give the run more memory, or smaller files"
    if isinstance(err, duckdb.OutOfMemoryException):
        return (f"the warehouse ran out of memory: DuckDB may use {memory_limit()} (RATINGS_DUCKDB_MEMORY); "
                f"give it more, e.g. RATINGS_DUCKDB_MEMORY=4GB ({str(err).splitlines()[0]})")
    if isinstance(err, duckdb.Error):
        return f"the warehouse failed: {str(err).splitlines()[0]}"
    return f"unexpected {type(err).__name__}: {err} (run again with --debug for the details)"


def user_message(err: Exception) -> str:
    """What a user reads of a command's failure: a refusal's own text, else failure_message."""
    return str(err) if isinstance(err, USER_ERRORS) else failure_message(err)
