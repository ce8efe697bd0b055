-- The revisions of a series' lists, as `ratings revisions` lists them: when each was
-- computed, in which run, how many players it changed, and why (the reason
-- sql/32_revision_reasons.sql gave it when pipeline/rate/store.py stored it).
-- inputs: list_revisions, $series (the series' name), $list (one list_id; null: every list)
-- grain: list_id, revision
select list_id, revision, computed_at::timestamp(0) as computed_at, run_id, players_changed, reason
from list_revisions
where series = $series and ($list is null or list_id = $list)
order by list_id, revision
