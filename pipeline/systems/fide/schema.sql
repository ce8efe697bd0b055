-- The FIDE Elo's own tables (run before it rates; idempotent). Its columns of the shared
-- tables are kept here, keyed as the shared rows (RuleSet.extensions).
create table if not exists fide_state (
    series      varchar not null,
    list_id     varchar not null,
    player_id   bigint not null,
    games_total integer,                -- rated games to date
    peak_rating double,                 -- highest published rating (K = 10 from 2400)
    last_rated  date,                   -- the day of the last rated game (none: no game yet)
    k           integer,                -- K for the events that start from this list (X5)
    inactive    boolean                 -- no rated game in the 12 months before the list (B02 7.2.2, X7)
);
create table if not exists fide_calculations (
    series        varchar not null,
    list_id       varchar not null,
    player_id     bigint not null,
    junior        boolean,
    mean_opponent double,
    percentage    double,               -- an unrated player's p
    bonus         double,               -- dp
    performance   double,               -- Ra + dp
    expected      double,               -- sum of E over the period's rated games
    k             integer,              -- the K factor
    change        double                -- K x sum(S - E), rounded 0.5 away from zero
);
create table if not exists fide_lists (
    series                     varchar not null,
    list_id                    varchar not null,
    seniors_without_birth_year bigint
);

-- The games of unrated players against rated opponents, per list, that count toward
-- their first rating (pooled over 26 months, B02 8.2: the 26 lists that end with a list, X9).
create table if not exists pooled_games (
    series         varchar not null,
    list_id        varchar not null,
    player_id      bigint not null,
    games          integer not null,
    opponents_sum  double not null,       -- sum of the rated opponents' ratings
    score          double not null,
    ignored_games  integer not null       -- a first event with a zero score (X8)
);
