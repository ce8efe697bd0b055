"""The "How ratings are computed" page (pipeline/ruleset/explanation.py, each rule set's
explanation.py, pipeline/site/how.py): every number on it is the rule set's own,
computed from its parameters in force, compared here with values worked out by hand
from the rules (the reasoning beside each); its words in four languages; a scenario's
page; the page written by `ratings site` run as a user runs it."""
from __future__ import annotations

import csv
import dataclasses
import re
from pathlib import Path

import duckdb
import pytest

from pipeline import systems
from pipeline.rate.series import chosen
from pipeline.ruleset.card import Line, Num
from pipeline.ruleset.explanation import Table
from pipeline.site.build import _Language
from pipeline.site.how import explanation_html, how_page
from pipeline.site.i18n import LANGUAGES, catalogue, translations
from pipeline.systems.fide.rules import HERE as FIDE_TABLES
from pipeline.systems.go_belgium import GoBelgium
from pipeline.systems.go_belgium.rules import RULES as GO_RULES
from tests.as_user import ratings
from tests.conftest import write_rows

FIXTURES = Path(__file__).parent / "fixtures"
TOY = Path(__file__).parent / "toy_rule_set"
RULE_SETS = ("performance", "fide", "glicko2", "go-belgium", "go-ffg1984")
# Parameters that change which sentence a page says (an option off, a simplification on).
VARIANTS = [(name, {}) for name in RULE_SETS] + [
    ("fide", {"cap_exempt_from": "none", "logistic": True}), ("glicko2", {"max_deviation": "none"}),
    ("go-belgium", {"giver_factor_squared": False, "symmetric_expectation": True})]


def _text(line) -> str:
    return line.text() if isinstance(line, Line | Num) else "" if line is None else str(line)


def _sentences(explanation) -> list[str]:
    """The page's sentences in English (the CLI's text of each Line)."""
    return [p.text() for s in explanation.sections for p in s.parts if isinstance(p, Line)]


def _table(explanation, caption: str) -> list[list[str]]:
    """A table of the page by its caption: its rows as the English text of each cell."""
    found = [p for s in explanation.sections for p in s.parts if isinstance(p, Table) and p.caption.text() == caption]
    assert len(found) == 1, caption
    return [[_text(c) for c in row] for row in found[0].rows]


def _sentence(explanation, start: str) -> str:
    found = [s for s in _sentences(explanation) if s.startswith(start)]
    assert len(found) == 1, (start, _sentences(explanation))
    return found[0]


# ---------------------------------------------------------------------------
# Belgian Go: table I, the points gained, the seed's worked examples (seed 000)

def test_belgian_go_table_one_and_its_interpolation():
    page = systems.rule_set("go-belgium").explanation()
    rows = _table(page, "Table I: Con and A by rating")
    # The first and the last rows of the rule set's data file (seed 000's table I).
    assert rows[0] == ["-1950", "116", "200"] and rows[-1] == ["650", "10", "70"] and len(rows) == 27
    # Halfway between −1950 (116, 200) and −1850 (110, 195): Con (116 + 110) / 2 = 113, A 197.5.
    assert "(at -1900: Con 113, A 197.5)" in _sentence(page, "Con decides")


def test_belgian_go_points_gained_are_the_seeds_table_with_its_simplifications():
    page = systems.rule_set("go-belgium").explanation()
    simplified = _table(page, "Points gained, the seed's simplified formulas")
    with open(FIXTURES / "go-belgium-points-gained.csv", newline="") as fh:
        printed = [row[1:] for row in list(csv.reader(fh))[1:]]  # seed 000's 54 cells, as printed
    assert [row[1:] for row in simplified] == printed
    assert [row[0] for row in simplified] == ["20 kyu (-1950)", "15 kyu (-1450)", "10 kyu (-950)", "5 kyu (-450)",
                                              "1 dan (50)", "6 dan (550)"]
    written = _table(page, "Points gained, the rules as written")
    # 20 kyu (−1950, Con 116) beats −2150 in class A (1.2): d = +200, A 200; as written the stronger
    # expects 0.986 − 1/(e^1 + 1) = 0.986 − 0.268941 = 0.717059: 116 × 1.2 × 0.282941 = 39.386 → 39.4;
    # the seed's symmetric expectation 1 − 0.268941 gives 139.2 × 0.268941 = 37.437 → 37.4 (its table).
    assert written[0][1] == "39.4" and simplified[0][1] == "37.4"
    # Against a stronger opponent the player is the weaker: both formulas agree (+200: 101.8).
    assert written[0][9] == simplified[0][9] == "101.8"


