"""`ratings site`: the static site players use, its catalogues, its data, and the
site in a real browser (Debian's Chromium driven by Selenium through Debian's
chromium-driver, both installed by .ci/run)."""
from __future__ import annotations

import contextlib
import functools
import gc
import json
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import duckdb
import pytest
from babel.messages.extract import extract_from_dir, extract_from_file

from pipeline.site.i18n import LANGUAGES, catalogue
from tests.as_user import RATINGS, ratings, tree
from tests.conftest import cli_runner, copy_built, write_rows

TEMPLATES = "pipeline/site/templates"
CODE = "pipeline/site/build.py"  # the words the script writes (<lang>/labels.js)


@pytest.fixture(scope="module")
def federation_once(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("federation")
    cli = cli_runner()
    players = write_rows(tmp_path / "players.csv",
                         ["player_id", "name", "birth_year", "club", "sex", "federation_region"], [
                             [1, "Anna Émile", 1980, "Club A", "F", "V"],
                             [2, "Bert <b>Bold</b>", 1975, "Club A", "M", "W"],
                             [3, "Cara Rated", 1990, "Club B", "F", "V"],
                             [4, "Dirk Rated", 1958, "Club B", "M", "B"],
                             [5, "Eva Junior", 2012, "Club B", "F", "V"],
                             [6, "Finn Idle", 1985, "Club C", "M", "W"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"],
                         [[1, 1800], [2, 1700], [3, 1600], [4, 1500], [5, 1400], [6, 1650]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event"], [
        ["2026-09-05", 1, 2, "1-0", "Club cup"], ["2026-09-05", 3, 4, "1/2-1/2", "Club cup"],
        ["2026-09-12", 2, 3, "0-1", "Club cup"], ["2026-09-12", 4, 1, "0-1", "Club cup"],
        ["2026-09-19", 5, 1, "1-0", "Club cup"], ["2027-01-09", 1, 3, "1/2-1/2", "Winter open"]])
    w = tmp_path / "w.duckdb"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w,
        "--out", tmp_path / "out", "--no-reports")
    site = tmp_path / "site"
    cli("site", "--out", site, "--warehouse", w)
    return tmp_path


@pytest.fixture
def federation(federation_once, tmp_path):
    """Six players with sex, region and birth years; a name that is markup; two lists:
    (warehouse, site), copies for this test of what the module made once."""
    return copy_built(federation_once, tmp_path, ["w.duckdb", "site"])


def _history(w, player_id):
    con = duckdb.connect(str(w), read_only=True)
    try:
        return con.execute("""select list_id, rating, coalesce(change::varchar, ''), games from rating_history
                              where player_id = ? order by list_id""", [player_id]).fetchall()
    finally:
        con.close()


def _api_history(site, player_id) -> list[tuple]:
    """A player's lists as the site's JSON gives them (newest first), as rating_history's rows."""
    data = json.loads((site / "api" / "v1" / "players" / f"{player_id}.json").read_text(encoding="utf-8"))
    assert data["history"]["columns"] == ["list_id", "rating", "change", "games", "rank_active"]
    return [(l, r, "" if c is None else str(int(c)), g) for l, r, c, g, *_ in reversed(data["history"]["rows"])]


def test_the_sample_has_a_page_per_rated_player_with_its_history(cli, tmp_path):
    w, site = tmp_path / "sample.duckdb", tmp_path / "site"
    cli("run", "--sample", "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    printed = cli("site", "--out", site, "--lang", "en", "--warehouse", w).output
    con = duckdb.connect(str(w), read_only=True)
    rated = {p for (p,) in con.execute("select distinct player_id from rating_history").fetchall()}
    some = [p for (p,) in con.execute("""select player_id from rating_history group by player_id
                                         order by count(*) desc, player_id limit 3""").fetchall()]
    con.close()
    pages = {int(p.stem) for p in (site / "en" / "players").iterdir()}
    assert pages == rated and f"{len(rated):,} players" in printed
    for player_id in some:
        assert _api_history(site, player_id) == [(l, r, str(int(c)) if c else "", g)
                                                 for l, r, c, g in _history(w, player_id)]


def test_the_download_formats_are_named_in_every_catalogue():
    from pipeline.site.downloads import DIFF, LIST_FORMATS, PUBLIC

    names = {LIST_FORMATS[f][1] for f in PUBLIC if f in LIST_FORMATS} | {DIFF[1]}
    assert "CSV (spreadsheet)" in names
    for lang in LANGUAGES:
        messages = {m.id: m.string for m in catalogue(lang) if m.id}
        assert all(messages.get(n) for n in names), (lang, names - set(messages))


def test_a_site_of_the_layout_before_the_api_loses_its_old_data_files(cli, federation):
    w, site = federation
    # The layout before the JSON API: the data as scripts in site/data/, no manifest.
    (site / ".site-manifest.json").unlink()
    (site / "data" / "lists").mkdir(parents=True)
    (site / "data" / "search.js").write_text("window.SEARCH = [];\n")
    (site / "data" / "lists" / "2027-01.js").write_text("window.LIST_ROWS = {};\n")
    cli("site", "--out", site, "--warehouse", w)
    assert not (site / "data").exists() and (site / "api" / "v1" / "lists.json").is_file()


def test_every_label_is_in_all_four_catalogues():
    from tests.conftest import PROJECT_DIR

    found = {m for _, _, m, _, _ in extract_from_dir(
        str(PROJECT_DIR / TEMPLATES), method_map=[("**.j2", "jinja2")],
        options_map={"**.j2": {"extensions": "jinja2.ext.i18n"}})}
    in_code = {m for _, m, _, _ in extract_from_file("python", str(PROJECT_DIR / CODE))}
    assert "No player found" in in_code
    found |= in_code
    assert len(found) > 30
    for lang in LANGUAGES:
        messages = {m.id: m.string for m in catalogue(lang) if m.id}
        assert found <= set(messages), (lang, sorted(found - set(messages)))
        assert all(messages[m] for m in found), lang
        # The placeholders of each message survive its translation.
        for m in found:
            assert sorted(re.findall(r"%\(\w+\)s", m)) == sorted(re.findall(r"%\(\w+\)s", messages[m])), (lang, m)


def test_no_private_data_and_names_escaped(federation):
    w, site = federation
    text = "\n".join(p.read_text(encoding="utf-8") for p in site.rglob("*") if p.is_file() and p.suffix != ".parquet")
    for year in ("1980", "1975", "1990", "1958", "2012", "1985"):
        # birth years give categories only (as a number: a hash may hold the digits, as "1990cd3306ad8cf0")
        assert not re.search(rf"(?<![0-9a-f]){year}(?![0-9a-f])", text), year
    page = (site / "fr" / "players" / "2.html").read_text()
    assert "Bert &lt;b&gt;Bold&lt;/b&gt;" in page and "<b>Bold</b>" not in page
    assert 'lang="fr"' in page and "Historique du classement" in page


def test_categories_activity_and_ranks(federation):
    w, site = federation
    rows = {r["player_id"]: r for r in _list_rows(site / "api" / "v1" / "lists" / "2027-01.json")}
    # Season 2026-27 (R2): ages on 1 January 2027. Eva (2012) is 14: under 16, not under 14;
    # Dirk (1958) is 68: 50+ and 65+; Bert (1975) is 51: 50+ only; Anna (1980) is 46: none.
    assert (rows[5]["under"], rows[5]["senior_50"]) == (16, False)
    assert (rows[4]["senior_50"], rows[4]["senior_65"]) == (True, True)
    assert (rows[2]["senior_50"], rows[2]["senior_65"]) == (True, False)
    assert (rows[1]["under"], rows[1]["senior_50"]) == (None, False)
    # Finn played no game in the twelve months up to the window's end: inactive.
    assert rows[6]["active"] == 0 and all(rows[p]["active"] == 1 for p in (1, 2, 3, 4, 5))
    # A club's page: its name's slug and the first 10 hex digits of SHA-256("Club A").
    assert rows[1]["sex"] == "F" and rows[4]["region"] == "B" and rows[2]["club_slug"] == "club-a-2db55b7499"
    # Active means one thing on the page: the ranking's count is of these five.
    page = (site / "en" / "lists" / "2027-01.html").read_text()
    assert "Active (a game in 12 months) 5 " in page and '<p id="shown" aria-live="polite">5 of 6 players</p>' in page
    # Players in categories and of a known sex: both filters offered (a Go ranking has neither).
    assert '<label>Category <select id="category"' in page and '<label>Sex <select id="sex"' in page


def _list_rows(path):
    """A list's rows from its compact JSON, the club's index read back to its name and slug."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = [dict(zip(data["columns"], r)) for r in data["rows"]]
    for r in rows:
        k = r["club"]
        r["club"], r["club_slug"] = (None, None) if k is None else (data["clubs"][k], data["club_slugs"][k])
    return rows


def test_explain_all_writes_every_card_of_a_list(cli, federation, tmp_path):
    w, _ = federation
    out = tmp_path / "cards"
    assert "cards of list 2027-01 written" in cli("explain", "--all", "--list", "2027-01", "--out", out,
                                                 "--warehouse", w).output
    con = duckdb.connect(str(w), read_only=True)
    players = {p for (p,) in con.execute("select player_id from calculations where list_id = '2027-01'").fetchall()}
    con.close()
    assert {int(p.stem) for p in out.glob("*.txt")} == players
    for player_id in players:  # the bulk card is the card of `ratings explain`
        single = cli("explain", player_id, "--list", "2027-01", "--warehouse", w).output
        assert (out / f"{player_id}.txt").read_text(encoding="utf-8") == single
    card = (out / "1.txt").read_text(encoding="utf-8")
    assert "Bert <b>Bold</b>" in card and "Club cup" in card and "2026-09-05" in card  # opponents and events named


def test_the_pages_are_written_whatever_garbage_the_process_holds(cli, federation, tmp_path, monkeypatch):
    # Each language's pages are written by a forked process; one whose garbage collector
    # met a DuckDB connection inherited from this process crashed (a segmentation fault,
    # under pytest-xdist). Here a connection is left in a reference cycle, and each child
    # collects first thing.
    from pipeline.site import build

    pages = build._render

    @functools.wraps(pages)  # the same name: the pool sends it to the children by name
    def collecting_first(share):
        gc.collect()
        return pages(share)

    monkeypatch.setattr(build, "_render", collecting_first)
    monkeypatch.setattr(build, "POOL_FROM", 1)  # a pool, however few the pages
    w, _ = federation
    cycle = [duckdb.connect(str(tmp_path / "other.duckdb"))]
    cycle.append(cycle)
    del cycle  # garbage only a collection frees
    gc.disable()
    try:
        printed = cli("site", "--out", tmp_path / "site", "--lang", "en,fr", "--warehouse", w).output
    finally:
        gc.enable()
    assert "2 languages," in printed


@pytest.mark.parametrize("languages", ["en", "en,fr"])
def test_the_same_site_whatever_the_cores(cli, federation, tmp_path, monkeypatch, languages):
    # Each language's players are split in shards that keep the cores busy (three cores:
    # three shards of each language, whether one or two): the pages are the same bytes
    # as those one process writes alone.
    from pipeline.site import build

    w, _ = federation
    sites = {}
    monkeypatch.setattr(build, "POOL_FROM", 1)
    for cores in (1, 3):
        monkeypatch.setattr(build.os, "cpu_count", lambda cores=cores: cores)
        sites[cores] = tmp_path / f"site-{cores}"
        cli("site", "--out", sites[cores], "--lang", languages, "--warehouse", w)
    files = {cores: {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
             for cores, site in sites.items()}
    # Six players, all on the lists (Finn Idle, who plays no game, keeps his rating): a page
    # each in each language, however many shards wrote them.
    assert len([p for p in files[3] if p.parent.name == "players" and p.parts[0] != "api"]) == 6 * len(
        languages.split(","))
    assert files[1] == files[3]


def test_a_site_of_the_later_lists_only(cli, federation, tmp_path):
    w, _ = federation
    site = tmp_path / "since"
    printed = cli("site", "--out", site, "--lang", "nl", "--since", "2027-05", "--warehouse", w).output
    assert "1 list," in printed and "1 language," in printed
    assert sorted(p.name for p in (site / "nl" / "lists").iterdir()) == ["2027-05.html"]
    assert [h[0] for h in _api_history(site, 1)] == ["2027-05"]
    refused = cli("site", "--out", site, "--since", "2031-01", "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "no list '2031-01'" in refused.output


def test_a_rerun_rewrites_only_what_changed(cli, federation, tmp_path):
    w, site = federation
    again = cli("site", "--out", site, "--warehouse", w).output
    assert "0 files changed," in again  # nothing new: every file left as it was
    # A late result in the last list's window (2027-01 - 2027-04: list 2027-05): Anna
    # (1) beats Dirk (4) again. It changes their pages, the list's page and data, the
    # players whose rank among the active moved; not the pages of the first list.
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result", "event"],
                      [["2027-01-16", 1, 4, "1-0", "Late club game"]])
    cli("run", "--games", late, "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    printed = cli("site", "--out", site, "--warehouse", w).output
    changed, unchanged = map(lambda n: int(n.replace(",", "")),
                             re.search(r"([\d,]+) files changed, ([\d,]+) unchanged", printed).groups())
    after = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    rewritten = {p for p in after if before.get(p) != after[p]}
    # The count says what happened on disk (the manifest and new files aside).
    assert 0 < len(rewritten - {site / ".site-manifest.json"}) <= changed < changed + unchanged
    assert site / "en" / "lists" / "2027-05.html" in rewritten
    assert site / "api" / "v1" / "players" / "1.json" in rewritten
    assert site / "en" / "lists" / "2027-01.html" not in rewritten
    assert site / "api" / "v1" / "lists" / "2027-01.json" not in rewritten
    event = json.loads((site / "api" / "v1" / "events.json").read_text())
    assert "Late club game" in [e[1] for e in event["rows"]]
    # Fewer languages: the others' pages are removed, the rest left alone.
    printed = cli("site", "--out", site, "--lang", "en", "--warehouse", w).output
    assert "removed" in printed and not (site / "fr").exists() and (site / "en" / "players" / "1.html").is_file()


def test_the_ranking_first_page_is_in_the_html(federation):
    w, site = federation
    page = (site / "fr" / "lists" / "2027-01.html").read_text()
    body = page.split('id="ranking"')[1].split("</tbody>")[0]
    shown = re.findall(r'<td>(\d+)</td><td class="wide">(\d+)</td><td class="text"><a href="../players/\d+.html">([^<]+)'
                       r'</a>', body)
    con = duckdb.connect(str(w), read_only=True)
    # The active players (a game in the 12 months up to 2026-12-31: all but Finn, 6),
    # best first, ranked among themselves; names escaped as in the page.
    expected = con.execute("""select player_id, name from rating_history where list_id = '2027-01' and player_id <> 6
                              order by rating desc, player_id""").fetchall()
    con.close()
    assert [(int(i), n) for _, i, n in shown] == [(p, n.replace("<", "&lt;").replace(">", "&gt;")) for p, n in expected]
    assert [int(r) for r, _, _ in shown] == [1, 2, 3, 4, 5]  # no tie: 1800+ ... distinct ratings
    # Regions by name in the page's language, their codes as the filter's values.
    assert '<option value="V">Flandre (V)</option>' in page


def test_downloads_with_their_checksums(cli, federation, tmp_path):
    import hashlib

    w, site = federation
    out = tmp_path / "published"
    cli("publish", "--out", out, "--warehouse", w, "--format", "csv,parquet,txt,swiss-manager")
    folder = site / "downloads" / "2027-05"
    # The latest list's files are the published ones, byte for byte.
    published = sorted(p.name for p in (out / "lists").glob("2027-05*")
                       if "-r" not in p.name and not p.name.endswith((".txt", "-swiss-manager.csv")))
    assert "2027-05.csv" in published and "2027-05.parquet" in published
    for name in published:
        assert (folder / name).read_bytes() == (out / "lists" / name).read_bytes(), name
    sums = dict(reversed(line.split("  ")) for line in (folder / "SHA256SUMS").read_text().splitlines())
    assert sums["2027-05.csv"] == hashlib.sha256((out / "lists" / "2027-05.csv").read_bytes()).hexdigest()
    page = (site / "en" / "lists" / "2027-05.html").read_text()
    assert f'href="../../downloads/2027-05/2027-05.csv" download' in page and sums["2027-05.csv"] in page
    listed = json.loads((site / "api" / "v1" / "lists.json").read_text())["lists"]
    assert {f["name"]: f["sha256"] for f in listed[-1]["files"]} == sums
    assert set(sums) >= set(published)
    # The pairing layouts carry birth years (an arbiter's files): never on the public site.
    assert not [n for n in sums if n.endswith((".txt", "-swiss-manager.csv"))]
    # In French: the formats named in French, the size with a decimal comma.
    french = (site / "fr" / "lists" / "2027-05.html").read_text()
    size = (folder / "2027-05-excel.csv").stat().st_size
    kilobytes = f"{size / 1000:.1f}".replace(".", ",")  # French: a decimal comma
    assert f"2027-05-excel.csv</a> · CSV (tableur) · {kilobytes} kB" in french
    assert listed[0]["files"] == []  # --downloads 1: the latest list only


def test_every_page_template_is_its_blocks():
    # The site renders a page's title and main blocks on their own and puts them in its
    # language's frame (pipeline/site/build.py): a statement outside the blocks (a
    # `set`, once, in the pending index) would never run. Each template that extends
    # the frame holds nothing else but its blocks.
    from jinja2 import nodes

    from pipeline.site.i18n import environment, translations
    from tests.conftest import PROJECT_DIR

    env = environment("en", translations("en"))
    checked = 0
    for path in sorted((PROJECT_DIR / TEMPLATES).glob("*.html.j2")):
        if path.name == "base.html.j2":
            continue
        tree = env.parse(path.read_text(encoding="utf-8"))
        outside = [type(n).__name__ for n in tree.body if not isinstance(n, (nodes.Extends, nodes.Block))
                   and not (isinstance(n, nodes.Output) and all(isinstance(c, nodes.TemplateData)
                                                                  and not c.data.strip() for c in n.nodes))]
        assert outside == [], (path.name, outside)
        assert {b.name for b in tree.find_all(nodes.Block)} >= {"title", "main"}, path.name
        checked += 1
    assert checked >= 7


def test_an_event_is_on_the_list_its_rule_set_rated_it_on(cli, tmp_path):
    # FIDE rates an event as a whole on a list after it ends (ruling X1): an event of 26
    # September to 3 October is one event of one list on the FIDE site, the list whose
    # calculations count those games (read from the rating's own record, not the site's),
    # with all its games; the performance Elo's site puts each game on the list whose
    # window holds its day.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[1, "Anna", 1980], [2, "Bert", 1980], [3, "Cara", 1980], [4, "Dirk", 1980]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700], [3, 1600], [4, 1500]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event"],
                       [["2026-09-26", 1, 2, "1-0", "Autumn open"], ["2026-09-26", 3, 4, "0-1", "Autumn open"],
                        ["2026-10-03", 1, 3, "1/2-1/2", "Autumn open"], ["2026-10-03", 2, 4, "1-0", "Autumn open"]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w, "--out", out,
        "--no-reports")
    cli("run", "--system", "fide", "--warehouse", w, "--out", out, "--no-reports")
    with duckdb.connect(str(w), read_only=True) as con:
        rated_on = {s: sorted(l for (l,) in con.execute(
            "select distinct list_id from calculations where series = ? and games_played > 0", [s]).fetchall())
            for s in ("fide", "performance")}
    assert len(rated_on["fide"]) == 1  # the whole event on one FIDE list
    for system in ("fide", "performance"):
        site = tmp_path / f"site-{system}"
        cli("site", "--out", site, "--lang", "en", "--system", system, "--warehouse", w)
        # Its file: the name's slug and the first 10 hex digits of SHA-256("Autumn open").
        event = json.loads((site / "api" / "v1" / "events" / "autumn-open-405a199d89.json").read_text())
        assert event["list_ids"] == rated_on[system], system
        # Its four games all there (FIDE's first window opens on 29 September: the games of
        # the 26th are rated with their event, not dropped as outside every window).
        assert len(event["games"]["rows"]) == 4, system
        assert {r[3] for r in event["players"]["rows"]} == set(rated_on[system][-1:]), system


def test_a_rating_is_called_what_its_rule_set_calls_it(cli, federation, tmp_path):
    # The Elo rule sets' ratings are "Elo" in every language; another rule set's (Glicko-2)
    # is a rating in the page's language, never "Elo", its RD beside it; the Go rule sets'
    # are points.
    from pipeline import systems

    words = {systems.rule_set_class(n).rating_word for n in systems.names()}
    assert words == {"Elo", "Rating", "Points"}
    for lang in LANGUAGES:
        messages = {m.id: m.string for m in catalogue(lang) if m.id}
        assert all(messages.get(w) for w in words), lang
    w, site = federation
    assert "<th>Elo</th><th>Écart</th>" in (site / "fr" / "lists" / "2027-05.html").read_text()
    cli("run", "--system", "glicko2", "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    glicko = tmp_path / "glicko2-site"
    cli("site", "--out", glicko, "--lang", "fr", "--system", "glicko2", "--warehouse", w)
    page = (glicko / "fr" / "lists" / sorted(p.name for p in (glicko / "fr" / "lists").iterdir())[-1]).read_text()
    assert "<th>Classement</th><th>RD</th><th>Écart</th>" in page and ">Elo<" not in page
    assert '"rating": "Classement"' in (glicko / "fr" / "labels.js").read_text()


def test_a_player_idle_on_the_latest_list_is_not_ranked_there(cli, tmp_path):
    """Gus plays in September 2026 only; Anna and Cara also in January 2028. On the
    latest list, 2028-05 (window January-April 2028), Gus's last game is more than twelve
    months before the window's end: inactive, so his page ranks him nowhere, not at the
    rank an earlier list gave him (2 of 3 on 2027-01, behind Anna's win over him)."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[1, "Anna", 1980], [3, "Cara", 1990], [7, "Gus", 1970]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [3, 1500], [7, 1700]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-09-05", 1, 7, "1-0"], ["2026-09-12", 7, 3, "1-0"], ["2028-01-08", 1, 3, "1/2-1/2"]])
    w, site = tmp_path / "w.duckdb", tmp_path / "site"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w,
        "--out", tmp_path / "out", "--no-reports")
    cli("site", "--out", site, "--lang", "en", "--warehouse", w)
    history = json.loads((site / "api" / "v1" / "players" / "7.json").read_text(encoding="utf-8"))["history"]
    ranks = {row[0]: row[-1] for row in history["rows"]}
    assert ranks["2027-01"] == 2 and ranks["2028-05"] is None
    page = (site / "en" / "players" / "7.html").read_text(encoding="utf-8")
    assert "not ranked: no rated game in the last 12 months" in page


# The site folder is copied to and from a public host: what comes back is not trusted.

def test_a_manifest_naming_files_outside_the_site_is_refused_and_touches_nothing(federation, tmp_path):
    w, site = federation
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x").write_text("the officer's own file")
    (tmp_path / "x").write_text("beside the site")
    manifest = site / ".site-manifest.json"
    names = json.loads(manifest.read_text())
    warehouse = w.read_bytes()
    for outside in ("../x", str(elsewhere / "x"), "../w.duckdb", "en/../../x", "./../x"):
        # As an earlier run's file no longer made, which a re-run removes.
        manifest.write_text(json.dumps({**names, outside: "0123456789abcdef"}))
        before = tree(site)
        said = ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb", code=1)
        assert f"site/.site-manifest.json: not the manifest `ratings site` writes, its entry {outside!r} is not a " \
               "file inside the site folder" in said and "nothing was written or removed" in said, said
        assert (elsewhere / "x").read_text() == "the officer's own file" and (tmp_path / "x").is_file()
        assert w.read_bytes() == warehouse
        assert tree(site) == before
    # The manifest this command wrote: the site is made again as before.
    manifest.write_text(json.dumps(names))
    assert "0 files changed" in ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb")


@pytest.mark.parametrize("text, problem", [
    ('["en/index.html"]', "an array where the site's files are an object"),
    ('"en/index.html"', "a string where the site's files are an object"),
    ("null", "null where the site's files are an object"),
    ('{"en/index.html": ', "not JSON (Expecting value: line 1 column 19 (char 18))"),
    ('{"en/index.html": ["../x"]}', 'its entry \'en/index.html\' holds ["../x"], not a hash this command writes'),
    ('{".ratings-output": "0123456789abcdef"}', "its entry '.ratings-output' is not a file inside the site folder"),
])
def test_a_manifest_not_written_by_the_site_is_one_message(federation, tmp_path, text, problem):
    w, site = federation
    (site / ".site-manifest.json").write_text(text)
    before = tree(site)
    said = ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb", code=1)
    assert said.startswith(f"Error: site/.site-manifest.json: not the manifest `ratings site` writes, {problem}. ")
    assert "write the site into a new folder (or empty site)" in said
    assert tree(site) == before


def test_a_link_in_the_site_folder_is_refused_before_anything_is_written(federation, tmp_path):
    # The players' pages moved elsewhere and a link left in their place: a re-run would
    # write there, and remove there what its manifest names and it no longer makes.
    w, site = federation
    elsewhere = tmp_path / "elsewhere"
    shutil.move(site / "en" / "players", elsewhere)
    (site / "en" / "players").symlink_to(elsewhere)
    (elsewhere / "mine.html").write_text("the officer's own page")
    manifest = site / ".site-manifest.json"
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "en/players/mine.html": "0123456789abcdef"}))
    (elsewhere / "1.html").write_text("changed, so that a re-run would write it again")
    outside = tree(elsewhere)
    said = ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb", code=1)
    assert f"site/en/players: a symbolic link in the site folder (to {elsewhere})" in said
    assert "remove the link, or give another --out" in said
    assert tree(elsewhere) == outside
    (site / "en" / "players").unlink()
    (site / "en" / "index.html").unlink()
    (site / "en" / "index.html").symlink_to(w)  # a file's link: the warehouse read, written through it
    said = ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb", code=1)
    assert f"site/en/index.html: a symbolic link in the site folder (to {w})" in said


