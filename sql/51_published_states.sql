-- Each player's state after each list: whoever has a rating or archives (performance
-- Elo), or a rating or rated games (FIDE); pipeline/publish.py keeps the columns
-- of the warehouse's rule set.
-- inputs: player_state
-- grain: list_id, player_id
with final as (
    select list_id, player_id, rating::integer as rating, archive_performance,
           nullif(archive_games, 0) as archive_games, games_total, peak_rating::integer as peak_rating
    from player_state
)
select * from final
order by list_id, player_id
