-- A player with two states after the same list.
-- inputs: player_state
-- grain: series, list_id, player_id
select series, list_id, player_id, count(*) as copies from player_state group by all having count(*) > 1