def test_belgian_go_worked_examples_are_computed_by_the_engine():
    page = systems.rule_set("go-belgium").explanation()
    one, two, written, three = (_sentence(page, s) for s in ("Player A", "The next day", "As the rules", "Later"))
    # Example 1: both at −1950, d = 0, E = 0.5, Con 116, club weight 0.8: 116 × 0.8 × 0.5 = 46.4;
    # A −1950 + 46.4 = −1903.6, B −1950 − 46.4 = −1996.4.
    assert "A gains 116 × 0.8 × 0.5 = 46.4 points, to -1903.6; B goes to -1996.4." in one
    # Example 2: A's difference −1903.6 − (−1996.4) = 92.8, less the stone B receives, (1 − 0.5) × 100 = 50:
    # 42.8. At −1903.6, 46.4 of table I's 100 points above −1950: Con = 116 − 0.464 × 6 = 113.216 and
    # A = 200 − 0.464 × 5 = 197.68. Symmetric E = 1 − 1/(e^(42.8/197.68) + 1) = 0.553917; factor 1 − 0.5/10 = 0.95 (unsquared, the seed):
    # 113.216 × 0.8 × 0.95 × 0.446083 = 38.383 → 38.4; the seed rounds Con to 113 and 1 − E to 0.45:
    # 113 × 0.8 × 0.95 × 0.45 = 38.646 → "about 38.6".
    assert "(A's difference: 92.8 − 50 = 42.8)" in two
    assert "A gains 113.2 × 0.8 × 0.95 × 0.446 = 38.4 points" in two
    assert "113 × 0.8 × 0.95 × 0.45 = 38.6." in two
    # As written: E = 0.986 − 0.446083 = 0.539917, factor 0.95² = 0.9025: 113.216 × 0.8 × 0.9025 × 0.460083
    # = 37.609 → 37.6.
    assert "(expected result 0.54, the giver's factor 0.9025), A gains 37.6 points" in written
    # Example 3: −1450 receives 4 stones from −750: d = −700 + 3.5 × 100 = −350, A 175, E = 1/(e^2 + 1)
    # = 0.119203, Con 90, factor 1 − 3.5/10 = 0.65: 90 × 0.8 × 0.65 × 0.880797 = 41.221 → 41.2.
    assert "against an opponent of 8 kyu (-750): difference -350, expected result 0.119, Con 90" in three
    assert "A gains 90 × 0.8 × 0.65 × 0.881 = 41.2 points." in three


def test_the_go_page_follows_the_rule_sets_table_and_parameters():
    # Table I's first row with Con 120 instead of 116: example 1 becomes 120 × 0.8 × 0.5 = 48.0,
    # A −1902, B −1998. Nothing on the page is typed beside the engine.
    table = ((-1950.0, 120.0, 200.0), *GO_RULES.table[1:])
    page = GoBelgium(dataclasses.replace(GO_RULES, table=table)).explanation()
    assert "A gains 120 × 0.8 × 0.5 = 48.0 points, to -1902.0; B goes to -1998.0." in _sentence(page, "Player A")
    assert _table(page, "Table I: Con and A by rating")[0] == ["-1950", "120", "200"]
    # A rules file's parameter: a floor of −3000 is said, and listed among the parameters in force.
    lowered = systems.rule_set("go-belgium", {"floor": -3000.0}).explanation()
    assert "the lowest rating is -3000." in _sentence(lowered, "Ratings are points")
    assert ["floor", "-3000"] in _table(lowered, "Parameters of the go-belgium rules")


