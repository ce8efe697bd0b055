-- The public lists of a series: every player rated after each list, the rows of the
-- rating_history view (sql/views.sql: list_ratings with the registry's names), computed
-- here for the lists asked for alone. The view joins every list of the history before a
-- filter on lists can reach its rows (the list before is found by position); publication
-- reads the lists a batch at a time (pipeline/publish/), so the lists asked for are chosen
-- first, each with the list before it, and only their rows are joined. No private column
-- (birth year, extra registry columns) is selected.
-- inputs: lists, player_state, initial_ratings, calculations, registry_snapshots,
--         getvariable('series'), getvariable('publish_lists') (null: every list)
-- grain: list_id, player_id
with asked as (
    select series, list_id, position, registry_version,
           lag(list_id) over (partition by series order by position) as previous_list_id
    from lists
    where series = getvariable('series')
    qualify getvariable('publish_lists') is null or list_contains(getvariable('publish_lists'), list_id)
),
previous as (
    select a.position, s.player_id, s.rating
    from asked a join player_state s on s.series = a.series and s.list_id = a.previous_list_id
    where s.rating is not null
    union all
    select a.position, r.player_id, r.rating
    from asked a join initial_ratings r on a.previous_list_id is null
    where r.rating is not null
),
final as (
    select s.list_id, s.player_id, n.name, n.club,
           s.rating::integer as rating,
           round(prev.rating)::integer as previous_rating,
           (s.rating - round(prev.rating))::integer as change,
           coalesce(c.games, 0)::integer as games,
           case when prev.rating is null then 'new'
                when c.games_played > 0 then 'played'
                else 'did not play' end as status
    from player_state s
    join asked a using (series, list_id)
    left join previous prev on prev.position = a.position and prev.player_id = s.player_id
    left join calculations c on c.series = s.series and c.list_id = s.list_id and c.player_id = s.player_id
    join registry_snapshots n on n.registry_version = a.registry_version and n.player_id = s.player_id
    where s.rating is not null
)
select * from final
order by list_id, rating desc, player_id
