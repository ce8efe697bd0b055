"""The calculator page in a real browser (Debian's Chromium through Selenium): written by
`ratings site` (run as a user runs it) and linked from the index; opened from the disk
(file://: it fetches nothing) and served; for each rule set, in French, the worked
examples it opens with computed as the rules compute them, a game added, no console
error, axe-core clean, a 390 px phone without sideways scrolling. With
SITE_SCREENSHOTS=1, docs/screenshots/ gets its screenshots (phone and desktop).

`ratings site` serves lists: the Go rule sets get their site from the site's Go pages
(issue 52, item 1); their calculator page is rendered here by the same code the site
renders its pages with."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.site.build import STATIC, _labels, _Language
from pipeline.site.calculator import calculator_files, calculator_page
from pipeline.site.i18n import LANGUAGES
from pipeline.systems import rule_set
from tests.as_user import completed
from tests.conftest import PROJECT_DIR, write_rows
from tests.test_site_browser import (CHROMEDRIVER, CHROMIUM, DESKTOP, PHONE, _chrome, _known_false_positive, _severe,
                                     needs_browser)

SYSTEMS = ("performance", "fide", "go-belgium", "go-ffg1984", "glicko2")

# What each page shows on opening, in French (a decimal comma, a real minus), by hand:
# - performance-elo.md's worked example: Ej = 1700.31, published 1700, from 1650;
# - FIDE: 1800 (40 games: K 20) beats 1900: D = −100, E = 0.36, 20 × 0.64 = 12.8 → +13;
# - seed 000's first example: 50 beats 150, Con 24, A 100, E = 1/(e + 1) = 0.2689,
#   24 × 0.7311 = 17.55 (the weaker side: no 0.986 in it), still 1 dan;
# - the 1984 rules, a 1 kyu at −50: +36.67 (case 1.2), +7.33 (2.2), −10 (1.2): −16.00, 1 kyu
#   (tests/test_calculator.py, test_go_ffg1984_by_hand);
# - Glickman 2013: 1464.05, RD 151.52 (change −35.95 from 1500).
OPENING = {"performance": "1700 (+50)", "fide": "1813 (+13)", "go-belgium": "67,55 (+17,55) · 1d → 1d",
           "go-ffg1984": "−16,00 (+34,00) · 1k → 1k", "glicko2": "1464 (RD 151,52, −35,95)"}


def _page_folder(folder: Path, name: str) -> Path:
    """The calculator of rule set `name` as the site writes it: its page in each language
    (the site's frame and labels), calculator.js and calculator-data.js, site.css and site.js."""
    rs = rule_set(name)
    template, path, depth, values = calculator_page(rs)
    for lang in LANGUAGES:
        (folder / lang).mkdir(parents=True, exist_ok=True)
        (folder / lang / path).write_text(_Language(lang, list(LANGUAGES), rs).page(
            template, path, depth, values), encoding="utf-8")
        (folder / lang / "labels.js").write_bytes(_labels(lang, rs))
    for file, content in calculator_files(rs).items():
        (folder / file).write_bytes(content)
    for file in ("site.css", "site.js"):
        (folder / file).write_bytes((STATIC / file).read_bytes())
    return folder


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("calculators")
    return {name: _page_folder(root / name, name) for name in SYSTEMS}


def _open(driver, url: str) -> str:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && document.querySelector('#steps li') !== null"),
        f"{url}: no step drawn")
    return driver.find_element("id", "result").text


