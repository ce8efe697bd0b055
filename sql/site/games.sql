-- The games the site's event pages show: every game with an event name, with the
-- list that rated it as the rule set placed it (placed_games: the list whose window
-- holds its day, or under FIDE's rules the list after its event ended, X1), on the
-- lists the site shows. pipeline/site/data.py adds each event's file name, and
-- fills `more` with the rule set's own columns of a game (SiteFace.game_columns).
-- inputs: site_played (the rule set's games: chess's `games`, SiteFace.played),
--         placed_games (RuleSet.place_games), site_lists
-- grain: game_key
select g.game_key, g.date, g.event, g.round, g.white_id, g.black_id, g.result, g.white_score, p.list_id,
       '' as more
from site_played g
join placed_games p using (game_key)
where p.list_id in (select list_id from site_lists) and nullif(trim(g.event), '') is not null
