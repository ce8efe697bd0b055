"""Each source's own forecast of the games scored (`ratings evaluate`): a rule set's
expected score from both players' state on the list in force (RuleSet.forecast_columns,
RuleSet.win_probability), beside the common logistic yardstick of scored_games.sql.

A source with no forecast of its own (a file of ratings, a rule set that declares none)
is scored by the yardstick alone: its `forecast` is the yardstick, and the accuracy table
says so (`forecast`: yardstick). A tuning trial's state, held outside the warehouse (a
relation, Source.state), is read with its rule set's forecast as a stored series' is
(`ratings tune` scores a trial by the forecast a publishable rule set would make).
"""
from __future__ import annotations

import duckdb
import numpy as np
import pyarrow as pa

from pipeline.analysis.played import GAME_TABLES
from pipeline.analysis.sources import INITIAL, Source
from pipeline.rate.series import series_in
from pipeline.ruleset.games import column
from pipeline.ruleset.interface import RuleSet
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
            if s.series is not None and held[s.series].forecast_columns is not None}


def _states(rule_set: RuleSet, source: Source) -> str:
    """SQL of the rows of the series $series (list_id, player_id, the forecast's columns) the
    games scored read (the temp table forecast_needs: a sixth of a whole history's rows): its
    stored lists (or the relation that holds a trial's: Source.state, the rule set's state
    columns by their own names), and its initial list, the initial ratings as it reads them
    with the state's other columns null (`union all by name`)."""
    columns = ", ".join(rule_set.forecast_columns)
    stored = rule_set.extended("player_state")
    lists = (f"select * from {stored} where series = $series" if source.state is None
             else f"select * from {source.state} where $series is not null")
    return f"""
        select s.list_id, s.player_id, {columns} from ({lists}) s
        semi join forecast_needs n on n.list_id = s.list_id and n.player_id = s.player_id
        union all
        select {sql_text(INITIAL)} as list_id, s.player_id, {columns}
        from (select * from {stored} where false union all by name select * from ({rule_set.initial_ratings_sql()})) s
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
        con.execute(f"create or replace temp table forecast_states as {_states(rule_set, source)}",
                    {"series": source.series})
        named = con.sql("select * from forecast_states limit 0").columns[2:]
        # White's state first, then Black's: joined in one query, the planner may join White's
        # rows to Black's on the list alone first (it did for a tuning trial of the Belgian
        # history: a product of each list's players with themselves, that filled the disk).
        # The game's own columns are SQL of `g`, its row of its game's table (Go's handicap).
        games = con.sql(f"""
            with white as materialized (
                select s.game_key, s.date, s.source_list, s.black_id, {', '.join(f'w.{c} as "w {c}"' for c in named)}
                from scored s join forecast_states w on w.list_id = s.source_list and w.player_id = s.white_id
                where s.source = $source)
            select o.game_key, o.date as "g day", {', '.join(f'o."w {c}"' for c in named)},
                   {', '.join(f'b.{c} as "b {c}"' for c in named)}
                   {''.join(', ' + c for c in rule_set.forecast_game_columns)}
            from white o join forecast_states b on b.list_id = o.source_list and b.player_id = o.black_id
            {f'join {GAME_TABLES[rule_set.game]} g on g.game_key = o.game_key'
             if rule_set.forecast_game_columns else ''}""",
                        params={"source": name}).to_arrow_table()
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
    con.execute("drop table if exists forecast_states")
    con.execute("""create or replace temp table scored as
                   select s.*, coalesce(f.forecast, s.expected) as forecast
                   from scored s left join own_forecasts f using (game_key, source)""")
    con.execute("drop table own_forecasts")
    return {s.name: OWN if s.name in forecasting else FORECASTS if s.forecasts else YARDSTICK for s in sources}
