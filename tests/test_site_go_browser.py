"""A Go federation's site in a real browser (issue 52), built as tests/test_site_browser.py
builds the chess one: the Belgian Go rules over the repository's real Go files (1979 …
2024, tests/test_site_go.py's warehouse, with a club night's games pending), served over
HTTP. Every page type in every language without a console error, at 390 px without a
sideways scroll, axe-core without a serious violation; an event's numbers drawn as its
JSON gives them; the script's ranks the page's. Glicko-2's site, its RD beside the rating,
on a phone too. With SITE_SCREENSHOTS=1 the Go pages' screenshots are written to
docs/screenshots/ (go-*.png)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import PROJECT_DIR
from tests.test_site_browser import (
    CHROMEDRIVER,
    CHROMIUM,
    DESKTOP,
    LANGS,
    LAYOUT_JS,
    PHONE,
    _chrome,
    _known_false_positive,
    _open,
    _severe,
    driver,  # noqa: F401 (a fixture)
    needs_browser,
    serving,
)
from tests.test_site_go import BELGIAN_FILES, glicko2_site, go_warehouse

EVENT = "Tournoi_de_Juvisy"  # an event of 36 games with handicaps (tests/fixtures/go/opengotha_juvisy_2019.h9)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return go_warehouse(tmp_path_factory.mktemp("go-browser"), "go-belgium", BELGIAN_FILES) / "site"


@pytest.fixture(scope="module")
def pages(site) -> dict[str, str]:
    """Each page type: its path under a language's folder (a player of two events)."""
    events = json.loads((site / "api" / "v1" / "events.json").read_text(encoding="utf-8"))
    event = next(row[0] for row in events["rows"] if row[1].startswith("Tournoi de Juvisy"))
    data = json.loads((site / "api" / "v1" / "events" / f"{event}.json").read_text(encoding="utf-8"))
    player = data["players"]["rows"][0][0]
    club = json.loads((site / "api" / "v1" / "players" / f"{player}.json").read_text(encoding="utf-8"))["club_slug"]
    pending = sorted(p.stem for p in (site / "api" / "v1" / "pending").glob("*.json"))[0]
    return {"index": "index.html", "list": f"lists/{EVENT}.html", "player": f"players/{player}.html",
            "club": f"clubs/{club}.html", "event": f"events/{event}.html", "pending-index": "pending/index.html",
            "pending": f"pending/{pending}.html"}


@pytest.fixture(scope="module")
def served(site):
    with serving(site) as url:
        yield url


@needs_browser
def test_no_console_error_on_any_go_page(driver, served, pages):
    errors = {}
    for lang in LANGS:
        for kind, path in pages.items():
            driver.get_log("browser")
            _open(driver, f"{served}{lang}/{path}", kind)
            if found := _severe(driver):
                errors[f"{lang}/{path}"] = found
    assert not errors, errors


@needs_browser
def test_an_events_players_and_games_as_drawn(driver, served, pages, site):
    # The event's table: each player's grade and points before and after, as its JSON
    # (go_history's numbers, tests/test_site_go.py) gives them, in French numbers.
    data = json.loads((site / "api" / "v1" / pages["event"].replace(".html", ".json")).read_text(encoding="utf-8"))
    _open(driver, f"{served}fr/{pages['event']}", "event")
    heads = driver.execute_script("return [...document.querySelectorAll('#event-players th')].map(t => t.textContent)")
    assert heads == ["Joueur", "Parties", "Points", "Grade avant", "Points avant", "Grade après", "Points après",
                     "Points gagnés"]
    first = driver.execute_script("return [...document.querySelector('#event-players tbody tr').cells]"
                                  ".map(c => c.textContent)")
    _, games, score, _, _, _, _, grade_before, before, grade_after, after, change = data["players"]["rows"][0]

    def french(v: float) -> str:  # as the browser writes a number in French: 1 234,5; 4.0 as 4
        return f"{int(v) if v == int(v) else v:,}".replace(",", "\u202f").replace(".", ",")

    assert first[1:] == [str(games), french(score), grade_before, french(before), grade_after, french(after),
                         ("+" if change > 0 else "") + french(change)]
    games_heads = driver.execute_script("return [...document.querySelectorAll('#event-games th')]"
                                        ".map(t => t.textContent)")
    assert games_heads[-2:] == ["Handicap", "Vainqueur"]


@needs_browser
def test_the_go_pages_fit_a_phone(served, pages):
    driver = _chrome(size=PHONE)
    try:
        problems = []
        for lang in LANGS:
            for kind, path in pages.items():
                _open(driver, f"{served}{lang}/{path}", kind)
                layout = driver.execute_script(LAYOUT_JS)
                outside = [h for h in layout["heads"] if h[2] > layout["inner"] + 0.5]
                if outside:
                    problems.append((lang, path, "headings past the right edge", outside))
                if layout["scroll"] > layout["inner"]:
                    problems.append((lang, path, f"page {layout['scroll']} px wide"))
        assert not problems, "\n".join(map(str, problems))
    finally:
        driver.quit()


@needs_browser
def test_no_serious_accessibility_violation_on_a_go_site(driver, served, pages):
    from axe_selenium_python import Axe

    found = []
    for lang in LANGS:
        for kind in ("index", "list", "player", "event", "club", "pending"):
            _open(driver, f"{served}{lang}/{pages[kind]}", kind)
            axe = Axe(driver)
            axe.inject()
            results = axe.run()
            assert results["passes"]
            for v in results["violations"]:
                nodes = [n for n in v["nodes"] if not _known_false_positive(v["id"], n)]
                if v["impact"] in ("serious", "critical") and nodes:
                    found.append(f"{lang}/{pages[kind]}: {v['id']} ({v['impact']}) {v['help']}")
    assert found == [], "\n".join(found)


