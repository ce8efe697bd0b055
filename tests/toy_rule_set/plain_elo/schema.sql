-- The toy rule set's own table: its column of player_state (RuleSet.extensions).
create table if not exists plain_elo_state (
    series    varchar not null,
    list_id   varchar not null,
    player_id bigint not null,
    games     integer not null  -- rated games to date, those of the initial ratings' games_before included
);
