-- The performance Elo's own columns and tables (run before it rates; idempotent).
alter table player_state add column if not exists archive_performance double;  -- unrounded (R6)
alter table player_state add column if not exists archive_games integer;
alter table calculations add column if not exists junior boolean;          -- R2
alter table calculations add column if not exists mean_opponent double;    -- Ea
alter table calculations add column if not exists percentage double;       -- P
alter table calculations add column if not exists bonus double;            -- D(P)
alter table calculations add column if not exists performance double;      -- Pj
alter table calculations add column if not exists estimate double;         -- final estimate of an unrated player (R10)

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
