-- Every submission, as `ratings submissions` lists it: who took it in and when,
-- its status, its rows (read; stored now; rejected and still open; withdrawn), what
-- it replaced, why it was replaced or withdrawn.
-- inputs: submissions, source_files, rejects, withdrawn_rows, games, go_games, events,
--         player_versions, initial_ratings, calendar
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
withdrawn as (select file_id, count(*) as n from withdrawn_rows group by file_id),
counts as (
    select p.submission_id, sum(p.rows_read) as read, sum(coalesce(s.n, 0)) as stored,
           sum(coalesce(r.n, 0)) as rejected, sum(coalesce(w.n, 0)) as withdrawn
    from parts p left join stored s using (file_id) left join rejected r using (file_id)
    left join withdrawn w using (file_id)
    group by p.submission_id
),
final as (
    select s.submission_id as id, s.name, s.format, s.submitted_by as by, s.submitted_at::timestamp(0) as at,
           s.status, coalesce(c.read, 0) as read, coalesce(c.stored, 0) as stored,
           coalesce(c.rejected, 0) as rejected, coalesce(c.withdrawn, 0) as withdrawn,
           concat_ws('; ', case when s.replaces is not null then 'replaces ' || s.replaces end,
                     s.withdrawn_reason) as note
    from submissions s left join counts c using (submission_id)
)
select * from final order by id
