"""FIDE's and Glicko-2's calculation cards of a whole list at once (RuleSet.bulk_cards:
one replay of the list under FIDE's rules, one query of what it stored under
Glicko-2's): each card equal to the one `ratings explain` gives that player, for
every player of every list of the golden cases' federations; the site's player
pages with them in four languages, built by the installed `ratings site`."""
from __future__ import annotations

import duckdb
import pytest

import pipeline.systems.fide.replay as fide_replay
from pipeline.rate.series import series_in
from pipeline.ruleset.card import carded_players
from pipeline.systems.fide.card import fide_card_text
from pipeline.systems.glicko2.card import glicko2_card_text
from tests.as_user import ratings
from tests.conftest import cli_runner, write_rows
from tests.golden.cases import GOLDEN

TEXT = {"fide": fide_card_text, "glicko2": glicko2_card_text}  # `ratings explain`'s layout of each


def _golden(case: str, *names: str) -> list[str]:
    return [str(GOLDEN / case / "input" / n) for n in names]


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory) -> dict[str, object]:
    """The golden FIDE case's federation under FIDE's rules (a real TRF among its files),
    and the performance case's under Glicko-2's, with a correction: name -> warehouse."""
    tmp = tmp_path_factory.mktemp("bulk-cards")
    cli = cli_runner()
    fide, glicko = tmp / "fide.duckdb", tmp / "glicko2.duckdb"
    cli("run", "--system", "fide", "--players", *_golden("fide", "players.csv"),
        "--ratings", *_golden("fide", "ratings.csv"), "--games", *_golden("fide", "games.csv"),
        "--games", *_golden("fide", "brussels-open-2026.trf"), "--warehouse", fide, "--out", tmp / "out-fide",
        "--no-reports")
    cli("run", "--system", "glicko2", "--players", *_golden("performance", "players.csv"),
        "--ratings", *_golden("performance", "ratings.csv"), "--games", *_golden("performance", "games.csv"),
        "--games", *_golden("performance", "games-autumn-2026.csv"),
        "--games", *_golden("performance", "open-spa-2026.trf"), "--warehouse", glicko, "--out", tmp / "out-glicko2",
        "--no-reports")
    played = duckdb.connect(str(glicko), read_only=True).execute(
        "select player_id from calculations where list_id = '2026-10' order by player_id limit 1").fetchall()[0][0]
    cli("correct", played, "--list", "2026-10", "--rating", 1650, "--reason", "appeal upheld", "--system", "glicko2",
        "--warehouse", glicko)
    cli("rate", "--warehouse", glicko)
    return {"fide": fide, "glicko2": glicko}


def _series(con, name):
    return next(s for s in series_in(con) if s.name == name)


@pytest.mark.parametrize("name", ["fide", "glicko2"])
def test_a_lists_cards_are_each_players_own_card(warehouses, name):
    con = duckdb.connect(str(warehouses[name]), read_only=True)
    series = _series(con, name)
    rule_set = series.rule_set
    assert rule_set.bulk_cards  # the site shows them (pipeline/site/data.py)
    lists = [x for (x,) in con.execute("select list_id from lists where series = ? order by position",
                                       [name]).fetchall()]
    assert len(lists) >= 4
    compared = corrected = 0
    for list_id in lists:
        every = rule_set.card_data(con, series, list_id)
        assert list(every) == carded_players(con, series, list_id)  # every player with a calculation, in id order
        for player_id, card in every.items():
            one = rule_set.card_data(con, series, list_id, [player_id])[player_id]
            assert card.to_json() == one.to_json(), (list_id, player_id)
            # What `ratings explain PLAYER --list LIST` prints is that card's text.
            assert rule_set.card(con, series, player_id, list_id) == TEXT[name](card), (list_id, player_id)
            compared += 1
            corrected += card.correction is not None
    assert compared > 50 and (name == "fide" or corrected == 1)
    con.close()


def test_fides_cards_of_a_list_come_from_one_replay(warehouses, monkeypatch):
    calls = []

    def counted(*args, **kwargs):
        calls.append(args[3])
        return replayed(*args, **kwargs)

    replayed = fide_replay.replayed
    monkeypatch.setattr(fide_replay, "replayed", counted)
    con = duckdb.connect(str(warehouses["fide"]), read_only=True)
    series = _series(con, "fide")
    cards = series.rule_set.card_data(con, series, "2026-03")
    assert len(cards) > 20 and calls == ["2026-03"]
    con.close()


def test_a_fide_player_without_a_birth_year_has_a_card(tmp_path):
    # The registry leaves a senior's birth year blank: K 20 (100 games, never 2400), no junior clause.
    # 1 (2000) beats 2 (1900) in January's club event, rated on the February list (X1):
    # D = +100, E = 0.64 (table 8.1.2: 99 to 106), K × (S − E) = 20 × 0.36 = +7.2 → +7, 2007.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[1, "Senior Without Year", ""], [2, "Two", 1980]])
    initial = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_total"],
                         [[1, 2000, 100], [2, 1900, 100]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event"],
                       [["2026-01-10", 1, 2, "1-0", "Club"]])
    ratings(tmp_path, "run", "--system", "fide", "--players", players, "--ratings", initial, "--games", games,
            "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    card = ratings(tmp_path, "explain", 1, "--list", "2026-02", "--warehouse", "w.duckdb")
    assert "K = 20: rated under 2400 (100 games, highest rating 2000, not a junior)" in card
    assert "D = +100, E = 0.64, S − E = +0.36" in card
    assert "New rating = 2000 +7 = 2007" in card


# The cards' title in each language (cards.po): FIDE's names the rules, Glicko-2's last
# sentence what the list publishes (cards_glicko2.po).
SAID = {"fide": {"en": "FIDE rules", "fr": "règlement FIDE", "nl": "FIDE-reglement", "de": "FIDE-Regeln"},
        "glicko2": {"en": "On the list: rating", "fr": "Sur la liste\u00a0: classement",
                    "nl": "Op de lijst: rating", "de": "Auf der Liste: Wertungszahl"}}


@pytest.mark.parametrize("name", ["fide", "glicko2"])
def test_the_site_shows_the_cards_in_four_languages(warehouses, name, tmp_path):
    con = duckdb.connect(str(warehouses[name]), read_only=True)
    latest = con.execute("select list_id from lists where series = ? order by position desc limit 1",
                         [name]).fetchall()[0][0]
    carded = set(carded_players(con, _series(con, name), latest))
    registered = [p for (p,) in con.execute("select player_id from players order by player_id").fetchall()]
    con.close()
    ratings(tmp_path, "site", "--out", "site", "--system", name, "--lang", "en,fr,nl,de",
            "--warehouse", warehouses[name])
    pages = 0
    for lang, words in SAID[name].items():
        for player_id in registered:
            page = tmp_path / "site" / lang / "players" / f"{player_id}.html"
            if not page.exists():
                assert player_id not in carded, (lang, player_id)
                continue
            html = page.read_text()
            has_card = f'<section class="card" data-list="{latest}">' in html
            assert has_card == (player_id in carded), (lang, player_id)
            if has_card:
                card = html[html.index('<section class="card"'):html.index("</section>", html.index('class="card"'))]
                assert words in card, (lang, player_id)
                pages += 1
    assert pages == 4 * len(carded) and len(carded) >= 5