def _children(pid: int) -> set[int]:
    """The processes `pid` started and that are still its children (Linux's /proc)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie is dead, waiting for its new parent to collect it


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the processes from Linux's /proc")
def test_kill_9_of_the_site_kills_its_workers_and_frees_the_warehouse(tmp_path):
    # The embedded sample (a Belgian season, 15,000 pages a language): the pages of four
    # languages take the workers long enough to be killed while they write.
    ratings(tmp_path, "run", "--sample", "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    site = subprocess.Popen([RATINGS, "site", "--out", "site", "--warehouse", "w.duckdb"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (workers := _children(site.pid)) and site.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert workers, "no worker process was started"
        site.send_signal(signal.SIGKILL)
    finally:
        site.kill()
        site.wait()
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in workers if _alive(p)], "workers outlived the site's process"
    duckdb.connect(str(tmp_path / "w.duckdb")).close()  # for writing: no one holds it
    # The next run makes the site whole, without the temporary files the workers were writing.
    ratings(tmp_path, "site", "--out", "site", "--lang", "en", "--warehouse", "w.duckdb")
    assert not list((tmp_path / "site").rglob(".*.tmp"))


def test_a_clubs_page_is_named_by_its_own_name_alone(cli, tmp_path):
    # "Club A" and "CLUB A" make one slug: the page of "Club A" stays where it was when a
    # club of that slug comes, and each club has a page of its own. So do events.
    pages = {}
    for clubs, event in ((["Club A", "Club B"], "Autumn open"), (["Club A", "CLUB A"], "CLUB CUP")):
        folder = tmp_path / clubs[1].replace(" ", "_")
        folder.mkdir()
        players = write_rows(folder / "players.csv", ["player_id", "name", "birth_year", "club"],
                             [[1, "Anna", 1980, clubs[0]], [2, "Bert", 1980, clubs[1]]])
        ratings = write_rows(folder / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700]])
        games = write_rows(folder / "games.csv", ["date", "white_id", "black_id", "result", "event"],
                           [["2026-09-05", 1, 2, "1-0", "Club cup"], ["2026-09-12", 2, 1, "1-0", event]])
        cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", folder / "w.duckdb",
            "--out", folder / "out", "--no-reports")
        cli("site", "--out", folder / "site", "--lang", "en", "--warehouse", folder / "w.duckdb")
        player = json.loads((folder / "site" / "api" / "v1" / "players" / "1.json").read_text(encoding="utf-8"))
        events = json.loads((folder / "site" / "api" / "v1" / "events.json").read_text(encoding="utf-8"))
        pages[clubs[1]] = {"club": player["club_slug"], "events": {name: slug for slug, name, *_ in events["rows"]},
                           "clubs": sorted(p.name for p in (folder / "site" / "en" / "clubs").iterdir()),
                           "event pages": sorted(p.name for p in (folder / "site" / "en" / "events").iterdir())}
    # A page's name: the slug and the first 10 hex digits of SHA-256 of the name (of "Club A":
    # 2db55b7499, "CLUB A": 5ec5dc37d5, "Club cup": 97aa8a2e43, "CLUB CUP": 2734a6d1c3).
    assert pages["Club B"]["club"] == pages["CLUB A"]["club"] == "club-a-2db55b7499"
    assert pages["CLUB A"]["clubs"] == ["club-a-2db55b7499.html", "club-a-5ec5dc37d5.html"]
    assert pages["Club B"]["events"]["Club cup"] == pages["CLUB A"]["events"]["Club cup"] == "club-cup-97aa8a2e43"
    assert pages["CLUB A"]["event pages"] == ["club-cup-2734a6d1c3.html", "club-cup-97aa8a2e43.html"]
