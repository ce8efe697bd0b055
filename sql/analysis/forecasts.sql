-- Every game scored, as each source forecast it (`evaluate --out`: forecasts.parquet): the
-- game's id as the user knows it (the input's game_id, where the games file gave one; else
-- the warehouse's game_key, as text), the source, the source's own list that scored it,
-- its own forecast and the logistic yardstick of White's expected score, White's score.
-- inputs: scored (sql/analysis/scored_games.sql with each source's forecast:
--         pipeline/analysis/forecasts.py), scored_input (the games: pipeline/analysis/played.py)
-- grain: game_key, source
with final as (
    select coalesce(g.game_id, s.game_key::varchar) as game_id, s.source, s.source_list as list_id, s.forecast,
           s.expected as yardstick, s.white_score as score, s.date, s.game_key
    from scored s join scored_input g using (game_key)
)
select game_id, source, list_id, forecast, yardstick, score from final order by date, game_key, source
