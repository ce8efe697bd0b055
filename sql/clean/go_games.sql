-- Typed Go games from the accepted staged rows; Black receives the handicap stones. A game won
-- by default (B+F, W+F) is stored with its winner and counted, never rated (as chess forfeits).
-- inputs: accepted (the typed rows that passed every check)
-- grain: game_key
with final as (
    select (file_id::bigint << 32) + row_number as game_key,
           event_id, date, black_id, white_id,
           case lower(winner) when 'b' then 'B' when 'w' then 'W' when 'b+f' then 'B+F' when 'w+f' then 'W+F'
                              else 'jigo' end as winner,
           case lower(winner) when 'b' then 1.0 when 'b+f' then 1.0 when 'w' then 0.0 when 'w+f' then 0.0
                              else 0.5 end as black_result,
           coalesce(handicap, 0)::integer as handicap, weight, file_id, row_number, round::integer as round, run_id
    from accepted
)
select * from final
