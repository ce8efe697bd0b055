"""The player page without a script, the site's links, every player named: a small
federation (tests/test_site_browser.py's, and two players never rated) whose list
2027-05 the commission corrected twice (revisions 2 and 3, the second with two late
games), with games received for the next list against a player who has no page."""
from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import numpy as np
import pytest

from pipeline.site.i18n import LANGUAGES
from pipeline.systems.performance.rules import is_junior
from tests.as_user import completed, ratings
from tests.conftest import cli_runner, write_rows
from tests.site_links import dead_links
from tests.test_site_browser import CHROMEDRIVER, CHROMIUM, GAME_COLUMNS, PLAYERS, _chrome, served, serving  # noqa: F401

needs_browser = pytest.mark.skipif(CHROMEDRIVER is None or CHROMIUM is None, reason="Chromium is not installed")
LANGS = list(LANGUAGES)
REVISED = "2027-05"
# Never rated: Ulla plays one game of the Spring open (too few to be rated), Zoé one game
# received for the next list; both in the registry.
UNRATED = [[10, "Ulla Ünrated", 1991, "Club A", "F", "V"], [11, "Zoé Newcomer", 1999, "Club B", "F", "F"]]
# Either side of R2's junior on the lists of the season ending in 2027: 2027 - 2007 = 20
# (not under 20: a senior), 2027 - 2008 = 19 (a junior). They play each other in May 2027.
BORDER = [[12, "Jonas Twenty", 2007, "Club B", "M", "V"], [13, "Lena Nineteen", 2008, "Club A", "F", "V"]]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pages")
    cli = cli_runner()
    players = write_rows(folder / "players.csv",
                         ["player_id", "name", "birth_year", "club", "sex", "federation_region"],
                         PLAYERS + UNRATED + BORDER)
    ratings = write_rows(folder / "ratings.csv", ["player_id", "rating"], [
        [1, 1800], [2, 1700], [3, 1600], [4, 1500], [5, 1400], [6, 1450], [7, 1550], [8, 1300], [9, 1650],
        [12, 1500], [13, 1450]])
    games = write_rows(folder / "games.csv", GAME_COLUMNS, [
        ["2026-09-05", 1, 2, "1-0", "Club cup", 1], ["2026-09-05", 3, 4, "1/2-1/2", "Club cup", 1],
        ["2026-09-12", 2, 3, "0-1", "Club cup", 2], ["2026-09-12", 4, 1, "0-1", "Club cup", 2],
        ["2027-01-09", 1, 3, "1/2-1/2", "Winter open", 1], ["2027-01-16", 3, 5, "1-0", "Winter open", 2],
        ["2027-05-08", 1, 5, "1-0", "Spring open", 1], ["2027-05-08", 3, 2, "0-1", "Spring open", 1],
        ["2027-05-15", 4, 10, "1-0", "Spring open", 2], ["2027-05-15", 6, 1, "1/2-1/2", "Spring open", 2],
        ["2027-05-22", 12, 13, "0-1", "Spring open", 3]])
    w = folder / "w.duckdb"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w,
        "--out", folder / "out", "--no-reports")
    # Two corrections of list 2027-05, each followed by a run: revisions 2 and 3.
    cli("correct", 3, "--list", REVISED, "--rating", 1630, "--reason", "Round 2 reversed on appeal",
        "--by", "commission", "--warehouse", w)
    cli("rate", "--warehouse", w)
    cli("correct", 4, "--list", REVISED, "--rating", 1480, "--reason", "A game entered twice",
        "--by", "commission", "--warehouse", w)
    # Two games of February 2027 (list 2027-05's window) received late: Eva's rating moves.
    february = write_rows(folder / "february.csv", GAME_COLUMNS, [["2027-02-06", 5, 7, "1-0", "Club cup", 3],
                                                                   ["2027-02-13", 8, 5, "0-1", "Club cup", 4]])
    cli("ingest", february, "--warehouse", w)
    cli("validate", "--warehouse", w)
    cli("rate", "--warehouse", w)
    late = write_rows(folder / "late.csv", GAME_COLUMNS, [["2027-09-11", 1, 11, "1-0", "Autumn cup", 1]])
    cli("ingest", late, "--warehouse", w)
    cli("validate", "--warehouse", w)
    cli("site", "--out", folder / "site", "--warehouse", w, "--pending")
    return folder


@pytest.fixture(scope="module")
def site(built) -> Path:
    return built / "site"


