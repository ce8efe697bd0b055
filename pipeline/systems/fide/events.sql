-- FIDE rates a tournament as a whole (rulings X1-X3, X6): each game with its event,
-- the list that rates the event (X1), the list in force when it started (X2), and
-- whether it is a match game played after the match was decided (X6, X6a).
-- An event is, in this order: the events-file row whose event_id is the game's
-- `event`; the tournament file the game came from (TRF, SWAR: one file, one event);
-- the games' `event` name, a name recurring after more than 90 days without games
-- being another event (files reuse names from season to season); else one event per
-- calendar month of the games' dates.
-- The games are the series' own: those it does not rate (excluded_games: filed before its
-- first list when they came, and rated by another series) are no part of any event here.
-- inputs: games, excluded_games, events, source_files, submissions, series_calendar (list_id,
--         window_start, window_end, list_date: the lists in order, their windows ending at the
--         closing date), getvariable('series')
-- grain: game_key
with rated_games as (
    select * from games
    where game_key not in (select game_key from excluded_games where series = getvariable('series'))
),
described as (select * from events),  -- a warehouse of chess holds chess events only
tournament_files as (
    select f.file_id, s.submission_id, s.name from source_files f join submissions s using (submission_id)
    where s.format in ('trf', 'swar')
),
named as (
    select game_key, date, event,
           case when date > lag(date) over (partition by event order by date, game_key) + interval 90 day
                then 1 else 0 end as opens
    from rated_games g
    where event is not null and not exists (select 1 from described e where e.event_id = g.event)
      and g.file_id not in (select file_id from tournament_files)
),
keyed as (
    select g.game_key, 'event ' || g.event as event_key, e.name as event_name
    from rated_games g join described e on e.event_id = g.event
    union all
    select g.game_key, 'file ' || t.submission_id, coalesce(g.event, t.name)
    from rated_games g join tournament_files t using (file_id)
    where not exists (select 1 from described e where e.event_id = g.event)
    union all
    select game_key, 'name ' || event || ' #' || (1 + sum(opens) over (partition by event order by date, game_key
                                                                        rows unbounded preceding)), event
    from named
    union all
    select g.game_key, 'month ' || strftime(g.date, '%Y-%m'), 'games of ' || strftime(g.date, '%Y-%m') || ' without an event'
    from rated_games g
    where g.event is null and g.file_id not in (select file_id from tournament_files)
),
played as (select k.event_key, k.event_name, g.* from rated_games g join keyed k using (game_key)),
spans as (
    -- A game is never rated before it was played: the days reach the games' own.
    select p.event_key, any_value(p.event_name) as event_name,
           least(any_value(e.start_date), min(p.date)) as first_day,
           greatest(any_value(e.end_date), max(p.date)) as last_day,
           any_value(e.rated_in) as rated_in, any_value(e.games_scheduled) as games_scheduled,
           -- two players: every game between the same pair (a game is never a player against
           -- themself), told without collecting each event's players (a tenth of the placement's time)
           min(least(p.white_id, p.black_id)) = max(least(p.white_id, p.black_id))
               and min(greatest(p.white_id, p.black_id)) = max(greatest(p.white_id, p.black_id)) as two_players,
           -- X6a: a match is an event an events file or a tournament file declares (or the games'
           -- `event`), never the one-event-per-calendar-month grouping of games without one
           not starts_with(p.event_key, 'month ') as declared
    from played p left join described e on 'event ' || e.event_id = p.event_key
    group by p.event_key
),
placed as (
    select s.*,
           -- X1: the list whose window holds the last day (it closes three days before its
           -- date), or the later list the events file names (a late report)
           coalesce(case when l.list_date > n.list_date then l.list_id end, n.list_id) as rated_on,
           -- X2: the list published on or before the first day (none: the initial ratings)
           (select arg_max(c.list_id, c.list_date) from series_calendar c where c.list_date <= s.first_day) as start_list,
           -- X8: a first event's ties (same day, same start) go to the event id (ranked once an event)
           dense_rank() over (order by s.event_key) as event_rank
    from spans s
    left join series_calendar n on s.last_day between n.window_start and n.window_end
    left join series_calendar l on l.list_id = s.rated_in
),
-- X6: in a match of a scheduled length, a game played once one player has more
-- than half the scheduled points is not rated (forfeits count toward the score)
match_points as (
    select p.game_key, p.event_key, p.date,
           coalesce(case when p.white_id < p.black_id then p.white_score else 1 - p.white_score end,
                    case p.result when '+/-' then (p.white_id < p.black_id)::integer
                                  when '-/+' then (p.white_id > p.black_id)::integer else 0 end) as first_points,
           coalesce(case when p.white_id < p.black_id then 1 - p.white_score else p.white_score end,
                    case p.result when '+/-' then (p.white_id > p.black_id)::integer
                                  when '-/+' then (p.white_id < p.black_id)::integer else 0 end) as second_points
    from played p join placed e using (event_key)
    where e.two_players and e.declared and e.games_scheduled is not null
),
decided as (
    select m.game_key,
           greatest(coalesce(sum(m.first_points) over w, 0), coalesce(sum(m.second_points) over w, 0))
               > e.games_scheduled / 2.0 as after_decided
    from match_points m join placed e using (event_key)
    window w as (partition by m.event_key order by m.date, m.game_key rows between unbounded preceding and 1 preceding)
),
final as (
    select p.game_key, p.event_key, e.event_name, e.first_day, e.last_day, e.rated_on, e.start_list,
           e.two_players and e.declared as match, coalesce(d.after_decided, false) as after_decided,
           e.event_rank
    from played p join placed e using (event_key) left join decided d using (game_key)
)
select * from final
