-- Files whose rows do not add up: read = accepted + rejected, and the tables agree.
-- inputs: source_files, rejects, staged_*
-- grain: file_id
with rejected as (select file_id, count(*) as n from rejects group by file_id),
final as (
    select f.file_id, f.path, f.rows_read, f.rows_accepted, f.rows_rejected, coalesce(r.n, 0) as rejects_stored
    from source_files f left join rejected r using (file_id)
    where f.status = 'validated'
      and (f.rows_read <> f.rows_accepted + f.rows_rejected or f.rows_rejected <> coalesce(r.n, 0))
)
select * from final
