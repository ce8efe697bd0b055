"""Predictive accuracy (`ratings evaluate`): each source's ratings in force before the
games, scored on the games every source rates both players of (sql/analysis/)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import duckdb
import pyarrow as pa

from pipeline.analysis.sources import Source, load_sources
from pipeline.progress import progress
from pipeline.warehouse import stage_sql


@dataclass(frozen=True)
class Accuracy:
    """Per source: by list tested and over the whole history (list_id null); the calibration bins."""

    accuracy: pa.Table  # source, list_id, games, log_loss, brier, white_score, expected
    calibration: pa.Table  # source, bin, bin_end, games, expected, actual


class NoCommonGames(ValueError):
    """No game is rated by every source: nothing to compare."""


def _load(con: duckdb.DuckDBPyConnection, sources: list[Source], since: dt.date | None = None) -> None:
    """The inputs of sql/analysis/scored_games.sql (`since`: the first day of the games scored)."""
    load_sources(con, sources)
    con.execute("set variable scored_from = ?", [since or dt.date.min])
    con.execute("set variable first_source = ?", [sources[0].name])
    con.execute("set variable sources = (select count(distinct source) from source_lists)")


def scored_games(con: duckdb.DuckDBPyConnection, sources: list[Source], since: dt.date | None = None) -> None:
    """The temp table `scored`: every game every source rates (played on or after
    `since`), as each scores it."""
    _load(con, sources, since)
    con.execute(f"create or replace temp table scored as {stage_sql('analysis/scored_games')}")


def accuracy(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> pa.Table:
    """The accuracy table alone (what the list reports show), in no particular order;
    no row when no game is scored. The games scored are read once, as they are scored:
    keeping them in `scored` would cost a quarter of the time."""
    _load(con, sources)
    return con.sql(f"with scored as ({stage_sql('analysis/scored_games')}) "
                   f"select * from ({stage_sql('analysis/accuracy')})").to_arrow_table()


def evaluate(con: duckdb.DuckDBPyConnection, sources: list[Source], since: dt.date | None = None) -> Accuracy:
    """Log-loss, Brier score and calibration of each source, on the same games (those
    played on or after `since`, when given)."""
    with progress(step="evaluate", total=3, unit="step") as bar:
        bar.set_postfix_str("games scored")
        scored_games(con, sources, since)
        if not con.execute("select count(*) from scored").fetchall()[0][0]:
            raise NoCommonGames("no played game has both players rated by every source "
                                f"({', '.join(s.name for s in sources)}) on its day"
                                + (f" from {since} on" if since else ""))
        bar.update()
        bar.set_postfix_str("accuracy")
        scores = con.sql(stage_sql("analysis/accuracy")).to_arrow_table()
        bar.update()
        bar.set_postfix_str("calibration")
        calibration = con.sql(stage_sql("analysis/calibration")).to_arrow_table()
        bar.update()
    return Accuracy(scores, calibration)
