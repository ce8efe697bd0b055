-- Published ratings that are not multiples of what their series publishes (the
-- performance Elo: ten, R3; FIDE: whole numbers; Go points: any number).
-- inputs: player_state, series
-- grain: series, list_id, player_id
select p.series, p.list_id, p.player_id, p.rating
from player_state p join series s using (series)
where p.rating is not null and s.rating_step is not null and p.rating % s.rating_step <> 0
