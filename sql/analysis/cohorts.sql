-- A fixed cohort per decade: the players both sources rate on every compared list
-- whose date falls in that decade, and their mean rating on each of those lists
-- under A and under B. The same players throughout: a mean that climbs shows the
-- ratings drifting (or the cohort getting stronger), not players coming and going.
-- inputs: compared_pairs
-- grain: list_id
-- Means are taken over exact sums (decimal(38, 12)): a sum of doubles depends on the order
-- DuckDB's threads add it in, and a rerun would write other last digits.
with decades as (select *, (year(list_date) // 10) * 10 as decade from compared_pairs),
lists_in as (select decade, count(distinct list_id) as lists from decades group by decade),
members as (
    select d.decade, d.player_id from decades d join lists_in l using (decade)
    group by d.decade, d.player_id, l.lists having count(*) = l.lists
),
final as (
    select d.decade, d.list_id, d.list_date, count(*) as players,
           avg(d.a::decimal(38, 12)) as mean_a, avg(d.b::decimal(38, 12)) as mean_b
    from decades d join members m using (decade, player_id)
    group by d.decade, d.list_id, d.list_date
)
select * from final order by list_date
