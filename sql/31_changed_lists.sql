-- The recomputed lists whose results differ from their stored revision (or that
-- have none): only these get a new revision. Results are compared through a
-- fingerprint per list (the sum of the rows' hashes): one aggregation per table.
-- inputs: new_lists, new_state, new_calculations, new_pooled_games, lists, player_state,
--         calculations, pooled_games
-- grain: list_id
with recomputed as (select list_id from new_lists),
new_prints as (
    select list_id, sum(hash(player_id, rating, archive_performance, archive_games, games_total, peak_rating)) as h
    from new_state group by list_id
    union all
    select list_id, sum(hash(player_id, games_played, games, unrounded, rule)) + 1
    from new_calculations group by list_id
    union all
    select list_id, sum(hash(player_id, games, opponents_sum, score, ignored_games)) + 2
    from new_pooled_games group by list_id
),
old_prints as (
    select list_id, sum(hash(player_id, rating, archive_performance, archive_games, games_total, peak_rating)) as h
    from player_state where list_id in (select list_id from recomputed) group by list_id
    union all
    select list_id, sum(hash(player_id, games_played, games, unrounded, rule)) + 1
    from calculations where list_id in (select list_id from recomputed) group by list_id
    union all
    select list_id, sum(hash(player_id, games, opponents_sum, score, ignored_games)) + 2
    from pooled_games where list_id in (select list_id from recomputed) group by list_id
),
differing as (
    select coalesce(n.list_id, o.list_id) as list_id
    from new_prints n full join old_prints o on n.list_id = o.list_id and n.h = o.h
    where n.list_id is null or o.list_id is null
),
final as (
    select n.list_id, n.window_start, n.window_end, l.revision as old_revision,
           r.run_id as old_run_id, l.registry_version as old_registry_version, r.computed_at as old_computed_at
    from new_lists n
    left join lists l using (list_id)
    left join list_revisions r on r.list_id = l.list_id and r.revision = l.revision
    where l.list_id is null
       or n.list_id in (select list_id from differing)
       or l.window_start <> n.window_start or l.window_end <> n.window_end
)
select * from final