# ---------------------------------------------------------------------------
# The other rule sets

def test_national_elo_dp_table_350_rule_brake_quotas_and_worked_example():
    page = systems.rule_set("performance").explanation()
    dp = _table(page, "D(P): the row gives P's tenths, the column its hundredths")
    # The row of 0.70 … 0.79: the seed's D(P), 149 at 0.70 (the rules' worked example), 158 at 0.71.
    assert dp[7] == ["0.7", "149", "158", "166", "175", "184", "193", "202", "211", "220", "230"]
    # R5: bounded to ±470: P = 0.00 … 0.05 read −470 (the table says −677 at 0.01), 0.50 is 0.
    assert dp[0][1:7] == ["-470"] * 6 and dp[5][1] == "0" and dp[9][6:] == ["470"] * 5
    # R5's example: 71.4 % is 158 + 0.4 × (166 − 158) = 161.2.
    assert "P = 0.714 gives 161.2" in _sentence(page, "D(P) is read")
    assert "less than 350 points below the player" in _sentence(page, "A draw always counts")
    assert "Ej = (16 × Ei + Nj × Pj) / (16 + Nj)" in _sentence(page, "With no compatible game")
    quotas = _sentence(page, "A performance at or above")
    assert "8 compatible games for a junior (under 20" in quotas and "16 for a senior" in quotas
    assert "At most 25 rounds follow the first pass (ruling R9)" in _sentence(page, "An unrated opponent")
    # The rules' worked example: the win against 1250 (400 below) and the loss to 2100 (450 above) do not
    # count: Nj = 5, Sc = 3.5, Ea = (1500 + 1720 + 1600 + 1690 + 1800) / 5 = 1662, P = 0.7, D = 149,
    # Pj = 1811 ≥ 1650 and 5 < 16: (1811 × 5 + 1650 × 11) / 16 = 1700.3125 → 1700.
    assert ("5 are compatible, score 3.5, Ea 1662, P 0.7, D(P) 149: Pj = 1811. Rule applied: barycentre; "
            "Ej = 1700.31, published 1700.") in _sentence(page, "Worked example")


def test_fide_k_the_400_rule_the_first_rating_and_table_8_1_2():
    page = systems.rule_set("fide").explanation()
    k = _table(page, "K by the player's case, the first that applies")
    # B02 8.3.3: 40 before 30 games, 40 for a junior never rated 2300, 20 under 2400, 10 once 2400 was
    # reached; K × n ≤ 700: with 40 games K is ⌊700 / 40⌋ = 17.
    assert [row[1] for row in k] == ["40", "40", "20", "10", "17"]
    assert "2700 against 2200 counts as 500" in _sentence(page, "A rating difference")
    expected = _table(page, "Expected score by the rating difference")
    with open(FIDE_TABLES / "fide-8.1.2-expected-score.csv", newline="") as fh:  # the rule set's data file
        rows = list(csv.DictReader(fh))
    assert len(expected) == len(rows) == 51
    assert expected[0] == ["0 to 3", "0.50", "0.50"] and expected[-1] == ["736 and more", "1.00", "0.00"]
    assert expected[20] == [f"{rows[20]['diff_from']} to {rows[20]['diff_to']}", rows[20]["expected_higher"],
                            rows[20]["expected_lower"]]
    # 8.2: 5 games against 1600 on average, 3 points, with two draws against 1800:
    # Ra = (8000 + 3600) / 7 = 1657.14, p = (3 + 1) / 7 = 0.571 → 0.57, dp(0.57) = 50 (table 8.1.1),
    # Ru = 1707.14 → 1707.
    assert "Ra = 1657.14, p = 0.571, dp = 50, Ru = 1707." in _sentence(page, "For example")


