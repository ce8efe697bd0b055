-- Dates no federation's games can have: in the future (after today + 31 days),
-- before the history starts (once a series has lists, filed before its first list:
-- by the game's own date under a rule set of calendar windows, by its event's last
-- day under one that rates events as wholes, FIDE's ruling X1; never under one whose
-- older event simply becomes the first, Go), or opening a gap of more than two years
-- with no games between the date and the rest of the warehouse (a typed 1919 or 2126):
-- the dates, stored and of this file, split into clusters at each such gap, and the
-- cluster with the most games is the history. Nothing else creates lists, so one such
-- row cannot publish a century of them.
-- inputs: candidate_dates (row_number, d: the parseable dates of the rows examined;
--         event_last: the last day of the row's event, rated_in: the list an events file names),
--         stored_dates (d, n: the games already in the warehouse per date), lists,
--         history_bounds (series, bound: pipeline/validate/__init__.py), getvariable('today')
-- grain: row_number, reason
with horizon as (select (getvariable('today') + interval 31 day)::date as last_day),
history as (
    select b.series, b.bound, min(l.window_start) as first_start, arg_min(l.list_id, l.window_start) as first_list
    from history_bounds b join lists l using (series)
    where b.bound is not null
    group by b.series, b.bound
),
filed_before as (
    select c.row_number, c.d, c.event_last, s.series, s.bound, s.first_list, s.first_start
    from candidate_dates c join history s
      on case s.bound when 'event' then c.event_last < s.first_start and coalesce(c.rated_in, '') < s.first_list
                      else c.d < s.first_start end
),
in_future as (
    select c.row_number, 'date: ' || c.d || ' is in the future (after ' || h.last_day || ', today + 31 days)' as reason
    from candidate_dates c, horizon h where c.d > h.last_day
),
before_history as (
    select row_number,
           arg_min(case bound when 'event'
                   then 'date: ' || d || ' is in an event ending ' || event_last || ', before the history of the '
                        || series || ' lists starts (the first list, ' || first_list || ', rates the events ending from '
                        || first_start || ')'
                   else 'date: ' || d || ' is before the history starts (the first list, ' || first_list
                        || ', rates the games from ' || first_start || ')' end, series) as reason
    from filed_before
    group by row_number
),
plausible as (
    select c.* from candidate_dates c, horizon h
    where c.d <= h.last_day and c.row_number not in (select row_number from filed_before)
),
days as (
    select d, sum(n) as n from (
        select d, n from stored_dates
        union all
        select d, count(*) from plausible group by d
    ) group by d
),
opened as (
    select d, n, case when d > lag(d) over (order by d) + interval 2 year then 1 else 0 end as opens
    from days
),
clusters as (select d, n, sum(opens) over (order by d rows unbounded preceding) as cluster from opened),
sizes as (select cluster, sum(n) as n, min(d) as first_day, max(d) as last_day from clusters group by cluster),
main as (select cluster, first_day, last_day from sizes order by n desc, last_day desc limit 1),
isolated as (
    select p.row_number,
           'date: ' || p.d || ' is '
           || round(abs(datediff('day', p.d, case when p.d < m.first_day then m.first_day else m.last_day end)) / 365.25, 1)
           || ' years ' || case when p.d < m.first_day then 'before the earliest' else 'after the latest' end
           || ' other game (' || case when p.d < m.first_day then m.first_day else m.last_day end
           || ') with no games between: likely a typo (a gap of more than two years)' as reason
    from plausible p join clusters c on c.d = p.d, main m
    where c.cluster <> m.cluster
),
final as (
    select * from in_future
    union all select * from before_history
    union all select * from isolated
)
select * from final
