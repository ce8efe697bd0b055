-- The series that would file a row before the history of their lists starts. Once a
-- series has lists, a game is filed before its first list by the game's own date under
-- a rule set of calendar windows, by its event's last day under one that rates events
-- as wholes (FIDE's ruling X1), never under one whose older event simply becomes the
-- first (Go). A history bound is a rule set's, not the warehouse's: the row is rejected
-- only when every series of the warehouse files it so (plausible_dates.sql); otherwise
-- it is stored, and each series named here keeps it out of its lists, with this reason
-- (excluded_games).
-- inputs: candidate_dates (row_number, d, event_last, rated_in: pipeline/validate/dates.py),
--         history_bounds (series, bound: every series of the warehouse), lists
-- grain: row_number, series
with history as (
    select b.series, b.bound, min(l.window_start) as first_start, arg_min(l.list_id, l.window_start) as first_list
    from history_bounds b join lists l using (series)
    where b.bound is not null
    group by b.series, b.bound
),
final as (
    select c.row_number, s.series,
           case s.bound when 'event'
               then 'date: ' || c.d || ' is in an event ending ' || c.event_last || ', before the history of the '
                    || s.series || ' lists starts (the first list, ' || s.first_list || ', rates the events ending from '
                    || s.first_start || ')'
               else 'date: ' || c.d || ' is before the history of the ' || s.series || ' lists starts (the first list, '
                    || s.first_list || ', rates the games from ' || s.first_start || ')' end as reason
    from candidate_dates c join history s
      on case s.bound when 'event' then c.event_last < s.first_start and coalesce(c.rated_in, '') < s.first_list
                      else c.d < s.first_start end
)
select * from final
