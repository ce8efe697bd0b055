-- Correction candidates among Go games (issue 50), as sql/validate/corrections.sql finds them
-- among chess games: a row of a file given without --replaces with the same event, day and
-- two players (colours aside) as a game of another file, but another winner, colours or
-- handicap. Two games of one event between the same players are told apart by their rounds
-- when both rows give one (G9).
-- inputs: pending_rows (the typed Go game rows of the files not validated yet: submission_id,
--         judged, game_key, file_id, row_number, event_id, date, black_id, white_id, winner,
--         handicap, round), go_games, source_files, submissions, duplicate_decisions
-- grain: file_id, row_number, other_key
with judged as (select * from pending_rows where judged),
others as (
    select true as stored, g.game_key, f.submission_id, s.name, g.row_number, g.event_id, g.date, g.black_id,
           g.white_id, g.winner, g.handicap, g.round
    from go_games g join source_files f using (file_id) join submissions s using (submission_id)
    union all
    select false, p.game_key, p.submission_id, s.name, p.row_number, p.event_id, p.date, p.black_id, p.white_id,
           p.winner, p.handicap, p.round
    from pending_rows p join submissions s using (submission_id)
    where p.submission_id < (select max(submission_id) from judged)  -- a file is judged against earlier ones
),
matched as (
    select j.*, o.game_key as other_key, o.submission_id as other_submission, o.name as other_name,
           o.row_number as other_row, o.black_id as other_black, o.white_id as other_white,
           o.winner as other_winner, o.handicap as other_handicap, o.round as other_round
    from judged j join others o
      on o.event_id = j.event_id and o.date = j.date
     and least(o.black_id, o.white_id) = least(j.black_id, j.white_id)
     and greatest(o.black_id, o.white_id) = greatest(j.black_id, j.white_id)
     and (o.round is null or j.round is null or o.round = j.round)
     and (o.stored and o.submission_id <> j.submission_id or o.submission_id < j.submission_id)
),
repeated as (
    select distinct game_key from matched
    where other_black = black_id and other_winner = winner and other_handicap = handicap
),
final as (
    select m.submission_id, m.file_id, m.row_number, m.game_key, m.other_key, m.other_submission, m.other_name,
           m.other_row,
           m.event_id || ' ' || m.date || ' ' || m.black_id || '-' || m.white_id || ' won by ' || m.winner
               || ', handicap ' || m.handicap || coalesce(', round ' || m.round, '') as game,
           m.event_id || ' ' || m.date || ' ' || m.other_black || '-' || m.other_white || ' won by ' || m.other_winner
               || ', handicap ' || m.other_handicap || coalesce(', round ' || m.other_round, '') as other_game
    from matched m
    where (m.other_black <> m.black_id or m.other_winner <> m.winner or m.other_handicap <> m.handicap)
      and m.game_key not in (select game_key from repeated)
      and not exists (select 1 from duplicate_decisions d
                      where d.decision = 'kept' and d.game_key = m.other_key and d.other_key = m.game_key)
)
select * from final
order by submission_id, file_id, row_number, other_key
