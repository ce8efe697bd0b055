-- Typed registry rows from the accepted staged rows.
-- inputs: accepted (the typed rows that passed every check)
-- grain: player_id
with final as (
    select player_id, name, birth_year::integer as birth_year, club, estimated_rating,
           case when upper(trim(grade)) = 'NC' then 'NC' else lower(replace(grade, ' ', '')) end as grade, extra,
           file_id, row_number
    from accepted
)
select * from final
