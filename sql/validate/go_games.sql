-- Relational checks of staged Go games (try_cast: rows the schema rejects may be malformed).
-- inputs: candidates (the staged_go_games rows of one file, without reading problems), players, go_events, go_games
-- grain: row_number, reason
with unknown_player as (
    select row_number, side || ': ' || id || ' is not in the player registry' as reason
    from (select row_number, 'black_id' as side, black_id as id from candidates
          union all select row_number, 'white_id', white_id from candidates) c
    where try_cast(c.id as bigint) is not null
      and not exists (select 1 from players p where p.player_id = try_cast(c.id as bigint))
),
unknown_event as (
    select row_number, 'event_id: ' || event_id || ' is not in the events' as reason
    from candidates c where not exists (select 1 from go_events e where e.event_id = c.event_id)
),
outside_event as (
    select c.row_number, 'date: ' || c.date || ' is outside the event (' || e.start_date || ' … ' || e.end_date || ')'
           as reason
    from candidates c join go_events e using (event_id)
    where try_cast(c.date as date) not between e.start_date and e.end_date
),
numbered as (
    select row_number,
           min(row_number) over (partition by event_id, date, black_id, white_id, winner, handicap, weight) as first_row
    from candidates
),
repeated_in_file as (
    select row_number, 'duplicate game: same as row ' || first_row || ' of this file' as reason
    from numbered where row_number > first_row
),
already_stored as (
    select c.row_number,
           'duplicate game: already in the warehouse (file ' || g.file_id || ', row ' || g.row_number || ')' as reason
    from candidates c
    join go_games g
      on g.event_id = c.event_id and g.date = try_cast(c.date as date)
     and g.black_id = try_cast(c.black_id as bigint) and g.white_id = try_cast(c.white_id as bigint)
     and g.winner = case lower(c.winner) when 'b' then 'B' when 'w' then 'W' else 'jigo' end
     and g.handicap = coalesce(try_cast(c.handicap as integer), 0)
     and g.weight is not distinct from try_cast(c.weight as double)
),
final as (
    select * from unknown_player
    union all select * from unknown_event
    union all select * from outside_event
    union all select * from repeated_in_file
    union all select * from already_stored
)
select * from final
