-- Layout 9: each rule set owns its storage. Until layout 8 the rule sets added their own
-- columns to the tables every series shares (player_state, calculations, lists), so that
-- one rule set's column read NULL for another's series. Their values move to tables of
-- their own, keyed as the shared rows (the tables each rule set's schema.sql makes), with
-- their revisions; the shared tables keep what every rule set has.
-- Applied to a warehouse of layout 6 to 8 at its first writable connection (a new
-- warehouse runs no migration: sql/schema.sql is the current layout); pipeline/warehouse.py
-- then drops the tables, left empty, of rule sets the warehouse does not hold.

-- The initial ratings' other columns, as the file gave them: a rule set's own starting state
-- (RuleSet.initial_columns, checked by its own model at validation).
alter table staged_ratings add column if not exists extra json;
alter table initial_ratings add column if not exists extra json;

-- The columns the rule sets of layout 8 added (their schema.sql then), made present
-- whichever of them ran, so that every statement below reads them.
alter table player_state add column if not exists archive_performance double;
alter table player_state add column if not exists archive_games integer;
alter table player_state add column if not exists games_total integer;
alter table player_state add column if not exists peak_rating double;
alter table player_state add column if not exists last_rated date;
alter table player_state add column if not exists k integer;
alter table player_state add column if not exists inactive boolean;
alter table player_state add column if not exists grade varchar;
alter table player_state add column if not exists events integer;
alter table lists add column if not exists estimated_players bigint;
alter table lists add column if not exists rounds_used integer;
alter table lists add column if not exists players_still_moving bigint;
alter table lists add column if not exists unanchored_players bigint;
alter table lists add column if not exists seniors_without_birth_year bigint;
alter table calculations add column if not exists junior boolean;
alter table calculations add column if not exists mean_opponent double;
alter table calculations add column if not exists percentage double;
alter table calculations add column if not exists bonus double;
alter table calculations add column if not exists performance double;
alter table calculations add column if not exists estimate double;
alter table calculations add column if not exists expected double;
alter table calculations add column if not exists k integer;
alter table calculations add column if not exists change double;
alter table calculations add column if not exists start double;
alter table calculations add column if not exists grade_before varchar;
alter table calculations add column if not exists grade_after varchar;
create table if not exists player_state_revisions as select 0 as revision, * from player_state limit 0;
create table if not exists calculations_revisions as select 0 as revision, * from calculations limit 0;
alter table player_state_revisions add column if not exists archive_performance double;
alter table player_state_revisions add column if not exists archive_games integer;
alter table player_state_revisions add column if not exists games_total integer;
alter table player_state_revisions add column if not exists peak_rating double;
alter table player_state_revisions add column if not exists last_rated date;
alter table player_state_revisions add column if not exists k integer;
alter table player_state_revisions add column if not exists inactive boolean;
alter table player_state_revisions add column if not exists grade varchar;
alter table player_state_revisions add column if not exists events integer;
alter table calculations_revisions add column if not exists junior boolean;
alter table calculations_revisions add column if not exists mean_opponent double;
alter table calculations_revisions add column if not exists percentage double;
alter table calculations_revisions add column if not exists bonus double;
alter table calculations_revisions add column if not exists performance double;
alter table calculations_revisions add column if not exists estimate double;
alter table calculations_revisions add column if not exists expected double;
alter table calculations_revisions add column if not exists k integer;
alter table calculations_revisions add column if not exists change double;
alter table calculations_revisions add column if not exists start double;
alter table calculations_revisions add column if not exists grade_before varchar;
alter table calculations_revisions add column if not exists grade_after varchar;

-- Each rule set's values, from its own series' rows.
create temp table moved_tables (name varchar, system varchar);
insert into moved_tables values
    ('performance_state', 'performance'), ('performance_state_revisions', 'performance'),
    ('performance_calculations', 'performance'), ('performance_calculations_revisions', 'performance'),
    ('performance_lists', 'performance'),
    ('fide_state', 'fide'), ('fide_state_revisions', 'fide'), ('fide_calculations', 'fide'),
    ('fide_calculations_revisions', 'fide'), ('fide_lists', 'fide'),
    ('go_state', 'go-%'), ('go_state_revisions', 'go-%'), ('go_calculations', 'go-%'),
    ('go_calculations_revisions', 'go-%');

create table if not exists performance_state as
select series, list_id, player_id, archive_performance, archive_games from player_state
where series in (select series from series where system = 'performance');
create table if not exists performance_state_revisions as
select revision, series, list_id, player_id, archive_performance, archive_games from player_state_revisions
where series in (select series from series where system = 'performance');
create table if not exists performance_calculations as
select series, list_id, player_id, junior, mean_opponent, percentage, bonus, performance, estimate from calculations
where series in (select series from series where system = 'performance');
create table if not exists performance_calculations_revisions as
select revision, series, list_id, player_id, junior, mean_opponent, percentage, bonus, performance, estimate
from calculations_revisions where series in (select series from series where system = 'performance');
create table if not exists performance_lists as
select series, list_id, estimated_players, rounds_used, players_still_moving, unanchored_players,
       seniors_without_birth_year
from lists where series in (select series from series where system = 'performance');

create table if not exists fide_state as
select series, list_id, player_id, games_total, peak_rating, last_rated, k, inactive from player_state
where series in (select series from series where system = 'fide');
create table if not exists fide_state_revisions as
select revision, series, list_id, player_id, games_total, peak_rating, last_rated, k, inactive from player_state_revisions
where series in (select series from series where system = 'fide');
create table if not exists fide_calculations as
select series, list_id, player_id, junior, mean_opponent, percentage, bonus, performance, expected, k, change
from calculations where series in (select series from series where system = 'fide');
create table if not exists fide_calculations_revisions as
select revision, series, list_id, player_id, junior, mean_opponent, percentage, bonus, performance, expected, k, change
from calculations_revisions where series in (select series from series where system = 'fide');
create table if not exists fide_lists as
select series, list_id, seniors_without_birth_year from lists
where series in (select series from series where system = 'fide');

create table if not exists go_state as
select series, list_id, player_id, grade, games_total, events from player_state
where series in (select series from series where system like 'go-%');
create table if not exists go_state_revisions as
select revision, series, list_id, player_id, grade, games_total, events from player_state_revisions
where series in (select series from series where system like 'go-%');
create table if not exists go_calculations as
select series, list_id, player_id, start, grade_before, grade_after from calculations
where series in (select series from series where system like 'go-%');
create table if not exists go_calculations_revisions as
select revision, series, list_id, player_id, start, grade_before, grade_after from calculations_revisions
where series in (select series from series where system like 'go-%');

-- As the rule sets' schema.sql declare them.
alter table performance_state alter column series set not null;
alter table performance_state alter column list_id set not null;
alter table performance_state alter column player_id set not null;
alter table performance_calculations alter column series set not null;
alter table performance_calculations alter column list_id set not null;
alter table performance_calculations alter column player_id set not null;
alter table performance_lists alter column series set not null;
alter table performance_lists alter column list_id set not null;
alter table fide_state alter column series set not null;
alter table fide_state alter column list_id set not null;
alter table fide_state alter column player_id set not null;
alter table fide_calculations alter column series set not null;
alter table fide_calculations alter column list_id set not null;
alter table fide_calculations alter column player_id set not null;
alter table fide_lists alter column series set not null;
alter table fide_lists alter column list_id set not null;
alter table go_state alter column series set not null;
alter table go_state alter column list_id set not null;
alter table go_state alter column player_id set not null;
alter table go_calculations alter column series set not null;
alter table go_calculations alter column list_id set not null;
alter table go_calculations alter column player_id set not null;

-- The go_history view of layout 8 read the Go columns of calculations: its rule sets make it
-- again, from go_calculations, before they rate.
drop view if exists go_history;

-- The shared tables keep what every rule set has.
alter table player_state drop column archive_performance;
alter table player_state drop column archive_games;
alter table player_state drop column games_total;
alter table player_state drop column peak_rating;
alter table player_state drop column last_rated;
alter table player_state drop column k;
alter table player_state drop column inactive;
alter table player_state drop column grade;
alter table player_state drop column events;
alter table player_state_revisions drop column archive_performance;
alter table player_state_revisions drop column archive_games;
alter table player_state_revisions drop column games_total;
alter table player_state_revisions drop column peak_rating;
alter table player_state_revisions drop column last_rated;
alter table player_state_revisions drop column k;
alter table player_state_revisions drop column inactive;
alter table player_state_revisions drop column grade;
alter table player_state_revisions drop column events;
alter table calculations drop column junior;
alter table calculations drop column mean_opponent;
alter table calculations drop column percentage;
alter table calculations drop column bonus;
alter table calculations drop column performance;
alter table calculations drop column estimate;
alter table calculations drop column expected;
alter table calculations drop column k;
alter table calculations drop column change;
alter table calculations drop column start;
alter table calculations drop column grade_before;
alter table calculations drop column grade_after;
alter table calculations_revisions drop column junior;
alter table calculations_revisions drop column mean_opponent;
alter table calculations_revisions drop column percentage;
alter table calculations_revisions drop column bonus;
alter table calculations_revisions drop column performance;
alter table calculations_revisions drop column estimate;
alter table calculations_revisions drop column expected;
alter table calculations_revisions drop column k;
alter table calculations_revisions drop column change;
alter table calculations_revisions drop column start;
alter table calculations_revisions drop column grade_before;
alter table calculations_revisions drop column grade_after;
alter table lists drop column estimated_players;
alter table lists drop column rounds_used;
alter table lists drop column players_still_moving;
alter table lists drop column unanchored_players;
alter table lists drop column seniors_without_birth_year;