def _warehouse(built: Path, sql: str, params=()) -> list[tuple]:
    con = duckdb.connect(str(built / "w.duckdb"), read_only=True)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def test_the_fixture_has_what_the_checks_need(built):
    assert _warehouse(built, "select revision from lists where list_id = ?", [REVISED]) == [(3,)]
    rated = {p for (p,) in _warehouse(built, "select distinct player_id from rating_history")}
    assert not {10, 11} & rated


class _Table(HTMLParser):
    """The rows of the table of an id, as a browser reads them (end tags left out too):
    each row's cells' text, each cell's links (href, text)."""

    def __init__(self, table_id: str):
        super().__init__(convert_charrefs=True)
        self.id, self.inside, self.rows, self.links = table_id, False, [], []
        self.href = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.inside = attrs.get("id") == self.id
        elif self.inside and tag == "tr":
            self.rows.append([])
            self.links.append([])
        elif self.inside and tag == "td":
            self.rows[-1].append("")
        elif self.inside and tag == "a":
            self.href = attrs.get("href")

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False

    def handle_data(self, data):
        if self.inside and self.rows and self.rows[-1]:
            self.rows[-1][-1] += data
            if self.href is not None:
                self.links[-1].append((self.href, data))
                self.href = None


def _table(page: str, table_id: str) -> tuple[list[list[str]], list[list[tuple[str, str]]]]:
    parser = _Table(table_id)
    parser.feed(page)
    keep = [k for k, r in enumerate(parser.rows) if r]  # the heading's row has no td
    return [[c.strip() for c in parser.rows[k]] for k in keep], [parser.links[k] for k in keep]


def _history_rows(page: str) -> list[list[str]]:
    """The history table of a player page's HTML: [list, rating, change, games, rank] a row."""
    return _table(page, "history")[0]


def test_the_player_page_holds_every_list_of_the_history(built, site):
    # Player 1's lists, newest first, as the warehouse has them; the rank among the
    # list's active players as the JSON gives it (the same file the page is made from).
    expected = _warehouse(built, """select list_id, rating::bigint, change, games from rating_history
                                    where player_id = 1 order by list_id desc""")
    api = json.loads((site / "api/v1/players/1.json").read_text(encoding="utf-8"))
    ranks = {row[0]: row[4] for row in api["history"]["rows"]}
    for lang in LANGS:
        rows = _history_rows((site / lang / "players/1.html").read_text(encoding="utf-8"))
        assert [tuple(r[:4]) for r in rows] == [
            (l, str(r), "" if c is None else f"{int(c):+d}" if c else "0", str(g)) for l, r, c, g in expected], lang
        assert [r[4] for r in rows] == ["" if ranks[l] is None else str(ranks[l]) for l, *_ in expected]
        # the events too: the three Anna played, newest first, linked to their pages
        page = (site / lang / "players/1.html").read_text(encoding="utf-8")
        events, links = _table(page, "events")
        assert [e[0] for e in events] == ["Spring open", "Winter open", "Club cup"]
        assert all(href.startswith("../events/") for (href, _), in links)


def test_a_run_of_lists_without_a_game_is_one_row(site):
    # Ida (9) never plays: inactive, the same rating on each of the three lists, no game.
    rows = _history_rows((site / "en/players/9.html").read_text(encoding="utf-8"))
    assert rows == [["2027-01 – 2027-09", "1650", "0", "0", ""]]


def test_the_newest_events_are_in_the_html_and_the_count_of_all(built, tmp_path, monkeypatch):
    from pipeline.site import player_page

    monkeypatch.setattr(player_page, "EVENTS_SHOWN", 2)
    cli_runner()("site", "--out", tmp_path / "site", "--warehouse", built / "w.duckdb", "--lang", "fr")
    page = (tmp_path / "site/fr/players/1.html").read_text(encoding="utf-8")
    assert [e[0] for e in _table(page, "events")[0]] == ["Spring open", "Winter open"]  # of three, newest first
    assert re.search(r'<p class="note" id="events-more">Les 2 derniers tournois sur 3\u00a0;', page)
    if CHROMIUM is None or CHROMEDRIVER is None:
        return
    # With the script, every event, from the player's JSON; the note gone.
    from selenium.webdriver.support.ui import WebDriverWait

    with serving(tmp_path / "site") as url:
        driver = _chrome()
        try:
            driver.get(f"{url}fr/players/1.html")
            WebDriverWait(driver, 10).until(lambda d: len(d.find_elements("css selector", "#events tbody tr")) == 3)
            rows = driver.find_elements("css selector", "#events tbody tr")
            names = [r.find_element("tag name", "a").text for r in rows]
            assert names == ["Spring open", "Winter open", "Club cup"]
            assert not driver.find_element("id", "events-more").is_displayed()
            assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        finally:
            driver.quit()


