-- Relational checks of staged games.
-- inputs: candidates (the typed rows of one file: NULL where a text did not parse), players, games, calendar
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
-- the values as they will be stored, so that `3` and `03`, or `½-½` and `1/2-1/2`, are one
parsed as (
    select row_number, date, white_id, black_id, replace(result, '½-½', '1/2-1/2') as result,
           game_id, event, round
    from candidates
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
           'duplicate game: already in the warehouse (file ' || g.file_id || ', row ' || g.row_number || ')' as reason
    from parsed c
    join games g
      on g.date = c.date and g.white_id = c.white_id and g.black_id = c.black_id and g.result = c.result
     and g.game_id is not distinct from c.game_id
     and g.event is not distinct from c.event and g.round is not distinct from c.round
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
    union all select * from outside_calendar
)
select * from final
