-- Published ratings that are not multiples of ten (R3).
-- inputs: player_state
-- grain: list_id, player_id
select list_id, player_id, rating from player_state where rating is not null and rating % 10 <> 0
