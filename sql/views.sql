-- Views for analysts, with a comment on each view and column (the data dictionary
-- in docs/outputs.md is generated from the same comments: tests/test_views.py checks it).

-- Names and clubs are the registry's as it was when each list's revision was computed
-- (lists.registry_version): a published list is a snapshot, a later rename shows on
-- the next list or revision.
create or replace view list_ratings as
-- A list's rows meet the list before's and the calculations on the list's position (an
-- integer), not its name; no names (an asof join of every row, the larger part of
-- rating_history's work), for the list reports, which name only the rows they show.
with list_order as (
    select series, list_id, position, lag(list_id) over (partition by series order by position) as previous_list_id
    from lists
),
previous as (
    select l.series, l.position, s.player_id, s.rating
    from list_order l join player_state s on s.series = l.series and s.list_id = l.previous_list_id
    where s.rating is not null
    union all
    select l.series, l.position, r.player_id, r.rating
    from list_order l join initial_ratings r on l.previous_list_id is null
    where r.rating is not null
),
calculated as (
    select l.series, l.position, c.player_id, c.games, c.games_played
    from calculations c join list_order l using (series, list_id)
)
select s.series, s.list_id, s.player_id,
       s.rating::integer as rating,
       round(prev.rating)::integer as previous_rating,
       (s.rating - round(prev.rating))::integer as change,
       coalesce(c.games, 0)::integer as games,
       case when prev.rating is null then 'new'
            when c.games_played > 0 then 'played'
            else 'did not play' end as status
from player_state s
join list_order l using (series, list_id)
left join previous prev on prev.series = s.series and prev.position = l.position and prev.player_id = s.player_id
left join calculated c on c.series = s.series and c.position = l.position and c.player_id = s.player_id
where s.rating is not null;

comment on view list_ratings is 'rating_history without the names and clubs: every rated player on every list, by id.';
comment on column list_ratings.series is 'As in rating_history.';
comment on column list_ratings.list_id is 'As in rating_history.';
comment on column list_ratings.player_id is 'As in rating_history.';
comment on column list_ratings.rating is 'As in rating_history.';
comment on column list_ratings.previous_rating is 'As in rating_history.';
comment on column list_ratings.change is 'As in rating_history.';
comment on column list_ratings.games is 'As in rating_history.';
comment on column list_ratings.status is 'As in rating_history.';

-- The registry as each registry version the lists were computed with saw it (most
-- often one version): a list's rows take their names by an equality join on it, so
-- the asof join runs over the players, not over every player of every list (FIDE's
-- 4 M rows).
create or replace view registry_snapshots as
with registries as (select distinct registry_version from lists),
registered as (select distinct player_id from player_versions)
select g.registry_version, p.player_id, v.version, v.name, v.club, v.birth_year, v.estimated_rating, v.extra
from registries g cross join registered p
asof join player_versions v on v.player_id = p.player_id and g.registry_version >= v.version;

comment on view registry_snapshots is 'The registry as each list revision saw it: every player''s latest version up to the revision''s registry version.';
comment on column registry_snapshots.registry_version is 'A registry version some list revision was computed with (lists.registry_version).';
comment on column registry_snapshots.player_id is 'Membership number.';
comment on column registry_snapshots.version is 'The player''s version in force then (player_versions.version).';
comment on column registry_snapshots.name is 'Name in the registry then.';
comment on column registry_snapshots.club is 'Club in the registry then.';
comment on column registry_snapshots.birth_year is 'Birth year in the registry then (private: never published).';
comment on column registry_snapshots.estimated_rating is 'A club''s or age estimate in the registry then (R12).';
comment on column registry_snapshots.extra is 'The registry file''s other columns then, as they came (JSON).';

create or replace view rating_history as
select r.series, r.list_id, r.player_id, n.name, n.club, r.rating, r.previous_rating, r.change, r.games, r.status
from list_ratings r
join lists l using (series, list_id)
join registry_snapshots n on n.registry_version = l.registry_version and n.player_id = r.player_id;

comment on view rating_history is 'Every rated player on every list (current revisions): the published lists, all together.';
comment on column rating_history.series is 'The series: a rule set''s official lists (its name, e.g. performance, fide) or a scenario.';
comment on column rating_history.list_id is 'The list (YYYY-MM, month of publication, R1).';
comment on column rating_history.player_id is 'Membership number.';
comment on column rating_history.name is 'Name in the registry when the list (its revision) was computed.';
comment on column rating_history.club is 'Club in the registry when the list (its revision) was computed.';
comment on column rating_history.rating is 'Published rating on this list (performance Elo: a multiple of ten, R3; FIDE: a whole number).';
comment on column rating_history.previous_rating is 'Rating on the list before (initial ratings for the first list); null for a new player.';
comment on column rating_history.change is 'rating - previous_rating.';
comment on column rating_history.games is 'Games counted on this list (performance Elo: compatible games, Nj; FIDE: rated games).';
comment on column rating_history.status is 'new (first rating), played, or did not play.';

create or replace view player_card as
with history as (select h.*, k.position from rating_history h join lists k using (series, list_id)),
latest as (
    select series, player_id, arg_max(list_id, position) as last_list, arg_max(rating, position) as rating
    from history group by series, player_id
),
summary as (
    select series, player_id, arg_min(list_id, position) as first_list, max(rating) as peak_rating,
           arg_max(list_id, (rating, position)) as peak_list,
           sum(games)::bigint as games,
           arg_max(list_id, position) filter (where status <> 'did not play') as last_played_list
    from history group by series, player_id
)
select l.series, p.player_id, p.name, p.club, l.rating, l.last_list, s.peak_rating, s.peak_list,
       s.first_list, s.last_played_list, s.games,
       (select count(*) from corrections k where k.player_id = p.player_id and k.series = l.series
          and k.withdrawn_at is null and k.set_aside is null) as corrections
from players p join latest l using (player_id) join summary s using (series, player_id);

comment on view player_card is 'One row per player ever rated in a series: current rating, peak, first list, games.';
comment on column player_card.series is 'The series (a rule set''s official lists, or a scenario).';
comment on column player_card.player_id is 'Membership number.';
comment on column player_card.name is 'Name in the registry.';
comment on column player_card.club is 'Club in the registry.';
comment on column player_card.rating is 'Rating on the latest list.';
comment on column player_card.last_list is 'The latest list.';
comment on column player_card.peak_rating is 'Highest published rating.';
comment on column player_card.peak_list is 'The list of the peak (the latest if reached several times).';
comment on column player_card.first_list is 'The first list with a rating.';
comment on column player_card.last_played_list is 'The latest list on which the player had rated games.';
comment on column player_card.games is 'Compatible games counted over all lists.';
comment on column player_card.corrections is 'Corrections by the rating commission in force (withdrawn and set aside ones left out).';

create or replace view list_summary as
with history as (select * from rating_history),
stats as (
    select series, list_id, count(*) as players_rated, count(*) filter (where status = 'new') as new_players,
           count(*) filter (where status <> 'did not play') as players_active,
           round(avg(rating), 1) as mean_rating, median(rating) as median_rating,
           max(change) as biggest_gain, arg_max(player_id, change) as biggest_gain_player,
           min(change) as biggest_loss, arg_min(player_id, change) as biggest_loss_player,
           round(avg(change) filter (where status = 'played'), 1) as mean_change_played,
           round(avg(change) filter (where status = 'did not play'), 1) as mean_change_not_played,
           round(avg(change), 1) as mean_change
    from history group by series, list_id
),
drift as (
    select l.series, l.list_id,
           round(s.mean_rating - lag(s.mean_rating) over (partition by l.series order by l.position), 1)
               as mean_rating_change
    from lists l left join stats s using (series, list_id)
),
rejected as (
    select l.series, l.list_id, count(*) as rejected_rows
    from lists l
    join rejects r on r.status = 'open'
     and try_cast(r.record->>'date' as date) between l.window_start and l.window_end
    join source_files f on f.file_id = r.file_id and f.kind = 'games'
    group by l.series, l.list_id
)
select l.series, l.list_id, l.revision, l.window_start, l.window_end, l.games_rated, l.forfeits,
       coalesce(s.players_rated, 0) as players_rated, coalesce(s.new_players, 0) as new_players,
       coalesce(s.players_active, 0) as players_active, s.mean_rating, s.median_rating, s.biggest_gain,
       s.biggest_gain_player, s.biggest_loss, s.biggest_loss_player, s.mean_change_played,
       s.mean_change_not_played, s.mean_change, d.mean_rating_change, coalesce(j.rejected_rows, 0) as rejected_rows
from lists l left join stats s using (series, list_id) left join drift d using (series, list_id)
left join rejected j using (series, list_id)
order by l.series, l.position;

comment on view list_summary is 'One row per list: counts, mean and median rating, biggest gain and loss (a rule set''s own figures of a list, such as the estimation''s rounds, are in its own table).';
comment on column list_summary.series is 'The series (a rule set''s official lists, or a scenario).';
comment on column list_summary.list_id is 'The list (YYYY-MM).';
comment on column list_summary.revision is 'Current revision of the list (1 = as first computed).';
comment on column list_summary.window_start is 'First day of the games window.';
comment on column list_summary.window_end is 'Last day of the games window.';
comment on column list_summary.games_rated is 'Played games in the window.';
comment on column list_summary.forfeits is 'Forfeits in the window (stored, never rated).';
comment on column list_summary.players_rated is 'Players on the list.';
comment on column list_summary.new_players is 'Players rated for the first time.';
comment on column list_summary.players_active is 'Rated players who played in the window.';
comment on column list_summary.mean_rating is 'Mean published rating.';
comment on column list_summary.median_rating is 'Median published rating.';
comment on column list_summary.biggest_gain is 'Largest rating gain.';
comment on column list_summary.biggest_gain_player is 'Who made it.';
comment on column list_summary.biggest_loss is 'Largest rating loss (most negative change).';
comment on column list_summary.biggest_loss_player is 'Who made it.';
comment on column list_summary.mean_change_played is 'Drift: mean change of the players who played in the window (null: none).';
comment on column list_summary.mean_change_not_played is 'Drift: mean change of the rated players who did not play (corrections, rule set rules).';
comment on column list_summary.mean_change is 'Drift: mean change of every player rated on this list and the one before.';
comment on column list_summary.mean_rating_change is 'Drift: mean_rating minus the previous list''s (players coming and going included; null for the first list).';
comment on column list_summary.rejected_rows is 'Rejected game rows dated in the window still open (not fixed, taken in, withdrawn or closed since).';

create or replace view top_players as
select h.series, h.list_id, rank() over (partition by h.series, h.list_id order by h.rating desc) as rank,
       h.player_id, h.name, h.club, h.rating, h.games, h.status,
       -- ruling R2a: a list's season ends in its id's year (YYYY-MM), whatever its window's
       -- dates; a Go event (no such id) in the season that holds its last day
       coalesce(case when regexp_full_match(h.list_id, '[0-9]{4}-[0-9]{2}') then left(h.list_id, 4)::integer
                     else year(k.window_end) + (month(k.window_end) >= 9)::integer end - p.birth_year < 20,
                false) as junior,
       p.extra->>'sex' as sex
from rating_history h
join players p using (player_id)
left join lists k using (series, list_id);

comment on view top_players is 'The lists ranked, with filters: where junior, where sex = ''F'', where club = ...';
comment on column top_players.series is 'The series (a rule set''s official lists, or a scenario).';
comment on column top_players.list_id is 'The list (YYYY-MM).';
comment on column top_players.rank is 'Rank on the list (ties share a rank).';
comment on column top_players.player_id is 'Membership number.';
comment on column top_players.name is 'Name in the registry.';
comment on column top_players.club is 'Club in the registry.';
comment on column top_players.rating is 'Published rating.';
comment on column top_players.games is 'Compatible games counted on this list.';
comment on column top_players.status is 'new, played, or did not play.';
comment on column top_players.junior is 'Junior for the season of this list (R2); false without a birth year.';
comment on column top_players.sex is 'The registry''s sex column, where the input file has one (M / F).';
