-- Layout 12: what validation judges for each rule set apart, and the dates a tournament
-- file gives besides its games' (rulings D1-D3).
-- Applied to a warehouse of layout 6 to 11 at its first writable connection (a new
-- warehouse runs no migration: sql/schema.sql is the current layout).

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
