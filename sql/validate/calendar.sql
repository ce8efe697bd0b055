-- Relational checks of staged calendar rows.
-- inputs: candidates (the typed rows of one file: NULL where a text did not parse), calendar
-- grain: row_number, reason
with windows as (
    select row_number, list_id, window_start, window_end
    from candidates
),
repeated as (
    select a.row_number, 'list_id: ' || a.list_id || ' listed again (first at row ' || min(b.row_number) || ')' as reason
    from windows a join windows b on a.list_id = b.list_id and b.row_number < a.row_number
    group by a.row_number, a.list_id
),
overlapping as (
    select a.row_number, 'window overlaps that of list ' || min(b.list_id) || ' (R1: a game belongs to one list)' as reason
    from windows a join windows b
      on b.row_number < a.row_number and a.list_id <> b.list_id
     and a.window_start <= b.window_end and b.window_start <= a.window_end
    group by a.row_number
),
-- only calendar files are stored (nominal windows are each rule set's, made as needed)
filed as (select * from calendar where file_id is not null),
stored as (
    select a.row_number, 'list_id: ' || a.list_id || ' is already in the calendar' as reason
    from windows a join filed k on k.list_id = a.list_id
    union all
    select a.row_number, 'window overlaps that of list ' || min(k.list_id) || ' already in the calendar' as reason
    from windows a join filed k
      on a.list_id <> k.list_id and a.window_start <= k.window_end and k.window_start <= a.window_end
    group by a.row_number
),
final as (
    select * from repeated
    union all select * from overlapping
    union all select * from stored
)
select * from final
