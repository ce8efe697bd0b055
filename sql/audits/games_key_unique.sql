-- Games whose key appears twice (the games table has no index to prevent it).
-- inputs: games
-- grain: game_key
select game_key, count(*) as copies from games group by game_key having count(*) > 1
