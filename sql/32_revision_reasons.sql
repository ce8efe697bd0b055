-- Why each new revision of a list exists: the submissions whose games in its window
-- were taken in, replaced or withdrawn since the revision before, the corrections
-- entered, withdrawn, set aside or back in force at the list since; otherwise it follows from an earlier list
-- (or, for the first list, from the registry or the initial ratings). A list computed
-- for the first time says so.
-- inputs: changed (list_id, window_start, window_end, old_revision, old_run_id), games, go_games,
--         game_changes, duplicate_decisions, source_files, submissions, corrections, lists, new_lists,
--         getvariable('series')
-- grain: list_id
with revised as (select * from changed where old_revision is not null),
-- The games a replacement took in are described by game_changes (unchanged ones are no news).
replacement_runs as (
    select f.file_id, o.withdrawn_run as run_id
    from source_files f join submissions s using (submission_id) join submissions o on o.submission_id = s.replaces
),
late as (
    select distinct r.list_id, f.submission_id
    from revised r
    join placed_games p on p.list_id = r.list_id
    -- a warehouse of Go places its go_games (chess's games is then empty)
    join (select game_key, run_id, file_id from games
          union all select game_key, run_id, file_id from go_games) g
      on g.game_key = p.game_key and g.run_id > r.old_run_id
    join source_files f on f.file_id = g.file_id
    where not exists (select 1 from replacement_runs x where x.file_id = g.file_id and x.run_id = g.run_id)
),
-- One game withdrawn as a duplicate leaves its submission in force: its reason is the officer's.
changes as (
    select distinct r.list_id, g.submission_id, g.replaced, d.reason as duplicate_reason
    from revised r
    join game_changes g on g.run_id > r.old_run_id and g.date between r.window_start and r.window_end
    left join duplicate_decisions d on d.decision = 'withdrawn' and d.run_id = g.run_id
     and d.game_key = (g.old_file::bigint << 32) + g.old_row
),
causes as (
    select l.list_id, 'late games: submission ' || s.submission_id || ' (' || s.name || ')' as cause
    from late l join submissions s using (submission_id)
    union
    select c.list_id, case when c.replaced is not null
                           then 'submission ' || s.submission_id || ' (' || s.name || ') replaces submission ' || c.replaced
                           when c.duplicate_reason is not null
                           then 'submission ' || s.submission_id || ' (' || s.name || '): a duplicate game withdrawn: '
                                || c.duplicate_reason
                           else 'submission ' || s.submission_id || ' (' || s.name || ') withdrawn: ' || s.withdrawn_reason end
    from changes c join submissions s using (submission_id)
    union
    select n.list_id, 'the rule set''s parameters changed (--rules)'
    from new_lists n join lists l on l.series = getvariable('series') and l.list_id = n.list_id
    where l.parameters is distinct from n.parameters
    union
    select r.list_id, 'correction ' || c.correction_id || ' (player ' || c.player_id || ')'
    from revised r join corrections c on c.series = getvariable('series') and c.list_id = r.list_id
     and c.run_id > r.old_run_id
    union
    select r.list_id, 'correction ' || c.correction_id || ' withdrawn'
    from revised r join corrections c on c.series = getvariable('series') and c.list_id = r.list_id
     and c.withdrawn_run > r.old_run_id
    union
    select r.list_id, 'correction ' || c.correction_id
                      || case when c.set_aside is null then ' back in force' else ' set aside: ' || c.set_aside end
    from revised r join corrections c on c.series = getvariable('series') and c.list_id = r.list_id
     and c.set_aside_run > r.old_run_id and c.withdrawn_at is null
),
first_list as (select min(window_start) as window_start from lists where series = getvariable('series')),
final as (
    select ch.list_id,
           case when ch.old_revision is null then 'first computed'
                else coalesce((select string_agg(cause, '; ' order by cause) from causes c where c.list_id = ch.list_id),
                              case when ch.window_start <= (select window_start from first_list)
                                        and not exists (select 1 from changed e where e.window_start < ch.window_start)
                                   then 'the registry or the initial ratings changed'
                                   else 'follows from the revision of an earlier list' end) end as reason
    from changed ch
)
select * from final
