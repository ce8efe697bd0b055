"""`ratings site` for every rule set, from what each declares (RuleSet.site, a SiteFace;
issue 52): the Go sites of both Go rule sets (a ranking after each event by grade, then
points; a player's grade and points after each event; an event's page equal to the rule
set's own calculations, go_history, for every player; its games with their handicaps;
the clubs, the pending games, the state files to download, the JSON API against its
extended schema), Glicko-2's RD beside the rating, and a sixth rule set (the toy's) given
a site with no project file touched. Warehouses from the repository's real Go files
(tests/fixtures/go/). The browser's checks are in tests/test_site_go_browser.py."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from pipeline import systems
from pipeline.publish import csv_bytes
from pipeline.site.i18n import LANGUAGES, catalogue
from tests.as_user import ratings
from tests.conftest import cli_runner, copy_built, write_rows, write_small_federation

GO = Path(__file__).parent / "fixtures" / "go"
# Years of events (1979 … 2024): three World Amateur Championships, an EGC, French and
# Turkish tournaments, as OpenGotha, pairgoth and the EGD write them.
BELGIAN_FILES = ("egd_wagc_1979.txt", "egd_wagc_1996.txt", "egd_wagc_2021.txt", "opengotha_export_2017.h9",
                 "opengotha_juvisy_2019.h9", "opengotha_simpleswiss_excerpt.xml", "pairgoth_bosp2024_excerpt.tour",
                 "opengotha_egc2011_doctype.xml")
FFG_FILES = ("opengotha_juvisy_2019.tou", "opengotha_export_2017.h9")
TOY = Path(__file__).parent / "toy_rule_set"
PAGES = ("index.html", "lists", "players", "clubs", "events", "pending")


def go_warehouse(folder: Path, system: str, files: tuple[str, ...]) -> Path:
    """A Go federation's warehouse rated under `system` from the real files, then a later
    club night's games taken in and not rated yet (the pending games), and its site."""
    cli = cli_runner()
    for name in files:
        shutil.copyfile(GO / name, folder / name)
    w = folder / "w.duckdb"
    games = [a for name in files for a in ("--games", folder / name)]
    # exit status 3: the 2021 file's double loss by default is rejected (not counted)
    cli("run", "--system", system, *games, "--register-new", "--warehouse", w, "--out", folder / "out",
        "--no-reports", ok=False)
    with duckdb.connect(str(w), read_only=True) as con:
        (a, b), = con.execute("select min(player_id), max(player_id) from players").fetchall()
    events = write_rows(folder / "late-events.csv", ["event_id", "name", "start_date", "end_date", "class"],
                        [["club-2025", "Club night 2025", "2025-01-10", "2025-01-10", "C"]])
    late = write_rows(folder / "late.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap", "round"],
                      [["club-2025", "2025-01-10", a, b, "B", 3, 1]])
    cli("ingest", "--events", events, "--games", late, "--warehouse", w)
    cli("validate", "--warehouse", w)
    cli("site", "--out", folder / "site", "--pending", "--downloads", "all", "--warehouse", w)
    return folder


@pytest.fixture(scope="module")
def belgian_once(tmp_path_factory):
    return go_warehouse(tmp_path_factory.mktemp("go-belgium"), "go-belgium", BELGIAN_FILES)


@pytest.fixture(scope="module")
def ffg_once(tmp_path_factory):
    return go_warehouse(tmp_path_factory.mktemp("go-ffg1984"), "go-ffg1984", FFG_FILES)


@pytest.fixture(params=["go-belgium", "go-ffg1984"])
def go_site(request):
    """(warehouse, out, site) of a Go federation under each Go rule set, as built once."""
    folder = request.getfixturevalue({"go-belgium": "belgian_once", "go-ffg1984": "ffg_once"}[request.param])
    return folder / "w.duckdb", folder / "out", folder / "site"


def _query(w: Path, sql: str, params=None) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def _api(site: Path, path: str) -> dict:
    return json.loads((site / "api" / "v1" / path).read_text(encoding="utf-8"))


def _level(grade: str) -> int:
    """A grade's level (pipeline/systems/go/grades.py): d dan is d, k kyu is 1 − k."""
    return int(grade[:-1]) if grade.endswith("d") else 1 - int(grade[:-1])


