-- The lists to compute, in order: every list computed before (a published list
-- stays, whatever later withdrawals take from its window), and every calendar
-- window from the first that rates a game (played or forfeited: sql/19_placed_games.sql)
-- to the last that rates one. Windows without games between them are lists too (a federation that
-- pauses still publishes); beyond the games, nothing creates a list, and a date
-- more than two years from every other date of its file and every game stored is
-- rejected at validation as a likely typo (sql/validate/plausible_dates.sql, ruling D1),
-- so no typed year can open a run of empty lists (issue 2, ruling R1); an old event
-- sent late, whose dates hang together, is taken in and said.
-- inputs: series_calendar (the rule set's windows: pipeline/rate/), placed_games (19), lists,
--         getvariable('series')
-- grain: list_id
with span as (
    select min(k.window_start) as first_start, max(k.window_start) as last_start
    from series_calendar k
    where k.list_id in (select list_id from placed_games)
),
final as (
    select k.list_id, k.window_start, k.window_end
    from series_calendar k, span
    where k.window_start between span.first_start and span.last_start
       or k.list_id in (select list_id from lists where series = getvariable('series'))
)
select * from final order by window_start