@needs_browser
def test_a_player_page_without_javascript_shows_the_history(site, served):  # noqa: F811
    driver = _chrome(javascript=False)
    try:
        driver.get(f"{served}fr/players/1.html")
        rows = driver.find_elements("css selector", "#history tbody tr")
        assert [r.find_element("tag name", "td").text for r in rows] == ["2027-09", "2027-05", "2027-01"]
        assert all(r.is_displayed() for r in rows)
        assert driver.find_element("id", "events").is_displayed()
    finally:
        driver.quit()


def test_no_dead_link_in_the_whole_site(site):
    assert dead_links(site) == []


def test_every_player_of_an_event_is_named(site):
    # Ulla (10) played in the Spring open and was never rated: no page, her registry name.
    spring = next(p for p in (site / "api/v1/events").glob("spring-open-*.json"))
    event = json.loads(spring.read_text(encoding="utf-8"))
    columns = event["players"]["columns"]
    named = {row[columns.index("player_id")]: row[columns.index("name")] for row in event["players"]["rows"]}
    assert named[10] == "Ulla Ünrated" and named[1] == "Anna Émile"
    assert all(named.values())


# The page's words for a revision's reason (pages.po): correction, then the late games.
REVISION_REASONS = {"en": ("correction", "late games: 2"), "fr": ("correction", "parties arrivées en retard\u00a0: 2"),
                    "nl": ("correctie", "laattijdig ingediende partijen: 2"),
                    "de": ("Korrektur", "nachgemeldete Partien: 2")}


def _revisions(page: str) -> dict[str, str]:
    """A player page's revision notes: the diff each links -> the note's text."""
    notes = re.findall(r'<li class="revision"[^>]*>(.*?)</li>', page, re.S)
    return {re.search(r'href="[^"]*/([^/"]+)"', n).group(1): re.sub(r"<[^>]+>", "", n).strip() for n in notes}


def test_a_revision_says_what_changed_briefly_in_the_pages_language(built, site):
    # Cara (3): corrected in revision 2. Eva (5): her two late games of February in revision 3
    # (the audit's reason spells each game out: "late games (submission 4): 2027-02-06 5-7 1-0, ...").
    reasons = dict(_warehouse(built, """select player_id || '-r' || revision, reason from rating_changes
                                        where list_id = ? and player_id in (3, 5)""", [REVISED]))
    assert reasons["3-r2"].startswith("correction ") and reasons["5-r3"].startswith("late games (submission ")
    assert reasons["5-r3"].count(", ") == 1  # two games
    for lang, (correction, late) in REVISION_REASONS.items():
        cara = _revisions((site / lang / "players/3.html").read_text(encoding="utf-8"))
        eva = _revisions((site / lang / "players/5.html").read_text(encoding="utf-8"))
        assert cara[f"{REVISED}-r2-diff.csv"].split("·")[0].strip().endswith(f": {correction}"), (lang, cara)
        assert eva[f"{REVISED}-r3-diff.csv"].split("·")[0].strip().endswith(f": {late}"), (lang, eva)
        assert "submission" not in eva[f"{REVISED}-r3-diff.csv"]


def test_under_20_is_the_junior_of_ruling_r2_and_the_index_says_so(site):
    # List 2027-09: the season ending in 2027 (R2a). R2: a junior if 2027 - birth year < 20.
    assert list(is_junior(np.array([2007, 2008]), 2027)) == [False, True]
    data = json.loads((site / "api/v1/lists/2027-09.json").read_text(encoding="utf-8"))
    under = {row[0]: row[data["columns"].index("under")] for row in data["rows"]}
    assert under[12] is None and under[13] == 20
    # Eva (2012): 2027 - 2012 = 15 < 16: under 16, not under 14 (15 is not < 14)
    assert under[5] == 16
    for lang in LANGS:
        jonas = (site / lang / "players/12.html").read_text(encoding="utf-8")
        lena = (site / lang / "players/13.html").read_text(encoding="utf-8")
        junior = {"en": "Junior this season (R2): %s", "fr": "Junior cette saison (R2)\u00a0: %s",
                  "nl": "Jeugdspeler dit seizoen (R2): %s", "de": "Jugendlicher in dieser Saison (R2): %s"}[lang]
        no, yes = {"en": ("no", "yes"), "fr": ("non", "oui"), "nl": ("nee", "ja"), "de": ("nein", "ja")}[lang]
        assert junior % no in jonas and junior % yes in lena, lang
        index = (site / lang / "index.html").read_text(encoding="utf-8")
        assert re.search(r'<p class="note" id="categories">[^<]*R2[^<]*</p>', index), lang


