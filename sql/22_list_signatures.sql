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
placed as materialized (  -- each game once with the list that rates it: the two sums below read it
    select l.list_id, l.list_index, l.window_start, g.date,
           hash(g.date, g.white_id, g.black_id, g.result, g.game_id, g.event, g.round, p.placement) as h
    from games g join placed_games p using (game_key) join lists l using (list_id)
),
game_sums as (select list_id, count(*) as games, sum(h) as h from placed group by list_id),
-- A game played before the window of the list that rates it (FIDE rates an event whole on the
-- list after it ends, X1, or on a late report's list) weighs on the lists from its day to that
-- list too: an unrated player's first event is the event of their earliest game against a rated
-- opponent, whichever list rates it (ruling X8), so a league's early rounds taken in late change
-- how a weekend tournament rated before it counts. The performance Elo files every game in the
-- window of its date: none. A list's sum over the early games played by its window's end, less
-- those of the lists up to it (each played before that end): two prefix sums, rather than each
-- game joined to every list it spans.
early as (select list_index, date, h from placed where date < window_start),
by_day as (
    select date, sum(sum(h)) over (order by date rows unbounded preceding) as h from early group by date
),
by_list as (
    select list_index, sum(sum(h)) over (order by list_index rows unbounded preceding) as h
    from early group by list_index
),
pending_sums as (
    select l.list_id, coalesce(d.h, 0) - coalesce(r.h, 0) as h
    from lists l
    asof left join by_day d on l.window_end >= d.date
    asof left join by_list r on l.list_index >= r.list_index
),
correction_sums as (  -- those in force: withdrawn and set aside ones left out (sql/corrections_in_force.sql)
    select list_id, sum(hash(correction_id, player_id, rating)) as h from corrections_in_force
    where set_aside is null group by list_id
),
starting_point as (
    select (select coalesce(sum(hash(player_id, birth_year)), 0) from players)
         + (select coalesce(sum(hash(player_id, rating, extra)), 0) from initial_ratings)
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
