-- Each player's state after each list: whoever has a rating or archives.
-- inputs: player_state
-- grain: list_id, player_id
with final as (
    select list_id, player_id, rating::integer as rating, archive_performance,
           nullif(archive_games, 0) as archive_games
    from player_state
)
select * from final
order by list_id, player_id
