-- Each player of each event the site shows, on their own side of its games: games,
-- score, the player's first and last day of it, and the list that rated their last
-- game of it. Read by both sql/site/player_api.sql (a player's events) and
-- sql/site/event_api.sql (an event's players).
-- inputs: site_games (sql/site/games.sql, with each event's file name, slug)
-- grain: slug, player_id
with sides as (
    select slug, event, date, list_id, white_id as player_id, white_score as score from site_games
    union all
    select slug, event, date, list_id, black_id, 1 - white_score from site_games
)
select slug, player_id, any_value(event) as event, min(date) as first_day, max(date) as last_day,
       count(*) as games, sum(score) as score, arg_max(list_id, date) as list_id
from sides
group by slug, player_id
