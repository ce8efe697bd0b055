-- Relational checks of staged registry rows.
-- inputs: candidates (the typed rows of one file: NULL where a text did not parse)
-- grain: row_number, reason
with numbered as (
    select row_number, min(row_number) over (partition by player_id) as first_row
    from candidates
    where player_id is not null
),
final as (
    select row_number, 'player_id: listed again (first at row ' || first_row || ')' as reason
    from numbered where row_number > first_row
)
select * from final
