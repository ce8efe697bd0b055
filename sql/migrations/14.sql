-- Layout 14: the national Elo's and FIDE's initial columns are their rule sets' own
-- (issue 54, item 3), kept in the initial ratings' `extra` as Glicko-2's and an outside
-- rule set's are (RuleSet.initial_columns), and read by each through initial_ratings_sql():
-- the shared columns are player_id and rating. Applied to a warehouse of layout 6 to 13 at
-- its first writable connection: each value moves into its row's `extra` under its column's
-- name (an empty one is left out, as a file's empty cell reads as none), staged rows as text,
-- stored ones as the numbers they were typed to.

update staged_ratings set extra = json_merge_patch(coalesce(extra, '{}'), json_object(
        'archive_performance', archive_performance, 'archive_games', archive_games,
        'games_total', games_total, 'peak_rating', peak_rating))
where coalesce(archive_performance, archive_games, games_total, peak_rating) is not null;
alter table staged_ratings drop column archive_performance;
alter table staged_ratings drop column archive_games;
alter table staged_ratings drop column games_total;
alter table staged_ratings drop column peak_rating;

update initial_ratings set extra = json_merge_patch(coalesce(extra, '{}'), json_object(
        'archive_performance', archive_performance, 'archive_games', archive_games,
        'games_total', games_total, 'peak_rating', peak_rating))
where archive_performance is not null or archive_games is not null or games_total is not null
   or peak_rating is not null;
alter table initial_ratings drop column archive_performance;
alter table initial_ratings drop column archive_games;
alter table initial_ratings drop column games_total;
alter table initial_ratings drop column peak_rating;
