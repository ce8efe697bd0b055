-- Relational checks of staged events (chess or Go).
-- inputs: candidates (all staged_events rows of one file), events
-- grain: row_number, reason
with repeated as (
    select a.row_number, 'event_id: ' || a.event_id || ' listed again (first at row ' || min(b.row_number) || ')' as reason
    from candidates a join candidates b on a.event_id = b.event_id and b.row_number < a.row_number
    group by a.row_number, a.event_id
),
stored as (
    select c.row_number, 'event_id: ' || c.event_id || ' is already in the warehouse (file ' || e.file_id
           || ', row ' || e.row_number || ')' as reason
    from candidates c join events e on e.event_id = c.event_id
),
final as (
    select * from repeated
    union all select * from stored
)
select * from final
