-- Typed calendar windows from the accepted staged rows (R1).
-- inputs: accepted (the typed rows that passed every check)
-- grain: list_id
with final as (
    select list_id, window_start, window_end, file_id, row_number
    from accepted
)
select * from final
