-- The Go rule sets' own tables and view (run before they rate; idempotent). Their columns
-- of the shared tables are kept here, keyed as the shared rows (RuleSet.extensions).
-- A Go series' lists are its events, in the order rated (Belgian: end date, start date, id;
-- 1984: the order of their last game, ruling F2).
create table if not exists go_state (
    series      varchar not null,
    list_id     varchar not null,
    player_id   bigint not null,
    grade       varchar,                -- 5k, 2d (with hysteresis)
    games_total integer,                -- games counted to date
    events      integer                 -- events played to date
);
create table if not exists go_calculations (
    series       varchar not null,
    list_id      varchar not null,
    player_id    bigint not null,
    start        double,                -- what the event counted from (G2)
    grade_before varchar,
    grade_after  varchar
);

-- Every term of each game side of each event.
create table if not exists go_game_sides (
    series          varchar not null,
    list_id         varchar not null,      -- the event
    game_key        bigint not null,
    player_id       bigint not null,
    opponent_id     bigint not null,
    colour          varchar not null,      -- B or W
    handicap        integer not null,
    result          double not null,
    own             double,                -- the ratings counted from (G1: before the event; 1984: before the game)
    opponent_rating double,
    difference      double,                -- own − opponent ± the handicap adjustment
    con             double,
    a               double,
    expected        double,
    weight          double,
    factor          double,
    change          double,
    rule            varchar                -- 1984: the case (1.1, 1.2, 2.1, 2.2); Belgian: counted or why not
);

create or replace view go_history as
select c.series, c.list_id as event_id, e.name as event, e.end_date, e.class, c.player_id, p.name, p.club,
       c.previous_rating as rating_before, x.start, c.rating as rating_after, x.grade_before, x.grade_after,
       c.games, c.rating - x.start as change, c.rule
from calculations c
join go_calculations x using (series, list_id, player_id)
join series s on s.series = c.series and s.system like 'go-%'
join events e on e.event_id = c.list_id
join players p using (player_id);

comment on view go_history is 'Go rule sets: every player''s every event (Belgian rules: in the order end date, start date, id; 1984 rules: in the order of each event''s last game, F2).';
comment on column go_history.series is 'The series: the Go rule set''s official lists, or a scenario.';
comment on column go_history.event_id is 'The event.';
comment on column go_history.event is 'Its name.';
comment on column go_history.end_date is 'Its last day.';
comment on column go_history.class is 'Its class: A 1.2, B 1.0, C 0.8, D 0.';
comment on column go_history.player_id is 'Membership number.';
comment on column go_history.name is 'Name in the registry.';
comment on column go_history.club is 'Club in the registry.';
comment on column go_history.rating_before is 'Points before the event; null for an NC player.';
comment on column go_history.start is 'What the event counted from: the points before, or the first rating (G2).';
comment on column go_history.rating_after is 'Points after the event (unrounded, floored at -2450).';
comment on column go_history.grade_before is 'Grade before the event (5k, 2d).';
comment on column go_history.grade_after is 'Grade after the event (Belgian rules: with the hysteresis; 1984: read from the points, F3).';
comment on column go_history.games is 'Games counted in the event.';
comment on column go_history.change is 'rating_after - start.';
comment on column go_history.rule is 'rated, first rating (G2), no rating to count from, no game counted (weight 0, G7; or no opponent with a rating), or a correction by the rating commission with its reason.';
