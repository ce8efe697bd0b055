-- A player with two calculations in the same list.
-- inputs: calculations
-- grain: list_id, player_id
select list_id, player_id, count(*) as copies from calculations group by all having count(*) > 1
