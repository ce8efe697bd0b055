-- The performance Elo's own tables (run before it rates; idempotent). Its columns of the
-- shared tables are kept here, keyed as the shared rows (RuleSet.extensions): no rule set
-- alters a table every series shares.
create table if not exists performance_state (
    series              varchar not null,
    list_id             varchar not null,
    player_id           bigint not null,
    archive_performance double,               -- unrounded (R6)
    archive_games       integer
);
create table if not exists performance_calculations (
    series        varchar not null,
    list_id       varchar not null,
    player_id     bigint not null,
    junior        boolean,                    -- R2
    mean_opponent double,                     -- Ea
    percentage    double,                     -- P
    bonus         double,                     -- D(P)
    performance   double,                     -- Pj
    estimate      double                      -- final estimate of an unrated player (R10)
);
-- The estimation's figures of each list (R9-R11) and the seniors with no birth year (R2).
create table if not exists performance_lists (
    series                     varchar not null,
    list_id                    varchar not null,
    estimated_players          bigint,
    rounds_used                integer,
    players_still_moving       bigint,
    unanchored_players         bigint,
    seniors_without_birth_year bigint
);

-- Players still moving after each round of the estimation (R9).
create table if not exists estimation_rounds (
    series         varchar not null,
    list_id        varchar not null,
    round          integer not null,
    players_moving bigint not null
);

-- R11: unrated groups with no rated player among them.
create table if not exists unanchored_groups (
    series   varchar not null,
    list_id  varchar not null,
    group_id bigint not null,              -- smallest player id of the group
    size     bigint not null
);
