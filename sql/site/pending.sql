-- The pre-publication check (the Belgian federation's "ELO-controlelijst"): every game
-- in force that waits for a list of the series not computed yet (placed there by its rule
-- set: pipeline/rate/waiting.py), once for each of its two players,
-- as that player reads it: their colour, the opponent, the result from their side
-- (1, ½, 0; + and - for a forfeit won or lost, never rated), and the file and row it
-- came from, which a player quotes to the rating officer to have it corrected before the
-- next list is computed. Only `games` is read (site_played: the rule set's games as chess's
-- `games`, SiteFace.played): a withdrawn or replaced file's games left
-- it (withdrawn_rows), a staged file's are not in it yet. Names as the registry has them now.
-- inputs: site_played, placed_games (the rule set's placement), uncomputed_lists (the series' lists
--         not computed yet), source_files, submissions, players
-- grain: player_id, game_key
with later as (
    select g.* from site_played g join placed_games p using (game_key)
    where p.list_id in (select list_id from uncomputed_lists)
),
sides as (
    -- each result as [white's side, black's side], read at the player's side (1: white, 2: black)
    select game_key, date, event, round, file_id, row_number, white_id as player_id, black_id as opponent_id,
           'white' as colour, 1 as side, result from later
    union all
    select game_key, date, event, round, file_id, row_number, black_id, white_id, 'black', 2, result from later
),
final as (
    select s.player_id, p.name, s.date, s.event, s.round, s.colour, s.opponent_id, o.name as opponent_name,
           (case s.result when '1-0' then ['1', '0'] when '0-1' then ['0', '1'] when '1/2-1/2' then ['½', '½']
                          when '+/-' then ['+', '-'] when '-/+' then ['-', '+'] when '-/-' then ['-', '-'] end)[s.side]
               as result,
           f.submission_id as submission, u.name as file, s.row_number, s.game_key
    from sides s
    join source_files f using (file_id)
    join submissions u on u.submission_id = f.submission_id
    left join players p on p.player_id = s.player_id
    left join players o on o.player_id = s.opponent_id
)
select * from final
order by player_id, date, game_key
