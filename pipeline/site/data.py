"""What the site shows, read from the warehouse in a few set-based queries: every
player of every list with categories, activity and ranks (sql/site/ranked.sql), the
lists' summaries, the games of events (sql/site/games.sql), the JSON API's files
(sql/site/*_api.sql, one text a file, made by DuckDB), and the calculation cards of
the latest lists (RuleSet.card_data).

What the run before kept (pipeline/site/kept.py) is taken for the lists whose key is
unchanged: their rows, the texts of their lists, of the events with no game on a list
computed again, and of the players whose rows and events are those kept; only the rest
is computed (the set differences of the fresh rows with the kept ones name the players)."""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import duckdb

from pipeline.rate.series import own_views
from pipeline.site.kept import Kept, digest
from pipeline.site.slugs import club_slug, event_slug
from pipeline.warehouse import create_temp_table, sql_name, stage_sql

UNDER = (8, 10, 12, 14, 16, 18, 20)
PAGE_ROWS = 100  # a ranking page: the first is in the HTML, the others drawn from the list's JSON


@dataclass
class SiteData:
    series: object
    lists: list[dict]  # the lists, first first, with their summaries
    players: list[dict]  # a player each: what the player page shows without its JSON
    notes: dict[int, dict]  # player_id -> corrections in force and revisions (rare: in the page itself)
    first_rows: dict[str, list[dict]]  # list_id -> its ranking's first page (active players)
    choices: dict[str, tuple[list, list, bool, bool]]  # list_id -> (regions, clubs, any category, any sex) its filters offer
    clubs: dict[str, list[dict]]  # club slug -> its players on the latest list
    events: list[dict]  # an event each: slug, name, days, games, players
    api: dict[str, str]  # path under api/v1/ -> JSON text (those computed this run)
    digests: dict[str, str]  # path under api/v1/ -> its text's digest (every JSON file; a kept text's file is there)
    cards: dict[int, list] = field(default_factory=dict)  # player_id -> [(list_id, Card)], newest first


class UnknownSince(ValueError):
    """--since names no list of the series."""


