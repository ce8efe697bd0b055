-- The lists as pairing programs load them (FIDE TXT, Swiss-Manager): every rated
-- player, plus, under the performance Elo, registry players without a rating who
-- have a club's or age estimate (R12: published for pairing, marked as estimates;
-- pipeline/formats/list_files.py prints them ending in 9). The registry's extra
-- columns federation, sex, title and fide_id are used where present; no birth date (the
-- birth year is given: pipeline/publish/ keeps it only for a rule set that publishes it).
-- The registry is read as it was when the list's revision was computed, as in
-- rating_history: a revision's published files do not change with later registry updates.
-- inputs: rating_history, player_versions, lists, getvariable('series'), getvariable('estimates')
-- grain: list_id, player_id
with rated as (
    select list_id, player_id, rating::double as rating, games from rating_history
    where series = getvariable('series')
),
series_lists as (select * from lists where series = getvariable('series')),
estimated_players as (select distinct player_id from player_versions where estimated_rating is not null),
listed as (
    select list_id, player_id from rated
    union
    select l.list_id, e.player_id from series_lists l cross join estimated_players e
    where getvariable('estimates')  -- R12: the rule set publishes the registry's estimates
),
with_registry as (
    select x.list_id, x.player_id, v.name, v.club, v.extra, v.estimated_rating, v.birth_year
    from listed x join series_lists l using (list_id)
    asof join player_versions v on v.player_id = x.player_id and l.registry_version >= v.version
),
final as (
    select w.list_id, w.player_id, w.name, w.club,
           coalesce(w.extra->>'federation', w.extra->>'fed') as federation,
           w.extra->>'sex' as sex, w.extra->>'title' as title,
           try_cast(w.extra->>'fide_id' as bigint) as fide_id,
           coalesce(r.rating, w.estimated_rating) as rating, coalesce(r.games, 0) as games,
           r.player_id is null as estimated, w.birth_year
    from with_registry w left join rated r using (list_id, player_id)
    where r.player_id is not null or w.estimated_rating is not null
)
select * from final
order by list_id, estimated, rating desc, player_id
