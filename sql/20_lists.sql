-- The lists to compute: every calendar window from the first that holds a
-- played or forfeited game to the last, in order (issue 2, ruling R1).
-- inputs: calendar, games
-- grain: list_id
with span as (
    select min(k.window_start) as first_start, max(k.window_start) as last_start
    from calendar k
    where exists (select 1 from games g where g.date between k.window_start and k.window_end)
),
final as (
    select k.list_id, k.window_start, k.window_end
    from calendar k, span
    where k.window_start between span.first_start and span.last_start
)
select * from final order by window_start
