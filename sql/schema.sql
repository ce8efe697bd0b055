-- The warehouse: every table the pipeline keeps. Idempotent (IF NOT EXISTS).

-- The layout version: pipeline/warehouse.py refuses a warehouse of another one. This file is
-- the current layout (WAREHOUSE_VERSION, 13), all a new warehouse runs; sql/migrations/<n>.sql
-- brings an older warehouse from layout n - 1 to n (tests/test_schema_layout.py: layout 6 and
-- the migrations give these tables exactly). The rule sets' own tables are made by their
-- schema.sql when they first rate.
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
    player_id varchar, rating varchar,
    extra json                             -- the file's other columns: the rule sets' own (RuleSet.initial_columns)
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

-- What every rule set starts from: the player and the rating (null: unrated). A rule set's
-- own starting state (the national Elo's archives, FIDE's games to date and peak,
-- Glicko-2's deviation) is in `extra`, as the file gave it, checked at validation by the
-- rule set's own model and read through its initial_ratings_sql() (RuleSet.initial_columns).
create table if not exists initial_ratings (
    player_id  bigint primary key,
    rating     double,
    file_id    integer not null,
    row_number bigint not null,
    extra      json
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

-- One row per computed list (or event) of a series: its current revision, with the figures
-- every rule set's rating returns. A rule set's own figures (the performance Elo's
-- estimation: rounds used, players still moving) are in a table of its own (<rule set>_lists).
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
    primary key (series, list_id)
);

-- Each player's state after each list: who has a rating. What a rule set keeps besides
-- (archives, games to date, K, ...) is in a table of its own, keyed as these rows
-- (RuleSet.extensions: performance_state, fide_state, ...); no rule set adds a column here.
-- (Big tables carry no primary key: DuckDB's indexes slow bulk inserts; the
-- grain is checked by sql/audits/ instead.)
create table if not exists player_state (
    series    varchar not null,
    list_id   varchar not null,
    player_id bigint not null,
    rating    double                       -- published (rounded as the rule set publishes); null while unrated
);

-- The calculation of every player who played in a list: what every rule set computes. A
-- rule set's own terms (performance, K, expected score, ...) are in a table of its own
-- (<rule set>_calculations), keyed as these rows.
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
-- published rating becomes `rating`), every later list follows from them. A correction
-- whose list no longer rates the player whose games it rated when it was entered, or is a
-- list a run from scratch would not make, is set aside with why, never applied to another
-- list (sql/corrections_in_force.sql).
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
    withdrawn_run    integer,
    rated_at_entry   boolean,                -- the list rated the player's games when it was entered
    set_aside        varchar,                -- why the rating stage set it aside; null: applied
    set_aside_run    integer                 -- the run that last set it aside or back in force
);