def test_go_screenshots(served, pages, tmp_path):
    """docs/site.md's Go screenshots: the ranking, a player and an event, desktop and phone
    (SITE_SCREENSHOTS=1: to docs/screenshots/, else to this test's folder)."""
    if CHROMEDRIVER is None or CHROMIUM is None:
        pytest.skip("Chromium and its driver are not installed (.ci/run installs Debian's packages)")
    folder = PROJECT_DIR / "docs" / "screenshots" if os.environ.get("SITE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    driver = _chrome()
    written = []
    try:
        for width, size in (("desktop", DESKTOP), ("phone", PHONE)):
            driver.set_window_size(*size)
            for lang, kind in (("en", "list"), ("fr", "player"), ("nl", "event")):
                _open(driver, f"{served}{lang}/{pages[kind]}", kind)
                target = folder / f"go-{lang}-{kind}-{width}.png"
                assert driver.save_screenshot(str(target)), target
                written.append(target)
    finally:
        driver.quit()
    assert [p for p in written if p.stat().st_size <= 5_000] == []


@needs_browser
def test_the_script_ranks_as_the_page_by_grade_then_points(driver, served, site):
    # The ranking's other pages and filters are drawn by the script from the list's JSON:
    # its ranks must be the page's (by grade, then points; data-ranked-by), not the points'.
    # EGC 2011: a 4 dan at 253 points is ranked before a 3 dan at 300 (tests/test_site_go.py).
    from selenium.webdriver.support.ui import WebDriverWait

    read = "return [...document.querySelectorAll('#ranking tbody tr')].map(r => [...r.cells].map(c => c.textContent))"
    _open(driver, f"{served}en/lists/egc2011.html", "list")
    html = driver.execute_script(read)
    _open(driver, f"{served}en/lists/egc2011.html?page=1", "list")
    WebDriverWait(driver, 10).until(lambda d: "page=1" not in d.current_url)  # drawn: the address rewritten
    assert driver.execute_script(read) == html and len(html) == 100  # the script's first page is the HTML's
    # Every player (inactive too), the page that holds the 4 dan: its ranks, counted here
    # over the list's order with ties on (grade, points), as the script shows them.
    data = json.loads((site / "api" / "v1" / "lists" / "egc2011.json").read_text(encoding="utf-8"))
    rows = [dict(zip(data["columns"], r)) for r in data["rows"]]
    ranks, previous = [], None
    for k, r in enumerate(rows):
        ranks.append(k + 1 if (r["grade"], r["rating"]) != previous else ranks[-1])
        previous = (r["grade"], r["rating"])
    four = next(k for k, r in enumerate(rows) if (r["grade"], r["rating"]) == ("4d", 253))
    three = next(k for k, r in enumerate(rows) if (r["grade"], r["rating"]) == ("3d", 300))
    # Every page: one holds two players of one rating and two grades (the last), whom
    # ties on the points alone would rank together.
    assert any((a["rating"], a["grade"]) != (b["rating"], b["grade"]) and a["rating"] == b["rating"]
               for a, b in zip(rows, rows[1:]))
    for page in range(1, (len(rows) - 1) // 100 + 2):
        _open(driver, f"{served}en/lists/egc2011.html?all=1&page={page}", "list")
        WebDriverWait(driver, 10).until(lambda d: d.find_element("id", "shown").text.startswith(f"{len(rows)} of"))
        WebDriverWait(driver, 10).until(lambda d: f"page={page}" in d.current_url or page == 1)
        drawn = driver.execute_script(read)
        assert [int(row[0]) for row in drawn] == ranks[(page - 1) * 100:page * 100], page
        if page == four // 100 + 1:
            assert [(row[5], int(row[4])) for row in drawn][four % 100] == ("4d", 253)
    assert ranks[four] < ranks[three]


@pytest.fixture(scope="module")
def glicko2_served(tmp_path_factory):
    """A small federation's Glicko-2 site (its RD beside the rating), served."""
    site = glicko2_site(tmp_path_factory.mktemp("glicko2-browser"))
    with serving(site) as url:
        yield url, site


@needs_browser
def test_glicko2_pages_with_the_rd_on_a_phone(glicko2_served):
    served, site = glicko2_served
    latest = sorted(p.stem for p in (site / "en" / "lists").glob("*.html"))[-1]
    driver = _chrome(size=PHONE)
    try:
        problems = []
        for lang in LANGS:
            for kind, path in (("list", f"lists/{latest}.html"), ("player", "players/1.html"),
                               ("club", "clubs/club-a-2db55b7499.html")):
                driver.get_log("browser")
                _open(driver, f"{served}{lang}/{path}", kind)
                layout = driver.execute_script(LAYOUT_JS)
                if [h for h in layout["heads"] if h[2] > layout["inner"] + 0.5] or layout["scroll"] > layout["inner"]:
                    problems.append((lang, path, layout))
                if found := _severe(driver):
                    problems.append((lang, path, found))
        assert not problems, problems
        # The RD is a heading of the history the script draws, beside the rating.
        _open(driver, f"{served}en/players/1.html", "player")
        heads = driver.execute_script("return [...document.querySelectorAll('#history th')].map(t => t.textContent)")
        assert heads[1:3] == ["Rating", "RD"], heads
    finally:
        driver.quit()
