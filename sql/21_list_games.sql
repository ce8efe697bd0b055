-- Games (forfeits included, without a score) with the list whose window holds
-- their date (R1), in an order that does not depend on the input files, so
-- that sums are reproducible.
-- Identical rows may come in any order: they add the same numbers.
-- inputs: games, lists_to_rate (the output of 20_lists)
-- grain: game_key
with lists as (select row_number() over (order by window_start) as list_index, * from lists_to_rate),
final as (
    select l.list_index, g.white_id, g.black_id, g.white_score, g.game_key
    from games g join lists l on g.date between l.window_start and l.window_end
)
select * from final
order by list_index, white_id, black_id, white_score
