-- Games kept out of a series' lists that should not be: every exclusion names a series
-- of the warehouse and a game stored or withdrawn since (game_key), and no stored game
-- is kept out of every series (validation rejects such a row: a history bound is a rule
-- set's, and a game no series rates is no game of the warehouse).
-- inputs: excluded_games, series, games, withdrawn_rows
-- grain: series, game_key
with unknown_series as (
    select x.series, x.game_key, 'no such series' as problem
    from excluded_games x where x.series not in (select series from series)
),
unknown_game as (
    select x.series, x.game_key, 'no such game' as problem
    from excluded_games x
    where x.game_key not in (select game_key from games)
      and x.game_key not in (select (file_id::bigint << 32) + row_number from withdrawn_rows)
),
kept_out_of_all as (
    select game_key from excluded_games
    where series in (select series from series) and game_key in (select game_key from games)
    group by game_key having count(*) = (select count(*) from series)
),
rated_by_none as (
    select x.series, x.game_key, 'kept out of every series' as problem
    from excluded_games x join kept_out_of_all using (game_key)
),
final as (
    select * from unknown_series
    union all select * from unknown_game
    union all select * from rated_by_none
)
select * from final