def test_ratings_site_writes_the_calculator_and_links_it(tmp_path):
    """`ratings site`, as a user runs it: the calculator page in each language, linked
    from the index, its script and the rule set's data beside the pages, with the
    parameters of the series (a --rules file's senior quota of 12) and its tables."""
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "Anna"], [2, "Bert"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"],
                       [["2025-09-06", 1, 2, "1-0"]])
    (tmp_path / "rules.toml").write_text("senior_quota = 12\n", encoding="utf-8")
    completed(tmp_path, "run", "--players", players, "--ratings", ratings, "--games", games, "--rules", "rules.toml",
              "--warehouse", "w.duckdb", "--no-reports")
    completed(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb")
    site = tmp_path / "site"
    for lang in LANGUAGES:
        page = (site / lang / "calculator.html").read_text(encoding="utf-8")
        assert 'id="calculator"' in page and 'src="../calculator.js"' in page
        assert 'href="calculator.html"' in (site / lang / "index.html").read_text(encoding="utf-8")
    data = (site / "calculator-data.js").read_text(encoding="utf-8")
    # D(P) as the rule set loaded it from its CSV: 0.70 → 149 (performance-elo.md's example).
    assert data.startswith("window.CALCULATOR = {") and "[0.7, 149.0]" in data and '"senior_quota": 12' in data
    assert (site / "calculator.js").read_bytes() == (STATIC / "calculator.js").read_bytes()
    if CHROMEDRIVER and CHROMIUM:  # opened from the disk: nothing to fetch
        driver = _chrome()
        try:
            assert _open(driver, (site / "fr" / "calculator.html").as_uri()) == OPENING["performance"]
            steps = [li.text for li in driver.find_elements("css selector", "#steps li")]
            assert "Pj ≥ Ei, 5 parties, moins que le quota (12) : Ej = (1811,00 × 5 + (16 − 5) × 1650) / 16 = 1700,31" \
                in steps
            assert _severe(driver) == []
        finally:
            driver.quit()


@needs_browser
@pytest.mark.parametrize("name", SYSTEMS)
def test_the_calculator_in_french_offline(pages, name):
    driver = _chrome()
    try:
        url = (pages[name] / "fr" / "calculator.html").as_uri()
        assert _open(driver, url) == OPENING[name]
        steps = [li.text for li in driver.find_elements("css selector", "#steps li")]
        three = driver.find_element("id", "three").text
        if name == "fide":
            assert steps[:3] == ["Partie 1 : D = 1800 − 1900 = −100", "E = 0,36 (table 8.1.2 à D = −100)",
                                 "K = 20 : classé sous 2400"]
            # The three results before the game: a draw is +3 (20 × 0.14 = 2.8), a loss −7.
            assert "Nulle 1803 (+3)" in three and "Défaite 1793 (−7)" in three
            # A second game, a loss to a 1700: E = 0.64 at D = 100; Σ(S − E) = 0.64 − 0.64 = 0.
            driver.find_element("id", "add-game").click()
            row = driver.find_elements("css selector", "#games li")[-1]
            row.find_element("name", "opponent").send_keys("1700")
            row.find_element("css selector", "select[name=result] option[value='0']").click()
            assert driver.find_element("id", "result").text == "1800 (0)"
            assert "Performance : 1800,0 + 400 × (1 − 1) / 2 = 1800,0" in driver.find_element("id", "performance").text
        if name == "performance":
            assert "Pj ≥ Ei, 5 parties, moins que le quota (16) : Ej = (1811,00 × 5 + (16 − 5) × 1650) / 16 = 1700,31" \
                in steps
            rows = driver.find_element("id", "games-out").text
            assert "Non comptée : une victoire contre un joueur classé 350 points ou plus en dessous de vous" in rows
        if name == "go-belgium":
            assert steps[0] == "Con = 24,00 et A = 100,00 à 50,00 points (table I)"
            assert "Défaite" in three and "Nulle" not in three  # Go has no draw
        if name == "go-ffg1984":
            assert steps[:3] == [
                "Partie 1 : vos points −50,00 (sur le goban −50,00), ceux de l'adversaire 50,00 (sur le goban 50,00)",
                "Cas 1.2, le gagnant plus faible sur le goban et en points : T = ((50,00 − −50,00) + 10) / 3 = 36,67 ; "
                "le gagnant gagne T, le perdant perd 10",
                "Vos points ensuite : −50,00 + 36,67 = −13,33"]
        if name == "glicko2":
            assert "Étape 5 : la nouvelle volatilité σ′ = 0,059996" in steps
        # A field emptied: the page names it, and computes nothing.
        field = driver.find_element("name", "rating")
        field.clear()
        assert driver.find_element("id", "result").text.startswith("Entrez un nombre dans chaque case : ")
        assert _severe(driver) == []
    finally:
        driver.quit()


@needs_browser
@pytest.mark.parametrize("name", SYSTEMS)
def test_the_calculator_on_a_phone_and_accessible(pages, name):
    from axe_selenium_python import Axe

    driver = _chrome(size=PHONE)
    try:
        _open(driver, (pages[name] / "fr" / "calculator.html").as_uri())
        width = driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
        assert width[1] <= width[0] == PHONE[0], width
        axe = Axe(driver)
        axe.inject()
        results = axe.run()
        assert results["passes"]
        serious = [f"{v['id']}: {v['help']} {[n['target'] for n in v['nodes']]}" for v in results["violations"]
                   if v["impact"] in ("serious", "critical")
                   and not all(_known_false_positive(v["id"], n) for n in v["nodes"])]
        assert serious == []
        assert _severe(driver) == []
    finally:
        driver.quit()


@needs_browser
def test_every_language_has_its_words(pages):
    """The page in each language: no English left in the steps of the French, Dutch or
    German page (their catalogue's calculator.po)."""
    driver = _chrome()
    try:
        english = _open(driver, (pages["fide"] / "en" / "calculator.html").as_uri())
        words = {lang: driver.find_element("id", "steps").text for lang in ("en",)}
        for lang in ("fr", "nl", "de"):
            _open(driver, (pages["fide"] / lang / "calculator.html").as_uri())
            words[lang] = driver.find_element("id", "steps").text
        assert english == "1813 (+13)"
        assert "rated under" in words["en"]
        assert "classé sous" in words["fr"] and "rating onder" in words["nl"] and "Wertung unter" in words["de"]
    finally:
        driver.quit()


def test_screenshots(pages, tmp_path):
    """docs/site.md's screenshots of the calculator (phone and desktop), with
    SITE_SCREENSHOTS=1 (else to this test's folder)."""
    if CHROMEDRIVER is None or CHROMIUM is None:
        pytest.skip("Chromium and its driver are not installed (.ci/run installs Debian's packages)")
    folder = PROJECT_DIR / "docs" / "screenshots" if os.environ.get("SITE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    # Tall windows: the answer and its steps are under the form.
    phone, desktop = (PHONE[0], 2000), (DESKTOP[0], 1500)
    shots = [("fr", "performance", phone, "fr-calculator-phone.png"),
             ("nl", "fide", desktop, "nl-calculator-desktop.png"),
             ("de", "go-belgium", phone, "de-calculator-go-phone.png")]
    driver = _chrome()
    try:
        for lang, name, size, file in shots:
            driver.set_window_size(*size)
            _open(driver, (pages[name] / lang / "calculator.html").as_uri())
            assert driver.save_screenshot(str(folder / file))
    finally:
        driver.quit()
    assert all((folder / file).stat().st_size > 5_000 for *_, file in shots)
