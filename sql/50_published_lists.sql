-- The public lists: every player rated after each list, with the rating of the
-- list before (the initial ratings for the first list). No private column
-- (birth year, extra registry columns) is selected here.
-- inputs: lists, player_state, initial_ratings, players, calculations
-- grain: list_id, player_id
with list_order as (
    select list_id, lag(list_id) over (order by window_start) as previous_list_id from lists
),
rated as (select * from player_state where rating is not null),
previous as (
    select l.list_id, s.player_id, s.rating
    from list_order l join player_state s on s.list_id = l.previous_list_id
    where s.rating is not null
    union all
    select l.list_id, r.player_id, r.rating
    from list_order l join initial_ratings r on l.previous_list_id is null
    where r.rating is not null
),
final as (
    select s.list_id, s.player_id, p.name, p.club,
           s.rating::integer as rating,
           round(prev.rating)::integer as previous_rating,
           (s.rating - round(prev.rating))::integer as change,
           coalesce(c.games, 0)::integer as games,
           case when prev.rating is null then 'new'
                when c.games_played > 0 then 'played'
                else 'did not play' end as status
    from rated s
    join players p using (player_id)
    left join previous prev on prev.list_id = s.list_id and prev.player_id = s.player_id
    left join calculations c on c.list_id = s.list_id and c.player_id = s.player_id
)
select * from final
order by list_id, rating desc, player_id
