-- Relational checks of staged registry rows (try_cast: rows the schema rejects may be malformed).
-- inputs: candidates (all staged_players rows of one file)
-- grain: row_number, reason
with numbered as (
    select row_number, min(row_number) over (partition by try_cast(player_id as bigint)) as first_row
    from candidates
    where try_cast(player_id as bigint) is not null
),
final as (
    select row_number, 'player_id: listed again (first at row ' || first_row || ')' as reason
    from numbered where row_number > first_row
)
select * from final
