-- The warehouse: every table the pipeline keeps. Idempotent (IF NOT EXISTS).

-- The layout version: pipeline/warehouse.py refuses a warehouse of another one. This file is
-- layout 6; sql/migrations/<n>.sql brings it to layout n (a new warehouse runs them all).
create table if not exists warehouse_version (version integer not null);

-- Settings of the warehouse: `game`, the game its rule sets rate (chess or go),
-- recorded with its first series or at the first validation that needs it.
create table if not exists settings (key varchar primary key, value varchar not null);

create sequence if not exists run_ids start 1;
create sequence if not exists file_ids start 1;
create sequence if not exists submission_ids start 1;
create sequence if not exists correction_ids start 1;
create sequence if not exists player_versions_seq start 1;

-- One row per command run against this warehouse.
create table if not exists runs (
    run_id      integer primary key,
    command     varchar not null,
    arguments   varchar,
    started_at  timestamp not null,
    finished_at timestamp,
    status      varchar not null,         -- running / done / failed
    run_by      varchar                   -- --by, default the OS user
);

-- One row per input file a user gave: a submission. Its rows are staged in one or
-- more parts (source_files: a tournament file stages its new players, its event and
-- its games), then taken in; a later file may replace it, or it may be withdrawn.
-- Replaced and withdrawn rows stay in the warehouse (withdrawn_rows), never rated.
create table if not exists submissions (
    submission_id   integer primary key,
    name            varchar not null,      -- the file's name as given
    path            varchar not null,      -- its resolved path
    sha256          varchar not null,
    format          varchar not null,      -- players, ratings, calendar, games, events, go_games, trf, swar, opengotha, egd
    submitted_by    varchar not null,
    submitted_at    timestamp not null,
    run_id          integer not null,      -- the run that staged it
    status          varchar not null,      -- staged / taken in / replaced / withdrawn
    replaces        integer,               -- the submission this one replaced
    withdrawn_at    timestamp,             -- replaced or withdrawn: when, by whom, why, in which run
    withdrawn_by    varchar,
    withdrawn_reason varchar,
    withdrawn_run   integer
);

