-- Relational checks of staged initial ratings.
-- inputs: candidates (the typed rows of one file: NULL where a text did not parse), players, initial_ratings
-- grain: row_number, reason
with unknown as (
    select row_number, 'player_id: ' || player_id || ' is not in the player registry' as reason
    from candidates c
    where c.player_id is not null
      and not exists (select 1 from players p where p.player_id = c.player_id)
),
numbered as (
    select row_number, min(row_number) over (partition by player_id) as first_row
    from candidates
    where player_id is not null
),
repeated_in_file as (
    select row_number, 'player_id: listed again (first at row ' || first_row || ')' as reason
    from numbered where row_number > first_row
),
already_stored as (
    select c.row_number,
           'player_id: already has an initial rating (file ' || r.file_id || ', row ' || r.row_number || ')' as reason
    from candidates c join initial_ratings r on r.player_id = c.player_id
),
final as (
    select * from unknown
    union all select * from repeated_in_file
    union all select * from already_stored
)
select * from final
