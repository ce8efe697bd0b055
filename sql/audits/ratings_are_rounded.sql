-- Published ratings that are not multiples of ten (R3) under the performance Elo,
-- or not whole numbers under FIDE.
-- inputs: player_state, settings
-- grain: list_id, player_id
select list_id, player_id, rating from player_state
where rating is not null
  and rating % (case when (select value from settings where key = 'system') = 'fide' then 1 else 10 end) <> 0