def test_glicko2_steps_and_glickmans_example():
    page = systems.rule_set("glicko2").explanation()
    assert "rating 1500, rating deviation (RD) 350 and volatility 0.06; the system constant τ is 0.5" in \
        _sentence(page, "Step 1")
    # Glickman (2013) publishes v = 1.7785, Δ = −0.4834, r′ = 1464.06, RD′ = 151.52, σ′ = 0.05999 from
    # values rounded at each step; unrounded: v = 1.77900, Δ = −0.48394, r′ = 1464.05.
    example = _sentence(page, "A player rated 1500")
    assert "v = 1.7790, Δ = -0.4839; after the period, rating 1464.05, RD 151.52, volatility 0.06000" in example
    tau = systems.rule_set("glicko2", {"tau": 0.3}).explanation()
    assert "the system constant τ is 0.3" in _sentence(tau, "Step 1")


def test_ffg1984_cases_and_table():
    page = systems.rule_set("go-ffg1984").explanation()
    rows = _table(page, "What a game gives, by the winner's points minus the loser's")
    # −100 in an even game: NFC < NFP and NC ≤ NP (1.2): ((100) + 10) / 3 = 36.67, the loser −10.
    assert rows[1] == ["-100", "0", "1.2", "+36.67", "-10.00"]
    # Even and level: 2.2, (110 − 0) / 10 = 11 each; +150: more than 100 above, 2.1, ignored.
    assert rows[3] == ["0", "0", "2.2", "+11.00", "-11.00"] and rows[6] == ["+150", "0", "2.1", "0.00", "0.00"]


def test_a_sixth_rule_set_gets_its_parameters_listed(monkeypatch):
    monkeypatch.syspath_prepend(str(TOY))
    monkeypatch.setitem(systems.REGISTRY, "plain-elo", "plain_elo")
    page = systems.rule_set("plain-elo").explanation()
    assert _table(page, "Parameters of the plain-elo rules") == [["k", "20"], ["start", "1500"]]
    html = explanation_html(page, "de", translations("de").gettext)
    assert "Die geltenden Parameter" in html and "Wie die Wertungen berechnet werden: die Regeln plain-elo" in html


# ---------------------------------------------------------------------------
# Four languages

def _words(message: str) -> list[str]:
    """A message's own words (placeholders left out): those a translation must change."""
    return re.findall(r"[A-Za-z]{3,}", re.sub(r"%\(\w+\)s", "", message))


@pytest.mark.parametrize("name, parameters", VARIANTS)
def test_every_sentence_of_every_page_is_translated(name, parameters):
    page = systems.rule_set(name, parameters).explanation()
    messages = page.messages()
    assert len(messages) > 5
    for lang in LANGUAGES:
        translated = {m.id: m.string for m in catalogue(lang) if m.id}
        for m in messages:
            assert translated.get(m), (lang, m)
            assert sorted(re.findall(r"%\(\w+\)s", m)) == sorted(re.findall(r"%\(\w+\)s", translated[m])), (lang, m)
            if lang != "en" and len(_words(m)) > 1:
                assert translated[m] != m, (lang, m)  # no English left on a French, Dutch or German page
        html = explanation_html(page, lang, translations(lang).gettext)
        assert "%(" not in html


def test_numbers_are_written_in_the_pages_language():
    page = systems.rule_set("go-belgium").explanation()
    french = explanation_html(page, "fr", translations("fr").gettext)
    # French: a decimal comma, and no thousands separator (a rating prints 1450 on every page).
    assert "A gagne 116 × 0,8 × 0,5 = 46,4 points, pour atteindre -1903,6" in french
    assert "<caption><span>Tableau I : Con et A selon le classement</span></caption>" in french


@pytest.mark.parametrize("name", ["go-belgium", "go-ffg1984"])
def test_a_go_rule_sets_page_is_made_from_the_rule_set_alone(name):
    # Go warehouses get their site elsewhere (issue 52, item 1); the page needs only the rule set:
    # rendered in its template and frame as `ratings site` renders it, in each language.
    template, path, depth, values = how_page(systems.rule_set(name))
    for lang in LANGUAGES:
        page = _Language(lang, list(LANGUAGES), systems.rule_set(name)).page(template, path, depth, values)
        assert page.startswith("<!doctype html>") and "<h1>" in page and "%(" not in page
        assert f'href="../{lang}/index.html"' in page
    if name == "go-belgium":
        # The last page rendered is German's: seed 000's third example in German, decimal commas.
        assert "A gewinnt 90 × 0,8 × 0,65 × 0,881 = 41,2 Punkte." in page


