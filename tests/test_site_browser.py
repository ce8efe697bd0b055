"""The site in a real browser (Debian's Chromium through Selenium and chromium-driver),
served over HTTP as a web server serves it (the pages read api/v1/ with fetch()): no
console error on any page type in any language, the core columns on a 390 px phone,
the calculation card in French, the commission's correction on the player page, a
filtered ranking opened from its URL, the ranking with JavaScript off, axe-core's
accessibility checks; and, without a browser, the JSON API against its schema and
the warehouse. With SITE_SCREENSHOTS=1 the README's screenshots are written to
docs/screenshots/ (else to the test's folder, so that a normal run changes nothing).

One site is built for the module (a small federation of nine players, three lists, a
correction by the rating commission and games received for the next list), and one
driver serves each test function across its pages."""
from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import duckdb
import pytest

from pipeline.site.i18n import LANGUAGES, LOCALE
from tests.conftest import PROJECT_DIR, cli_runner, write_rows

CHROMEDRIVER = shutil.which("chromedriver")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_browser = pytest.mark.skipif(
    CHROMEDRIVER is None or CHROMIUM is None,
    reason="Chromium and its driver are not installed (.ci/run installs Debian's packages)")

LANGS = list(LANGUAGES)  # en, fr, nl, de
LATEST = "2027-09"  # the games of May 2027 (window May - August 2027)
CORRECTED = "2027-05"  # the list the commission corrected
CORRECTED_PLAYER, CORRECTED_RATING = 3, 1630
REASON = "Round 2 of the Winter open reversed on appeal"
IDLE = {9}  # Ida Idle plays no game: inactive on every list, out of the default ranking
CARD_PLAYER = 1  # Anna plays Eva and Finn at the Spring open (May 2027): a card on list 2027-09
PHONE, DESKTOP = (390, 900), (1200, 900)

