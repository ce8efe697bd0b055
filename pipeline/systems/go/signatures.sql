-- What each event of a Go series is computed from, as one number: its dates, class
-- and board size, its games, the corrections in force at it; the first event also
-- the registry's declared grades, the starting points and the rule set's parameters.
-- inputs: lists_to_rate (the events: list_id = event_id, position), events, go_games,
--         corrections_in_force (sql/corrections_in_force.sql), players, initial_ratings, getvariable('series'),
--         getvariable('parameters')
-- grain: list_id
with ordered as (select row_number() over (order by position) as event_index, *
                from lists_to_rate),
game_sums as (
    select event_id as list_id, count(*) as games,
           sum(hash(date, black_id, white_id, winner, handicap, weight, round)) as h
    from go_games group by event_id
),
event_rows as (select event_id as list_id, hash(name, class, board_size) as h from events),
correction_sums as (  -- those in force: withdrawn and set aside ones left out (sql/corrections_in_force.sql)
    select list_id, sum(hash(correction_id, player_id, rating)) as h from corrections_in_force
    where set_aside is null group by list_id
),
starting_point as (
    select (select coalesce(sum(hash(player_id, grade)), 0) from players)
         + (select coalesce(sum(hash(player_id, rating)), 0) from initial_ratings)
         + hash(getvariable('parameters')) as h
),
final as (
    select e.list_id,
           (hash(e.window_start, e.window_end, coalesce(g.games, 0))::hugeint + coalesce(g.h, 0) + coalesce(v.h, 0)
            + coalesce(c.h, 0) + case when e.event_index = 1 then s.h else 0 end) as input_signature
    from ordered e
    left join game_sums g using (list_id)
    left join event_rows v using (list_id)
    left join correction_sums c using (list_id)
    cross join starting_point s
)
select * from final
