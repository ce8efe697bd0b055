-- The public lists: every player rated after each list (the rating_history
-- view of sql/views.sql). No private column (birth year, extra registry
-- columns) is selected there.
-- inputs: rating_history
-- grain: list_id, player_id
select * from rating_history
order by list_id, rating desc, player_id
