-- The players both sources rate, list by list: each list of A with the list of B in
-- force on its date (the latest dated on or before it), and each player's two ratings.
-- inputs: source_lists, source_ratings, getvariable('a'), getvariable('b')
-- grain: list_id, player_id
with a_lists as (select * from source_lists where source = getvariable('a')),
-- B's lists in force from one day (Go events ending on the same day): the last rated, which
-- holds the others' games, is the one in force (list_order).
b_lists as (select * from source_lists where source = getvariable('b')
            qualify row_number() over (partition by list_date order by list_order desc nulls last, list_id desc) = 1),
aligned as (
    select a.list_id, a.list_date, b.list_id as b_list_id
    from a_lists a asof join b_lists b on b.list_date <= a.list_date
),
final as (
    select l.list_id, l.list_date, l.b_list_id, ra.player_id, ra.rating as a, rb.rating as b
    from aligned l
    join source_ratings ra on ra.source = getvariable('a') and ra.list_id = l.list_id
    join source_ratings rb on rb.source = getvariable('b') and rb.list_id = l.b_list_id
                          and rb.player_id = ra.player_id
)
select * from final
