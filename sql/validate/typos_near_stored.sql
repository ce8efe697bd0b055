-- The rows refused as likely typos alone (plausible_dates.sql) that games stored since
-- have come within two years of: validated again, they are taken in as they would have
-- been had those games come first (ruling D2: the order files arrive in changes nothing;
-- a date stops being a typo as games are stored, never the other way).
-- inputs: rejects, source_files, submissions, games, go_games
-- grain: file_id, row_number
with typos as (
    select r.file_id, r.row_number, f.kind, try_cast(r.record->>'date' as date) as d
    from rejects r join source_files f using (file_id) join submissions s using (submission_id)
    where r.status = 'open' and f.kind in ('games', 'go_games') and s.status in ('staged', 'taken in')
      and r.reason like 'date: % likely a typo' and r.reason not like '%; %'
),
stored as (
    select distinct 'games' as kind, date as d from games
    union all select distinct 'go_games', date from go_games
),
final as (
    select t.file_id, t.row_number, t.kind from typos t
    where exists (select 1 from stored s where s.kind = t.kind
                  and t.d <= s.d + interval 2 year and s.d <= t.d + interval 2 year)
)
select * from final
