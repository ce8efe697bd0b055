"""Predictive accuracy (`ratings evaluate`): each source's ratings in force before the
games, scored on the games every source rates both players of (sql/analysis/), by its
own forecast (pipeline/analysis/forecasts.py) and by the common logistic yardstick."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import duckdb
import pyarrow as pa

from pipeline.analysis.forecasts import own_forecasts
from pipeline.analysis.scales import apply_fitted_scales, apply_yardstick_scales
from pipeline.analysis.sources import Source, SourceError, file_tables, load_sources
from pipeline.progress import progress
from pipeline.rate.series import series_in, warehouse_game
from pipeline.warehouse import stage_sql


@dataclass(frozen=True)
class Accuracy:
    """Per source: by list tested and over the whole history (list_id null); the calibration bins."""

    # source, list_id, games, log_loss, brier, white_score, expected (the yardstick's, as the list
    # reports and the studies read them), forecast (own, yardstick or file: what the own_ columns score),
    # own_log_loss, own_brier, own_expected
    accuracy: pa.Table
    calibration: pa.Table  # source, forecast (own, yardstick), bin, bin_end, games, expected, actual
    forecasts: pa.Table | None = None  # game_id, source, list_id, forecast, yardstick, score (a row a game and source)
    notes: tuple[str, ...] = ()  # what is said of a source besides its scores (a scale fitted, the window rule)


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
    con.execute("""set variable sources = (select count(*) from (select source from source_lists
                                                                union select source from source_forecasts))""")


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


class OwnGamesScored(SourceError):
    """A file's list dated by its month alone would score games of that month: games its
    own window may hold (the window rule)."""


def lists_of_their_own_month(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> str | None:
    """The window rule: a list is in force only from the day after its own games' window. A
    file's list dated by its month alone (YYYY-MM or YYYYMM, no date nor window_end column)
    is in force from the first of the month, and may have been computed from games of that
    very month (the Belgian federation's were: issue 53): what is wrong when a game it scores
    is played in its month, else None. A list dated by a day, a date or a window is trusted;
    a series' window ends before its list is dated (R1), and its lists are never month-dated."""
    own_month = con.execute("""
        select s.source, s.source_list, count(*) as games, count(distinct s.source_list) over (partition by s.source)
        from scored s join month_dated_lists m on m.source = s.source and m.list_id = s.source_list
        where strftime(s.date, '%Y-%m') = s.source_list
        group by s.source, s.source_list order by s.source, s.source_list limit 1""").fetchall()
    if not own_month:
        return None
    name, list_id, games, lists = own_month[0]
    path = next(s.path for s in sources if s.name == name)
    others = f" (and {lists - 1} more of its lists so)" if lists > 1 else ""
    return (f"{path}: list {list_id} is dated by its month alone, in force from {list_id}-01, and would score "
            f"{games:,} games played in {list_id}{others}: games the list may have been computed from. A list is in "
            "force from the day after its own games' window: say when with a window_end column (the last day of "
            "its games), a date column (its first day in force), or a day in list_id (YYYY-MM-DD)")


def file_of_no_player(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> str | None:
    """A file of ratings none of whose players plays a game of the warehouse: what is wrong,
    else None. A file of ratings names players, not a game: it is scored on the warehouse's
    games, whatever they are (pipeline/analysis/played.py); one whose ids are those of
    another game's players (a chess federation's list beside a Go series) meets none."""
    for source in (s for s in sources if s.path is not None and not s.forecasts):
        players, playing = con.execute("""
            select count(distinct player_id),
                   count(distinct player_id) filter (where player_id in (select white_id from scored_input
                                                                         union select black_id from scored_input))
            from source_ratings where source = ?""", [source.name]).fetchall()[0]
        if not playing:
            game = warehouse_game(con) or "chess"
            return (f"{source.path}: none of its {players:,} players plays a game of the warehouse, whose games are "
                    f"{game}'s: a file of ratings is scored on the warehouse's games, and its ids are the "
                    "warehouse's player ids (a file of another game's ratings, or of another registry's ids?)")
    return None


def _of_own(stage: str) -> str:
    """SQL of a stage of sql/analysis/ that scores `expected`, scoring each source's own
    forecast instead: `scored` with it as `expected` (a CTE's body reads the table it shadows)."""
    return f"(with scored as (select * replace (forecast as expected) from scored) select * from ({stage_sql(stage)}))"


def evaluate(con: duckdb.DuckDBPyConnection, sources: list[Source], since: dt.date | None = None,
             until: dt.date | None = None, per_game: bool = False, window_rule: bool = True) -> Accuracy:
    """Log-loss, Brier score and calibration of each source, on the same games (those
    played from `since` to `until`, when given), by its own forecast and by the yardstick;
    with `per_game`, the forecasts of every game too. `window_rule`: refuse a file's list
    dated by its month alone that scores games of that month; without it (`ratings compare`
    sets lists side by side) the scores are kept, and a note says they are not fair."""
    names = [s.name for s in sources]
    twice = [n for n in dict.fromkeys(names) if names.count(n) > 1]
    if twice:
        raise SourceError(f"two sources are named {twice[0]!r} (a file is named by its stem): give each file a name "
                          "of its own")
    with progress(step="evaluate", total=4, unit="step") as bar:
        bar.set_postfix_str("games scored")
        scored_games(con, sources, since, until)
        if not con.execute("select count(*) from scored").fetchall()[0][0]:
            stranger = file_of_no_player(con, sources)
            if stranger:
                raise NoCommonGames(stranger)
            span = (f" from {since} on" if since and not until else f" up to {until}" if until and not since
                    else f" from {since} to {until}" if since else "")
            raise NoCommonGames("no played game has both players rated by every source "
                                f"({', '.join(s.name for s in sources)}) on its day" + span)
        notes = apply_fitted_scales(con, sources, file_tables(sources))
        held = {s.name: s.rule_set for s in series_in(con)}
        notes += apply_yardstick_scales(con, sources, {s.name: held[s.series] for s in sources if s.series})
        unfair = lists_of_their_own_month(con, sources)
        if unfair and window_rule:
            raise OwnGamesScored(unfair)
        if unfair:  # compare: the lists still set side by side, their scores said to be unfair
            notes.append(f"not a fair score, the window rule: {unfair}")
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
    return Accuracy(scores, calibration, forecasts, tuple(notes))
