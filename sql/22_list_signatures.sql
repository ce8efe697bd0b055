-- What each list is computed from, as one number: when it differs from the
-- signature stored with the list, the list and every later one are recomputed
-- (late results, replaced or withdrawn games, corrections in force; X8: the games played
-- before the window of the list that rates them). The first list also depends on the registry
-- (birth years: R2), the initial ratings and the rule set's parameters (--rules).
-- inputs: lists_to_rate (the output of 20_lists), games, placed_games (19: how each game is placed),
--         corrections_in_force (the temp table of sql/corrections_in_force.sql), players, initial_ratings,
--         getvariable('series'), getvariable('parameters')
-- grain: list_id
with lists as (select row_number() over (order by window_start) as list_index, * from lists_to_rate),
game_sums as (
    select l.list_id, count(*) as games,
           sum(hash(g.date, g.white_id, g.black_id, g.result, g.game_id, g.event, g.round, p.placement)) as h
    from games g join placed_games p using (game_key) join lists l using (list_id)
    group by l.list_id
),
-- A game played before the window of the list that rates it (FIDE rates an event whole on the
-- list after it ends, X1, or on a late report's list) weighs on the lists from its day to that
-- list too: an unrated player's first event is the event of their earliest game against a rated
-- opponent, whichever list rates it (ruling X8), so a league's early rounds taken in late change
-- how a weekend tournament rated before it counts. The performance Elo files every game in the
-- window of its date: none.
pending_sums as (
    select l.list_id, sum(hash(g.date, g.white_id, g.black_id, g.result, g.game_id, g.event, g.round, p.placement)) as h
    from games g join placed_games p using (game_key) join lists r on r.list_id = p.list_id
    join lists l on l.list_index < r.list_index and l.window_end >= g.date
    where g.date < r.window_start
    group by l.list_id
),
correction_sums as (  -- those in force: withdrawn and set aside ones left out (sql/corrections_in_force.sql)
    select list_id, sum(hash(correction_id, player_id, rating)) as h from corrections_in_force
    where set_aside is null group by list_id
),
starting_point as (
    select (select coalesce(sum(hash(player_id, birth_year)), 0) from players)
         + (select coalesce(sum(hash(player_id, rating, archive_performance, archive_games, games_total, peak_rating, extra)), 0) from initial_ratings)
         + hash(getvariable('parameters'))
           as h
),
final as (
    select l.list_id,
           (hash(l.window_start, l.window_end, coalesce(g.games, 0))::hugeint + coalesce(g.h, 0)
            + coalesce(c.h, 0) + coalesce(q.h, 0) + case when l.list_index = 1 then s.h else 0 end) as input_signature
    from lists l
    left join game_sums g using (list_id)
    left join pending_sums q using (list_id)
    left join correction_sums c using (list_id)
    cross join starting_point s
)
select * from final
