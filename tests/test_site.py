"""`ratings site`: the static site players use, its catalogues, its data, and the
site in a real browser (Debian's Chromium driven by Selenium through Debian's
chromium-driver, both installed by .ci/run)."""
from __future__ import annotations

import functools
import gc
import re
import shutil

import duckdb
import pytest
from babel.messages.extract import extract_from_dir

from pipeline.site.i18n import LANGUAGES, catalogue
from tests.conftest import cli_runner, copy_built, write_rows

TEMPLATES = "pipeline/site/templates"
IN_CODE = ("No player found", "%(shown)s of %(total)s players")  # pipeline/site/build.py gives them to the script


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


def _page_history(page: str) -> list[tuple]:
    body = page.split('id="history"')[1].split("</table>")[0]
    rows = re.findall(r'<tr data-list="([^"]+)">.*?</a></td>\s*<td>(\d+)</td><td>([+-]?\d*)</td><td>(\d+)</td>', body,
                      re.S)
    return [(list_id, int(rating), change.lstrip("+"), int(games)) for list_id, rating, change, games in rows]


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
        page = (site / "en" / "players" / f"{player_id}.html").read_text()
        assert _page_history(page) == [(l, r, str(int(c)) if c else "", g) for l, r, c, g in _history(w, player_id)]


def test_every_label_is_in_all_four_catalogues():
    from tests.conftest import PROJECT_DIR

    found = {m for _, _, m, _, _ in extract_from_dir(
        str(PROJECT_DIR / TEMPLATES), method_map=[("**.j2", "jinja2")],
        options_map={"**.j2": {"extensions": "jinja2.ext.i18n"}})} | set(IN_CODE)
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
    text = "\n".join(p.read_text(encoding="utf-8") for p in site.rglob("*") if p.is_file())
    for year in ("1980", "1975", "1990", "1958", "2012", "1985"):
        assert year not in text  # birth years give categories only
    page = (site / "fr" / "players" / "2.html").read_text()
    assert "Bert &lt;b&gt;Bold&lt;/b&gt;" in page and "<b>Bold</b>" not in page
    assert 'lang="fr"' in page and "Historique du classement" in page


def test_categories_activity_and_ranks(federation):
    w, site = federation
    rows = {r["id"]: r for r in _list_rows(site / "data" / "lists" / "2027-01.js")}
    # Season 2026-27 (R2): ages on 1 January 2027. Eva (2012) is 14: under 16, not under 14;
    # Dirk (1958) is 68: 50+ and 65+; Bert (1975) is 51: 50+ only; Anna (1980) is 46: none.
    assert (rows[5]["under"], rows[5]["s50"]) == (16, False)
    assert (rows[4]["s50"], rows[4]["s65"]) == (True, True)
    assert (rows[2]["s50"], rows[2]["s65"]) == (True, False)
    assert (rows[1]["under"], rows[1]["s50"]) == (None, False)
    # Finn played no game in the twelve months up to the window's end: inactive.
    assert rows[6]["active"] is False and all(rows[p]["active"] for p in (1, 2, 3, 4, 5))
    assert rows[1]["sex"] == "F" and rows[4]["region"] == "B" and rows[2]["slug"] == "club-a"


def _list_rows(path):
    import json

    text = path.read_text(encoding="utf-8")
    data = json.loads(text[text.index("=") + 1:].rstrip().rstrip(";"))
    return [dict(zip(data["columns"], r)) for r in data["rows"]]


def test_explain_all_writes_every_card_of_a_list(cli, federation, tmp_path):
    w, _ = federation
    out = tmp_path / "cards"
    assert "cards of list 2027-01 written" in cli("explain", "--all", "--list", "2027-01", "--out", out,
                                                 "--warehouse", w).output
    con = duckdb.connect(str(w), read_only=True)
    players = {p for (p,) in con.execute("select player_id from calculations where list_id = '2027-01'").fetchall()}
    con.close()
    assert {int(p.stem) for p in out.iterdir()} == players
    for player_id in players:  # the bulk card is the card of `ratings explain`
        single = cli("explain", player_id, "--list", "2027-01", "--warehouse", w).output
        assert (out / f"{player_id}.txt").read_text(encoding="utf-8") == single
    card = (out / "1.txt").read_text(encoding="utf-8")
    assert "Bert <b>Bold</b>" in card and "Club cup" in card and "2026-09-05" in card  # opponents and events named


CHROMEDRIVER = shutil.which("chromedriver")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMEDRIVER is None or CHROMIUM is None,
                    reason="Chromium and its driver are not installed (.ci/run installs Debian's packages)")
