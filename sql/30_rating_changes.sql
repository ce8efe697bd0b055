-- Who changed between the stored revision of a list and its recomputation, and why.
-- inputs: changed (list_id, window_start, window_end, old_revision, old_max_file_id,
--         old_computed_at: the recomputed lists that had a revision), player_state and
--         calculations (still the old revision), new_state, new_calculations, games, corrections
-- grain: list_id, player_id
with old_rows as (
    select s.list_id, s.player_id, s.rating, c.games
    from player_state s left join calculations c using (list_id, player_id)
    where s.list_id in (select list_id from changed)
),
new_rows as (
    select s.list_id, s.player_id, s.rating, c.games
    from new_state s left join new_calculations c using (list_id, player_id)
    where s.list_id in (select list_id from changed)
),
moved as (
    select list_id, player_id, o.rating as old_rating, n.rating as new_rating,
           o.games as old_games, n.games as new_games
    from old_rows o full join new_rows n using (list_id, player_id)
    where o.rating is distinct from n.rating
),
late_sides as (
    select ch.list_id, side.player_id, g.date, g.white_id, g.black_id, g.result
    from changed ch
    join games g on g.date between ch.window_start and ch.window_end
                and g.file_id > coalesce(ch.old_max_file_id, 0)
    cross join lateral (select unnest([g.white_id, g.black_id]) as player_id) side
),
late as (
    select list_id, player_id,
           'late games: ' || string_agg(date || ' ' || white_id || '-' || black_id || ' ' || result, ', '
                                        order by date, white_id, black_id) as reason
    from late_sides group by list_id, player_id
),
corrected as (
    select c.list_id, c.player_id, 'correction: ' || arg_max(c.reason, c.entered_at) as reason
    from corrections c join changed ch on ch.list_id = c.list_id and c.entered_at > ch.old_computed_at
    group by c.list_id, c.player_id
),
final as (
    select m.list_id, m.player_id, m.old_rating, m.new_rating, m.old_games, m.new_games,
           coalesce(k.reason, l.reason, 'earlier lists or opponents changed') as reason
    from moved m
    left join late l using (list_id, player_id)
    left join corrected k using (list_id, player_id)
)
select * from final
