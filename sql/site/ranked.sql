-- Every player of every list of a series as the site shows them: the published
-- rating, change and games; the categories of the list's season (R2's season of
-- 1 September - 31 August, R2a: the one ending in the list id's year; U8 ... U20
-- cumulative, 50+, 65+) by an age counted as the rule set counts it: the season's end
-- year minus the birth year, less getvariable('age_offset'): 0 where the rule set
-- defines its junior so (ruling R2: under 20 is season_end_year - birth_year < 20, the
-- site's Under 20 is R2's junior), 1 elsewhere (the age on 1 January of that year of a
-- player whose birthday is later); sex, region and club; whether the player is active (a
-- rated game in the 12 months up to the list's window end, or the rule set's own
-- flag, RuleSet.inactive_column, read by the caller for the rule set that declares it;
-- the caller ranks the active players once that flag is known). Birth years are read
-- here and never leave this stage: the site gets the categories, not the dates.
-- inputs: rating_history, lists, players, calculations, getvariable('series'), getvariable('age_offset')
-- grain: list_id, player_id
with series_lists as (
    select list_id, position, window_start, window_end,
           -- ruling R2a: the season ending in the list id's year, whatever the window's dates
           -- (a Go event, whose id is no YYYY-MM: the season that holds its last day)
           case when regexp_full_match(list_id, '[0-9]{4}-[0-9]{2}') then left(list_id, 4)::integer
                else year(window_end) + case when month(window_end) >= 9 then 1 else 0 end end as season_end
    from lists where series = getvariable('series')
),
played as (
    select c.player_id, l.window_end as played_until
    from calculations c join series_lists l using (list_id)
    where c.series = getvariable('series') and c.games_played > 0
),
history as (
    select h.list_id, h.player_id, h.name, h.club, h.rating, h.previous_rating, h.change, h.games, h.status,
           l.position, l.window_end, l.season_end, p.birth_year,
           upper(nullif(trim(p.extra->>'sex'), '')) as sex,
           nullif(trim(coalesce(p.extra->>'federation_region', p.extra->>'region')), '') as region
    from rating_history h
    join series_lists l using (list_id)
    left join players p using (player_id)
    where h.series = getvariable('series')
),
last_played as (
    select h.*, x.played_until
    from history h asof left join played x on x.player_id = h.player_id and x.played_until <= h.window_end
),
final as (
    select list_id, position, player_id, name, club, rating, previous_rating, change, games, status, sex, region,
           -- the youngest U-category (U8 ... U20) and the senior ones; null: unknown birth
           -- year, or 20 and over (a case, not a subquery a row over a million rows)
           case when age < 8 then 8 when age < 10 then 10 when age < 12 then 12 when age < 14 then 14
                when age < 16 then 16 when age < 18 then 18 when age < 20 then 20 end as under,
           coalesce(age >= 50, false) as senior_50,
           coalesce(age >= 65, false) as senior_65,
           coalesce(played_until > window_end - interval 12 month, false) as active
    from (select *, season_end - birth_year - getvariable('age_offset') as age from last_played)
)
select * from final
