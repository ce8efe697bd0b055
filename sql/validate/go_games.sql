-- Relational checks of staged Go games.
-- inputs: candidates (the typed rows of one file, without reading problems: NULL where a text did not
--         parse), players, events, go_games
-- grain: row_number, reason
with unknown_player as (
    select row_number, side || ': ' || id || ' is not in the player registry' as reason
    from (select row_number, 'black_id' as side, black_id as id from candidates
          union all select row_number, 'white_id', white_id from candidates) c
    where c.id is not null
      and not exists (select 1 from players p where p.player_id = c.id)
),
unknown_event as (
    select row_number, 'event_id: ' || event_id || ' is not in the events' as reason
    from candidates c where not exists (select 1 from events e where e.event_id = c.event_id)
),
outside_event as (
    select c.row_number, 'date: ' || c.date || ' is outside the event (' || e.start_date || ' … ' || e.end_date || ')'
           as reason
    from candidates c join events e using (event_id)
    where c.date not between e.start_date and e.end_date
),
-- the values as they will be stored, so that `3` and `03`, or `b` and `B`, are one
parsed as (
    select row_number, event_id, date, black_id, white_id,
           case lower(winner) when 'b' then 'B' when 'w' then 'W' when 'b+f' then 'B+F' when 'w+f' then 'W+F'
                              else 'jigo' end as winner,
           coalesce(handicap, 0) as handicap, weight, round
    from candidates
),
numbered as (
    select row_number,
           min(row_number) over (partition by event_id, date, black_id, white_id, winner, handicap, weight, round)
               as first_row
    from parsed
),
repeated_in_file as (
    select row_number, 'duplicate game: same as row ' || first_row || ' of this file' as reason
    from numbered where row_number > first_row
),
already_stored as (
    select c.row_number,
           'duplicate game: already in the warehouse (file ' || g.file_id || ', row ' || g.row_number || ')' as reason
    from parsed c
    join go_games g
      on g.event_id = c.event_id and g.date = c.date and g.black_id = c.black_id and g.white_id = c.white_id
     and g.winner = c.winner and g.handicap = c.handicap and g.weight is not distinct from c.weight
     and g.round is not distinct from c.round
),
final as (
    select * from unknown_player
    union all select * from unknown_event
    union all select * from outside_event
    union all select * from repeated_in_file
    union all select * from already_stored
)
select * from final
