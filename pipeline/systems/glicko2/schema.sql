-- Glicko-2's own tables (run before it rates; idempotent). It alters no shared table: its
-- columns of player_state and calculations are tables of their own, keyed as those are
-- (RuleSet.extensions), joined back by every reader.

-- Each player's state after each list (Glickman 2013, step 1: rating, RD, volatility).
create table if not exists glicko2_state (
    series       varchar not null,
    list_id      varchar not null,
    player_id    bigint not null,
    exact_rating double,                   -- r' (step 8), or the commission's rating; player_state.rating rounds it
    deviation    double,                   -- RD' (step 8; step 6 for a player with no game)
    volatility   double                    -- sigma' (step 5)
);

-- The terms of each calculation, for the card (Glicko scale unless said).
create table if not exists glicko2_calculations (
    series            varchar not null,
    list_id           varchar not null,
    player_id         bigint not null,
    exact_before      double,              -- r before the period (an unrated player's: step 1)
    deviation_before  double,              -- RD before the period
    volatility_before double,              -- sigma before the period
    expected          double,              -- sum of E over the period's games (step 3)
    v                 double,              -- step 3, Glicko-2 scale
    delta             double,              -- step 4, Glicko-2 scale
    exact_rating      double,              -- r' (step 8), before any correction
    deviation         double,              -- RD' (step 8)
    volatility        double               -- sigma' (step 5)
);
