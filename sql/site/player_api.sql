-- api/v1/players/<id>.json, one text a player: every list they are on, newest
-- first, with the rank among the list's active players (null: inactive on it); the
-- commission's corrections in force and the revisions that changed their rating,
-- with their reasons; their events (games and score on their own side).
-- Each part is aggregated as text and the parts joined as text: a million JSON
-- values held as JSON until the end needed more memory than the warehouse may use.
-- The rule set's own columns (SiteFace.state) follow the shared ones (site_rows.more).
-- Only the players of site_dirty_players: the others' texts are those the run before kept.
-- inputs: site_rows (sql/site/ranked.sql with ranks and club slugs), site_lists, getvariable('site_state_keys'),
--         site_player_events (sql/site/event_players.sql, every event's), site_dirty_players, corrections,
--         rating_changes, getvariable('series')
-- grain: player_id
with history as (
    select player_id, arg_max(name, position) as name, arg_max(club, position) as club,
           arg_max(club_slug, position) as club_slug,
           string_agg((json_array(list_id, rating, change, games, rank_active)::varchar)[:-2] || more || ']', ','
                      order by position desc) as rows
    from site_rows where player_id in (select player_id from site_dirty_players) group by player_id
),
fixes as (
    select player_id, string_agg(json_object('list_id', list_id, 'rating', rating, 'reason', reason,
                                             'entered_on', entered_at::date)::varchar, ',' order by correction_id)
           as corrections
    from corrections
    where series = getvariable('series') and withdrawn_at is null and set_aside is null
      and list_id in (select list_id from site_lists)
    group by player_id
),
revised as (
    select player_id, string_agg(json_object('list_id', list_id, 'revision', revision, 'old_rating', old_rating,
                                             'new_rating', new_rating, 'reason', reason)::varchar, ','
                                 order by list_id, revision) as revisions
    from rating_changes
    where series = getvariable('series') and revision > 1 and list_id in (select list_id from site_lists)
    group by player_id
),
played as (
    select player_id, string_agg(json_array(slug, event, first_day, last_day, games, score)::varchar, ','
                                 order by last_day desc, slug) as events
    from site_player_events where player_id in (select player_id from site_dirty_players) group by player_id
)
select h.player_id,
       '{"version":1,"player_id":' || h.player_id || ',"name":' || coalesce(to_json(h.name)::varchar, 'null') || ',"club":' || coalesce(to_json(h.club)::varchar, 'null')
       || ',"club_slug":' || coalesce(to_json(h.club_slug)::varchar, 'null')
       || ',"history":{"columns":' || to_json(['list_id', 'rating', 'change', 'games', 'rank_active']
                                               || getvariable('site_state_keys')) || ',"rows":[' || h.rows
       || ']},"corrections":[' || coalesce(f.corrections, '') || '],"revisions":[' || coalesce(r.revisions, '')
       || '],"events":{"columns":["event_id","name","first_day","last_day","games","score"],"rows":['
       || coalesce(p.events, '') || ']}}' as api
from history h
left join fixes f using (player_id)
left join revised r using (player_id)
left join played p using (player_id)

