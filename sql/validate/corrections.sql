-- Correction candidates (issue 50): a row of a file given without --replaces that looks like
-- a corrected version of a game of another file: the same day, the same two players (colours
-- aside) and the same event, but another result or colours. Two games of a match are told
-- apart by their rounds, or their game_ids, when both rows give one. A row that is the
-- stored game itself again (a duplicate, rejected as such) is no correction, nor a pair the
-- officer confirmed as two games (duplicate_decisions, 'kept'). The other game is one in
-- force, or a row of an earlier file not validated yet.
-- inputs: pending_rows (the typed game rows of the files not validated yet: submission_id,
--         judged, game_key, file_id, row_number, date, white_id, black_id, result, game_id,
--         event, round), games, source_files, submissions, duplicate_decisions
-- grain: file_id, row_number, other_key
with judged as (select * from pending_rows where judged),
others as (
    select true as stored, g.game_key, f.submission_id, s.name, g.row_number, g.date, g.white_id, g.black_id,
           g.result, g.game_id, g.event, g.round
    from games g join source_files f using (file_id) join submissions s using (submission_id)
    union all
    select false, p.game_key, p.submission_id, s.name, p.row_number, p.date, p.white_id, p.black_id, p.result,
           p.game_id, p.event, p.round
    from pending_rows p join submissions s using (submission_id)
    where p.submission_id < (select max(submission_id) from judged)  -- a file is judged against earlier ones
),
-- the same game: the other file's submission is another, and earlier when it is not validated yet
matched as (
    select j.*, o.game_key as other_key, o.submission_id as other_submission, o.name as other_name,
           o.row_number as other_row, o.white_id as other_white, o.black_id as other_black, o.result as other_result,
           o.event as other_event, o.round as other_round
    from judged j join others o
      on o.date = j.date and least(o.white_id, o.black_id) = least(j.white_id, j.black_id)
     and greatest(o.white_id, o.black_id) = greatest(j.white_id, j.black_id)
     and o.event is not distinct from j.event
     and (o.round is null or j.round is null or o.round = j.round)
     and (o.game_id is null or j.game_id is null or o.game_id = j.game_id)
     and (o.stored and o.submission_id <> j.submission_id or o.submission_id < j.submission_id)
),
repeated as (
    select distinct game_key from matched where other_white = white_id and other_result = result
),
final as (
    select m.submission_id, m.file_id, m.row_number, m.game_key, m.other_key, m.other_submission, m.other_name,
           m.other_row,
           m.date || ' ' || m.white_id || '-' || m.black_id || ' ' || m.result
               || coalesce(', ' || m.event, '') || coalesce(', round ' || m.round, '') as game,
           m.date || ' ' || m.other_white || '-' || m.other_black || ' ' || m.other_result
               || coalesce(', ' || m.other_event, '') || coalesce(', round ' || m.other_round, '') as other_game
    from matched m
    where (m.other_white <> m.white_id or m.other_result <> m.result)
      and m.game_key not in (select game_key from repeated)
      and not exists (select 1 from duplicate_decisions d
                      where d.decision = 'kept' and d.game_key = m.other_key and d.other_key = m.game_key)
)
select * from final
order by submission_id, file_id, row_number, other_key
