-- The lists as pairing programs load them (FIDE TXT, Swiss-Manager): every rated
-- player, plus, under the performance Elo, registry players without a rating who
-- have a club's or age estimate (R12: published for pairing, marked as estimates;
-- pipeline/formats/list_files.py prints them ending in 9). The registry's extra
-- columns federation, sex, title and fide_id are used where present; no birth date.
-- inputs: rating_history, players, lists, settings
-- grain: list_id, player_id
with rated as (
    select h.list_id, h.player_id, h.rating::double as rating, h.games, false as estimated
    from rating_history h
),
estimates as (
    select l.list_id, p.player_id, p.estimated_rating as rating, 0 as games, true as estimated
    from lists l cross join players p
    where p.estimated_rating is not null
      and coalesce((select value from settings where key = 'system'), 'performance') = 'performance'
      and not exists (select 1 from rated r where r.list_id = l.list_id and r.player_id = p.player_id)
),
final as (
    select e.list_id, e.player_id, p.name, p.club,
           coalesce(p.extra->>'federation', p.extra->>'fed') as federation,
           p.extra->>'sex' as sex, p.extra->>'title' as title,
           try_cast(p.extra->>'fide_id' as bigint) as fide_id,
           e.rating, e.games, e.estimated
    from (select * from rated union all select * from estimates) e
    join players p using (player_id)
)
select * from final
order by list_id, estimated, rating desc, player_id
