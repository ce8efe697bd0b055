"""Calculation cards as data (pipeline/ruleset/card.py) and as the site's HTML in each
language (pipeline/site/cards.py): the four rule sets' cards, their messages in the
four catalogues (locale/<lang>/LC_MESSAGES/cards.po), Babel's numbers and dates, the
text of `ratings explain` made from the same data, names escaped."""
from __future__ import annotations

import json
import re

import duckdb
import pytest

from pipeline.rate.series import series_in
from pipeline.site.cards import LABELS, card_html
from pipeline.site.i18n import LANGUAGES, catalogue, translations
from pipeline.site.slugs import event_slug
from pipeline.systems.fide.card import fide_card_text
from pipeline.systems.glicko2.card import glicko2_card_text
from pipeline.systems.go.card import go_card_text
from pipeline.systems.performance.card import card_text
from tests.conftest import cli_runner, write_rows, write_small_go_club

TEXT = {"performance": card_text, "fide": fide_card_text, "glicko2": glicko2_card_text,
        "go-belgium": go_card_text, "go-ffg1984": go_card_text}  # each rule set's layout of the CLI's card


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory) -> dict[str, object]:
    """A small warehouse of each rule set (performance and Glicko-2 share one): name -> path."""
    tmp = tmp_path_factory.mktemp("cards")
    cli = cli_runner()
    chess = tmp / "chess"
    chess.mkdir()
    players = write_rows(chess / "players.csv", ["player_id", "name", "birth_year", "club"], [
        [1, "Anna Émile", 1980, "Club A"], [2, "Bert <b>Bold</b>", 1975, "Club A"], [3, "Cara Rated", 1990, "Club B"],
        [4, "Dirk Rated", 1958, "Club B"], [5, "Eva Junior", 2012, "Club B"], [6, "Finn New", 2000, ""]])
    ratings = write_rows(chess / "ratings.csv", ["player_id", "rating"],
                         [[1, 1800], [2, 1700], [3, 1600], [4, 1500], [5, 1400]])
    games = write_rows(chess / "games.csv", ["date", "white_id", "black_id", "result", "event"], [
        ["2026-09-05", 1, 2, "1-0", "Club cup"], ["2026-09-05", 3, 4, "1/2-1/2", "Club cup"],
        ["2026-09-12", 2, 3, "0-1", "Club cup"], ["2026-09-12", 4, 1, "0-1", "Club cup"],
        ["2026-09-19", 5, 1, "1-0", "Club cup"], ["2026-09-19", 6, 2, "1/2-1/2", "Club cup"],
        ["2026-09-26", 6, 3, "1-0", "Club cup"], ["2027-01-09", 1, 3, "1/2-1/2", "Winter open"]])
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", chess / "w.duckdb",
        "--out", chess / "out", "--no-reports")
    cli("run", "--system", "glicko2", "--warehouse", chess / "w.duckdb", "--out", chess / "out", "--no-reports")
    cli("correct", 3, "--list", "2026-10", "--rating", 1650, "--reason", "appeal upheld", "--system", "glicko2",
        "--warehouse", chess / "w.duckdb")
    cli("rate", "--warehouse", chess / "w.duckdb")

    fide = tmp / "fide"
    fide.mkdir()
    players = write_rows(fide / "players.csv", ["player_id", "name", "birth_year"], [
        [1, "One", 1980], [2, "Two", 1980], [3, "Three", 1980], [4, "Four", 1980], [5, "Five Master", 1970],
        [6, "Six New", 1990]])
    ratings = write_rows(fide / "ratings.csv", ["player_id", "rating", "games_total", "peak_rating"], [
        [1, 2000, 100, 2000], [2, 2000, 100, ""], [3, 2100, "", ""], [4, 1900, 100, 1900], [5, 2390, 500, 2410]])
    games = write_rows(fide / "games.csv", ["date", "white_id", "black_id", "result", "event"], [
        ["2026-01-10", 1, 2, "1-0", "Club"], ["2026-01-10", 5, 4, "1/2-1/2", "Club"],
        ["2026-01-17", 6, 1, "1-0", "Jan open"], ["2026-01-18", 2, 6, "1/2-1/2", "Jan open"],
        ["2026-01-19", 6, 3, "0-1", "Jan open"], ["2026-03-07", 6, 4, "1-0", "Mar open"]])
    cli("run", "--system", "fide", "--players", players, "--ratings", ratings, "--games", games,
        "--warehouse", fide / "w.duckdb", "--out", fide / "out", "--no-reports")

    go = tmp / "go"
    go.mkdir()
    files = write_small_go_club(go)
    cli("run", "--system", "go-belgium", "--players", files["players"], "--events", files["events"],
        "--games", files["games"], "--warehouse", go / "w.duckdb", "--out", go / "out", "--no-reports")
    cli("correct", 2, "--list", "club-2", "--rating", -1800, "--reason", "plays far stronger",
        "--warehouse", go / "w.duckdb")
    cli("run", "--warehouse", go / "w.duckdb", "--out", go / "out", "--no-reports")

    ffg = tmp / "ffg"
    ffg.mkdir()
    players = write_rows(ffg / "players.csv", ["player_id", "name"], [[1, "One"], [2, "Two"], [3, "Three"], [4, "Nc"]])
    ratings = write_rows(ffg / "ratings.csv", ["player_id", "rating"], [[1, 100], [2, 150], [3, 200]])
    events = write_rows(ffg / "events.csv", ["event_id", "name", "start_date", "end_date", "class"], [
        ["e1", "Two days", "2026-01-10", "2026-01-11", "B"], ["e2", "Later", "2026-02-01", "2026-02-01", "B"]])
    games = write_rows(ffg / "games.csv", ["event_id", "date", "black_id", "white_id", "winner"], [
        ["e1", "2026-01-11", 2, 3, "B"], ["e1", "2026-01-10", 1, 2, "B"], ["e2", "2026-02-01", 3, 1, "B"],
        ["e2", "2026-02-01", 4, 2, "W"]])  # Nc has no points: the game is ignored
    cli("run", "--system", "go-ffg1984", "--players", players, "--ratings", ratings, "--events", events,
        "--games", games, "--warehouse", ffg / "w.duckdb", "--out", ffg / "out", "--no-reports")
    return {"performance": chess / "w.duckdb", "glicko2": chess / "w.duckdb", "fide": fide / "w.duckdb",
            "go-belgium": go / "w.duckdb", "go-ffg1984": ffg / "w.duckdb"}


