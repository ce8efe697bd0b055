-- Dates no federation's games can have: in the future (after today + 31 days); before
-- the history of every series of the warehouse (filed_before.sql: a row refused by some
-- series only is stored, and those series do not rate it); or a likely typo, ruling D1:
-- a date more than two years from every other date of its own file (its rows, its
-- event's start and end, its round dates) and from every game stored. A file whose dates
-- hang together (one event, one season), however far from the games stored, and a file
-- of one date are never refused as a typo: an old event sent late is taken in, and said
-- (far_from_stored.sql). Whether a date is a typo only ever changes from yes to no as
-- games are stored, and the rows it refused are examined again when games come near them
-- (typos_near_stored.sql): the order files arrive in changes nothing (ruling D2).
-- Nothing else creates lists, so one typed 1919 or 2126 cannot publish a century of them.
-- inputs: candidate_dates (row_number, d: the parseable dates of the rows examined),
--         own_dates (row_number, d: every date of the rows' own file, the rows examined
--         included; row_number null for a date that is no row's), stored_days (d, n: the
--         games stored per date), filed_before (filed_before.sql), history_bounds,
--         getvariable('today')
-- grain: row_number, reason
with horizon as (select (getvariable('today') + interval 31 day)::date as last_day),
in_future as (
    select c.row_number, 'date: ' || c.d || ' is in the future (after ' || h.last_day || ', today + 31 days)' as reason
    from candidate_dates c, horizon h where c.d > h.last_day
),
refused_by_all as (
    select row_number from filed_before group by row_number
    having count(distinct series) = (select count(*) from history_bounds)
),
before_history as (
    select row_number, reason from filed_before where row_number in (select row_number from refused_by_all)
),
plausible as (
    select c.* from candidate_dates c, horizon h
    where c.d <= h.last_day and c.row_number not in (select row_number from refused_by_all)
),
-- Every day a date lies on, with how many dates (of the file and stored): a row's date is
-- alone when its day holds no other, and the days either side are more than two years away.
days as (
    select d, sum(n) as n from (
        select d, count(*) as n from own_dates group by d
        union all select d, n from stored_days
    ) group by d
),
neighbours as (select d, n, lag(d) over (order by d) as before, lead(d) over (order by d) as after from days),
alone as (
    select d, case when after is null or (before is not null and datediff('day', before, d) <= datediff('day', d, after))
                   then before else after end as nearest
    from neighbours
    where n = 1 and (before is null or d > before + interval 2 year) and (after is null or after > d + interval 2 year)
),
typo as (
    select p.row_number,
           'date: ' || p.d || ' is more than two years from every other date of its file and from every game stored '
           || '(the nearest: ' || a.nearest || ', ' || round(abs(datediff('day', p.d, a.nearest)) / 365.25, 1)
           || ' years ' || case when a.nearest < p.d then 'earlier' else 'later' end || '): likely a typo' as reason
    from plausible p join alone a using (d)
    where (select count(*) from own_dates) > 1  -- a file of one date has no other to be far from
),
final as (
    select * from in_future
    union all select * from before_history
    union all select * from typo
)
select * from final
