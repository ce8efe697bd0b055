-- A player with two calculations in the same list.
-- inputs: calculations
-- grain: series, list_id, player_id
select series, list_id, player_id, count(*) as copies from calculations group by all having count(*) > 1
