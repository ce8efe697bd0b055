"""What the site shows, read from the warehouse in a few set-based queries: every
player of every list with categories, activity and ranks (sql/site/ranked.sql), the
lists' summaries, the games of events (sql/site/games.sql), the JSON API's files
(sql/site/*_api.sql, one text a file, made by DuckDB), and the calculation cards of
the latest lists (RuleSet.card_data)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import duckdb

from pipeline.rate.series import own_views
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
    api: dict[str, str]  # path under api/v1/ -> JSON text
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


def site_data(con: duckdb.DuckDBPyConnection, series, card_lists: int, since: str | None = None) -> SiteData:
    """The site's tables for a series (its lists from `since` on, if given); the cards
    of its latest `card_lists` lists."""
    con.execute("set variable series = ?", [series.name])
    face = series.rule_set.site
    # The rule set's own columns, after the shared ones in each JSON file (none: the files
    # are the chess lists' as they were, byte for byte).
    con.execute("set variable site_state_keys = ?", [_keys(face.state)])
    con.execute("set variable site_event_keys = ?", [_keys(face.event)])
    con.execute("set variable site_game_keys = ?", [_keys(face.game_columns)])
    first = _first_position(con, series, since)
    _site_rows(con, series, first)
    lists = _site_lists(con, first)
    _site_games(con, series)
    _site_event_more(con, series)
    # The rank on the player's latest list, null there when inactive (arg_max would skip
    # the null and give the rank of an earlier list).
    players = _records(con, f"""
        select player_id, arg_max(name, position) as name, arg_max(club, position) as club,
               arg_max(club_slug, position) as club_slug, arg_max(rating, position) as rating,
               arg_max(list_id, position) as list_id, last(rank_active order by position) as rank_active,
               max(rating) as peak, first(list_id order by rating desc, position) as peak_list
               {"".join(f", arg_max({c.key}, position) as {c.key}" for c in face.state)}
        from site_rows group by player_id order by player_id""")
    notes = _notes(con)
    first_rows = {}
    for row in _records(con, f"""select * from site_rows where rank_active <= {PAGE_ROWS}
                                  order by position, standing desc, player_id"""):
        first_rows.setdefault(row["list_id"], []).append(row)
    # A filter no player of the list answers is not offered (a Go registry has no birth years).
    choices = {list_id: (regions or [], club_names or [], aged, sexed)
               for list_id, regions, club_names, aged, sexed in con.execute(
        """select list_id, list(distinct region order by region) filter (where region is not null),
                  list(distinct club order by club) filter (where club is not null),
                  bool_or(under is not null or senior_50), bool_or(sex is not null)
           from site_rows group by list_id""").fetchall()}
    latest = lists[-1]["list_id"] if lists else None
    by_club: dict[str, list[dict]] = {}
    for row in _records(con, """select * from site_rows where list_id = ? and club_slug is not null
                                order by club_slug, standing desc, player_id""", [latest]):
        by_club.setdefault(row["club_slug"], []).append(row)
    events = _records(con, stage_sql("site/event_api"))
    api = {f"events/{e['slug']}.json": e.pop("api") for e in events}
    events.sort(key=lambda e: e["slug"])
    api |= _api(con, players)
    data = SiteData(series, lists, players, notes, first_rows, choices, by_club, events, api)
    # Dropped before the cards' replay, which needs the memory.
    for table in ("site_rows", "site_lists", "site_games", "site_event_players", "site_event_more"):
        con.execute(f"drop table {table}")
    if series.rule_set.bulk_cards and card_lists > 0:
        for list_id in reversed([l["list_id"] for l in lists[-card_lists:]]):
            for player_id, card in series.rule_set.card_data(con, series, list_id).items():
                data.cards.setdefault(player_id, []).append((list_id, card))
    return data


def _first_position(con: duckdb.DuckDBPyConnection, series, since: str | None) -> int:
    """The position of the list `since` names (0: from the first list)."""
    if since is None:
        return 0
    found = con.execute("select position from lists where series = ? and list_id = ?", [series.name, since]).fetchone()
    if found is None:
        raise UnknownSince(f"--since {since}: no list {since!r} in the {series.name} lists")
    return found[0]


def _site_rows(con: duckdb.DuckDBPyConnection, series, first: int) -> None:
    """The temp table site_rows: every player of every list from position `first` on,
    as sql/site/ranked.sql gives them, with the rule set's own activity flag, the
    club's page and the rank among the list's active players."""
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
    if flag is not None or face.state or face.rating is not None:
        own_views(con, series)
        own = """left join series_player_state s on s.series = getvariable('series') and s.list_id = r.list_id
                                                  and s.player_id = r.player_id"""
    # The rule set's columns beside the rating (SiteFace.state), their ranks, and the JSON
    # text they add to a row of a player's history or of a list ('' when none).
    shown = "".join(f", {c.sql} as {c.key}" + (f", {c.ranks} as {c.key}_rank" if c.ranks else "")
                    for c in face.state)
    # One pass: the rows, their activity, their club's page and their rank among the active.
    con.execute(f"""create or replace temp table site_rows as
                    with ranked as (select * from ({stage_sql('site/ranked')}) where position >= {int(first)}),
                    flagged as (select r.* replace ({rating} as rating, {active} as active){shown}
                                from ranked r {own}),
                    stood as (select *, {face.ranked_by()} as standing, {_more(_keys(face.state))} as more
                              from flagged)
                    select f.*, c.club_slug,
                           case when f.active then rank() over (partition by f.list_id, f.active
                                                                 order by f.standing desc) end as rank_active
                    from stood f left join site_club_slugs c using (club)""")
    con.execute("drop table site_club_slugs")


def _site_lists(con: duckdb.DuckDBPyConnection, first: int) -> list[dict]:
    """The temp table site_lists, and its rows: the lists from position `first` on, each
    with its summary and its count of active players."""
    # "Active" means one thing on every page: a game in the 12 months up to the list's
    # window end (or the rule set's own flag). Who played in the window is "played".
    con.execute(f"""create or replace temp table site_lists as
                    select l.list_id, l.position, l.window_start, l.window_end, l.revision, s.players_rated,
                           s.players_active as players_played, s.new_players, s.mean_rating, s.median_rating,
                           s.games_rated, coalesce(a.active_players, 0) as active_players
                    from lists l join list_summary s using (series, list_id)
                    left join (select list_id, count(*) filter (where active) as active_players
                               from site_rows group by list_id) a using (list_id)
                    where l.series = getvariable('series') and l.position >= {int(first)}""")
    return _records(con, "select * from site_lists order by position")


def _site_games(con: duckdb.DuckDBPyConnection, series) -> None:
    """The temp tables site_games: the games of events on the lists shown, each with its
    list (as the rule set placed it) and its event's file name; and site_event_players
    (sql/site/event_players.sql), which the player and event files both read."""
    series.rule_set.place_games(con)  # each game on the list its rule set rates it on
    face = series.rule_set.site
    played_view(con, series)
    con.execute(f"create or replace temp table site_games as {stage_sql('site/games')}")
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
    made by DuckDB, one text a file, and the index of the players the search reads."""
    api = {f"players/{p}.json": text for p, text in con.execute(stage_sql("site/player_api")).fetchall()}
    api |= {f"lists/{l}.json": text for l, text in con.execute(stage_sql("site/list_api")).fetchall()}
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
