-- Drift: every source's mean, median and highest rating on each of its lists, over
-- every player it rates (not only those both sources rate).
-- inputs: source_ratings
-- grain: source, list_id
with final as (
    select source, list_id, list_date, count(*) as players, avg(rating) as mean, median(rating) as median,
           max(rating) as top
    from source_ratings group by source, list_id, list_date
)
select * from final order by source, list_date
