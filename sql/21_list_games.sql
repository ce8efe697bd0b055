-- Games (forfeits included, without a score) with the list that rates them
-- (sql/19_placed_games.sql; R1), players as dense indices 0..n-1 in player_id order (the
-- order of the players array of a rule set's state), the day (days since
-- 1970-01-01), the event key and what else the rule set placed them with
-- (FIDE: the list their event takes ratings from). Not sorted here: rate.py
-- sorts them on one packed integer key, which is faster than a SQL sort.
-- inputs: games, placed_games (19), players, lists_to_rate (the output of 20_lists)
-- grain: game_key
with lists as (select row_number() over (order by window_start) as list_index, * from lists_to_rate),
numbered as (select player_id, (row_number() over (order by player_id) - 1)::integer as i from players),
final as (
    select g.game_key, l.list_index::integer as list_index, w.i as white, b.i as black, g.white_score,
           datediff('day', date '1970-01-01', g.date)::integer as day, p.* exclude (game_key, list_id, placement)
    from games g
    join placed_games p using (game_key)
    join lists l using (list_id)
    join numbered w on w.player_id = g.white_id
    join numbered b on b.player_id = g.black_id
)
select * from final
