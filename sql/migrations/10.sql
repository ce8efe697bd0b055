-- Layout 10: parameter studies (`ratings tune`). A study searches a rule set's parameters
-- on the warehouse's history; each trial rates it as a scenario that is rolled back, and
-- what it found is kept here: the study resumes from its trials, and `ratings tunes`
-- lists the studies. No column is named `series`: a scenario dropped leaves them alone.

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
    created_at   timestamp not null
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
