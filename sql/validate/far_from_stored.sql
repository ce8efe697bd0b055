-- The dates of a file taken in that lie more than two years from every game stored from
-- other files (ruling D1: such a file is taken in, and said, so that a wrong year is
-- seen): each stretch of them, by the gap of the stored games it falls in.
-- inputs: taken_days (d: the dates of the rows just taken in), other_days (d: the dates of
--         the games stored from other files)
-- grain: before, after
with days as (
    select d, true as taken from taken_days
    union all select d, false from other_days
),
around as (
    select d, taken,
           max(case when not taken then d end) over (order by d range between unbounded preceding and current row)
               as before,
           min(case when not taken then d end) over (order by d range between current row and unbounded following)
               as after
    from days
),
far as (
    select * from around
    where taken and (before is not null or after is not null)
      and (before is null or d > before + interval 2 year) and (after is null or after > d + interval 2 year)
),
final as (select before, after, min(d) as first_day, max(d) as last_day from far group by before, after)
select * from final order by first_day
