-- Each game with the list that rates it: the list whose calendar window holds its
-- date (R1), an event key (games without an event name: one event per date), and
-- `placement`: a number that changes when what else decides how the game is rated
-- changes (nothing else here; the list signatures read it).
-- A rule set may place its games otherwise (FIDE rates an event as a whole on the
-- list after it ends: pipeline/systems/fide/events.sql); the stages after this one
-- read the view `placed_games` made from it, whichever rule set made it.
-- A game the series does not rate (excluded_games: filed before its first list when it
-- came, and rated by another series of the warehouse) is placed in no list of it.
-- inputs: games, excluded_games, series_calendar (the rule set's windows: pipeline/ruleset/games.py),
--         getvariable('series')
-- grain: game_key
-- Each window expanded to its days (a few thousand rows), so that games find their list
-- by an equality join on the date, not a range join over the windows (bench/README.md).
with days as (
    select list_id, unnest(generate_series(window_start, window_end, interval 1 day))::date as day
    from series_calendar
),
final as (
    select g.game_key, k.list_id, (hash(coalesce(g.event, g.date::varchar)) >> 1)::bigint as event_key,
           0::ubigint as placement
    from games g join days k on g.date = k.day
    where g.game_key not in (select game_key from excluded_games where series = getvariable('series'))
)
select * from final
