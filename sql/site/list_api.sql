-- api/v1/lists/<id>.json, one text a list: its summary and every player on it,
-- best first, with the categories and the activity the ranking filters on (never a
-- birth year: sql/site/ranked.sql gives the categories only). Compact, as a list of
-- the whole history is a million rows: names are in api/v1/players.json, a club is
-- an index into the file's `clubs` (and `club_slugs`), yes/no are 1/0. The rows are
-- joined as text (see sql/site/player_api.sql).
-- best first (the rule set's standing: SiteFace), its own columns after the shared ones.
-- Only the lists computed again (getvariable('site_fresh')): the others' texts are those the run before kept.
-- inputs: site_rows, site_lists, getvariable('site_fresh'), getvariable('site_state_keys')
-- grain: list_id
with clubs as (
    select list_id, club, club_slug, row_number() over (partition by list_id order by club) - 1 as club_index
    from (select distinct list_id, club, club_slug from site_rows
          where club is not null and list_contains(getvariable('site_fresh'), list_id))
),
rows as (
    select r.list_id,
           string_agg((json_array(r.player_id, c.club_index, r.rating, r.change, r.games, r.sex, r.region, r.under,
                                 r.senior_50::int, r.senior_65::int, r.active::int)::varchar)[:-2] || r.more || ']',
                      ',' order by r.standing desc, r.player_id) as rows
    from site_rows r left join clubs c using (list_id, club)
    where list_contains(getvariable('site_fresh'), r.list_id)
    group by r.list_id
),
named as (
    select list_id, to_json(list(club order by club_index))::varchar as clubs,
           to_json(list(club_slug order by club_index))::varchar as club_slugs
    from clubs group by list_id
)
select l.list_id,
       -- the summary as DuckDB writes it, its closing brace taken off (its last value is an
       -- array, so the brace is the text's only trailing one) to put the big parts after
       rtrim(json_object('version', 1, 'list_id', l.list_id, 'revision', l.revision,
                         'window_start', l.window_start, 'window_end', l.window_end,
                         'players', l.players_rated, 'active', l.active_players, 'played', l.players_played,
                         'columns', ['player_id', 'club', 'rating', 'change', 'games', 'sex', 'region', 'under',
                                     'senior_50', 'senior_65', 'active'] || getvariable('site_state_keys'))::varchar,
             '}')
       || ',"clubs":' || coalesce(n.clubs, '[]') || ',"club_slugs":' || coalesce(n.club_slugs, '[]')
       || ',"rows":[' || coalesce(r.rows, '') || ']}' as api
from site_lists l
left join rows r using (list_id)
left join named n using (list_id)
where list_contains(getvariable('site_fresh'), l.list_id)