# player_id, name, birth_year, club, sex, region (V, F, D)
PLAYERS = [
    [1, "Anna Émile", 1980, "Club A", "F", "V"],
    [2, "Bert Bold", 1975, "Club A", "M", "F"],
    [3, "Cara Rated", 1990, "Club B", "F", "V"],
    [4, "Dirk Rated", 1958, "Club B", "M", "D"],
    [5, "Eva Junior", 2012, "Club B", "F", "V"],
    [6, "Finn Border", 2011, "Club C", "M", "F"],
    [7, "Gaby Older", 2010, "Club C", "F", "D"],
    [8, "Hugo Young", 2014, "Club A", "M", "F"],
    [9, "Ida Idle", 1985, "Club C", "F", "V"],
]
GAME_COLUMNS = ["date", "white_id", "black_id", "result", "event", "round"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The federation rated into lists 2027-01, 2027-05 and 2027-09; player 3's rating of
    2027-05 corrected by the commission and the lists rated again (2027-05 and 2027-09
    at revision 2); games of September 2027 taken in for the next list; the site in four
    languages with --pending. The folder: w.duckdb, site/."""
    folder = tmp_path_factory.mktemp("browser")
    cli = cli_runner()
    players = write_rows(folder / "players.csv",
                         ["player_id", "name", "birth_year", "club", "sex", "federation_region"], PLAYERS)
    ratings = write_rows(folder / "ratings.csv", ["player_id", "rating"], [
        [1, 1800], [2, 1700], [3, 1600], [4, 1500], [5, 1400], [6, 1450], [7, 1550], [8, 1300], [9, 1650]])
    games = write_rows(folder / "games.csv", GAME_COLUMNS, [
        ["2026-09-05", 1, 2, "1-0", "Club cup", 1], ["2026-09-05", 3, 4, "1/2-1/2", "Club cup", 1],
        ["2026-09-05", 5, 6, "1-0", "Club cup", 1], ["2026-09-05", 7, 8, "0-1", "Club cup", 1],
        ["2026-09-12", 2, 3, "0-1", "Club cup", 2], ["2026-09-12", 4, 1, "0-1", "Club cup", 2],
        ["2026-09-12", 6, 7, "1/2-1/2", "Club cup", 2], ["2026-09-12", 8, 5, "0-1", "Club cup", 2],
        ["2027-01-09", 1, 3, "1/2-1/2", "Winter open", 1], ["2027-01-09", 5, 7, "1-0", "Winter open", 1],
        ["2027-01-16", 3, 5, "1-0", "Winter open", 2], ["2027-01-16", 2, 6, "1-0", "Winter open", 2],
        ["2027-05-08", 1, 5, "1-0", "Spring open", 1], ["2027-05-08", 3, 2, "0-1", "Spring open", 1],
        ["2027-05-15", 4, 8, "1-0", "Spring open", 2], ["2027-05-15", 6, 1, "1/2-1/2", "Spring open", 2]])
    w = folder / "w.duckdb"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w,
        "--out", folder / "out", "--no-reports")
    cli("correct", CORRECTED_PLAYER, "--list", CORRECTED, "--rating", CORRECTED_RATING, "--reason", REASON,
        "--by", "commission", "--warehouse", w)
    cli("rate", "--warehouse", w)  # applies the correction: 2027-05 and 2027-09 at revision 2
    late = write_rows(folder / "late.csv", GAME_COLUMNS, [["2027-09-11", 1, 2, "1-0", "Autumn cup", 1],
                                                           ["2027-09-11", 5, 8, "½-½", "Autumn cup", 1]])
    cli("ingest", late, "--warehouse", w)
    cli("validate", "--warehouse", w)  # in force, not rated: the next list's (2028-01) pending games
    cli("site", "--out", folder / "site", "--warehouse", w, "--pending")  # the latest list's cards (--cards 1)
    return folder


@pytest.fixture(scope="module")
def site(built) -> Path:
    return built / "site"


def _event_slug(site: Path, name: str) -> str:
    events = json.loads((site / "api" / "v1" / "events.json").read_text(encoding="utf-8"))
    return next(row[0] for row in events["rows"] if row[1] == name)


@pytest.fixture(scope="module")
def pages(site) -> dict[str, str]:
    """Each page type: its path under a language's folder."""
    # A club's page: its name's slug and the first 10 hex digits of SHA-256("Club B").
    return {"index": "index.html", "list": f"lists/{LATEST}.html", "player": f"players/{CORRECTED_PLAYER}.html",
            "club": "clubs/club-b-30b6bc0065.html", "event": f"events/{_event_slug(site, 'Club cup')}.html",
            "pending-index": "pending/index.html", "pending": "pending/1.html"}


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@contextlib.contextmanager
def serving(folder: Path):
    """`folder` served over HTTP (the pages fetch() their JSON: file:// would not do): its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture(scope="module")
def served(site):
    with serving(site) as url:
        yield url


def _chrome(javascript: bool = True, size: tuple[int, int] = DESKTOP):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 f"--window-size={size[0]},{size[1]}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the pages' console
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_window_size(*size)
    return driver


@pytest.fixture
def driver():
    d = _chrome()
    try:
        yield d
    finally:
        d.quit()


# What the script draws on a page type, waited for before the page is read.
DRAWN = {"player": ("#history tbody tr", "#chart svg", "#events tbody tr"),
         "event": ("#event-players tbody tr", "#event-games tbody tr")}


def _open(driver, url: str, kind: str | None = None) -> None:
    """Load a page and wait until it is complete and the script has drawn its part."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    wanted = DRAWN.get(kind, ())
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && arguments[0].every(s => document.querySelector(s))",
        list(wanted)), f"{url}: {wanted} not drawn")


