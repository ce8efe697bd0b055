-- Typed initial ratings from the accepted staged rows.
-- inputs: accepted (the typed rows that passed every check)
-- grain: player_id
with final as (
    select player_id, rating, file_id, row_number,
           extra  -- the rule sets' own initial columns, as given (RuleSet.initial_columns)
    from accepted
)
select * from final
