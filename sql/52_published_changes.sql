-- The diff reports: for each new revision of a list, who changed, from what to
-- what, and why (public: no private column).
-- inputs: rating_changes, players
-- grain: list_id, revision, player_id
with final as (
    select c.list_id || '-r' || c.revision as report, c.list_id, c.revision, c.player_id, p.name,
           c.old_rating::integer as old_rating, c.new_rating::integer as new_rating,
           (c.new_rating - c.old_rating)::integer as change,
           c.old_games::integer as old_games, c.new_games::integer as new_games, c.reason
    from rating_changes c join players p using (player_id)
)
select * from final
order by list_id, revision, player_id
