-- The revisions that changed a player's rating on the lists the site shows, each with
-- what changed said in a few counts the page words in its language, not the audit's
-- reason (sql/30_rating_changes.sql: English, every game spelt out, for the diff files
-- and the CLI). That reason is parts joined by '; ', each opening with its kind:
-- 'correction <n> ...', 'submission <n> replaces ...: <games>', 'submission <n>
-- withdrawn: <games>', 'submission <n>: <games>' (a duplicate withdrawn), 'late games
-- (submission <n>): <games>', 'name: ...', 'club: ...', or 'earlier lists or opponents
-- changed'; <games> are descriptions joined by ', ' (a date, two ids, a result: no comma).
-- inputs: rating_changes, site_lists, getvariable('series')
-- grain: player_id, list_id, revision
with revised as (
    select player_id, list_id, revision, old_rating, new_rating, reason
    from rating_changes
    where series = getvariable('series') and revision > 1 and list_id in (select list_id from site_lists)
)
select player_id, list_id, revision, old_rating, new_rating,
       regexp_matches(reason, '(^|; )correction [0-9]+ ') as correction,
       list_sum([len(string_split(g, ', '))
                 for g in regexp_extract_all(reason, '(?:^|; )late games \(submission [0-9]+\): ([^;]*)', 1)])
           as late_games,
       list_sum([len(string_split(g, ', '))
                 for g in regexp_extract_all(reason, '(?:^|; )submission [0-9]+[^:;]*: ([^;]*)', 1)])
           as changed_games,
       regexp_matches(reason, '(^|; )name: ') as name_changed,
       regexp_matches(reason, '(^|; )club: ') as club_changed,
       reason = 'earlier lists or opponents changed' as knock_on
from revised
order by player_id, list_id, revision
