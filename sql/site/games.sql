-- The games the site's event pages show: every game of the series' windows with an
-- event name, the event's file name (site_event_slugs, made by pipeline/site/data.py
-- from the distinct names) and the list that rated it (the list whose window holds
-- its day).
-- inputs: games, site_lists, site_event_slugs
-- grain: game_key
select g.game_key, g.date, g.event, s.slug, g.round, g.white_id, g.black_id, g.result, g.white_score, l.list_id
from games g
join site_lists l on g.date between l.window_start and l.window_end
join site_event_slugs s on s.event = g.event