-- Events: Go events (each a period of the Go rule sets), and chess tournaments an
-- events file describes (FIDE rates a tournament as a whole: rulings X1-X3, X6).
create table if not exists events (
    event_id   varchar primary key,        -- a file name too (OUT/state/<event_id>.parquet); chess: the games' event
    name       varchar not null,
    start_date date not null,
    end_date   date not null,
    class      varchar,                    -- Go: A (EGF), B (tournament), C (club), D (friendly): the Belgian
                                           -- rule set weighs them 1.2, 1.0, 0.8 and 0
    board_size integer,                    -- Go: 19, 13 or 9 (Belgian: × 0.5, × 0.3 for games from 2021)
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

-- What each list's publication wrote in each output folder, so that a run whose list
-- kept its revision (a late result touches the last lists only) neither rebuilds nor
-- rereads its files: pipeline/publish/record.py checks the files on disk against these
-- hashes instead (an edited or missing file is published again, or refused).
create table if not exists published_files (
    folder      varchar not null,   -- the series' output folder, resolved
    series      varchar not null,
    list_id     varchar not null,
    fingerprint varchar not null,   -- what its files depend on (pipeline/publish/record.py)
    file        varchar not null,   -- relative to the folder: lists/2022-04-r2.csv, state/2022-04.parquet
    sha256      varchar not null,
    size        bigint not null,
    recorded_at timestamp not null, -- when it was written (or found on disk with these bytes)
    primary key (folder, series, list_id, file)
);

-- What the rating officer decides where validation cannot. A reject no fix can take in
-- (a player against themself, in a file the organiser no longer has) is closed with who,
-- when and why, and may be reopened: every decision is kept here, the reject's status
-- says the latest ('closed', or 'open' again), and a closed reject is still a rejected
-- row (sql/audits/rows_accounted.sql counts it).
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

-- Parameter studies (`ratings tune`). A study searches a rule set's parameters on the
-- warehouse's history; each trial rates it as a scenario that is rolled back, and what it
-- found is kept here: the study resumes from its trials, and `ratings tunes` lists the
-- studies. No column is named `series`: a scenario dropped leaves them alone.
create table if not exists studies (
    study        varchar primary key,
    system       varchar not null,          -- the rule set searched
    space        json not null,             -- the space as checked (pipeline/tune/space.py)
    objective    varchar not null,          -- log-loss or brier, on the training games
    max_drift    double,                    -- a trial whose cohort drift is larger is infeasible; null: none
    train_until  varchar,                   -- the official list the training ends with; null: no split
    split_day    date,                      -- that list's window end: the test games are played after it
    seed         bigint not null,
    sampler      varchar not null,          -- tpe, or grid (a discrete space of no more points than trials)
    trials_asked integer not null,          -- the trials the last run asked for
    inputs       ubigint not null,          -- what the official lists were computed from (their signatures)
    created_run  bigint not null,
    created_at   timestamp not null,
    score        varchar default 'yardstick'  -- what a trial is scored by: own (the rule set's forecast) or yardstick
);

create table if not exists study_trials (
    study                   varchar not null,
    trial                   integer not null,  -- 1, 2, ...: the order they were rated in
    parameters              json not null,     -- the parameters searched, as rated
    refused                 varchar,           -- the rule set's reason when it would not take them together
    train_games             bigint,
    train_log_loss          double,
    train_brier             double,
    test_games              bigint,
    test_log_loss           double,
    test_brier              double,
    official_train_log_loss double,            -- the official lists on the same games
    official_train_brier    double,
    official_test_log_loss  double,
    official_test_brier     double,
    drift                   double,            -- the decade cohort change of largest size, signed
    drift_by_decade         json,              -- {"1990": 76.6, ...}
    idle_drift              double,            -- mean change of those who did not play, added over the lists
    feasible                boolean,           -- within max_drift (null: refused)
    seconds                 double,
    run_id                  bigint not null,
    yardstick_train_log_loss double,           -- the logistic yardstick's, on the same games (the score's beside)
    yardstick_train_brier    double,
    yardstick_test_log_loss  double,
    yardstick_test_brier     double,
    official_yardstick_test_log_loss double,
    official_yardstick_test_brier    double,
    primary key (study, trial)
);

-- The test games' calibration of each trial and of the official lists on the same games.
create table if not exists study_calibration (
    study     varchar not null,
    trial     integer not null,
    source    varchar not null,                -- trial or official
    bin       double not null,
    bin_end   double not null,
    games     bigint not null,
    expected  double,
    actual    double,
    primary key (study, trial, source, bin)
);

-- A stored game one series does not rate: a history bound is a rule set's, not the
-- warehouse's. A game its rule set would file before the first list of one series
-- (the FIDE lists, which began later) but inside another's history is taken in, rated
-- by the other, and kept here for the one, with why; a game every series would file
-- before its history is rejected. A scenario made later starts with its rule set's
-- official exclusions; `ratings scenario --drop` removes its rows (keyed by series).
create table if not exists excluded_games (
    series   varchar not null,
    game_key bigint not null,      -- games.game_key (file_id * 2^32 + row_number)
    reason   varchar not null,     -- as validation said it (the first list named)
    run_id   integer not null,     -- the run that validated the game
    primary key (series, game_key)
);

-- The dates a tournament file gives besides its games' (a TRF's start and end, tags 042
-- and 052, and its round dates, tag 132): a game's date is a likely typo only when it
-- lies more than two years from every other date of its own file and from every game
-- stored (ruling D1), and these are dates of its file.
create table if not exists file_dates (
    file_id integer not null,      -- the games part of the tournament file
    date    date not null,
    what    varchar not null       -- start (042), end (052), round N (132)
);
