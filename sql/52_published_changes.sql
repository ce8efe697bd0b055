-- The diff reports: for each revision of a list after the first, who changed, from
-- what to what, and why (rating_changes), with the reason the revision exists
-- (list_revisions); names as the registry had them when that revision was computed,
-- so that a diff once published never changes. A revision in which no published
-- value changed (only unrounded values) has one row saying so. Public: no private column.
-- inputs: rating_changes, list_revisions, player_versions, getvariable('series'),
--         getvariable('publish_lists') (the lists to read; null: every list)
-- grain: list_id, revision, player_id
with revisions as (
    select * from list_revisions
    where series = getvariable('series') and revision > 1
      and (getvariable('publish_lists') is null or list_contains(getvariable('publish_lists'), list_id))
),
changes as (
    select c.series, c.list_id, c.revision, c.player_id, v.name,
           c.old_rating::integer as old_rating, c.new_rating::integer as new_rating,
           (c.new_rating - c.old_rating)::integer as change,
           c.old_games::integer as old_games, c.new_games::integer as new_games, c.reason
    from rating_changes c join revisions r using (series, list_id, revision)
    asof join player_versions v on v.player_id = c.player_id and r.registry_version >= v.version
),
quiet as (
    select r.series, r.list_id, r.revision, null::bigint as player_id, null::varchar as name, null::integer as old_rating,
           null::integer as new_rating, null::integer as change, null::integer as old_games,
           null::integer as new_games, 'no published rating, game count or archive changed' as reason
    from revisions r
    where not exists (select 1 from rating_changes c where c.series = r.series and c.list_id = r.list_id
                      and c.revision = r.revision)
),
final as (
    select x.list_id || '-r' || x.revision as report, x.* exclude (series), r.reason as revision_reason
    from (select * from changes union all select * from quiet) x join revisions r using (series, list_id, revision)
)
select * from final
order by list_id, revision, player_id nulls first
