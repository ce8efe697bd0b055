-- Rows not accounted for exactly once: every row of every part (1 … rows_read) is
-- stored (in its table: the registry's versions, initial ratings, calendar, games,
-- Go events and games), rejected (a reject not taken in since), withdrawn, or, while
-- its part waits for validation, staged. A row found nowhere or twice is listed;
-- the counts alone cannot prove this.
-- inputs: source_files, player_versions, initial_ratings, calendar, games, events, go_games,
--         withdrawn_rows, rejects, staged_*
-- grain: file_id, row_number
with places as (
    select file_id, row_number from player_versions
    union all select file_id, row_number from initial_ratings
    union all select file_id, row_number from calendar where file_id is not null
    union all select file_id, row_number from games
    union all select file_id, row_number from events
    union all select file_id, row_number from go_games
    union all select file_id, row_number from withdrawn_rows
    union all select file_id, row_number from rejects where status <> 'taken in'
    union all select file_id, row_number from staged_players
    union all select file_id, row_number from staged_ratings
    union all select file_id, row_number from staged_calendar
    union all select file_id, row_number from staged_games
    union all select file_id, row_number from staged_events
    union all select file_id, row_number from staged_go_games
),
counted as (select file_id, row_number, count(*) as places from places group by file_id, row_number),
expected as (
    select file_id, unnest(generate_series(1, rows_read)) as row_number from source_files where rows_read > 0
),
final as (
    select e.file_id, e.row_number, coalesce(c.places, 0) as places
    from expected e left join counted c using (file_id, row_number)
    where coalesce(c.places, 0) <> 1
    union all
    select c.file_id, c.row_number, c.places
    from counted c where not exists (select 1 from expected e where e.file_id = c.file_id and e.row_number = c.row_number)
)
select * from final
