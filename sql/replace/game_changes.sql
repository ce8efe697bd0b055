-- What a replacement (or a withdrawal) did to each game: the games of the old
-- version matched with those of the new one by their identity (pipeline/submissions.py:
-- event, round and players for tournament files; game_id, else date and players,
-- for tables); the k-th game of an identity in one version is the k-th in the other.
-- Unchanged games are left out.
-- inputs: old_games, new_games (file_id, row_number, identity, date, first_id, second_id, result, detail)
-- grain: old_file, old_row, new_file, new_row
with old_keyed as (
    select *, identity || '#' || row_number() over (partition by identity order by file_id, row_number) as k
    from old_games
),
new_keyed as (
    select *, identity || '#' || row_number() over (partition by identity order by file_id, row_number) as k
    from new_games
),
paired as (
    select o.file_id as old_file, o.row_number as old_row, n.file_id as new_file, n.row_number as new_row,
           coalesce(n.date, o.date) as date, coalesce(n.first_id, o.first_id) as first_id,
           coalesce(n.second_id, o.second_id) as second_id, o.result as old_result, n.result as new_result,
           o.date || ' ' || o.first_id || '-' || o.second_id || ' ' || o.result
               || coalesce(' (' || o.detail || ')', '') as old_text,
           n.date || ' ' || n.first_id || '-' || n.second_id || ' ' || n.result
               || coalesce(' (' || n.detail || ')', '') as new_text
    from old_keyed o full join new_keyed n using (k)
),
final as (
    select case when old_file is null then 'added' when new_file is null then 'withdrawn' else 'changed' end as change,
           old_file, old_row, new_file, new_row, date, first_id, second_id, old_result, new_result,
           case when old_file is null then 'added ' || new_text
                when new_file is null then 'withdrawn ' || old_text
                else 'changed ' || old_text || ' → ' || new_text end as description
    from paired
    where old_text is distinct from new_text
)
select * from final
order by date, first_id, second_id, old_file, old_row, new_file, new_row
