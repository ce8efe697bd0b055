-- The commission's corrections of a series (withdrawn ones aside), each with why it is set
-- aside, or null where it is applied (issue 50). A correction sets a player's rating on a list
-- as the list was computed when it was entered. It is set aside, never applied to another
-- list (the officer enters it again where it belongs), on a list a run from scratch would not
-- make (a list kept only because it was computed before: the games it rated are now rated on
-- other lists), and on a list that no longer rates the player whose games it rated when the
-- correction was entered (FIDE re-placed their event on a later list, a late report or a
-- corrected end; their games were moved or withdrawn). A correction of a player who did not
-- play on the list stays in force while the list is made.
-- inputs: corrections, lists_to_rate (the series' periods, in order), placed_games (19, or the
--         rule set's placement), games, go_games, getvariable('series'), getvariable('periods_are')
-- grain: correction_id
with periods as (select row_number() over (order by window_start) as k, list_id from lists_to_rate),
span as (
    select min(k) as first, max(k) as last from periods
    where list_id in (select list_id from placed_games)
),
-- The lists a run from scratch makes: every window from the first that rates a game to the
-- last (sql/20_lists.sql without the lists kept because they were computed before); every
-- event, for a rule set whose periods are its events.
made as (
    select p.list_id from periods p, span
    where getvariable('periods_are') = 'events' or p.k between span.first and span.last
),
-- The corrections of the series, and whether each one's list rates its player: a game of
-- the player's on that list that is rated (not a forfeit, not won by default); read for the
-- corrections' own lists and players alone.
corrections_of as (
    select * from corrections where series = getvariable('series') and withdrawn_at is null
),
played as (
    select distinct c.correction_id
    from corrections_of c join placed_games p using (list_id) join games g using (game_key)
    where g.white_score is not null and c.player_id in (g.white_id, g.black_id)
    union
    select distinct c.correction_id
    from corrections_of c join placed_games p using (list_id) join go_games g using (game_key)
    where g.winner not like '%+F' and c.player_id in (g.white_id, g.black_id)
),
final as (
    select c.correction_id, c.list_id, c.player_id, c.rating, c.reason,
           case when c.list_id not in (select list_id from made)
                then 'a run from scratch would not make list ' || c.list_id
                     || ': the games it rated are now rated on other lists'
                when c.rated_at_entry and c.correction_id not in (select correction_id from played)
                then 'list ' || c.list_id || ' no longer rates player ' || c.player_id
                     || ', whose games it rated when the correction was entered (their event now rated on '
                     || 'another list, or their games withdrawn)'
           end as set_aside
    from corrections_of c
)
select * from final