def test_every_page_type_in_four_languages(go_site):
    w, _, site = go_site
    events = _query(w, "select event_id from events where event_id in (select list_id from lists) order by 1")
    for lang in LANGUAGES:
        for part in PAGES:
            assert (site / lang / part).exists(), (lang, part)
        assert {p.stem for p in (site / lang / "lists").glob("*.html")} == {e for (e,) in events}
        assert len(list((site / lang / "events").glob("*.html"))) == len(events)
        assert list((site / lang / "clubs").glob("*.html")) and (site / lang / "pending" / "index.html").is_file()
    # The words are the Go site's, in each language: a ranking after an event, its grade column.
    latest = events[-1][0]
    said = {lang: (site / lang / "lists" / f"{latest}.html").read_text(encoding="utf-8") for lang in LANGUAGES}
    assert f"Ranking after {latest}" in said["en"] and "<th>Grade</th>" in said["en"]
    assert f"Classement après {latest}" in said["fr"] and "<th>Grade</th>" in said["fr"]
    assert f"Ranglijst na {latest}" in said["nl"] and "<th>Graad</th>" in said["nl"]
    assert f"Rangliste nach {latest}" in said["de"] and "<th>Kyu/Dan</th>" in said["de"]
    assert "Die Ranglisten nach jedem Turnier" in (site / "de" / "index.html").read_text(encoding="utf-8")
    # A Go registry has no birth year nor sex: those filters would find nobody, so they are not offered.
    assert '<label hidden>Category <select id="category"' in said["en"]
    assert '<label hidden>Sex <select id="sex"' in said["en"]


def test_an_events_page_is_the_rule_sets_own_calculations_for_every_player(go_site):
    w, _, site = go_site
    # go_history queried on its own: each player's grade and points before and after each
    # event and what the event gave (rating_after − start), to the printed tenth.
    expected = {}
    for event, player, gb, before, ga, after, change in _query(w, """
            select event_id, player_id, grade_before, round(rating_before, 1), grade_after, round(rating_after, 1),
                   round(change, 1)
            from go_history where series = (select series from series where not scenario)"""):
        expected.setdefault(event, {})[player] = [gb, before, ga, after, change]
    shown = {}
    for path in (site / "api" / "v1" / "events").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        columns = data["players"]["columns"]
        assert columns == ["player_id", "games", "score", "list_id", "rating", "change", "name", "grade_before",
                           "points_before", "grade_after", "points_after", "points_change"]
        (event,) = data["list_ids"]  # a Go event is its own period
        shown[event] = {row[0]: row[7:] for row in data["players"]["rows"]}
    # Every player of every event with a game on the page, each with go_history's numbers.
    for event, players in shown.items():
        assert players == {p: expected[event][p] for p in players}, event
        assert set(players) == {p for (p,) in _query(w, """select distinct player_id from (
            select black_id as player_id from go_games where event_id = ? union all
            select white_id from go_games where event_id = ?)""", [event, event])}
    (sides,), = _query(w, """select count(*) from (select distinct event_id, player_id from (
        select event_id, black_id as player_id from go_games union all select event_id, white_id from go_games))
        where event_id in (select list_id from lists)""")
    assert sum(len(p) for p in shown.values()) == sides > 40


def test_the_games_with_their_handicaps_and_winners(go_site):
    w, _, site = go_site
    games = {}
    for path in (site / "api" / "v1" / "events").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["games"]["columns"] == ["date", "round", "white_id", "black_id", "result", "handicap", "winner"]
        for date, _, white, black, result, handicap, winner in data["games"]["rows"]:
            games.setdefault((date, white, black), []).append((result, handicap, winner))
    stored = _query(w, """select date::varchar, white_id, black_id, winner, handicap from go_games
                          where event_id in (select list_id from lists)""")
    assert sum(len(g) for g in games.values()) == len(stored)
    # White's result as chess writes it; the winner as Go players do (B+: Black won).
    as_chess = {"W": "1-0", "B": "0-1", "jigo": "1/2-1/2", "W+F": "+/-", "B+F": "-/+"}
    for date, white, black, winner, handicap in stored:
        assert (as_chess[winner], handicap, {"B": "B+", "W": "W+"}.get(winner, winner)) in games[(date, white, black)]
    assert any(h for g in games.values() for _, h, _ in g)  # handicap games are there


def test_the_ranking_by_grade_then_points_from_the_latest_state(go_site):
    w, _, site = go_site
    (latest,), = _query(w, "select arg_max(list_id, position) from lists")
    data = _api(site, f"lists/{latest}.json")
    c = data["columns"]
    assert c[-1] == "grade" and c[:11] == ["player_id", "club", "rating", "change", "games", "sex", "region",
                                           "under", "senior_50", "senior_65", "active"]
    rows = [dict(zip(c, r)) for r in data["rows"]]
    # The points printed as the current list rounds them (half up), the grade the state's.
    state = {p: (r, g) for p, r, g in _query(w, """
        select s.player_id, floor(s.rating + 0.5)::bigint, x.grade from player_state s
        join go_state x using (series, list_id, player_id) where s.list_id = ?""", [latest])}
    assert {r["player_id"]: (r["rating"], r["grade"]) for r in rows} == state
    standing = [(_level(r["grade"]), r["rating"]) for r in rows]
    assert standing == sorted(standing, reverse=True)