def test_a_card_prints_ratings_as_whole_numbers(site):
    # Jonas: rated 1500 before list 2027-09, his opponent Lena's rating used 1450
    for lang in LANGS:
        card = re.search(r'<section class="card".*?</section>', (site / lang / "players/12.html").read_text(
            encoding="utf-8"), re.S).group(0)
        assert re.search(r"\b1500\b", card) and "<td>1450</td>" in card.replace(' class="wide"', ""), lang
        assert not re.search(r"1[ ,.\u00a0\u202f]\d{3}\b(?![,.]\d)", re.sub(r"<[^>]+>", " ", card)), lang


class _Bar:
    """A progress bar that records what it is told (the calls of pipeline.progress's bars)."""

    bars: list[_Bar] = []

    def __init__(self, iterable=None, step="", *, total=None, unit="it", **kwargs):
        self.step, self.total, self.unit, self.updates = step, total, unit, []
        _Bar.bars.append(self)

    def update(self, n=1):
        self.updates.append(n)

    def set_postfix_str(self, s="", refresh=True):
        pass

    def close(self):
        pass


@pytest.mark.parametrize("cores", [1, 2])
def test_the_progress_bar_counts_the_files_written(built, tmp_path, monkeypatch, cores):
    # The pages are most of the run: a bar counts the files written, each part as a worker
    # finishes it, not one step for them all.
    from pipeline.site import build

    monkeypatch.setattr(build, "progress", _Bar)
    monkeypatch.setattr(build.os, "cpu_count", lambda: cores)
    _Bar.bars = []
    cli_runner()("site", "--out", tmp_path / "site", "--warehouse", built / "w.duckdb", "--pending")
    # every file of the site, but its hidden ones (the manifest, written after; the folder's mark)
    files = sum(1 for p in (tmp_path / "site").rglob("*") if p.is_file() and not p.name.startswith("."))
    counted = [b for b in _Bar.bars if b.total == files]
    assert len(counted) == 1, [(b.step, b.total, b.updates) for b in _Bar.bars]
    assert sum(counted[0].updates) == files and len(counted[0].updates) >= 8  # it moves


WRITE_TO = {"en": "Write to:", "fr": "Écrire à\u00a0:", "nl": "Schrijf naar:", "de": "Schreiben Sie an:"}


@pytest.mark.parametrize("contact, link", [("elo@federation.be", True),
                                           ("Jan Peeters, rating officer: 03 123 45 67", False)])
def test_the_pending_pages_say_whom_to_write_to(built, tmp_path, contact, link):
    # As a user runs it: ratings.toml in the working folder gives the contact.
    shutil.copyfile(built / "w.duckdb", tmp_path / "w.duckdb")
    (tmp_path / "ratings.toml").write_text(f'warehouse = "w.duckdb"\ncontact = "{contact}"\n', encoding="utf-8")
    ratings(tmp_path, "site", "--out", "site", "--pending")
    for lang in LANGS:
        for page in ("pending/index.html", "pending/1.html"):
            text = (tmp_path / "site" / lang / page).read_text(encoding="utf-8")
            shown = f'<a href="mailto:{contact}">{contact}</a>' if link else contact
            assert f'<p class="contact" id="contact">{WRITE_TO[lang].replace(chr(160), "&nbsp;")} {shown}</p>' in text \
                or f'<p class="contact" id="contact">{WRITE_TO[lang]} {shown}</p>' in text, (lang, page)
    assert dead_links(tmp_path / "site") == []


@pytest.mark.parametrize("toml, problem", [("contact = 3", "not 3"), ('contact = "  "', "not '  '"),
                                           ('contact = """two\nlines"""', "not 'two\\nlines'")])
def test_a_contact_that_is_not_one_line_of_text_is_one_message(built, tmp_path, toml, problem):
    shutil.copyfile(built / "w.duckdb", tmp_path / "w.duckdb")
    (tmp_path / "ratings.toml").write_text(f'warehouse = "w.duckdb"\n{toml}\n', encoding="utf-8")
    done = completed(tmp_path, "site", "--out", "site", "--pending", code=1)
    said = done.stdout + done.stderr
    assert "ratings.toml: contact must be one line of text in quotes" in said and problem in said, said
    assert not (tmp_path / "site").exists()
