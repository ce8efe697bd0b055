-- Typed calendar windows from the accepted staged rows (R1).
-- inputs: accepted (staged_calendar rows that passed every check)
-- grain: list_id
with final as (
    select list_id, window_start::date as window_start, window_end::date as window_end, file_id, row_number
    from accepted
)
select * from final
