-- Relational checks of staged games.
-- inputs: candidates (the typed rows of one file: NULL where a text did not parse), players, games,
--         source_files, submissions, calendar
-- grain: row_number, reason
with unknown_white as (
    select row_number, 'white_id: ' || white_id || ' is not in the player registry' as reason
    from candidates c
    where c.white_id is not null
      and not exists (select 1 from players p where p.player_id = c.white_id)
),
unknown_black as (
    select row_number, 'black_id: ' || black_id || ' is not in the player registry' as reason
    from candidates c
    where c.black_id is not null
      and not exists (select 1 from players p where p.player_id = c.black_id)
),
-- the values as they will be stored, so that `3` and `03`, or `½-½` and `1/2-1/2`, are one;
-- a row whose date or players did not parse is rejected for that alone, never called a
-- duplicate of another such row
parsed as (
    select row_number, date, white_id, black_id, replace(result, '½-½', '1/2-1/2') as result,
           game_id, event, round
    from candidates
    where date is not null and white_id is not null and black_id is not null and result is not null
),
stored as (
    select g.*, s.submission_id, s.name as submission_name
    from games g join source_files f using (file_id) join submissions s using (submission_id)
),
-- the same game twice: every value equal (game_id, event and round included);
-- the hash finds the few candidate groups cheaply, the window then compares the values
repeated_hashes as (
    select hash(date, white_id, black_id, result, game_id, event, round) as h
    from parsed group by h having count(*) > 1
),
numbered as (
    select row_number,
           min(row_number) over (partition by date, white_id, black_id, result, game_id, event, round) as first_row
    from parsed
    where hash(date, white_id, black_id, result, game_id, event, round) in (select h from repeated_hashes)
),
repeated_in_file as (
    select row_number, 'duplicate game: same as row ' || first_row || ' of this file' as reason
    from numbered where row_number > first_row
),
already_stored as (
    select c.row_number,
           'duplicate game: already in the warehouse (submission ' || g.submission_id || ', '
           || g.submission_name || ', row ' || g.row_number || '); a corrected file is taken in with --replaces '
           || g.submission_id as reason
    from parsed c
    join stored g
      on g.date = c.date and g.white_id = c.white_id and g.black_id = c.black_id and g.result = c.result
     and g.game_id is not distinct from c.game_id
     and g.event is not distinct from c.event and g.round is not distinct from c.round
),
-- a stored game again (its game_id, date and players) with another result: a corrected
-- file given without --replaces, whose rows would otherwise be rated beside the old ones
changed_result as (
    select c.row_number,
           'game_id: ' || c.game_id || ' is already in the warehouse with result ' || g.result
           || ' (submission ' || g.submission_id || ', ' || g.submission_name || ', row ' || g.row_number
           || '), here ' || c.result || ': a corrected file replaces the old one with --replaces ' || g.submission_id
           as reason
    from parsed c
    join stored g
      on g.game_id = c.game_id and g.date = c.date and g.white_id = c.white_id and g.black_id = c.black_id
     and g.result <> c.result
),
outside_calendar as (
    select row_number, 'date: ' || date || ' is outside every calendar window' as reason
    from candidates c
    -- only a calendar file bounds the dates: the nominal windows cover every day (R1)
    where c.date is not null and exists (select 1 from calendar where file_id is not null)
      and not exists (select 1 from calendar k
                      where k.file_id is not null and c.date between k.window_start and k.window_end)
),
final as (
    select * from unknown_white
    union all select * from unknown_black
    union all select * from repeated_in_file
    union all select * from already_stored
    union all select * from changed_result
    union all select * from outside_calendar
)
select * from final