def _severe(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


@needs_browser
def test_no_console_error_on_any_page(driver, served, pages):
    # A script error on load (the ranking once ran before its labels were defined), a
    # JSON file the page asks for and does not find, a missing resource: a page that
    # shows nothing where it should. Every page type in every language.
    urls = [(f"{served}{lang}/{path}", kind) for lang in LANGS for kind, path in pages.items()]
    # A filtered list: drawn by the script from the list's JSON.
    urls += [(f"{served}{lang}/lists/{LATEST}.html?category=u16&sex=F", "list") for lang in LANGS]
    urls.append((f"{served}api/v1/index.html", None))
    errors = {}
    for url, kind in urls:
        driver.get_log("browser")  # what the previous page left
        _open(driver, url, kind)
        if found := _severe(driver):
            errors[url.removeprefix(served)] = found
    assert not errors, "\n".join(f"{page}: {messages}" for page, messages in errors.items())


# Each visible heading of the main tables, its right edge; the page's width, the viewport's.
LAYOUT_JS = """
const heads = [...document.querySelectorAll('main table th')]
  .filter(th => th.getClientRects().length && getComputedStyle(th).display !== 'none'
                && !th.closest('.visually-hidden'))
  .map(th => [(th.closest('table').id || th.closest('table').className), th.textContent.trim(),
              th.getBoundingClientRect().right]);
return {inner: window.innerWidth, scroll: document.documentElement.scrollWidth, heads: heads};
"""


@needs_browser
def test_the_core_columns_fit_a_phone(served, pages):
    # At 390 px (a phone) the tables keep rank, name, rating and change (the other
    # columns are class "wide", hidden under 40em): every heading shown is within the
    # viewport, and the page itself never scrolls sideways.
    driver = _chrome(size=PHONE)
    try:
        problems = []
        urls = [(f"{lang}/{path}", kind) for lang in LANGS for kind, path in pages.items()]
        urls.append(("api/v1/index.html", None))
        for path, kind in urls:
            _open(driver, served + path, kind)
            layout = driver.execute_script(LAYOUT_JS)
            assert layout["inner"] == PHONE[0], (path, layout["inner"])
            assert layout["heads"], (path, "no table shown")
            outside = [(table, text, round(right)) for table, text, right in layout["heads"]
                       if right > layout["inner"] + 0.5]
            if outside:
                problems.append((path, "headings past the right edge", outside))
            if layout["scroll"] > layout["inner"]:
                problems.append((path, f"page {layout['scroll']} px wide", layout["inner"]))
        assert not problems, "\n".join(map(str, problems))
    finally:
        driver.quit()


def _card_words_fr() -> dict[str, str]:
    """cards.po's French words (the card's own catalogue): English msgid -> French msgstr."""
    from babel.messages.pofile import read_po

    path = LOCALE / "fr" / "LC_MESSAGES" / "cards.po"
    if not path.is_file():
        return {}
    with open(path, "rb") as fh:
        return {m.id: m.string for m in read_po(fh, locale="fr") if isinstance(m.id, str) and m.id and m.string}


CARD_JS = """
const box = document.querySelector('#cards details.card-box[open]');
return box && {text: box.textContent, title: box.querySelector('h3') && box.querySelector('h3').textContent.trim(),
               heads: [...box.querySelectorAll('table th')].map(th => th.textContent.trim())};
"""


@needs_browser
def test_a_card_in_french_with_french_words(driver, served):
    from pipeline.site.i18n import translations

    _open(driver, f"{served}fr/players/{CARD_PLAYER}.html", "player")
    french = driver.execute_script(CARD_JS)
    assert french is not None, "no open calculation card on the French page of a player of the latest list"
    # The latest list's card; the opponent and the event are data, the same in every language.
    assert LATEST in french["text"] and "Eva Junior" in french["text"] and "Spring open" in french["text"]
    assert french["heads"], "the card has no games table"
    words = _card_words_fr()
    if not words:
        pytest.skip("pipeline/site/locale/fr/LC_MESSAGES/cards.po (the card's French words) is not there yet")
    # The English card's column headings, each the French catalogue's word on the French card.
    _open(driver, f"{served}en/players/{CARD_PLAYER}.html", "player")
    english = driver.execute_script(CARD_JS)
    gettext = translations("fr").gettext  # site.po and cards.po: a rule set's heading may be in either
    assert french["heads"] == [gettext(h) for h in english["heads"]], (english["heads"], french["heads"])
    in_french = [(h, words[h]) for h in english["heads"] if h in words and words[h] != h]
    assert len(in_french) >= 2, ("the card's headings are not cards.po's French words", english["heads"], words)
    assert french["title"] != english["title"], "the card's title is not in French"
    # cards.po's words, as its translator wrote them (a narrow no-break space before "?").
    assert {"Adversaire", "Compte\u202f?", "Tournoi"} <= set(french["heads"]), french["heads"]
    assert "Junior cette saison (R2)" in french["text"] and "Avant" in french["text"], french["text"]
    assert "Opponent" not in french["text"] and "Counts?" not in french["text"]


@needs_browser
def test_the_correction_and_its_reason_on_the_player_page(driver, served):
    for lang in LANGS:
        _open(driver, f"{served}{lang}/players/{CORRECTED_PLAYER}.html", "player")
        notes = driver.find_elements("css selector", f'#notes li.correction[data-list="{CORRECTED}"]')
        assert len(notes) == 1, (lang, driver.find_element("id", "notes").text if notes else "no #notes li.correction")
        assert REASON in notes[0].text and str(CORRECTED_RATING) in notes[0].text, (lang, notes[0].text)
        marked = driver.execute_script(f"""
            const tr = document.querySelector('#history tr.marked[data-list="{CORRECTED}"]');
            return tr && [tr.cells[1].textContent, tr.querySelector('a.mark').textContent,
                          tr.querySelector('a.mark').getAttribute('href'), window.LABELS.correction];""")
        assert marked is not None, (lang, f'no #history tr.marked[data-list="{CORRECTED}"]')
        rating, mark, href, label = marked
        assert (rating, mark, href) == (str(CORRECTED_RATING), label, "#notes"), lang


@needs_browser
def test_the_search_finds_a_player_by_a_part_of_the_name(driver, served):
    # The search box is drawn by the script, in the page's language; its index
    # (api/v1/players.json) is loaded on first use. "emil", accents folded, finds Anna
    # Émile alone; a choice opens her page.
    from selenium.webdriver.support.ui import WebDriverWait

    _open(driver, f"{served}fr/index.html", "index")
    box = driver.find_element("id", "search")
    assert box.get_attribute("placeholder") == "Chercher un joueur"
    loaded = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in loaded if u.endswith("players.json")]  # not before the box is used
    box.send_keys("emil")
    hits = WebDriverWait(driver, 10).until(lambda d: d.find_elements("css selector", "#results a"))
    assert [h.text for h in hits] == ["Anna Émile (1) · Club A"]
    hits[0].click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith("/fr/players/1.html"))


