-- The FIDE Elo's own columns and tables (run before it rates; idempotent).
alter table player_state add column if not exists games_total integer;  -- rated games to date
alter table player_state add column if not exists peak_rating double;   -- highest published rating (K = 10 from 2400)
alter table player_state add column if not exists last_rated date;      -- the day of the last rated game (none: no game yet)
alter table player_state add column if not exists k integer;            -- K for the events that start from this list (X5)
alter table player_state add column if not exists inactive boolean;     -- no rated game in the 12 months before the list (B02 7.2.2)
alter table calculations add column if not exists junior boolean;
alter table calculations add column if not exists mean_opponent double;
alter table calculations add column if not exists percentage double;    -- an unrated player's p
alter table calculations add column if not exists bonus double;         -- dp
alter table calculations add column if not exists performance double;   -- Ra + dp
alter table calculations add column if not exists expected double;      -- Σ E over the period's rated games
alter table calculations add column if not exists k integer;            -- the K factor
alter table calculations add column if not exists change double;        -- K × Σ(S − E), rounded 0.5 away from zero

-- The games of unrated players against rated opponents, per list, that count toward
-- their first rating (pooled over 26 months, B02 8.2).
create table if not exists pooled_games (
    series         varchar not null,
    list_id        varchar not null,
    player_id      bigint not null,
    games          integer not null,
    opponents_sum  double not null,       -- sum of the rated opponents' ratings
    score          double not null,
    ignored_games  integer not null       -- a first event with a zero score
);
