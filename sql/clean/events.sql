-- Typed Go events from the accepted staged rows (board size 19 unless given).
-- inputs: accepted (the typed rows that passed every check)
-- grain: event_id
with final as (
    select event_id, name, start_date, end_date, class,
           case when class is not null then coalesce(board_size::integer, 19) end as board_size, file_id, row_number,
           run_id, rated_in, games_scheduled::integer as games_scheduled
    from accepted
)
select * from final
