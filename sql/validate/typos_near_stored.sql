-- The rows refused as likely typos alone (plausible_dates.sql) that games stored since, or
-- the events they name (described since), have come within two years of: validated again,
-- they are taken in as they would have been had those come first (ruling D2: the order
-- files arrive in changes nothing; a date stops being a typo as games and events are
-- stored, never the other way).
-- inputs: rejects, source_files, submissions, games, go_games, events
-- grain: file_id, row_number
with typos as (
    select r.file_id, r.row_number, f.kind, try_cast(r.record->>'date' as date) as d,
           coalesce(r.record->>'event', r.record->>'event_id') as event
    from rejects r join source_files f using (file_id) join submissions s using (submission_id)
    where r.status = 'open' and f.kind in ('games', 'go_games') and s.status in ('staged', 'taken in')
      and r.reason like 'date: % likely a typo' and r.reason not like '%; %'
),
near as (
    select distinct 'games' as kind, date as d, null as event from games
    union all select distinct 'go_games', date, null from go_games
    union all select k.kind, unnest([e.start_date, e.end_date]), e.event_id
    from events e cross join (values ('games'), ('go_games')) k(kind)
),
final as (
    select t.file_id, t.row_number, t.kind from typos t
    where exists (select 1 from near n where n.kind = t.kind and (n.event is null or n.event = t.event)
                  and t.d <= n.d + interval 2 year and n.d <= t.d + interval 2 year)
)
select * from final