def test_a_grade_ranks_before_the_points(belgian_once):
    # Under the Belgian rules a grade is kept down to 100 points below its lower bound and
    # won only strictly above its upper bound (G4): after the EGC 2011 a 4 dan at 253 points
    # keeps 4 dan (4 dan spans 300 … 400; demoted only below 200) and a 3 dan at 300 keeps
    # 3 dan (not above 300). Ranked by grade, the 4 dan is before the 3 dan, points or not.
    site = belgian_once / "site"
    data = _api(site, "lists/egc2011.json")
    rows = [dict(zip(data["columns"], r)) for r in data["rows"]]
    four = next(k for k, r in enumerate(rows) if (r["grade"], r["rating"]) == ("4d", 253))
    three = next(k for k, r in enumerate(rows) if (r["grade"], r["rating"]) == ("3d", 300))
    assert four < three
    # The ranking's first page says so too, its ranks among the active players.
    page = (site / "en" / "lists" / "egc2011.html").read_text(encoding="utf-8")
    assert 'data-ranked-by="grade"' in page


def test_a_players_grade_and_points_after_each_event(go_site):
    w, _, site = go_site
    for (player,) in _query(w, "select player_id from players order by player_id limit 40"):
        path = site / "api" / "v1" / "players" / f"{player}.json"
        if not path.exists():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["history"]["columns"] == ["list_id", "rating", "change", "games", "rank_active", "grade"]
        got = {row[0]: (row[1], row[5]) for row in data["history"]["rows"]}
        assert got == {e: (r, g) for e, r, g in _query(w, """
            select s.list_id, floor(s.rating + 0.5)::bigint, x.grade from player_state s
            join go_state x using (series, list_id, player_id) where s.player_id = ?""", [player])}


def test_the_downloads_are_the_published_state_files(go_site):
    w, out, site = go_site
    events = [e for (e,) in _query(w, "select list_id from lists order by position")]
    for event in events:
        folder = site / "downloads" / event
        assert (folder / f"{event}.parquet").read_bytes() == (out / "state" / f"{event}.parquet").read_bytes()
    latest = site / "downloads" / events[-1]
    for name in ("current.csv", "current.parquet"):  # as `ratings run` published them
        assert (latest / name).read_bytes() == (out / "lists" / name).read_bytes(), name
    # The spreadsheet's CSV (not published by default): publish's writer, on the same rows.
    excel = csv_bytes(pq.read_table(out / "lists" / "current.parquet"), "excel")
    assert (latest / "current-excel.csv").read_bytes() == excel
    page = (site / "fr" / "lists" / f"{events[-1]}.html").read_text(encoding="utf-8")
    assert "Liste actuelle (CSV)" in page and f"{events[-1]}.parquet" in page
    sums = (latest / "SHA256SUMS").read_text()
    assert "current.csv" in sums and f"{events[-1]}.parquet" in sums


def test_the_pending_games_of_the_next_event(go_site):
    w, _, site = go_site
    (a, b), = _query(w, "select min(player_id), max(player_id) from players")
    one = _api(site, f"pending/{a}.json")
    assert one["list_id"] == "club-2025"
    assert [(g["colour"], g["opponent_id"], g["result"]) for g in one["games"]] == [("black", b, "1")]
    page = (site / "fr" / "pending" / f"{b}.html").read_text(encoding="utf-8")
    assert "Club night 2025" in page
    # A Go event is not a list: the pages say the event received, in the page's language.
    assert "Parties reçues pour le tournoi club-2025" in page and "liste" not in page
    assert "Partijen van toernooi club-2025" in (site / "nl" / "pending" / "index.html").read_text(encoding="utf-8")


def test_every_api_file_against_the_extended_schema(go_site):
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    _, _, site = go_site
    api = site / "api" / "v1"
    schema = json.loads((api / "schema.json").read_text(encoding="utf-8"))
    registry = Registry().with_resource("schema.json", Resource.from_contents(schema))
    kinds = {"lists": "list", "players": "player", "events": "event", "pending": "pending",
             "lists.json": "lists", "players.json": "players", "events.json": "events"}
    checked = 0
    for path in sorted(api.rglob("*.json")):
        relative = path.relative_to(api).as_posix()
        if relative == "schema.json":
            continue
        kind = kinds[relative if "/" not in relative else relative.split("/")[0]]
        Draft202012Validator({"$ref": f"schema.json#/$defs/{kind}"}, registry=registry).validate(
            json.loads(path.read_text(encoding="utf-8")))
        checked += 1
    assert checked > 40


