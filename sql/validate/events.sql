-- Relational checks of staged events (chess or Go).
-- inputs: candidates (the typed rows of one file: NULL where a text did not parse), events
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
-- An event id names its list's files: two that differ only by case would name one file
-- on a case-insensitive file system (Windows, macOS), one list overwriting the other's.
same_letters as (
    select a.row_number, 'event_id: ' || a.event_id || ' differs only by case from ' || min(b.event_id)
           || ' (row ' || min(b.row_number) || '): the two would name one file on Windows and macOS' as reason
    from candidates a join candidates b on lower(a.event_id) = lower(b.event_id) and a.event_id <> b.event_id
                                           and b.row_number < a.row_number
    group by a.row_number, a.event_id
),
stored_same_letters as (
    select c.row_number, 'event_id: ' || c.event_id || ' differs only by case from ' || min(e.event_id)
           || ', already in the warehouse: the two would name one file on Windows and macOS' as reason
    from candidates c join events e on lower(e.event_id) = lower(c.event_id) and e.event_id <> c.event_id
    group by c.row_number, c.event_id
),
final as (
    select * from repeated
    union all select * from stored
    union all select * from same_letters
    union all select * from stored_same_letters
)
select * from final
