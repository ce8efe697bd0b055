-- The rows other files took in as fixes of a submission's rejected rows: a fix file's row
-- closes the reject it fixes ('fixed'), or, rejected in turn, passes it on to its own
-- reject ('superseded'), which a later fix closes. Such a row is the submission's game as
-- the officer corrected it, so it goes with the submission when the submission is
-- replaced or withdrawn (a corrected file's game would else be rated beside it).
-- inputs: rejects, source_files, getvariable('fixes_of') (the submission)
-- grain: file_id, row_number
with recursive chain(file_id, row_number, status, by_file, by_row) as (
    select r.file_id, r.row_number, r.status, r.resolved_by_file, r.resolved_by_row
    from rejects r join source_files f using (file_id)
    where f.submission_id = getvariable('fixes_of') and r.status in ('fixed', 'superseded')
    union all
    select r.file_id, r.row_number, r.status, r.resolved_by_file, r.resolved_by_row
    from chain c join rejects r on r.file_id = c.by_file and r.row_number = c.by_row
    where c.status = 'superseded'
),
final as (
    -- a link closed by a row taken in ('fixed' by a fix's row, 'taken in' by the fix file's own row
    -- staged again) names that row; a link open or closed is the fix's own reject
    select distinct by_file as file_id, by_row as row_number, 'stored' as what
    from chain where status in ('fixed', 'taken in')
    union all
    select distinct file_id, row_number, 'reject' as what from chain where status in ('open', 'closed')
)
select * from final
