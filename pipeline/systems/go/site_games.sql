-- The Go rule sets' games as the site reads a rule set's games (SiteFace.played): in the
-- columns of chess's `games`, so that the event pages and the pending games are the same
-- code for both games. White's result as chess writes it (a game won by default, B+F or
-- W+F, as a forfeit: never rated, its white_score null); the event by its name, and by
-- its name and id when two events share a name (an event's page is named by it).
-- inputs: go_games, events
-- grain: game_key
with named as (
    select event_id, case when count(*) over (partition by name) > 1 then name || ' (' || event_id || ')'
                          else name end as event
    from events
)
select g.game_key, g.date, n.event, g.round::varchar as round, g.white_id, g.black_id,
       case g.winner when 'W' then '1-0' when 'B' then '0-1' when 'jigo' then '1/2-1/2'
                     when 'W+F' then '+/-' when 'B+F' then '-/+' end as result,
       case when g.winner in ('B+F', 'W+F') then null else 1 - g.black_result end as white_score,
       g.file_id, g.row_number, g.handicap,
       -- the winner as Go players write it: B+ (Black won), W+, jigo; B+F, W+F by default
       case g.winner when 'B' then 'B+' when 'W' then 'W+' else g.winner end as winner
from go_games g join named n using (event_id)