def test_a_go_site_as_a_user_runs_it(belgian_once, tmp_path):
    (w,) = copy_built(belgian_once, tmp_path, ["w.duckdb"])
    said = ratings(tmp_path, "site", "--out", "site", "--lang", "nl,fr", "--warehouse", w.name)
    assert "pages in 2 languages" in said and (tmp_path / "site" / "nl" / "index.html").is_file()
    rated = len(_query(w, "select list_id from lists where series = (select series from series where not scenario)"))
    assert f" players, {rated} events, " in said  # a Go site's periods are its rated events, and said so


# --- Glicko-2's deviation ------------------------------------------------------------


def glicko2_site(folder: Path) -> Path:
    """The small federation rated under Glicko-2 in `folder`, and its site: the site's folder."""
    files = write_small_federation(folder)
    cli = cli_runner()
    cli("run", "--system", "glicko2", "--players", files["players"], "--games", files["games"],
        "--warehouse", folder / "w.duckdb", "--out", folder / "out", "--no-reports")
    cli("site", "--out", folder / "site", "--warehouse", folder / "w.duckdb")
    return folder / "site"


@pytest.fixture(scope="module")
def glicko2_once(tmp_path_factory):
    folder = tmp_path_factory.mktemp("glicko2")
    glicko2_site(folder)
    return folder


def test_glicko2_shows_its_deviation_beside_the_rating(glicko2_once):
    w, site = glicko2_once / "w.duckdb", glicko2_once / "site"
    state = {(l, p): (r, d) for l, p, r, d in _query(w, """
        select s.list_id, s.player_id, s.rating::bigint, round(x.deviation)::bigint from player_state s
        join glicko2_state x using (series, list_id, player_id) where s.series = 'glicko2'""")}
    shown = {}
    for path in (site / "api" / "v1" / "lists").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["columns"][-1] == "deviation"
        for row in data["rows"]:
            shown[(data["list_id"], row[0])] = (row[2], row[-1])
    assert shown == state and len(shown) > 5
    # The player page says it beside the rating, in each language; the history carries it.
    (latest,), = _query(w, "select arg_max(list_id, position) from lists")
    player, (rating, deviation) = next((p, v) for (l, p), v in sorted(state.items()) if l == latest)
    page = (site / "fr" / "players" / f"{player}.html").read_text(encoding="utf-8")
    assert f"<dt>RD</dt><dd>{deviation}</dd>" in page
    history = _api(site, f"players/{player}.json")["history"]
    assert history["columns"][-1] == "deviation" and history["rows"][0][-1] == deviation
    ranking = (site / "en" / "lists" / f"{latest}.html").read_text(encoding="utf-8")
    assert "<th>Rating</th><th>RD</th>" in ranking


# --- a sixth rule set ----------------------------------------------------------------


def test_a_rule_set_added_through_the_registry_gets_a_site(cli, tmp_path, monkeypatch, small_federation):
    folder = tmp_path / "federation_rules"
    shutil.copytree(TOY, folder)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setitem(systems.REGISTRY, "plain-elo", "plain_elo")
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "plain-elo", "--players", small_federation["players"], "--ratings",
        small_federation["ratings"], "--games", small_federation["games"], "--warehouse", w, "--out",
        tmp_path / "out", "--no-reports")
    cli("site", "--out", tmp_path / "site", "--lang", "en,de", "--warehouse", w)
    site = tmp_path / "site"
    lists = [p.stem for p in (site / "en" / "lists").glob("*.html")]
    assert "2026-Q3" in lists and (site / "de" / "players" / "5.html").is_file()
    # Nothing of its own declared: the shared columns alone, its quarters as lists.
    data = _api(site, "lists/2026-Q3.json")
    assert data["columns"][-1] == "active" and len(data["rows"][0]) == 11
    assert dict((r[0], r[2]) for r in data["rows"])[5] == 1418  # tests/test_rule_set_interface.py's hand value


def test_every_declared_heading_is_in_all_four_catalogues():
    from pipeline.site.states import CURRENT, STATE

    words = {STATE, *(label for _, label, _ in CURRENT),
             "Ranking after %(event)s", "after %(event)s", "The rankings after each event", "Latest event",
             "Points and grades before and after the event, as the rules computed them."}
    for name in systems.REGISTRY:
        rule_set = systems.rule_set(name)
        face = rule_set.site
        words |= {c.heading for c in (*face.state, *face.event, *face.game_columns)} | {rule_set.rating_word}
    assert {"Grade", "RD", "Points before", "Handicap"} <= words
    for lang in LANGUAGES:
        messages = {m.id: m.string for m in catalogue(lang) if m.id}
        assert all(messages.get(w) for w in words), (lang, sorted(w for w in words if not messages.get(w)))