# ---------------------------------------------------------------------------
# `ratings site` as a user runs it, and a scenario's page

@pytest.fixture(scope="module")
def federation(tmp_path_factory):
    folder = tmp_path_factory.mktemp("how")
    players = write_rows(folder / "players.csv", ["player_id", "name", "birth_year"],
                         [[1, "Anna", 1980], [2, "Bert", 1975], [3, "Cara", 1990], [4, "Dirk", 1958]])
    initial = write_rows(folder / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700], [3, 1600], [4, 1500]])
    games = write_rows(folder / "games.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-09-05", 1, 2, "1-0"], ["2026-09-05", 3, 4, "1/2-1/2"], ["2026-09-12", 2, 3, "0-1"]])
    ratings(folder, "run", "--players", players, "--ratings", initial, "--games", games, "--warehouse", "w.duckdb",
            "--out", "out", "--no-reports")
    return folder


def test_ratings_site_writes_the_page_in_every_language_linked_from_the_index(federation):
    ratings(federation, "site", "--out", "site", "--warehouse", "w.duckdb")
    site = federation / "site"
    titles = {"en": "How ratings are computed: the national performance Elo",
              "fr": "Comment les classements sont calculés : l’Elo national de performance",
              "nl": "Hoe de ratings berekend worden: de nationale prestatie-elo",
              "de": "Wie die Wertungen berechnet werden: die nationale Leistungs-Elo"}
    for lang, title in titles.items():
        page = (site / lang / "how.html").read_text(encoding="utf-8")
        assert f"<h1>{title}</h1>" in page and f"<title>{title}" in page
        assert "149" in page and '<a href="how.html">' in (site / lang / "index.html").read_text(encoding="utf-8")
        for other in LANGUAGES:  # the page links itself in the other languages
            assert other == lang or f'href="../{other}/how.html"' in page


def test_a_scenarios_parameters_change_its_page(federation):
    # A scenario is never published (`ratings site` refuses it), but its page is made from its own
    # parameters, stored in the warehouse with its lists: the page the site would give it.
    (federation / "gap300.toml").write_text("compatibility_gap = 300\nsenior_quota = 12\n")
    ratings(federation, "scenario", "gap300", "--rules", "gap300.toml", "--warehouse", "w.duckdb")
    con = duckdb.connect(str(federation / "w.duckdb"), read_only=True)
    try:
        pages = {name: how_page(chosen(con, name).rule_set) for name in ("performance", "gap300")}
    finally:
        con.close()
    official, scenario = (" ".join(_sentences(pages[name][3]["how"])) for name in ("performance", "gap300"))
    assert "less than 350 points below the player" in official and "16 for a senior" in official
    assert "less than 300 points below the player" in scenario and "12 for a senior" in scenario
    assert pages["performance"][:3] == pages["gap300"][:3] == ("how", "how.html", 1)


def test_a_rules_files_parameters_change_the_published_page(federation, tmp_path):
    # The official lists computed with a rules file (`ratings run --rules`): their site says its values.
    for name in ("players.csv", "ratings.csv", "games.csv"):
        (tmp_path / name).write_bytes((federation / name).read_bytes())
    (tmp_path / "rules.toml").write_text("compatibility_gap = 300\nbrake_weight = 20\n")
    ratings(tmp_path, "run", "--players", "players.csv", "--ratings", "ratings.csv", "--games", "games.csv",
            "--rules", "rules.toml", "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    ratings(tmp_path, "site", "--out", "site", "--lang", "en,nl", "--warehouse", "w.duckdb")
    page = (tmp_path / "site" / "en" / "how.html").read_text(encoding="utf-8")
    assert "less than 300 points below the player" in page and "Ej = (20 × Ei + Nj × Pj) / (20 + Nj)" in page
    assert "minder dan 300 punten onder de speler" in (tmp_path / "site" / "nl" / "how.html").read_text("utf-8")
