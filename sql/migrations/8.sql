-- Layout 8: what the rating officer decides where validation cannot. A reject no fix
-- can take in (a player against themself, in a file the organiser no longer has) is
-- closed with who, when and why, and may be reopened: every decision is kept here,
-- the reject's status says the latest ('closed', or 'open' again), and a closed
-- reject is still a rejected row (sql/audits/rows_accounted.sql counts it).
-- Applied to a warehouse of layout 6 or 7 at its first writable connection (a new
-- warehouse runs no migration: sql/schema.sql is the current layout).
create table if not exists reject_closures (
    file_id    integer not null,
    row_number bigint not null,
    action     varchar not null,   -- closed / reopened
    decided_at timestamp not null,
    decided_by varchar not null,
    reason     varchar not null,
    run_id     integer not null
);

-- A game that may be a second copy of another (same date, players, result and event
-- under another game_id) is taken in and rated, and warned about until the officer
-- withdraws one copy (its row goes to withdrawn_rows, as a withdrawn file's do) or
-- keeps both: a round robin may hold the same pairing twice in a day.
create table if not exists duplicate_decisions (
    game_key   bigint not null,    -- withdrawn: the copy withdrawn; kept: the first copy
    other_key  bigint not null,    -- the copy it repeats (kept: the second)
    decision   varchar not null,   -- withdrawn / kept
    decided_at timestamp not null,
    decided_by varchar not null,
    reason     varchar not null,
    run_id     integer not null,
    primary key (game_key, other_key)
);