-- One row per part of a submission: the rows of one kind that one input file holds.
-- Every row of a part ends up stored, rejected, or withdrawn (sql/audits/rows_accounted.sql).
create table if not exists source_files (
    file_id       integer primary key,
    run_id        integer not null,        -- the run that staged it
    kind          varchar not null,        -- players / ratings / calendar / games / events / go_games
    path          varchar not null,
    sha256        varchar not null,
    rows_read     bigint not null,
    rows_accepted bigint,                  -- null until validated; rows ever stored (withdrawn ones included)
    rows_rejected bigint,                  -- rows whose reject is not taken in since
    status        varchar not null,        -- staged / validated
    message       varchar,
    submission_id integer not null,
    staged_in     varchar not null,        -- main (a later validate takes it in) or temp (this run's own files)
    taken_in_run  integer                  -- the run that last validated it
);

-- Raw rows as read, all text, waiting for validation (one table per kind).
create table if not exists staged_players (
    file_id integer not null, row_number bigint not null,
    fixes_file integer, fixes_row bigint,  -- the rejected row this one fixes (ratings rejects)
    player_id varchar, name varchar, birth_year varchar, club varchar, estimated_rating varchar, grade varchar,
    extra json
);
create table if not exists staged_ratings (
    file_id integer not null, row_number bigint not null,
    fixes_file integer, fixes_row bigint,  -- the rejected row this one fixes (ratings rejects)
    player_id varchar, rating varchar, archive_performance varchar, archive_games varchar,
    games_total varchar, peak_rating varchar
);
create table if not exists staged_calendar (
    file_id integer not null, row_number bigint not null,
    fixes_file integer, fixes_row bigint,  -- the rejected row this one fixes (ratings rejects)
    list_id varchar, window_start varchar, window_end varchar
);
create table if not exists staged_games (
    file_id integer not null, row_number bigint not null,
    fixes_file integer, fixes_row bigint,  -- the rejected row this one fixes (ratings rejects)
    date varchar, white_id varchar, black_id varchar, result varchar,
    game_id varchar, event varchar, round varchar,
    problem varchar                        -- found while reading (a TRF line): the row is rejected with it
);

-- Byes of imported tournament files (TRF): kept, never rated.
create table if not exists byes (
    file_id    integer not null,           -- the games file (source_files) of the tournament
    player_id  bigint,                     -- null: the player is not in the registry
    event      varchar,
    round      integer not null,
    date       date,
    code       varchar not null,           -- H half point, F full point, U pairing-allocated, Z zero, + - forfeit
    line       integer not null,           -- the player's line in the file
    withdrawn_run integer                  -- the file was replaced or withdrawn in that run
);

-- Go inputs: events (tournaments, club periods) and their games.
create table if not exists staged_events (
    file_id integer not null, row_number bigint not null,
    fixes_file integer, fixes_row bigint,  -- the rejected row this one fixes (ratings rejects)
    event_id varchar, name varchar, start_date varchar, end_date varchar, class varchar, board_size varchar,
    rated_in varchar, games_scheduled varchar
);
create table if not exists staged_go_games (
    file_id integer not null, row_number bigint not null,
    fixes_file integer, fixes_row bigint,  -- the rejected row this one fixes (ratings rejects)
    event_id varchar, date varchar, black_id varchar, white_id varchar, winner varchar, handicap varchar,
    weight varchar, round varchar,
    problem varchar                        -- found while reading a tournament file: the row is rejected with it
);

-- Rejected rows with all their reasons and their values as read. A reject is open
-- until the row is taken in: by the same file ingested again (`taken in`), or by a
-- row of a fix file that names it (`fixed`; `superseded` when that row was rejected
-- in turn: its own reject is then the open one).
create table if not exists rejects (
    file_id    integer not null,
    row_number bigint not null,
    reason     varchar not null,
    record     json,
    status     varchar not null default 'open',  -- open / taken in / fixed / superseded
    resolved_run integer,
    resolved_by_file integer,
    resolved_by_row bigint,
    primary key (file_id, row_number)
);

-- Rows taken in and later withdrawn (their file was replaced or withdrawn): kept
-- with their values, never rated.
create table if not exists withdrawn_rows (
    file_id       integer not null,
    row_number    bigint not null,
    kind          varchar not null,
    record        json not null,
    run_id        integer not null,           -- the run that withdrew it
    submission_id integer,                    -- the submission that replaced it (null: withdrawn)
    reason        varchar not null,
    primary key (file_id, row_number)
);

-- What a replacement or a withdrawal did to each game: added, changed (from what to
-- what) or withdrawn. Unchanged games are not listed.
create table if not exists game_changes (
    run_id          integer not null,
    submission_id   integer not null,         -- the new file (replacement) or the withdrawn one
    replaced        integer,                  -- the submission it replaced (null: a withdrawal)
    change          varchar not null,         -- added / changed / withdrawn
    old_file        integer, old_row bigint,  -- the game as it was (null: added)
    new_file        integer, new_row bigint,  -- the game as it is (null: withdrawn)
    date            date,
    white_id        bigint,                   -- Go: black_id
    black_id        bigint,                   -- Go: white_id
    old_result      varchar,
    new_result      varchar,
    description     varchar not null
);

create table if not exists players (
    player_id  bigint primary key,
    name       varchar not null,
    birth_year integer,                    -- private: never in a public list
    club       varchar,
    estimated_rating double,               -- a club's or age estimate (R12): never rated, published for pairing
    grade      varchar,                    -- Go: the grade declared by the club (5k, 2d); null or NC: unranked
    extra      json,                       -- the input's other columns, kept as they came
    file_id    integer not null,
    row_number bigint not null
);

-- Every registry row ever taken in: `players` holds the latest of each player, and the
-- published lists show each player as the registry was when the list's revision was
-- computed (lists.registry_version).
create table if not exists player_versions as select 0::bigint as version, 0 as run_id, * from players limit 0;

create table if not exists initial_ratings (
    player_id           bigint primary key,
    rating              double,
    archive_performance double,
    archive_games       integer,
    file_id             integer not null,
    row_number          bigint not null,
    games_total         integer,           -- FIDE: rated games to date (null: established, 30 or more)
    peak_rating         double             -- FIDE: highest published rating (null: the rating)
);

create table if not exists calendar (
    list_id      varchar primary key,      -- R1: YYYY-MM, the month of publication
    window_start date not null,
    window_end   date not null,
    file_id      integer,                  -- the calendar file (the nominal windows are not stored: each rule set has its own)
    row_number   bigint
);

create table if not exists games (
    game_key   bigint not null,            -- file_id * 2^32 + row_number; unique (audit)
    game_id    varchar,
    date       date not null,
    white_id   bigint not null,
    black_id   bigint not null,
    result     varchar not null,           -- 1-0, 0-1, 1/2-1/2, +/-, -/+, -/-
    white_score double,                    -- null for forfeits: never rated
    event      varchar,
    round      varchar,
    file_id    integer not null,
    row_number bigint not null,
    run_id     integer not null            -- the run that took it in
);

-- A series of lists: a rule set's official lists (series = the rule set's name), or a
-- scenario's. Every computed table is keyed by its series: one warehouse holds the
-- lists of several rule sets (of one game: chess or Go) side by side.
create table if not exists series (
    series      varchar primary key,
    system      varchar not null,            -- the rule set
    scenario    boolean not null,            -- false: the rule set's official lists
    parameters  json not null,               -- the parameters its lists are computed with
    rating_step double,                      -- its published ratings are multiples of it (null: any number)
    position    integer not null,            -- 1: the warehouse's first series, published in OUT/; others in OUT/<series>/
    created_run integer not null
);

