-- Every played game scored by each source's ratings in force on its day: the list of
-- the source dated on or before the game (pipeline/analysis/sources.py), both players
-- rated on it; only the games every source rates both players of, so that each
-- source is scored on the same games. White's expected score is the logistic one,
-- 1 / (1 + 10^(-D/400)), for every source (one yardstick); `list_id` is the list of
-- the first source in force (the list whose ratings the games test), `source_list`
-- the source's own.
-- inputs: games, source_lists, source_ratings, getvariable('first_source')
-- grain: game_key, source
with played as (select game_key, date, white_id, black_id, white_score from games where white_score is not null),
per_source as (select p.*, s.source from played p cross join (select distinct source from source_lists) s),
in_force as (
    select q.*, l.list_id
    from per_source q asof join source_lists l on l.source = q.source and l.list_date <= q.date
),
rated as (
    select f.game_key, f.source, f.list_id, f.date, f.white_score, w.rating as white_rating, b.rating as black_rating
    from in_force f
    join source_ratings w on w.source = f.source and w.list_id = f.list_id and w.player_id = f.white_id
    join source_ratings b on b.source = f.source and b.list_id = f.list_id and b.player_id = f.black_id
),
common as (
    select game_key from rated group by game_key
    having count(*) = (select count(distinct source) from source_lists)
),
tested as (select game_key, list_id as tested_list from rated where source = getvariable('first_source')),
final as (
    select r.game_key, r.source, t.tested_list as list_id, r.list_id as source_list, r.date, r.white_score, r.white_rating, r.black_rating,
           1 / (1 + pow(10, (r.black_rating - r.white_rating) / 400)) as expected
    from rated r join tested t using (game_key)
    where r.game_key in (select game_key from common)
)
select * from final
