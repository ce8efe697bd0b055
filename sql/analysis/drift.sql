-- Drift: every source's mean, median and highest rating on each of its lists, over
-- every player it rates (not only those both sources rate).
-- inputs: source_ratings
-- grain: source, list_id
-- Means are taken over exact sums (decimal(38, 12)): a sum of doubles depends on the order
-- DuckDB's threads add it in, and a rerun would write other last digits.
with final as (
    select source, list_id, list_date, count(*) as players, avg(rating::decimal(38, 12)) as mean,
           median(rating) as median, max(rating) as top
    from source_ratings group by source, list_id, list_date
)
select * from final order by source, list_date
