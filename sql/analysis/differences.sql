-- The ten biggest differences (B - A) of each compared list, with who.
-- inputs: compared_pairs, players
-- grain: list_id, player_id
with final as (
    select c.list_id, c.player_id, p.name, c.a as rating_a, c.b as rating_b, c.b - c.a as difference
    from compared_pairs c left join players p using (player_id)
    qualify row_number() over (partition by c.list_id order by abs(c.b - c.a) desc, c.player_id) <= 10
)
select * from final order by list_id, abs(difference) desc, player_id
