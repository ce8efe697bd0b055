-- api/v1/events/<slug>.json, one text an event: its days, its players (games and
-- score on their own side; their rating on the list that rated the event's last
-- game and that list's change, which counts every game of the window), its games.
-- inputs: site_games (sql/site/games.sql), site_rows, players
-- grain: slug
with sides as (
    select slug, date, list_id, white_id as player_id, white_score as score from site_games
    union all
    select slug, date, list_id, black_id, 1 - white_score from site_games
),
event_players as (
    select s.slug, s.player_id, count(*) as games, sum(s.score) as score, arg_max(s.list_id, s.date) as list_id
    from sides s group by s.slug, s.player_id
),
shown as (
    select p.slug, list(json_array(p.player_id, coalesce(r.name, n.name), p.games, p.score, p.list_id, r.rating, r.change)
                        order by p.score desc, p.player_id) as rows, count(*) as players
    from event_players p left join site_rows r on r.list_id = p.list_id and r.player_id = p.player_id
    left join main.players n on n.player_id = p.player_id
    group by p.slug
),
played as (
    select slug, any_value(event) as event, min(date) as first_day, max(date) as last_day, count(*) as games,
           list(distinct list_id order by list_id) as list_ids,
           list(json_array(date, round, white_id, black_id, result) order by date, round, game_key) as rows
    from site_games group by slug
)
select g.slug, g.event, g.first_day, g.last_day, g.games, s.players,
       json_object('version', 1, 'event_id', g.slug, 'name', g.event, 'first_day', g.first_day,
                   'last_day', g.last_day, 'list_ids', g.list_ids,
                   'players', json_object('columns', ['player_id', 'name', 'games', 'score', 'list_id', 'rating',
                                                      'change'], 'rows', to_json(s.rows)),
                   'games', json_object('columns', ['date', 'round', 'white_id', 'black_id', 'result'],
                                        'rows', to_json(g.rows)))::varchar as api
from played g join shown s using (slug)

