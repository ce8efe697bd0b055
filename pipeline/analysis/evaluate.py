"""Predictive accuracy (`ratings evaluate`): each source's ratings in force before the
games, scored on the games every source rates both players of (sql/analysis/), by its
own forecast (pipeline/analysis/forecasts.py) and by the common logistic yardstick."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import duckdb
import pyarrow as pa

from pipeline.analysis.forecasts import own_forecasts
from pipeline.analysis.sources import Source, load_sources
from pipeline.progress import progress
from pipeline.warehouse import stage_sql


@dataclass(frozen=True)
class Accuracy:
    """Per source: by list tested and over the whole history (list_id null); the calibration bins."""

    # source, list_id, games, log_loss, brier, white_score, expected (the yardstick's, as the list
    # reports and the studies read them), forecast (own or yardstick: what the own_ columns score),
    # own_log_loss, own_brier, own_expected
    accuracy: pa.Table
    calibration: pa.Table  # source, forecast (own, yardstick), bin, bin_end, games, expected, actual
    forecasts: pa.Table | None = None  # game_id, source, list_id, forecast, yardstick, score (a row a game and source)


class NoCommonGames(ValueError):
    """No game is rated by every source: nothing to compare."""


def _load(con: duckdb.DuckDBPyConnection, sources: list[Source], since: dt.date | None = None,
          until: dt.date | None = None) -> None:
    """The inputs of sql/analysis/scored_games.sql (`since`, `until`: the first and the last
    day of the games scored)."""
    load_sources(con, sources)
    con.execute("set variable scored_from = ?", [since or dt.date.min])
    con.execute("set variable scored_until = ?", [until or dt.date.max])
    con.execute("set variable first_source = ?", [sources[0].name])
    con.execute("set variable sources = (select count(distinct source) from source_lists)")


def scored_games(con: duckdb.DuckDBPyConnection, sources: list[Source], since: dt.date | None = None,
                 until: dt.date | None = None) -> None:
    """The temp table `scored`: every game every source rates (played from `since` to
    `until`), as each scores it."""
    _load(con, sources, since, until)
    con.execute(f"create or replace temp table scored as {stage_sql('analysis/scored_games')}")


def accuracy(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> pa.Table:
    """The accuracy table alone (what the list reports show), in no particular order;
    no row when no game is scored. The games scored are read once, as they are scored:
    keeping them in `scored` would cost a quarter of the time."""
    _load(con, sources)
    return con.sql(f"with scored as ({stage_sql('analysis/scored_games')}) "
                   f"select * from ({stage_sql('analysis/accuracy')})").to_arrow_table()


def _of_own(stage: str) -> str:
    """SQL of a stage of sql/analysis/ that scores `expected`, scoring each source's own
    forecast instead: `scored` with it as `expected` (a CTE's body reads the table it shadows)."""
    return f"(with scored as (select * replace (forecast as expected) from scored) select * from ({stage_sql(stage)}))"


def evaluate(con: duckdb.DuckDBPyConnection, sources: list[Source], since: dt.date | None = None,
             until: dt.date | None = None, per_game: bool = False) -> Accuracy:
    """Log-loss, Brier score and calibration of each source, on the same games (those
    played from `since` to `until`, when given), by its own forecast and by the yardstick;
    with `per_game`, the forecasts of every game too."""
    with progress(step="evaluate", total=4, unit="step") as bar:
        bar.set_postfix_str("games scored")
        scored_games(con, sources, since, until)
        if not con.execute("select count(*) from scored").fetchall()[0][0]:
            span = (f" from {since} on" if since and not until else f" up to {until}" if until and not since
                    else f" from {since} to {until}" if since else "")
            raise NoCommonGames("no played game has both players rated by every source "
                                f"({', '.join(s.name for s in sources)}) on its day" + span)
        bar.update()
        bar.set_postfix_str("own forecasts")
        kinds = own_forecasts(con, sources)
        bar.update()
        bar.set_postfix_str("accuracy")
        con.register("forecast_kinds", pa.table({"source": list(kinds), "forecast": list(kinds.values())}))
        scores = con.sql(f"""
            select y.*, k.forecast, o.log_loss as own_log_loss, o.brier as own_brier, o.expected as own_expected
            from ({stage_sql('analysis/accuracy')}) y
            join {_of_own('analysis/accuracy')} o
              on o.source = y.source and o.list_id is not distinct from y.list_id
            join forecast_kinds k on k.source = y.source
            order by y.source, y.list_id nulls last""").to_arrow_table()
        bar.update()
        bar.set_postfix_str("calibration")
        calibration = con.sql(f"""
            select source, 'yardstick' as forecast, * exclude (source) from ({stage_sql('analysis/calibration')})
            union all
            select source, 'own', * exclude (source) from {_of_own('analysis/calibration')}
            where source in (select source from forecast_kinds where forecast = 'own')
            order by source, forecast, bin""").to_arrow_table()
        con.unregister("forecast_kinds")
        forecasts = con.sql(stage_sql("analysis/forecasts")).to_arrow_table() if per_game else None
        bar.update()
    return Accuracy(scores, calibration, forecasts)
