-- Who changed between the stored revision of a list and its recomputation, and why:
-- a player whose rating, counted games or archives changed, or whose name or club
-- in the registry changed since the revision was computed (the published list shows
-- the registry as it was then). The reasons, in this order: corrections entered,
-- withdrawn, set aside or back in force since; games a replacement or a withdrawal changed (which submission,
-- from what to what); late games (which submission); the registry; else "earlier
-- lists or opponents changed".
-- inputs: changed (the recomputed lists: list_id, window_start, window_end, old_revision,
--         old_run_id, old_registry_version), series_player_state (player_state with the rule
--         set's own columns) and calculations (still the old revision), new_series_player_state,
--         new_calculations, games, go_games, game_changes, duplicate_decisions, source_files,
--         corrections, player_versions, players, getvariable('series')
-- grain: list_id, player_id
with revised as (select * from changed where old_revision is not null),
-- A player on the list who did not play counted 0 games; the whole state row (archives,
-- games to date, ...: whatever the rule set keeps) is compared through its hash.
old_rows as (
    select s.list_id, s.player_id, s.rating, coalesce(c.games, 0) as games, hash(s) as state
    from series_player_state s
    left join calculations c on c.series = s.series and c.list_id = s.list_id and c.player_id = s.player_id
    where s.series = getvariable('series') and s.list_id in (select list_id from revised)
),
new_rows as (
    select s.list_id, s.player_id, s.rating, coalesce(c.games, 0) as games, hash(s) as state
    from new_series_player_state s left join new_calculations c using (list_id, player_id)
    where s.list_id in (select list_id from revised)
),
both_rows as (
    select list_id, player_id, o.rating as old_rating, n.rating as new_rating, o.games as old_games,
           n.games as new_games,
           o.rating is distinct from n.rating or o.games is distinct from n.games
           or o.state is distinct from n.state as results_moved
    from old_rows o full join new_rows n using (list_id, player_id)
),
named as (
    select b.*, v.name as old_name, v.club as old_club, p.name as new_name, p.club as new_club
    from both_rows b join revised r using (list_id)
    asof left join player_versions v on v.player_id = b.player_id and r.old_registry_version >= v.version
    left join players p on p.player_id = b.player_id
),
moved as (
    select * from named
    where results_moved or old_name is distinct from new_name or old_club is distinct from new_club
),
corrected as (
    select r.list_id, c.player_id, 1 as rank, c.correction_id as k,
           'correction ' || c.correction_id || ' by ' || c.entered_by || ': ' || c.reason as reason
    from revised r join corrections c on c.series = getvariable('series') and c.list_id = r.list_id
     and c.run_id > r.old_run_id
    union all
    select r.list_id, c.player_id, 2, c.correction_id,
           'correction ' || c.correction_id || ' withdrawn by ' || c.withdrawn_by || ': ' || c.withdrawn_reason
    from revised r join corrections c on c.series = getvariable('series') and c.list_id = r.list_id
     and c.withdrawn_run > r.old_run_id
    union all
    select r.list_id, c.player_id, 2, c.correction_id,
           'correction ' || c.correction_id
           || case when c.set_aside is null then ' back in force' else ' set aside: ' || c.set_aside end
    from revised r join corrections c on c.series = getvariable('series') and c.list_id = r.list_id
     and c.set_aside_run > r.old_run_id and c.withdrawn_at is null
),
-- One game withdrawn as a duplicate leaves its submission in force (its description says so).
change_sides as (
    select r.list_id, side.player_id, g.submission_id, g.replaced, g.date, g.white_id, g.black_id, g.description,
           d.game_key is not null as duplicate
    from revised r
    join game_changes g on g.run_id > r.old_run_id and g.date between r.window_start and r.window_end
    left join duplicate_decisions d on d.decision = 'withdrawn' and d.run_id = g.run_id
     and d.game_key = (g.old_file::bigint << 32) + g.old_row
    cross join lateral (select unnest([g.white_id, g.black_id]) as player_id) side
),
changed_games as (
    select list_id, player_id, 3 as rank,
           case when replaced is not null
                then 'submission ' || submission_id || ' replaces submission ' || replaced || ': '
                when duplicate then 'submission ' || submission_id || ': '
                else 'submission ' || submission_id || ' withdrawn: ' end
           || string_agg(description, ', ' order by date, white_id, black_id, description) as reason
    from change_sides group by list_id, player_id, submission_id, replaced, duplicate
),
-- The games a replacement took in are described by game_changes (unchanged ones are no news).
replacement_runs as (
    select f.file_id, o.withdrawn_run as run_id
    from source_files f join submissions s using (submission_id) join submissions o on o.submission_id = s.replaces
),
late_sides as (
    select r.list_id, side.player_id, f.submission_id, g.date, g.white_id, g.black_id, g.description
    from revised r
    join placed_games p on p.list_id = r.list_id
    -- a warehouse of Go places its go_games (chess's games is then empty), described as
    -- game_changes describes them: black first, the winner and the handicap
    join (select game_key, run_id, file_id, date, white_id, black_id,
                 date || ' ' || white_id || '-' || black_id || ' ' || result as description from games
          union all
          select game_key, run_id, file_id, date, white_id, black_id,
                 date || ' ' || black_id || '-' || white_id || ' ' || winner || ' (handicap ' || handicap || ')'
          from go_games) g on g.game_key = p.game_key and g.run_id > r.old_run_id
    join source_files f on f.file_id = g.file_id
    cross join lateral (select unnest([g.white_id, g.black_id]) as player_id) side
    where not exists (select 1 from replacement_runs x where x.file_id = g.file_id and x.run_id = g.run_id)
),
late as (
    select list_id, player_id, 4 as rank,
           'late games (submission ' || submission_id || '): '
           || string_agg(description, ', ' order by date, white_id, black_id, description) as reason
    from late_sides group by list_id, player_id, submission_id
),
registry as (
    select list_id, player_id, 5 as rank, 'name: ' || old_name || ' → ' || new_name as reason
    from moved where old_name is distinct from new_name
    union all
    select list_id, player_id, 6, 'club: ' || coalesce(old_club, '(none)') || ' → ' || coalesce(new_club, '(none)')
    from moved where old_club is distinct from new_club
),
reasons as (
    select list_id, player_id, string_agg(reason, '; ' order by rank, reason) as reason from (
        select list_id, player_id, rank, reason from corrected
        union select list_id, player_id, rank, reason from changed_games
        union select list_id, player_id, rank, reason from late
        union select list_id, player_id, rank, reason from registry
    ) group by list_id, player_id
),
final as (
    select m.list_id, m.player_id, m.old_rating, m.new_rating, m.old_games, m.new_games,
           coalesce(k.reason, 'earlier lists or opponents changed') as reason
    from moved m
    left join reasons k using (list_id, player_id)
)
select * from final