def test_the_site_in_a_real_browser(federation, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    w, site = federation
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the pages' console, read below
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)

    def no_console_error(page: str) -> None:
        # A script error on load (the ranking once ran before its labels were defined) is a
        # page that shows nothing where it should: every page type is loaded and read for one.
        driver.get(page)
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == [], (page, errors)

    wait = WebDriverWait(driver, 10)
    try:
        driver.get((site / "index.html").as_uri())  # the redirect to the first language
        wait.until(lambda d: d.current_url.endswith("/en/index.html"))
        driver.find_element(By.LINK_TEXT, "2027-05").click()
        # Search by a part of the name, accents folded: "emil" finds Anna Émile.
        box = driver.find_element(By.ID, "search")
        box.send_keys("emil")
        hits = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results a"))
        assert [h.text for h in hits] == ["Anna Émile (1) · Club A"]
        driver.save_screenshot(str(tmp_path / "search.png"))
        hits[0].click()
        wait.until(lambda d: d.current_url.endswith("/en/players/1.html"))
        assert driver.find_element(By.ID, "player-name").text.startswith("Anna Émile")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#chart svg polyline")) == 1
        shown = [tuple(c.text for c in r.find_elements(By.TAG_NAME, "td"))
                 for r in driver.find_elements(By.CSS_SELECTOR, "#history tbody tr")]
        assert [(s[0], int(s[1]), s[3]) for s in shown] == [(l, r, str(g)) for l, r, _, g in _history(w, 1)]
        assert driver.find_elements(By.CSS_SELECTOR, "#cards details pre")  # the latest list's card
        driver.save_screenshot(str(tmp_path / "player.png"))
        # Another language, the same player.
        driver.find_element(By.ID, "lang-de").click()
        wait.until(lambda d: d.current_url.endswith("/de/players/1.html"))
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
        assert "Wertungsverlauf" in driver.page_source
        # A list filtered: under 16 is Eva alone; women are Anna, Cara, Eva; the name as markup is text.
        driver.get((site / "de" / "lists" / "2027-01.html").as_uri())
        names = lambda: [r.find_elements(By.TAG_NAME, "td")[2].text  # noqa: E731
                         for r in driver.find_elements(By.CSS_SELECTOR, "#ranking tbody tr")]
        assert "Bert <b>Bold</b>" in names() and not driver.find_elements(By.CSS_SELECTOR, "#ranking b")
        assert "Finn Idle" not in names()  # inactive: left out of the ranking by default
        driver.find_element(By.ID, "active").click()
        assert "Finn Idle" in names()
        driver.find_element(By.ID, "active").click()
        Select(driver.find_element(By.ID, "category")).select_by_value("u16")
        assert names() == ["Eva Junior"]
        Select(driver.find_element(By.ID, "category")).select_by_value("")
        Select(driver.find_element(By.ID, "sex")).select_by_value("F")
        assert names() == ["Anna Émile", "Cara Rated", "Eva Junior"]
        ranks = [r.find_elements(By.TAG_NAME, "td")[0].text for r in driver.find_elements(By.CSS_SELECTOR, "#ranking tbody tr")]
        assert ranks == ["1", "2", "3"]  # ranked among the women shown
        assert "3 von 6 Spielern" in driver.find_element(By.ID, "shown").text
        driver.save_screenshot(str(tmp_path / "list.png"))
        assert all((tmp_path / f"{n}.png").stat().st_size > 10_000 for n in ("search", "player", "list"))
        for lang in ("en", "fr", "nl", "de"):
            for page in ("index.html", "players/1.html", "lists/2027-01.html"):
                no_console_error((site / lang / page).as_uri())
            # the ranking's count is drawn on load, before any filter changes
            assert driver.find_element(By.ID, "shown").text.strip() != ""
    finally:
        driver.quit()


def test_the_pages_are_written_whatever_garbage_the_process_holds(cli, federation, tmp_path, monkeypatch):
    # Each language's pages are written by a forked process; one whose garbage collector
    # met a DuckDB connection inherited from this process crashed (a segmentation fault,
    # under pytest-xdist). Here a connection is left in a reference cycle, and each child
    # collects first thing.
    from pipeline.site import build

    pages = build._language_pages

    @functools.wraps(pages)  # the same name: the pool sends it to the children by name
    def collecting_first(*part):
        gc.collect()
        return pages(*part)

    monkeypatch.setattr(build, "_language_pages", collecting_first)
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
    for cores in (1, 3):
        monkeypatch.setattr(build.os, "cpu_count", lambda cores=cores: cores)
        sites[cores] = tmp_path / f"site-{cores}"
        cli("site", "--out", sites[cores], "--lang", languages, "--warehouse", w)
    files = {cores: {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
             for cores, site in sites.items()}
    # Six players, all on the lists (Finn Idle, who plays no game, keeps his rating): a page
    # each in each language, however many shards wrote them.
    assert len([p for p in files[3] if p.parent.name == "players"]) == 6 * len(languages.split(","))
    assert files[1] == files[3]


def test_a_site_of_the_later_lists_only(cli, federation, tmp_path):
    w, _ = federation
    site = tmp_path / "since"
    printed = cli("site", "--out", site, "--lang", "nl", "--since", "2027-05", "--warehouse", w).output
    assert "1 list," in printed and "1 language," in printed
    assert sorted(p.name for p in (site / "nl" / "lists").iterdir()) == ["2027-05.html"]
    page = (site / "nl" / "players" / "1.html").read_text()
    assert [h[0] for h in _page_history(page)] == ["2027-05"]
    refused = cli("site", "--out", site, "--since", "2031-01", "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "no list '2031-01'" in refused.output