-- One row per computed list (or event) of a series: its current revision. The
-- estimation's figures are those of rule sets that estimate unrated players.
create table if not exists lists (
    series               varchar not null,
    list_id              varchar not null,
    position             integer not null,     -- its place among the series' lists, in the order they are rated
    revision             integer not null,     -- 1, then one more each time a recomputation changes it
    input_signature      hugeint not null,     -- games, corrections (and for the first list: registry, initial ratings, parameters)
    registry_version     bigint,               -- the newest player_versions row the revision saw (names, clubs)
    parameters           json,                 -- the rule set's parameters it was computed with
    window_start         date not null,
    window_end           date not null,
    run_id               integer not null,
    games_rated          bigint not null,
    forfeits             bigint not null,
    players_rated        bigint not null,
    new_players          bigint not null,
    estimated_players    bigint,
    rounds_used          integer,
    players_still_moving bigint,
    unanchored_players   bigint,
    seniors_without_birth_year bigint,
    primary key (series, list_id)
);

-- Each player's state after each list: who has a rating (or what the rule set keeps
-- for them: archives, games to date, ...; its columns are added by its schema.sql).
-- (Big tables carry no primary key: DuckDB's indexes slow bulk inserts; the
-- grain is checked by sql/audits/ instead.)
create table if not exists player_state (
    series    varchar not null,
    list_id   varchar not null,
    player_id bigint not null,
    rating    double                       -- published (rounded as the rule set publishes); null while unrated
);

-- The calculation of every player who played in a list; the rule set adds its own terms.
create table if not exists calculations (
    series          varchar not null,
    list_id         varchar not null,
    player_id       bigint not null,
    previous_rating double,
    games_played    bigint not null,
    games           bigint not null,       -- the games counted
    score           double,
    rule            varchar not null,
    unrounded       double,
    rating          double
);

-- Every revision of every list: the current one is in `lists`.
create table if not exists list_revisions (
    series           varchar not null,
    list_id          varchar not null,
    revision         integer not null,
    run_id           integer not null,
    computed_at      timestamp not null,
    registry_version bigint,
    players_changed  bigint not null,          -- against the revision before (0 for the first)
    reason           varchar not null,         -- why the revision exists: the submissions, corrections, earlier lists
    primary key (series, list_id, revision)
);

-- Who changed from one revision of a list to the next, and why.
create table if not exists rating_changes (
    series       varchar not null,
    list_id      varchar not null,
    revision     integer not null,             -- the new revision
    player_id    bigint not null,
    old_rating   double,
    new_rating   double,
    old_games    bigint,
    new_games    bigint,
    reason       varchar not null
);

-- Corrections by the rating commission: applied at their list of their series (the
-- published rating becomes `rating`), every later list follows from them.
create table if not exists corrections (
    correction_id integer primary key,
    series     varchar not null,
    player_id  bigint not null,
    list_id    varchar not null,
    rating     double not null,
    reason     varchar not null,
    entered_at timestamp not null,
    run_id     integer not null,
    entered_by varchar not null,
    withdrawn_at     timestamp,              -- withdrawn: never applied again
    withdrawn_by     varchar,
    withdrawn_reason varchar,
    withdrawn_run    integer
);

-- Events: Go events (each a period of the Go rule sets), and chess tournaments an
-- events file describes (FIDE rates a tournament as a whole: rulings X1-X3, X6).
create table if not exists events (
    event_id   varchar primary key,        -- a file name too (OUT/state/<event_id>.parquet); chess: the games' event
    name       varchar not null,
    start_date date not null,
    end_date   date not null,
    class      varchar,                    -- Go: A (EGF, 1.2), B (tournament, 1.0), C (club, 0.8), D (friendly, 0)
    board_size integer,                    -- Go: 19, 13 (× 0.5) or 9 (× 0.3)
    file_id    integer not null,
    row_number bigint not null,
    run_id     integer not null,
    rated_in   varchar,                    -- chess: the list that rates it (YYYY-MM), for a late report (X1)
    games_scheduled integer                -- chess: a match's scheduled games (X6)
);

create table if not exists go_games (
    game_key     bigint not null,          -- file_id * 2^32 + row_number
    event_id     varchar not null,
    date         date not null,
    black_id     bigint not null,
    white_id     bigint not null,
    winner       varchar not null,         -- B, W or jigo; B+F, W+F won by default: counted, never rated
    black_result double not null,          -- 1, 0 or 0.5
    handicap     integer not null,         -- stones Black receives (0: even)
    weight       double,                   -- a game's own weight, overriding class × board size
    file_id      integer not null,
    row_number   bigint not null,
    round        integer,                  -- the round, where the file gives it
    run_id       integer not null
);
