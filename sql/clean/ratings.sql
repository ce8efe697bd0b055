-- Typed initial ratings from the accepted staged rows.
-- inputs: accepted (the typed rows that passed every check)
-- grain: player_id
with final as (
    select player_id, rating, archive_performance, archive_games::integer as archive_games,
           file_id, row_number, games_total::integer as games_total, peak_rating::double as peak_rating,
           extra  -- a rule set's own initial columns, as given (RuleSet.initial_columns)
    from accepted
)
select * from final
