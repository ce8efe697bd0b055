-- Every played game scored by each source's ratings in force on its day: the list of
-- the source dated on or before the game (pipeline/analysis/sources.py), both players
-- rated on it; only the games every source rates both players of, so that each
-- source is scored on the same games. White's expected score is the logistic one,
-- 1 / (1 + 10^(-D/400)), for every source (one yardstick); `list_id` is the list of
-- the first source in force (the list whose ratings the games test), `source_list`
-- the source's own.
-- A file of forecasts has no ratings: its games' expected score is its probability, its
-- list '(forecasts)' (pipeline/analysis/forecast_files.py).
-- inputs: scored_input (the warehouse's games, chess's or Go's, in one shape:
--         pipeline/analysis/played.py), source_lists, source_ratings, source_forecasts, getvariable('first_source'),
--         getvariable('sources') (how many source_lists holds), getvariable('scored_from')
--         (the first day of the games scored: `evaluate --since`), getvariable('scored_until') (the
--         last: `evaluate --until`)
-- White's and Black's ids are kept for each source's own forecast (pipeline/analysis/forecasts.py).
-- grain: game_key, source
-- Each list's days in force as rows (from its date to the next list's, the last one's
-- to the last game; a few thousand rows), so that games find their list by an equality
-- join on the date, not an asof join of every game with every source (bench/README.md).
-- The ratings are looked up by the list's number (list_no) and the player: a join on
-- two integers, not on the source and list names.
-- Lists in force from one day (Go events ending on the same day) are taken in their order
-- (list_order): the last one holds the others' games, and is the one in force.
with played as (select game_key, date, white_id, black_id, white_score from scored_input
                where white_score is not null and date between getvariable('scored_from') and getvariable('scored_until')),
bounded as (
    select source, list_id, list_date, row_number() over (order by source, list_id) as list_no,
           coalesce(lead(list_date) over (partition by source order by list_date, list_order, list_id),
                    (select max(date) + 1 from played)) as until
    from source_lists
),
days as (
    select source, list_id, list_no,
           unnest(range(greatest(list_date, (select min(date) from played)), until, interval 1 day))::date as date
    from bounded
),
numbered as materialized (
    select b.list_no, r.player_id, r.rating from source_ratings r join bounded b using (source, list_id)
),
rated as (
    select p.game_key, d.source, d.list_id, p.date, p.white_id, p.black_id, p.white_score, w.rating as white_rating,
           b.rating as black_rating, null::double as probability
    from played p
    join days d using (date)
    join numbered w on w.list_no = d.list_no and w.player_id = p.white_id
    join numbered b on b.list_no = d.list_no and b.player_id = p.black_id
    union all
    -- A file of forecasts rates the games it gives a probability of, as it gives it.
    select p.game_key, f.source, '(forecasts)', p.date, p.white_id, p.black_id, p.white_score, null, null, f.probability
    from played p join source_forecasts f using (game_key)
),
-- With several sources, the games all of them rate and the first one's list. With one
-- (a series' own reports), every game it rates (if it is the first), its list the one
-- tested: the branch not taken is pruned when the query is planned (the grouping by
-- game would cost as much as the scoring).
common as (
    select game_key, any_value(list_id) filter (where source = getvariable('first_source')) as tested_list
    from rated where getvariable('sources') > 1
    group by game_key having count(*) = getvariable('sources') and tested_list is not null
),
tested as (
    select r.*, r.list_id as tested_list from rated r
    where getvariable('sources') = 1 and source = getvariable('first_source')
    union all
    select r.*, c.tested_list from rated r join common c using (game_key) where getvariable('sources') > 1
),
final as (
    select game_key, source, tested_list as list_id, list_id as source_list, date, white_id, black_id, white_score,
           white_rating, black_rating,
           coalesce(probability, 1 / (1 + pow(10, (black_rating - white_rating) / 400))) as expected
    from tested
)
select * from final
