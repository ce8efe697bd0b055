-- Parts whose counts do not add up: read = accepted + rejected, and the counts agree
-- with the tables (accepted rows are stored or withdrawn since; a reject taken in
-- since is a stored row, not a rejected one).
-- inputs: source_files, rejects
-- grain: file_id
with rejected as (select file_id, count(*) as n from rejects where status <> 'taken in' group by file_id),
final as (
    select f.file_id, f.path, f.rows_read, f.rows_accepted, f.rows_rejected, coalesce(r.n, 0) as rejects_stored
    from source_files f left join rejected r using (file_id)
    where f.status = 'validated'
      and (f.rows_read <> f.rows_accepted + f.rows_rejected or f.rows_rejected <> coalesce(r.n, 0))
)
select * from final
