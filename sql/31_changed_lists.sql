-- The recomputed lists whose results differ from their stored revision (or that
-- have none): only these get a new revision. Results are compared through a
-- fingerprint per list and table (the sum of the rows' hashes: pipeline/rate/store.py).
-- inputs: new_lists, new_prints, old_prints, lists, list_revisions, getvariable('series')
-- grain: list_id
with stored as (select * from lists where series = getvariable('series')),
differing as (
    select coalesce(n.list_id, o.list_id) as list_id
    from new_prints n full join old_prints o on n.list_id = o.list_id and n.h = o.h
    where n.list_id is null or o.list_id is null
),
final as (
    select n.list_id, n.window_start, n.window_end, l.revision as old_revision,
           r.run_id as old_run_id, l.registry_version as old_registry_version, r.computed_at as old_computed_at
    from new_lists n
    left join stored l using (list_id)
    left join list_revisions r on r.series = l.series and r.list_id = l.list_id and r.revision = l.revision
    where l.list_id is null
       or n.list_id in (select list_id from differing)
       or l.window_start <> n.window_start or l.window_end <> n.window_end
)
select * from final
