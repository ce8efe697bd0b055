-- Typed games from the accepted staged rows; forfeits get no score (never rated).
-- inputs: accepted (the typed rows that passed every check)
-- grain: game_key
with final as (
    select (file_id::bigint << 32) + row_number as game_key,
           game_id,
           date,
           white_id,
           black_id,
           replace(result, '½-½', '1/2-1/2') as result,
           case replace(result, '½-½', '1/2-1/2')
               when '1-0' then 1.0 when '0-1' then 0.0 when '1/2-1/2' then 0.5
           end as white_score,
           event, round, file_id, row_number, run_id
    from accepted
)
select * from final
