-- The public lists of a series: every player rated after each list (the rating_history
-- view of sql/views.sql). No private column (birth year, extra registry columns) is
-- selected there.
-- inputs: rating_history, getvariable('series'), getvariable('publish_lists') (null: every list)
-- grain: list_id, player_id
with final as (
    select list_id, player_id, name, club, rating, previous_rating, change, games, status
    from rating_history
    where series = getvariable('series')
      and (getvariable('publish_lists') is null or list_contains(getvariable('publish_lists'), list_id))
)
select * from final
order by list_id, rating desc, player_id
