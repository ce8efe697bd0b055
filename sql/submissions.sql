-- Every submission, as `ratings submissions` lists it: who took it in and when,
-- its status, its rows (read; stored now; rejected and still open; fixed: rejected,
-- then replaced by a row of a fix file, which counts it as its own; withdrawn: taken in
-- and withdrawn since, or rejected and withdrawn with their file; closed: rejects the
-- rating officer closed, no fix being possible), so that
-- read = stored + rejected + fixed + withdrawn + closed; what it replaced, why it was
-- replaced or withdrawn, which submissions fixed its rows, its games withdrawn as duplicates.
-- inputs: submissions, source_files, rejects, withdrawn_rows, duplicate_decisions, games, go_games,
--         events, player_versions, initial_ratings, calendar
-- grain: id
with parts as (select submission_id, file_id, rows_read from source_files),
stored as (
    select file_id, count(*) as n from (
        select file_id from player_versions union all select file_id from initial_ratings
        union all select file_id from calendar where file_id is not null union all select file_id from games
        union all select file_id from events union all select file_id from go_games
    ) group by file_id
),
rejected as (select file_id, count(*) as n from rejects where status = 'open' group by file_id),
-- 'superseded': the fix was rejected in turn, and its reject is the open one, on the fix file.
fixed as (
    select r.file_id, count(*) as n,
           string_agg(distinct f.submission_id::varchar, ', ' order by f.submission_id::varchar) as by
    from rejects r left join source_files f on f.file_id = r.resolved_by_file
    where r.status in ('fixed', 'superseded') group by r.file_id
),
-- A duplicate withdrawn is one game of a file still in force (duplicate_decisions, layout 8).
withdrawn as (
    select w.file_id, count(*) as n,
           count(*) filter (where exists (select 1 from duplicate_decisions d where d.decision = 'withdrawn'
                                          and d.game_key = (w.file_id::bigint << 32) + w.row_number)) as duplicates
    from withdrawn_rows w group by w.file_id
    union all
    select file_id, count(*), 0 from rejects where status = 'withdrawn' group by file_id
),
closed as (select file_id, count(*) as n from rejects where status = 'closed' group by file_id),
counts as (
    select p.submission_id, sum(p.rows_read) as read, sum(coalesce(s.n, 0)) as stored,
           sum(coalesce(r.n, 0)) as rejected, sum(coalesce(x.n, 0)) as fixed,
           sum(coalesce((select sum(w.n) from withdrawn w where w.file_id = p.file_id), 0)) as withdrawn,
           sum(coalesce((select sum(w.duplicates) from withdrawn w where w.file_id = p.file_id), 0)) as duplicates,
           sum(coalesce(k.n, 0)) as closed, string_agg(x.by, ', ') as fixed_by
    from parts p left join stored s using (file_id) left join rejected r using (file_id)
    left join fixed x using (file_id) left join closed k using (file_id)
    group by p.submission_id
),
final as (
    select s.submission_id as id, s.name, s.format, s.submitted_by as by, s.submitted_at::timestamp(0) as at,
           s.status, coalesce(c.read, 0) as read, coalesce(c.stored, 0) as stored,
           coalesce(c.rejected, 0) as rejected, coalesce(c.fixed, 0) as fixed, coalesce(c.withdrawn, 0) as withdrawn,
           coalesce(c.closed, 0) as closed,
           concat_ws('; ', case when s.status = 'held' then 'held: its games look like corrections of another '
                                                          || 'file''s (ratings validate says which)' end,
                     case when s.replaces is not null then 'replaces ' || s.replaces end,
                     case when c.fixed > 0 then c.fixed || ' rows fixed by submission ' || c.fixed_by end,
                     case when c.closed > 0 then c.closed || (case when c.closed = 1 then ' reject' else ' rejects' end)
                                                 || ' closed (ratings rejects --closed)' end,
                     case when c.duplicates > 0 then c.duplicates
                          || (case when c.duplicates = 1 then ' game withdrawn as a duplicate'
                                   else ' games withdrawn as duplicates' end)
                          || ' (ratings rejects --warnings --closed)' end,
                     s.withdrawn_reason) as note
    from submissions s left join counts c using (submission_id)
)
select * from final order by id
