-- Forfeits per list: stored and reported, never rated.
-- inputs: games, lists_to_rate
-- grain: list_id
with forfeited as (select * from games where white_score is null),
lists as (select * from lists_to_rate),
final as (
    select l.list_id, count(g.game_key) as forfeits
    from lists l left join forfeited g on g.date between l.window_start and l.window_end
    group by l.list_id
)
select * from final