def _every_card(path, name: str):
    """(list_id, {player_id: Card}, {player_id: the CLI's text}: the first player's) of every list of a series."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        series = next(s for s in series_in(con) if s.name == name)
        for (list_id,) in con.execute("select list_id from lists where series = ? order by position",
                                      [name]).fetchall():
            cards = series.rule_set.card_data(con, series, list_id)
            texts = {p: series.rule_set.card(con, series, p, list_id) for p in list(cards)[:1]}
            yield list_id, cards, texts
    finally:
        con.close()


@pytest.fixture(scope="module")
def cards(warehouses) -> dict[str, dict]:
    """Every card of every list of each rule set: name -> {(list_id, player_id): (Card, text or None)}."""
    found = {}
    for name, path in warehouses.items():
        found[name] = {(list_id, p): (card, texts.get(p))
                       for list_id, every, texts in _every_card(path, name) for p, card in every.items()}
    return found


def _card(cards, name, list_id, player_id):
    return cards[name][(list_id, player_id)][0]


def test_every_rule_set_gives_cards_as_data(cards):
    for name, found in cards.items():
        assert found, name
        for (list_id, player_id), (card, _) in found.items():
            assert (card.list_id, card.player_id) == (list_id, player_id)
            data = json.loads(card.to_json())  # plain JSON: dates as ISO text, numbers with their decimals
            assert data["window"] == [d.isoformat() for d in card.window]
    glicko = next(c for (_, p), (c, _) in cards["glicko2"].items() if c.correction is not None)
    assert (glicko.player_id, glicko.correction.reason) == (3, "appeal upheld")
    number = json.loads(glicko.to_json())["correction"]["rating"]
    assert number == {"n": 1650.0, "p": 0, "s": False}


def test_the_data_and_the_text_card_agree(cards):
    # One player a list (the first) is also asked for `ratings explain`'s text: it is the data's.
    for name, found in cards.items():
        compared = [(card, text) for card, text in found.values() if text is not None]
        assert compared, name
        for card, text in compared:
            assert TEXT[name](card) == text, (name, card.list_id, card.player_id)


def test_a_card_in_french(cards):
    fr = translations("fr").gettext
    card = _card(cards, "performance", "2027-01", 3)
    html = card_html(card, "fr", fr)
    for heading in ("Adversaire", "Classement retenu", "Résultat", "Compte\u202f?", "Date", "Tournoi"):
        assert f">{heading}</th>" in html
    assert ">gain</td>" in html and ">nulle</td>" in html and ">perte</td>" in html  # Cara won, drew and lost
    assert "oui\u00a0: les nulles comptent toujours" in html
    # a rating used, a whole number: printed as one, as every page prints a rating (1600)
    assert re.search(r">1\d{3}</td>", html) and not re.search(r">1\u202f\d{3}", html)
    assert "Avant\u00a0: classé 1600" in html and "Junior cette saison (R2)\u00a0: non" in html
    assert "(parties du 1 sept. 2026 au" in html and "5 sept. 2026" in html  # Babel's French dates
    assert re.search(r"Ea = 1\d{3},\d{3}", html) and re.search(r"P = Sc / Nj = 0,\d{4}", html)
    assert "Règle\u00a0: " in html
    german = card_html(card, "de", translations("de").gettext)
    assert ">Gegner</th>" in german and ">Remis</td>" in german and ">Sieg</td>" in german
    assert re.search(r">1\d{3}</td>", german) and "05.09.2026" in german


def test_the_games_table_fits_a_phone_and_links_its_opponents_and_events(cards):
    card = _card(cards, "performance", "2027-01", 1)
    html = card_html(card, "en", translations("en").gettext)
    assert html.startswith('<section class="card" data-list="2027-01">')
    assert '<div class="scroll"><table class="card-games">' in html
    for heading in ("Rating used", "Date", "Event"):
        assert f'<th class="wide">{heading}</th>' in html
    assert "<th>Opponent</th>" in html and "<th>Result</th>" in html
    assert '<a href="../players/2.html">' in html
    assert f'<a href="../events/{event_slug("Club cup")}.html">Club cup</a>' in html
    # Only the players with a page are linked.
    assert '<a href="../players/2.html">' not in card_html(card, "en", translations("en").gettext, players={4, 5})
    # The site's own file names for the events, as it gives them: the page linked is the
    # one given; an event the site has no page for is named only.
    renamed = card_html(card, "en", translations("en").gettext, events={"Club cup": "club-cup-2"})
    assert '<a href="../events/club-cup-2.html">Club cup</a>' in renamed
    unpaged = card_html(card, "en", translations("en").gettext, events={})
    assert "Club cup" in unpaged and "../events/" not in unpaged


def test_a_markup_name_is_text(cards):
    en = translations("en").gettext
    opponent = card_html(_card(cards, "performance", "2027-01", 1), "en", en)
    own = card_html(_card(cards, "performance", "2027-01", 2), "fr", translations("fr").gettext)
    for html in (opponent, own):
        assert "Bert &lt;b&gt;Bold&lt;/b&gt;" in html and "<b>" not in html


def test_every_message_of_every_card_is_in_the_four_catalogues(cards):
    used = set(LABELS)
    for found in cards.values():
        for card, _ in found.values():
            used |= card.messages()
    assert len(used) > 60  # the four rule sets' words, not a handful
    for lang in LANGUAGES:
        messages = {m.id: m.string for m in catalogue(lang) if m.id}
        assert used <= set(messages), (lang, sorted(used - set(messages)))
        for m in used:
            assert messages[m], (lang, m)
            # The placeholders (and a literal %%) of each message survive its translation.
            assert sorted(re.findall(r"%\(\w+\)s|%%", m)) == sorted(re.findall(r"%\(\w+\)s|%%", messages[m])), \
                (lang, m)
        if lang == "en":
            assert all(messages[m] == m for m in used)
        gettext = translations(lang).gettext
        for found in cards.values():  # every card renders in every language
            for card, _ in found.values():
                assert card_html(card, lang, gettext).count("<section") == 1


def test_the_go_cards_say_their_own_terms(cards):
    fr = translations("fr").gettext
    anna = card_html(_card(cards, "go-belgium", "club-2", 1), "fr", fr)
    assert ">blanc</td>" in anna and ">sans handicap</td>" not in anna and ">handicap 1</td>" in anna
    assert "règlement belge de go" in anna and "(additionnée et appliquée à la fin du tournoi" in anna
    corrected = _card(cards, "go-belgium", "club-2", 2)
    assert corrected.correction is not None and corrected.correction.reason == "plays far stronger"
    ignored = _card(cards, "go-ffg1984", "e2", 4)  # a player without points: the game is ignored, said so
    assert [g.counts for g in ignored.games[0].rows] == [False]
    assert go_card_text(ignored).splitlines()[3].endswith(": a player without points: ignored")
