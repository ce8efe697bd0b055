-- The recomputed lists whose results differ from their stored revision (or that
-- have none): only these get a new revision.
-- inputs: new_lists, new_state, new_calculations, lists, player_state, calculations
-- grain: list_id
with recomputed as (select list_id from new_lists),
state_diff as (
    (select list_id, player_id, rating, archive_performance, archive_games from new_state
     except all
     select list_id, player_id, rating, archive_performance, archive_games from player_state
     where list_id in (select list_id from recomputed))
    union all
    (select list_id, player_id, rating, archive_performance, archive_games from player_state
     where list_id in (select list_id from recomputed)
     except all
     select list_id, player_id, rating, archive_performance, archive_games from new_state)
),
calculation_diff as (
    (select list_id, player_id, games_played, games, unrounded, rule from new_calculations
     except all
     select list_id, player_id, games_played, games, unrounded, rule from calculations
     where list_id in (select list_id from recomputed))
    union all
    (select list_id, player_id, games_played, games, unrounded, rule from calculations
     where list_id in (select list_id from recomputed)
     except all
     select list_id, player_id, games_played, games, unrounded, rule from new_calculations)
),
final as (
    select n.list_id, n.window_start, n.window_end, l.revision as old_revision,
           l.max_file_id as old_max_file_id, r.computed_at as old_computed_at
    from new_lists n
    left join lists l using (list_id)
    left join list_revisions r on r.list_id = l.list_id and r.revision = l.revision
    where l.list_id is null
       or n.list_id in (select list_id from state_diff)
       or n.list_id in (select list_id from calculation_diff)
       or l.window_start <> n.window_start or l.window_end <> n.window_end
)
select * from final