def _ranking_column(driver, column: int) -> list[str]:
    """A column of the ranking as shown (the name: its link's text, without the club under it)."""
    return driver.execute_script("""return [...document.querySelectorAll('#ranking tbody tr')]
        .map(r => (r.cells[arguments[0]].querySelector('a') || r.cells[arguments[0]]).textContent)""", column)


def _ranking_names(driver) -> list[str]:
    return _ranking_column(driver, 2)


def _until(driver, read, expected, timeout: float = 10):
    """Wait until `read(driver)` is `expected` (the script draws from the list's JSON);
    then assert it, so that a failure shows what was there instead."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(driver, timeout).until(lambda d: read(d) == expected)
    except TimeoutException:
        pass
    assert read(driver) == expected


@needs_browser
def test_a_category_filter_opened_from_its_url(driver, served):
    from selenium.webdriver.support.ui import Select

    # Ruling R2a: list 2027-09 is in the season ending 2027 (its id's year); the age is
    # counted as R2 counts a junior's, 2027 - birth year, and under 16 is that age under
    # 16 (the younger categories included): Eva (2012: 15) and Hugo (2014: 13, under 14
    # too); not Finn (2011: 16, the limit) nor Gaby (2010: under 18). Both played: active.
    season_end = int(LATEST[:4])
    u16 = {name for _, name, born, *_ in PLAYERS if season_end - born < 16}
    assert u16 == {"Eva Junior", "Hugo Young"}
    _open(driver, f"{served}en/lists/{LATEST}.html?category=u16", "list")
    _until(driver, lambda d: set(_ranking_names(d)), u16)
    ratings = [int(r) for r in _ranking_column(driver, 4)]
    assert ratings == sorted(ratings, reverse=True)
    assert _ranking_column(driver, 0) == ["1", "2"]  # ranked among the players shown
    assert Select(driver.find_element("id", "category")).first_selected_option.get_attribute("value") == "u16"
    assert driver.find_element("id", "shown").text.startswith("2 of ")
    # A filter changed: the address follows (a filtered list can be linked), the category kept.
    Select(driver.find_element("id", "sex")).select_by_value("F")
    _until(driver, lambda d: "sex=F" in d.current_url, True)
    assert "category=u16" in driver.current_url
    _until(driver, _ranking_names, ["Eva Junior"])


@needs_browser
def test_the_ranking_without_javascript(served, built):
    # The first page of the ranking is in the HTML itself: the active players, by rating
    # (ties by id), for a reader whose browser runs no script.
    con = duckdb.connect(str(built / "w.duckdb"), read_only=True)
    try:
        expected = [name for (name,) in con.execute(
            "select name from rating_history where list_id = ? and player_id not in (select unnest(?)) "
            "order by rating desc, player_id", [LATEST, sorted(IDLE)]).fetchall()]
    finally:
        con.close()
    assert len(expected) == len(PLAYERS) - len(IDLE)
    driver = _chrome(javascript=False)
    try:
        driver.get(f"{served}en/lists/{LATEST}.html")
        rows = driver.find_elements("css selector", "#ranking tbody tr")
        names = [r.find_elements("tag name", "td")[2].find_element("tag name", "a").text for r in rows]
        assert names == expected
        assert [r.find_elements("tag name", "td")[0].text for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
        # The script did not run: the page says what needs it and where the whole list is.
        assert driver.find_element("id", "no-script").is_displayed()
        # A player page without the script: the name and the correction, in the HTML.
        driver.get(f"{served}en/players/{CORRECTED_PLAYER}.html")
        assert driver.find_element("id", "player-name").text.startswith("Cara Rated")
        assert REASON in driver.find_element("css selector", "#notes li.correction").text
    finally:
        driver.quit()


def _known_false_positive(rule: str, node: dict) -> bool:
    """axe-core 3.1.1 (the one axe-selenium-python 2.1.6 bundles) fails autocomplete="off"
    on an input of type search or tel, a value HTML allows on any input (the search box
    turns the browser's own suggestions off: they would cover its results); fixed in
    axe-core 3.1.2 (dequelabs/axe-core#1109, #1121)."""
    return rule == "autocomplete-valid" and 'autocomplete="off"' in node["html"]


@needs_browser
def test_no_serious_accessibility_violation(driver, served, pages):
    from axe_selenium_python import Axe

    found = []
    for lang in LANGS:
        for kind in ("index", "list", "player", "event", "club"):
            url = f"{served}{lang}/{pages[kind]}"
            _open(driver, url, kind)
            axe = Axe(driver)
            axe.inject()
            results = axe.run()
            assert results["passes"], url  # axe ran its rules on the page
            for v in results["violations"]:
                nodes = [n for n in v["nodes"] if not _known_false_positive(v["id"], n)]
                if v["impact"] in ("serious", "critical") and nodes:
                    found.append(f"{lang}/{pages[kind]}: {v['id']} ({v['impact']}) {v['help']} [{v['helpUrl']}]; "
                                 + "; ".join(" ".join(map(str, n["target"])) for n in nodes))
    assert found == [], "\n".join(found)


SCHEMA_OF = {"lists.json": "lists", "players.json": "players", "events.json": "events",
             "lists": "list", "players": "player", "events": "event", "pending": "pending"}


def test_the_json_api_against_its_schema_and_the_warehouse(built):
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    api = built / "site" / "api" / "v1"
    schema = json.loads((api / "schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    registry = Registry().with_resource("schema.json", Resource.from_contents(schema))
    validators = {name: Draft202012Validator({"$ref": f"schema.json#/$defs/{name}"}, registry=registry)
                  for name in set(SCHEMA_OF.values())}
    checked = {name: 0 for name in validators}
    for path in sorted(api.rglob("*.json")):
        relative = path.relative_to(api).as_posix()
        if relative == "schema.json":
            continue
        name = SCHEMA_OF[relative if "/" not in relative else relative.split("/")[0]]  # every file has its schema
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validators[name].iter_errors(json.loads(path.read_text(encoding="utf-8")))]
        assert errors == [], (relative, name, errors)
        checked[name] += 1
    # Nine players, three lists, three events (the Autumn cup is pending: on no list yet).
    # The pending games: the players of the late file (read from the warehouse below).
    assert {k: v for k, v in checked.items() if k != "pending"} == {
        "lists": 1, "players": 1, "events": 1, "list": 3, "player": 9, "event": 3}
    assert checked["pending"] > 0
    # Each player's history: rating_history's rows, newest first.
    con = duckdb.connect(str(built / "w.duckdb"), read_only=True)
    try:
        for path in sorted((api / "players").glob("*.json")):
            player = json.loads(path.read_text(encoding="utf-8"))
            stored = con.execute("""select list_id, rating, change, games from rating_history
                                    where player_id = ? order by list_id desc""", [player["player_id"]]).fetchall()
            assert [tuple(r[:4]) for r in player["history"]["rows"]] == stored, path.name
    finally:
        con.close()


def test_screenshots(served, pages, tmp_path):
    """The README's screenshots: each page type at desktop and phone widths in each
    language, to docs/screenshots/ with SITE_SCREENSHOTS=1 (else to this test's folder)."""
    if CHROMEDRIVER is None or CHROMIUM is None:
        pytest.skip("Chromium and its driver are not installed (.ci/run installs Debian's packages)")
    folder = PROJECT_DIR / "docs" / "screenshots" if os.environ.get("SITE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    driver = _chrome()
    written = []
    try:
        for width, size in (("desktop", DESKTOP), ("phone", PHONE)):
            driver.set_window_size(*size)
            for lang in LANGS:
                for kind in ("index", "list", "player", "event", "club"):
                    _open(driver, f"{served}{lang}/{pages[kind]}", kind)
                    target = folder / f"{lang}-{kind}-{width}.png"
                    assert driver.save_screenshot(str(target)), target
                    written.append(target)
    finally:
        driver.quit()
    assert len(written) == 40
    small = [(p.name, p.stat().st_size) for p in written if p.stat().st_size <= 5_000]
    assert small == []  # a blank page is a few hundred bytes
