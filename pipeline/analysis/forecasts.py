"""Each source's own forecast of the games scored (`ratings evaluate`): a rule set's
expected score from both players' state on the list in force (RuleSet.forecast_columns,
RuleSet.win_probability), beside the common logistic yardstick of scored_games.sql.

A source with no forecast of its own (a file of ratings, a rule set that declares none,
a tuning trial's ratings held outside the warehouse) is scored by the yardstick alone:
its `forecast` is the yardstick, and the accuracy table says so (`forecast`: yardstick).
"""
from __future__ import annotations

import duckdb
import numpy as np
import pyarrow as pa

from pipeline.analysis.sources import INITIAL, Source
from pipeline.rate.periods import column
from pipeline.rate.series import series_in
from pipeline.systems.base import RuleSet
from pipeline.warehouse import sql_text

# The accuracy table's `forecast`, what its own_ columns score: a rule set's own forecast, the
# yardstick (a source with none), a file of forecasts' probabilities (its yardstick too: no rating)
OWN, YARDSTICK, FORECASTS = "own", "yardstick", "file"


class ForecastError(ValueError):
    """A rule set's forecast that is not a probability: its code, not the user's input."""


def rule_sets_forecasting(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> dict[str, RuleSet]:
    """The sources that have a forecast of their own, by name: the stored series whose rule
    set declares one (with the series' parameters: a scenario's are its own)."""
    held = {s.name: s.rule_set for s in series_in(con)}
    return {s.name: held[s.series] for s in sources
            if s.series is not None and s.state is None and held[s.series].forecast_columns is not None}


def _states(rule_set: RuleSet) -> str:
    """SQL of the rows of the series $series (list_id, player_id, the forecast's columns) the
    games scored read (the temp table forecast_needs: a sixth of a whole history's rows): its
    stored lists, and its initial list, the initial ratings as it reads them with the state's
    other columns null (`union all by name`)."""
    columns = ", ".join(rule_set.forecast_columns)
    state = rule_set.extended("player_state")
    return f"""
        select s.list_id, s.player_id, {columns} from {state} s
        semi join forecast_needs n on n.list_id = s.list_id and n.player_id = s.player_id
        where s.series = $series
        union all
        select {sql_text(INITIAL)} as list_id, s.player_id, {columns}
        from (select * from {state} where false union all by name select * from ({rule_set.initial_ratings_sql()})) s
        semi join forecast_needs n on n.list_id = {sql_text(INITIAL)} and n.player_id = s.player_id"""


def own_forecasts(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> dict[str, str]:
    """Add `forecast` to the temp table `scored` (sql/analysis/scored_games.sql): each
    source's own, or the yardstick where it has none. Returns each source's `forecast`
    word (OWN, YARDSTICK or FORECASTS). One query and one array call a source, over all its
    games."""
    forecasting = rule_sets_forecasting(con, sources)
    con.execute("create or replace temp table own_forecasts (game_key bigint, source varchar, forecast double)")
    for name, rule_set in forecasting.items():
        source = next(s for s in sources if s.name == name)
        con.execute("""create or replace temp table forecast_needs as
                       select source_list as list_id, white_id as player_id from scored where source = $source
                       union select source_list, black_id from scored where source = $source""", {"source": name})
        named = con.sql(f"select * from ({_states(rule_set)}) limit 0",
                        params={"series": source.series}).columns[2:]
        games = con.sql(f"""
            with states as ({_states(rule_set)})
            select s.game_key, s.date as "g day", {', '.join(f'w.{c} as "w {c}"' for c in named)},
                   {', '.join(f'b.{c} as "b {c}"' for c in named)}
                   {''.join(', ' + c for c in rule_set.forecast_game_columns)}
            from scored s
            {'join games g using (game_key)' if rule_set.forecast_game_columns else ''}
            join states w on w.list_id = s.source_list and w.player_id = s.white_id
            join states b on b.list_id = s.source_list and b.player_id = s.black_id
            where s.source = $source""", params={"series": source.series, "source": name}).to_arrow_table()
        white = {c: column(games, f"w {c}") for c in named}
        black = {c: column(games, f"b {c}") for c in named}
        game = {"day": games.column("g day").to_numpy(zero_copy_only=False).astype("datetime64[D]"),
                **{c: column(games, c) for c in games.column_names[2 + 2 * len(named):]}}  # after both sides'
        forecast = np.asarray(rule_set.win_probability(white, black, game), dtype=float)
        shaped = forecast.shape == (games.num_rows,)
        if not shaped or not np.all((forecast >= 0) & (forecast <= 1)):
            raise ForecastError(f"the {rule_set.name} rules' win_probability gave "
                                f"{'a value outside 0..1' if shaped else 'no probability a game'} "
                                f"for {name}'s games: a defect of the rule set's code")
        con.register("forecast_rows", pa.table({"game_key": games.column("game_key"), "forecast": forecast}))
        con.execute("insert into own_forecasts select game_key, $source, forecast from forecast_rows", {"source": name})
        con.unregister("forecast_rows")
    con.execute("drop table if exists forecast_needs")
    con.execute("""create or replace temp table scored as
                   select s.*, coalesce(f.forecast, s.expected) as forecast
                   from scored s left join own_forecasts f using (game_key, source)""")
    con.execute("drop table own_forecasts")
    return {s.name: OWN if s.name in forecasting else FORECASTS if s.forecasts else YARDSTICK for s in sources}