def _records(con, sql: str, params=None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def json_text(value) -> str:
    """JSON as the site writes it: compact, UTF-8 text, dates as ISO text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _slug_table(con: duckdb.DuckDBPyConnection, table: str, sql: str, make, column: str, slug_column: str) -> None:
    """The temporary table `table`: the names `sql` gives (one column) and their file names."""
    names = [name for (name,) in con.execute(sql).fetchall()]
    create_temp_table(con, table, {column: ("varchar", names), slug_column: ("varchar", [make(n) for n in names])})


def site_data(con: duckdb.DuckDBPyConnection, series, card_lists: int, since: str | None = None,
              kept: Kept | None = None, code: str = "") -> SiteData:
    """The site's tables for a series (its lists from `since` on, if given); the cards
    of its latest `card_lists` lists. `kept`: what the run before kept, taken where it
    holds and replaced by this run's data (None: nothing kept, every list computed);
    `code`: the site code's digest, part of its key."""
    kept = Kept(None) if kept is None else kept
    first = first_position(con, series, since)
    con.execute("set variable series = ?", [series.name])
    tables = con.cursor()  # a connection of its own (its temp tables), for the thread below
    try:
        tables.execute("set variable series = ?", [series.name])
        # Each game on the list its rule set rates it on: the rule set's code, run here, as it
        # imports what it needs as it runs (nothing is imported in the thread below).
        series.rule_set.place_games(tables)
        own_views(tables, series)  # the rule set's own columns (its state, its inactive flag)
        with ThreadPoolExecutor(1) as pool:
            # The tables in a thread beside the cards, laid out in Python in this one: DuckDB
            # frees the interpreter while it works.
            made = pool.submit(_site_data, tables, series, first, kept, code)
            cards = _cards(con, series, card_lists, first)
            data = made.result()
    finally:
        kept.close()
        tables.close()
    data.cards = cards
    return data


def _cards(con: duckdb.DuckDBPyConnection, series, card_lists: int, first: int) -> dict[int, list]:
    """player_id -> the cards of the latest `card_lists` lists (from position `first` on),
    newest first, of a rule set that makes a whole list's at once."""
    cards: dict[int, list] = {}
    if not (series.rule_set.bulk_cards and card_lists > 0):
        return cards
    for (list_id,) in con.execute("""select list_id from lists where series = ? and position >= ?
                                     order by position desc limit ?""", [series.name, first, card_lists]).fetchall():
        for player_id, card in series.rule_set.card_data(con, series, list_id).items():
            cards.setdefault(player_id, []).append((list_id, card))
    return cards


def _site_data(con: duckdb.DuckDBPyConnection, series, first: int, kept: Kept, code: str) -> SiteData:
    """The site's tables but the cards, on `con`, whose temp table placed_games holds the
    games placed (RuleSet.place_games)."""
    face = series.rule_set.site
    # The rule set's own columns, after the shared ones in each JSON file (none: the files
    # are the chess lists' as they were, byte for byte).
    con.execute("set variable site_state_keys = ?", [_keys(face.state)])
    con.execute("set variable site_event_keys = ?", [_keys(face.event)])
    con.execute("set variable site_game_keys = ?", [_keys(face.game_columns)])
    kept.kept_lists(con, series, first, code)
    _site_rows(con, series, first)
    lists = _site_lists(con, first, kept)
    _site_games(con, series, kept)
    _site_event_more(con, series)
    _dirty_players(con, kept)
    _kept_rows(con, kept)
    # The rank on the player's latest list, null there when inactive (arg_max would skip
    # the null and give the rank of an earlier list). Each player's rows are all in
    # site_rows for the players whose files are made again; the others' as kept.
    con.execute(f"""create or replace temp table site_players as
        select player_id, arg_max(name, position) as name, arg_max(club, position) as club,
               arg_max(club_slug, position) as club_slug, arg_max(rating, position) as rating,
               arg_max(list_id, position) as list_id, last(rank_active order by position) as rank_active,
               max(rating) as peak, first(list_id order by rating desc, position) as peak_list
               {"".join(f", arg_max({c.key}, position) as {c.key}" for c in face.state)}
        from site_rows where player_id in (select player_id from site_dirty_players) group by player_id""")
    players = _records(con, "select * from site_players")
    dirty = {p["player_id"] for p in players}
    players += [p for p in kept.records("select * from players") if p["player_id"] not in dirty]
    players.sort(key=lambda p: p["player_id"])
    notes = _notes(con)
    first_rows = {}
    ranked = f"where rank_active <= {PAGE_ROWS} and list_contains(?, list_id) order by position, standing desc, player_id"
    for row in [*_records(con, f"select * from site_rows {ranked}", [kept.fresh]),
                *kept.records(f"select * from rows {ranked}", [kept.kept])]:
        first_rows.setdefault(row["list_id"], []).append(row)
    # A filter no player of the list answers is not offered (a Go registry has no birth years).
    choices = {l["list_id"]: (l.pop("regions") or [], l.pop("club_names") or [], l.pop("aged"), l.pop("sexed"))
               for l in lists}
    latest = lists[-1]["list_id"] if lists else None
    by_club: dict[str, list[dict]] = {}
    clubs = "where list_id = ? and club_slug is not null order by club_slug, standing desc, player_id"
    for row in (_records(con, f"select * from site_rows {clubs}", [latest]) if latest in kept.fresh
                else kept.records(f"select * from rows {clubs}", [latest])):
        by_club.setdefault(row["club_slug"], []).append(row)
    con.execute(f"create or replace temp table site_fresh_events as {stage_sql('site/event_api')}")
    events = _records(con, "select * from site_fresh_events")
    changed = {slug for (slug,) in con.execute("select slug from site_dirty_events").fetchall()}
    events += [e for e in kept.records("select * from events") if e["slug"] not in changed]
    api = {}
    for e in events:
        if "api" in e:  # computed this run
            api[f"events/{e['slug']}.json"] = e.pop("api")
        del e["lists"]
    events.sort(key=lambda e: e["slug"])
    api |= _api(con, players)
    digests = {path: digest(text.encode("utf-8")) for path, text in api.items()}
    for table, key, folder in (("player_texts", "player_id", "players"), ("list_texts", "list_id", "lists"),
                               ("event_texts", "slug", "events")):
        kept_digests = {f"{folder}/{i}.json": d for i, d in kept.digests(table, key).items()}
        digests |= {path: d for path, d in kept_digests.items() if path not in digests}
        # what save() keeps of the texts computed this run: their digests
        ids = [path[len(folder) + 1:-5] for path in api if path.startswith(f"{folder}/")]
        con.execute(f"""create or replace temp table site_{folder[:-1]}_digests as
                        select unnest(?::varchar[]){'::bigint' if folder == 'players' else ''} as {key},
                               unnest(?::varchar[]) as digest""", [ids, [digests[f"{folder}/{i}.json"] for i in ids]])
    # the kept texts of players, lists and events shown no longer (their files go)
    shown = {f"players/{p['player_id']}.json" for p in players} | {f"lists/{l['list_id']}.json" for l in lists} \
        | {f"events/{e['slug']}.json" for e in events} | {"players.json"}
    digests = {path: d for path, d in digests.items() if path in shown}
    data = SiteData(series, lists, players, notes, first_rows, choices, by_club, events, api, digests)
    kept.save(con)
    for table in ("site_rows", "site_lists", "site_games", "site_event_players", "site_event_more",
                  "site_player_events", "site_fresh_events", "site_player_texts", "site_list_texts",
                  "site_dirty_players", "site_dirty_events", "site_players", "site_player_digests",
                  "site_list_digests", "site_event_digests"):
        con.execute(f"drop table {table}")
    return data


def first_position(con: duckdb.DuckDBPyConnection, series, since: str | None) -> int:
    """The position of the list `since` names (0: from the first list)."""
    if since is None:
        return 0
    found = con.execute("select position from lists where series = ? and list_id = ?", [series.name, since]).fetchone()
    if found is None:
        raise UnknownSince(f"--since {since}: no list {since!r} in the {series.name} lists")
    return found[0]


def _site_rows(con: duckdb.DuckDBPyConnection, series, first: int) -> None:
    """The temp table site_rows: every player of every list computed again (from position
    `first` on, getvariable('site_fresh')) as sql/site/ranked.sql gives them, with the
    rule set's own activity flag, the club's page and the rank among the list's active
    players. (_kept_rows adds the kept lists' rows of the players made again.)"""
    # Every club of the series, not only of the lists shown: a club keeps its file whatever --since.
    _slug_table(con, "site_club_slugs", """select distinct club from rating_history
                                           where series = getvariable('series') and club is not null""",
                club_slug, "club", "club_slug")
    face = series.rule_set.site
    con.execute("set variable age_offset = ?", [face.age_offset])  # ruling R2: ages as the rule set counts
    # A rating a whole number is written as one (1830, not 1830.0) in the pages and the JSON.
    rating = "r.rating::bigint" if series.rule_set.rating_step() == 1 else "r.rating"
    if face.rating is not None:  # the rule set prints its rating its own way (Go: half up)
        rating = f"({face.rating})::bigint"
    active, own = "r.active", ""
    flag = series.rule_set.inactive_column
    if flag is not None:  # the rule set's own rule (FIDE B02 7.2.2) decides, for its series only
        active = f"not coalesce(s.{sql_name(flag)}, false)"
    if flag is not None or face.state or face.rating is not None:  # own_views, made by site_data
        own = """left join series_player_state s on s.series = getvariable('series') and s.list_id = r.list_id
                                                  and s.player_id = r.player_id"""
    # The rule set's columns beside the rating (SiteFace.state), their ranks, and the JSON
    # text they add to a row of a player's history or of a list ('' when none).
    shown = "".join(f", {c.sql} as {c.key}" + (f", {c.ranks} as {c.key}_rank" if c.ranks else "")
                    for c in face.state)
    # One pass: the rows, their activity, their club's page and their rank among the active.
    con.execute(f"""create or replace temp table site_rows as
                    with ranked as (select * from ({stage_sql('site/ranked')})
                                    where position >= {int(first)}
                                      -- a function of the variable, not a subquery: DuckDB takes it
                                      -- down to the history's scan (one list read, not 103)
                                      and list_contains(getvariable('site_fresh'), list_id)),
                    flagged as (select r.* replace ({rating} as rating, {active} as active){shown}
                                from ranked r {own}),
                    stood as (select *, {face.ranked_by()} as standing, {_more(_keys(face.state))} as more
                              from flagged)
                    select f.*, c.club_slug,
                           case when f.active then rank() over (partition by f.list_id, f.active
                                                                 order by f.standing desc) end as rank_active
                    from stood f left join site_club_slugs c using (club)""")
    con.execute("drop table site_club_slugs")


def _site_lists(con: duckdb.DuckDBPyConnection, first: int, kept: Kept) -> list[dict]:
    """The temp table site_lists, and its rows: the lists from position `first` on, each
    with its summary, its count of active players and what its filters offer (regions,
    clubs, whether any player has a category, a sex): computed for the lists of
    getvariable('site_fresh') (list_summary's counts, mean and median, for those lists
    only), the others' as kept."""
    # "Active" means one thing on every page: a game in the 12 months up to the list's
    # window end (or the rule set's own flag). Who played in the window is "played".
    con.execute(f"""create or replace temp table site_lists as
                    with stats as (  -- list_summary's, of the lists computed again only
                        select list_id, count(*) as players_rated, count(*) filter (where status = 'new') as new_players,
                               count(*) filter (where status <> 'did not play') as players_active,
                               round(avg(rating), 1) as mean_rating, median(rating) as median_rating
                        from rating_history
                        where series = getvariable('series') and list_contains(getvariable('site_fresh'), list_id)
                        group by list_id
                    ),
                    shown as (
                        select list_id, count(*) filter (where active) as active_players,
                               list(distinct region order by region) filter (where region is not null) as regions,
                               list(distinct club order by club) filter (where club is not null) as club_names,
                               bool_or(under is not null or senior_50) as aged, bool_or(sex is not null) as sexed
                        from site_rows where list_contains(getvariable('site_fresh'), list_id) group by list_id
                    )
                    select l.list_id, l.position, l.window_start, l.window_end, l.revision,
                           coalesce(s.players_rated, 0) as players_rated, coalesce(s.players_active, 0) as players_played,
                           coalesce(s.new_players, 0) as new_players, s.mean_rating, s.median_rating,
                           l.games_rated, coalesce(a.active_players, 0) as active_players,
                           a.regions, a.club_names, coalesce(a.aged, false) as aged,
                           coalesce(a.sexed, false) as sexed
                    from lists l left join stats s using (list_id) left join shown a using (list_id)
                    where l.series = getvariable('series') and l.position >= {int(first)}
                      and list_contains(getvariable('site_fresh'), l.list_id)""")
    if kept.any:
        con.register("kept_lists", kept.arrow("select * from lists where list_contains(?, list_id)", [kept.kept]))
        con.execute("insert into site_lists by name select * from kept_lists")
        con.unregister("kept_lists")
    return _records(con, "select * from site_lists order by position")


def _site_games(con: duckdb.DuckDBPyConnection, series, kept: Kept) -> None:
    """The temp tables site_games: the games of the events computed again (site_dirty_events:
    those with a game on a list computed again, and the kept ones that had one), each with
    its list (as the rule set placed it) and its event's file name; site_event_players
    (sql/site/event_players.sql) of those events, which the event files read; and with the
    kept events' players, site_player_events, which the player files read."""
    face = series.rule_set.site
    played_view(con, series)
    # An event is computed whole again when a game of it is, or was, on a list computed again.
    gone = kept.not_there("event_texts", "slug", "events/{}.json")  # its file not there as kept
    before = [e for (e,) in kept.rows("select event from events where list_has_any(lists, ?) or list_contains(?, slug)",
                                      [kept.fresh, gone])]
    con.execute("set variable site_events_before = ?", [before])
    con.execute(f"""create or replace temp table site_games as
                    with shown as ({stage_sql('site/games')})
                    select * from shown where event in (
                        select event from shown where list_contains(getvariable('site_fresh'), list_id)
                        union select unnest(getvariable('site_events_before')))""")
    if face.game_columns:  # each game's own columns, as JSON text after the shared ones
        values = ", ".join(c.sql for c in face.game_columns)
        con.execute(f"""create or replace temp table site_games as
                        select s.* replace ({_more_of(values)} as more)
                        from site_games s join site_played g using (game_key)""")
    _slug_table(con, "site_event_slugs", "select distinct event from site_games", event_slug, "event", "slug")
    con.execute("""create or replace temp table site_games as
                   select g.*, s.slug from site_games g join site_event_slugs s using (event)""")
    con.execute("drop table site_event_slugs")
    con.execute(f"create or replace temp table site_event_players as {stage_sql('site/event_players')}")
    # gone now, or on kept lists only: its file goes, or is made again
    con.execute("set variable site_slugs_before = ?",
                [[s for (s,) in kept.rows("select slug from events where list_has_any(lists, ?) or list_contains(?, slug)",
                                          [kept.fresh, gone])]])
    con.execute("""create or replace temp table site_dirty_events as
                   select distinct slug from site_games union select unnest(getvariable('site_slugs_before'))""")
    con.execute("create or replace temp table site_player_events as select * from site_event_players")
    dirty = [slug for (slug,) in con.execute("select slug from site_dirty_events").fetchall()]
    if kept.any:  # what the events computed again were (their players are compared: _dirty_players)
        con.register("kept_event_players",
                     kept.arrow("select * from event_players where list_contains(?, slug)", [dirty]))


def _dirty_players(con: duckdb.DuckDBPyConnection, kept: Kept) -> None:
    """The temp table site_dirty_players: the players whose files are made again, those
    whose rows on the lists computed again, or whose rows of the events computed again,
    differ from what was kept (a row added, changed or gone); every player when nothing
    was kept."""
    if not kept.any:
        con.execute("create or replace temp table site_dirty_players as select distinct player_id from site_rows")
        return
    con.register("kept_fresh_rows", kept.arrow("select * from rows where not list_contains(?, list_id)", [kept.kept]))
    fresh_rows = "select * from site_rows"
    old_events = "select * from kept_event_players where slug in (select slug from site_dirty_events)"
    # a player whose file is not there as kept is made again
    con.execute("set variable site_players_gone = ?::bigint[]",
                [kept.not_there("player_texts", "player_id", "players/{}.json")])
    con.execute(f"""create or replace temp table site_dirty_players as
                    select unnest(getvariable('site_players_gone')) as player_id
                    union select player_id from ({fresh_rows} except select * from kept_fresh_rows)
                    union select player_id from (select * from kept_fresh_rows except {fresh_rows})
                    union select player_id from (select * from site_event_players except {old_events})
                    union select player_id from ({old_events} except select * from site_event_players)""")
    con.unregister("kept_fresh_rows")


def _kept_rows(con: duckdb.DuckDBPyConnection, kept: Kept) -> None:
    """The kept lists' rows of the players made again and of the events' players (their
    files read them), added to site_rows; the kept events of the players made again, added
    to site_player_events."""
    if not kept.any:
        return
    wanted = con.sql("""select player_id from site_dirty_players
                        union select player_id from site_event_players""").to_arrow_table()
    con.register("kept_needed_rows", kept.rows_of(wanted, "rows", "list_contains(?, list_id)", [kept.kept]))
    con.execute("insert into site_rows by name select * from kept_needed_rows")
    con.unregister("kept_needed_rows")
    # the players' events kept (those of the events computed again are in site_event_players)
    dirty = [slug for (slug,) in con.execute("select slug from site_dirty_events").fetchall()]
    con.register("kept_player_events", kept.rows_of(con.sql("select player_id from site_dirty_players").to_arrow_table(),
                                                     "event_players", "not list_contains(?, slug)", [dirty]))
    con.execute("insert into site_player_events by name select * from kept_player_events")
    con.unregister("kept_player_events")
    con.unregister("kept_event_players")


def _keys(columns) -> list[str]:
    return [c.key for c in columns]


def _more_of(values: str) -> str:
    """SQL of the JSON text the values (SQL, comma-separated) add after a row's shared
    values: ',v1,v2' (a JSON array's inside)."""
    return f"(',' || substr(json_array({values})::varchar, 2, length(json_array({values})::varchar) - 2))"


def _more(keys: list[str]) -> str:
    """SQL of the JSON text the columns `keys` add to a row ('' for none)."""
    return _more_of(", ".join(keys)) if keys else "''"


def played_view(con: duckdb.DuckDBPyConnection, series) -> None:
    """The temp view site_played: the rule set's games in chess's `games` columns
    (SiteFace.played; chess: `games`), which the event pages and the pending games read."""
    con.execute(f"create or replace temp view site_played as {series.rule_set.site.played or 'select * from games'}")


def _site_event_more(con: duckdb.DuckDBPyConnection, series) -> None:
    """The temp table site_event_more: each player's values of an event the rule set shows
    (SiteFace.event, from its history view, RuleSet.history), as JSON text after the
    shared ones of the event's row of players."""
    face, (view, period, _) = series.rule_set.site, series.rule_set.history
    if not face.event:
        con.execute("create or replace temp table site_event_more (list_id varchar, player_id bigint, more varchar)")
        return
    values = ", ".join(c.sql for c in face.event)
    con.execute(f"""create or replace temp table site_event_more as
                    select h.{sql_name(period)} as list_id, h.player_id, {_more_of(values)} as more
                    from {sql_name(view)} h
                    where h.series = getvariable('series') and h.{sql_name(period)} in (select list_id from site_lists)""")


def _notes(con: duckdb.DuckDBPyConnection) -> dict[int, dict]:
    """player_id -> the commission's corrections in force and the revisions that changed
    the player's rating, on the lists shown (few: written in the player's page itself)."""
    notes: dict[int, dict] = {}
    for kind, sql in (("corrections", """select player_id, list_id, rating, reason from corrections
                                         where series = getvariable('series') and withdrawn_at is null
                                           and set_aside is null and list_id in (select list_id from site_lists)
                                         order by player_id, correction_id"""),
                      ("revisions", stage_sql("site/revision_notes"))):  # what changed, in counts
        for row in _records(con, sql):
            notes.setdefault(row.pop("player_id"), {"corrections": [], "revisions": []})[kind].append(row)
    return notes


def _api(con: duckdb.DuckDBPyConnection, players: list[dict]) -> dict[str, str]:
    """The JSON API's files of the players and the lists (path under api/v1/ -> text):
    made by DuckDB, one text a file, for the players of site_dirty_players and the lists
    computed again (the temp tables site_player_texts and site_list_texts: the others'
    files are kept); and the index of the players the search reads."""
    con.execute(f"create or replace temp table site_player_texts as {stage_sql('site/player_api')}")
    con.execute(f"create or replace temp table site_list_texts as {stage_sql('site/list_api')}")
    api = {f"players/{p}.json": text for p, text in con.execute("select player_id, api from site_player_texts").fetchall()}
    api |= {f"lists/{l}.json": text for l, text in con.execute("select list_id, api from site_list_texts").fetchall()}
    api["players.json"] = json_text({"version": 1, "columns": ["player_id", "name", "club"],
                                     "rows": [[p["player_id"], p["name"], p["club"]] for p in players]})
    return api


def lists_json(data: SiteData, downloads: dict[str, list]) -> str:
    """api/v1/lists.json: every list's summary and its files with their checksums."""
    keys = ("list_id", "revision", "window_start", "window_end", "players_rated", "active_players",
            "players_played", "new_players", "mean_rating", "median_rating", "games_rated")
    rows = [{**{k: l[k] for k in keys},
             "files": [{"name": d.name, "format": d.label, "sha256": d.sha256, "size": d.size}
                       for d in downloads.get(l["list_id"], [])]} for l in data.lists]
    return json_text({"version": 1, "series": data.series.name, "lists": rows})


def events_json(data: SiteData) -> str:
    """api/v1/events.json: every event, its days and counts."""
    return json_text({"version": 1, "columns": ["event_id", "name", "first_day", "last_day", "games", "players"],
                      "rows": [[e["slug"], e["event"], e["first_day"], e["last_day"], e["games"], e["players"]]
                               for e in data.events]})
