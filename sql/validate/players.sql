-- Relational checks of staged registry rows that passed the schema.
-- inputs: candidates (staged_players rows of one file)
-- grain: row_number, reason
with numbered as (
    select row_number, min(row_number) over (partition by player_id::bigint) as first_row
    from candidates
),
final as (
    select row_number, 'player_id: listed again (first at row ' || first_row || ')' as reason
    from numbered where row_number > first_row
)
select * from final
