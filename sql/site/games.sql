-- The games the site's event pages show: every game of the series' windows with an
-- event name, with the list that rated it (the list whose window holds its day: the
-- windows follow each other, so the last one starting on or before the day, if it
-- has not ended). pipeline/site/data.py adds each event's file name.
-- inputs: games, site_lists
-- grain: game_key
select g.game_key, g.date, g.event, g.round, g.white_id, g.black_id, g.result, g.white_score, l.list_id
from games g
asof join site_lists l on g.date >= l.window_start
where g.date <= l.window_end and nullif(trim(g.event), '') is not null
