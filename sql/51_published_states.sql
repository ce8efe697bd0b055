-- Each player's state after each list of a series: whoever the rule set keeps a
-- state for (a rating, archives, games to date); pipeline/publish/ keeps the columns
-- the rule set publishes (RuleSet.published_state).
-- inputs: series_player_state (player_state with the rule set's own columns:
--         pipeline.rate.series.own_views), getvariable('series'), getvariable('publish_lists')
--         (null: every list)
-- grain: list_id, player_id
with final as (
    select * from series_player_state
    where series = getvariable('series')
      and (getvariable('publish_lists') is null or list_contains(getvariable('publish_lists'), list_id))
)
select * from final
order by list_id, player_id
