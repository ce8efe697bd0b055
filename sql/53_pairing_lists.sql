-- The lists as pairing programs load them (FIDE TXT, Swiss-Manager): every rated
-- player, plus, under the performance Elo, registry players without a rating who
-- have a club's or age estimate (R12: published for pairing, marked as estimates;
-- pipeline/formats/list_files.py prints them ending in 9). The registry's extra
-- columns federation, sex, title and fide_id are used where present; no birth date (the
-- birth year is given: pipeline/publish/ keeps it only under ratings.toml's publish_birth_year).
-- The registry is read as it was when the list's revision was computed, as in
-- rating_history (registry_snapshots): a revision's published files do not change with
-- later registry updates. Its columns are read once a player and registry version,
-- not once a list (FIDE: 28,112 players, 412 lists).
-- Each rated player's rating and games are list_ratings' (sql/views.sql), computed for
-- the lists asked for alone: publication reads a batch of lists at a time, and the view
-- joins every list of the history before a filter on lists reaches it.
-- inputs: player_state, calculations, registry_snapshots, player_versions, lists,
--         getvariable('series'), getvariable('estimates'), getvariable('publish_lists') (null: every list)
-- grain: list_id, player_id
with series_lists as (
    select * from lists
    where series = getvariable('series')
      and (getvariable('publish_lists') is null or list_contains(getvariable('publish_lists'), list_id))
),
rated as (
    select s.list_id, s.player_id, s.rating::integer::double as rating, coalesce(c.games, 0)::integer as games
    from player_state s join series_lists l using (series, list_id)
    left join calculations c on c.series = s.series and c.list_id = s.list_id and c.player_id = s.player_id
    where s.rating is not null
),
estimated_players as (select distinct player_id from player_versions where estimated_rating is not null),
-- each rated player with their rating, then the estimated players who are not rated
-- (union all: no search for duplicates over FIDE's 4 M rows, no join back to rated)
listed as (
    select list_id, player_id, rating, games, false as estimated from rated
    union all
    select l.list_id, e.player_id, null, 0, true from series_lists l cross join estimated_players e
    where getvariable('estimates')  -- R12: the rule set publishes the registry's estimates
      and not exists (select 1 from rated r where r.list_id = l.list_id and r.player_id = e.player_id)
),
registry as materialized (
    select registry_version, player_id, name, club,
           coalesce(extra->>'federation', extra->>'fed') as federation,
           extra->>'sex' as sex, extra->>'title' as title,
           try_cast(extra->>'fide_id' as bigint) as fide_id, estimated_rating, birth_year
    from registry_snapshots
    where registry_version in (select registry_version from series_lists)
),
final as (
    select x.list_id, x.player_id, g.name, g.club, g.federation, g.sex, g.title, g.fide_id,
           coalesce(x.rating, g.estimated_rating) as rating, coalesce(x.games, 0) as games,
           x.estimated, g.birth_year
    from listed x join series_lists l using (list_id)
    join registry g on g.registry_version = l.registry_version and g.player_id = x.player_id
    where not x.estimated or g.estimated_rating is not null
)
select * from final
order by list_id, estimated, rating desc, player_id
