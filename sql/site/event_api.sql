-- api/v1/events/<slug>.json, one text an event, and its summary: its days, its
-- players (games and score on their own side; their rating on the list that rated
-- the event's last game and that list's change, which counts every game of the
-- window; their name as the registry has it now: a player never rated has no page nor
-- a place in api/v1/players.json, and is named all the same), its games. The rows are
-- joined as text (see sql/site/player_api.sql).
-- The rule set's own values (SiteFace: its players' from site_event_more, its games' in
-- site_games.more) follow the shared ones in each row, their names in the columns.
-- The events are those of site_games: pipeline/site/data.py gives it the games of the events
-- computed again only (`lists`: the lists an event's games are on, kept with its text).
-- inputs: site_games (sql/site/games.sql), site_event_players (sql/site/event_players.sql), site_rows, players,
--         site_event_more, getvariable('site_event_keys'), getvariable('site_game_keys')
-- grain: slug
with shown as (
    select p.slug, count(*) as players,
           string_agg((json_array(p.player_id, p.games, p.score, p.list_id, r.rating, r.change, n.name)::varchar)[:-2]
                      || coalesce(m.more, '') || ']', ',' order by p.score desc, p.player_id) as rows
    from site_event_players p left join site_rows r on r.list_id = p.list_id and r.player_id = p.player_id
    left join players n on n.player_id = p.player_id
    left join site_event_more m on m.list_id = p.list_id and m.player_id = p.player_id
    group by p.slug
),
played as (
    select slug, any_value(event) as event, min(date) as first_day, max(date) as last_day, count(*) as games,
           list(distinct list_id order by list_id) as lists, to_json(lists)::varchar as list_ids,
           string_agg((json_array(date, round, white_id, black_id, result)::varchar)[:-2] || more || ']', ','
                      order by date, round, game_key) as rows
    from site_games group by slug
)
select g.slug, g.event, g.first_day, g.last_day, g.games, s.players, g.lists,
       '{"version":1,"event_id":' || to_json(g.slug) || ',"name":' || to_json(g.event)
       || ',"first_day":"' || g.first_day || '","last_day":"' || g.last_day || '","list_ids":' || g.list_ids
       || ',"players":{"columns":' || to_json(['player_id', 'games', 'score', 'list_id', 'rating', 'change', 'name']
                                              || getvariable('site_event_keys')) || ',"rows":[' || s.rows
       || ']},"games":{"columns":' || to_json(['date', 'round', 'white_id', 'black_id', 'result']
                                             || getvariable('site_game_keys')) || ',"rows":[' || g.rows || ']}}'
       as api
from played g join shown s using (slug)
