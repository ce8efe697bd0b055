"""The site's pre-publication check (pipeline/site/pending.py, sql/site/pending.sql): the
games in force after the latest list, each player's, with the file and row to quote;
a withdrawn or still staged file's games are not among them; the pages in French."""
from __future__ import annotations

import datetime as dt
import json
import re

import duckdb
import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from pipeline.rate.series import chosen
from pipeline.site.i18n import LANGUAGES, LOCALE, environment, translations
from pipeline.site.pending import pending_games, pending_json
from tests.conftest import PROJECT_DIR, copy_built, write_rows

COLUMNS = ["date", "white_id", "black_id", "result", "event", "round"]
TEMPLATES = ("pending.html.j2", "pending-index.html.j2")


@pytest.fixture
def pending(cli, published_once, tmp_path):
    """The small federation rated into lists 2027-01 and 2027-05 (window to 2027-04-30),
    then: late.csv taken in (three games after that window, one inside it), friendly.csv
    taken in and withdrawn, staged.csv ingested and not validated. (warehouse, Pending)."""
    (w,) = copy_built(published_once, tmp_path, ["w.duckdb"])
    late = write_rows(tmp_path / "late.csv", COLUMNS, [
        ["2027-05-08", 1, 2, "1-0", "Spring open", 1],
        ["2027-05-08", 3, 4, "½-½", "Spring open", 1],
        ["2027-06-12", 2, 3, "+/-", "Spring open", 2],
        ["2027-03-20", 1, 4, "0-1", "Late club", 1],  # in 2027-05's window: it revises that list, not pending
    ])
    friendly = write_rows(tmp_path / "friendly.csv", COLUMNS, [["2027-05-20", 1, 3, "0-1", "Friendly", 1]])
    cli("ingest", late, friendly, "--warehouse", w)
    cli("validate", "--warehouse", w)
    cli("withdraw", "friendly.csv", "--reason", "a friendly, not to be rated", "--warehouse", w)
    staged = write_rows(tmp_path / "staged.csv", COLUMNS, [["2027-07-01", 4, 1, "1-0", "Summer cup", 1]])
    cli("ingest", staged, "--warehouse", w)
    con = duckdb.connect(str(w), read_only=True)
    try:
        yield w, pending_games(con, chosen(con, None))
    finally:
        con.close()


def _submission(w, name: str) -> int:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute("select submission_id from submissions where name = ?", [name]).fetchone()[0]


def test_the_games_after_the_latest_list_each_players(pending):
    w, p = pending
    assert (p.series, p.list_id, p.after) == ("performance", "2027-09", dt.date(2027, 4, 30))
    assert (p.window_start, p.window_end, p.computed_on) == (dt.date(2027, 5, 1), dt.date(2027, 8, 31),
                                                             dt.date(2027, 9, 1))
    players = pending_json(p)
    json.dumps(players)  # plain values only
    late = _submission(w, "late.csv")

    def game(date, colour, opponent_id, opponent_name, result, row, rnd):
        return {"date": date, "event": "Spring open", "round": rnd, "colour": colour, "opponent_id": opponent_id,
                "opponent_name": opponent_name, "result": result, "file": "late.csv", "row": row, "submission": late}

    assert players == {
        1: {"player_id": 1, "name": "Anna Rated", "list_id": "2027-09", "computed_on": "2027-09-01", "games": [
            game("2027-05-08", "white", 2, "Bert Rated", "1", 1, "1")]},
        2: {"player_id": 2, "name": "Bert Rated", "list_id": "2027-09", "computed_on": "2027-09-01", "games": [
            game("2027-05-08", "black", 1, "Anna Rated", "0", 1, "1"),
            game("2027-06-12", "white", 3, "Cara Rated", "+", 3, "2")]},
        3: {"player_id": 3, "name": "Cara Rated", "list_id": "2027-09", "computed_on": "2027-09-01", "games": [
            game("2027-05-08", "white", 4, "Dirk Rated", "½", 2, "1"),
            game("2027-06-12", "black", 2, "Bert Rated", "-", 3, "2")]},
        4: {"player_id": 4, "name": "Dirk Rated", "list_id": "2027-09", "computed_on": "2027-09-01", "games": [
            game("2027-05-08", "black", 3, "Cara Rated", "½", 2, "1")]},
    }
    # The withdrawn file's game is out of `games` (kept in withdrawn_rows), the staged one not in yet.
    assert "friendly.csv" not in p.games["file"].to_pylist() and "staged.csv" not in p.games["file"].to_pylist()
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("""select count(*) from withdrawn_rows w join source_files f using (file_id)
                              join submissions s on s.submission_id = f.submission_id
                              where s.name = 'friendly.csv'""").fetchone() == (1,)


def test_nothing_pending_before_any_late_game(published_once):
    with duckdb.connect(str(published_once / "w.duckdb"), read_only=True) as con:
        p = pending_games(con, chosen(con, None))
    assert p.list_id == "2027-09" and p.games.num_rows == 0 and pending_json(p) == {}


def _render(template: str, lang: str, **values) -> str:
    env = environment(lang, translations(lang))
    return env.get_template(template).render(lang=lang, languages=[(c, LANGUAGES[c]) for c in LANGUAGES],
                                             labels={}, **values)


def test_the_pages_in_french(pending):
    _, p = pending
    players = pending_json(p)
    page = _render("pending.html.j2", "fr", root="../../", page="pending/3.html", player=players[3])
    assert 'lang="fr"' in page and "Cara Rated" in page
    assert "Parties reçues pour la liste 2027-09, qui sera calculée le 1 sept. 2027"  # dates by Babel, in French in page
    for label in ("Date", "Tournoi", "Ronde", "Couleur", "Adversaire", "Résultat", "Fichier", "Ligne", "Blancs",
                  "Noirs", "gagnée par forfait", "Une partie est erronée ou manquante ?",
                  "Écrivez au responsable du classement avant le 1 sept. 2027"):
        assert label in page, label
    assert '<div class="scroll">' in page and page.count('class="text wide"') == 3 * (1 + len(players[3]["games"]))
    rows = re.findall(r"<tr><td class=\"text\">([^<]+)</td>.*?href=\"\.\./players/(\d+)\.html\">"
                      r".*?<td>([^<]*)</td><td class=\"text\">([^<]+)</td><td>(\d+)</td></tr>", page, re.S)
    assert rows == [("8 mai 2027", "4", "½", "late.csv", "2"), ("12 juin 2027", "2", "-", "late.csv", "3")]
    # an opponent without a page of their own is named, not linked
    unlinked = _render("pending.html.j2", "fr", root="../../", page="pending/3.html", player=players[3], rated={2})
    assert 'href="../players/4.html"' not in unlinked and "Dirk Rated" in unlinked
    index = _render("pending-index.html.j2", "fr", root="../../", page="pending/index.html",
                    players=sorted(players.values(), key=lambda x: x["name"]))
    assert "Parties pour la liste 2027-09" in index and "avant le 1 sept. 2027" in index
    assert re.findall(r'href="\.\./\.\./fr/pending/(\d+)\.html">([^<]+)</a>\s*<span class="id">\(\d+\)</span></td>'
                      r"<td>(\d+)</td>", index) == [("1", "Anna Rated", "1"), ("2", "Bert Rated", "2"),
                                                   ("3", "Cara Rated", "2"), ("4", "Dirk Rated", "1")]
    empty = _render("pending-index.html.j2", "fr", root="../", page="pending.html", players=[])
    assert "Aucune partie n'a encore été reçue pour la prochaine liste." in empty


def test_the_pages_messages_are_in_their_own_catalogues():
    found = {m[1] for t in TEMPLATES
             for m in extract_from_file("jinja2", PROJECT_DIR / "pipeline" / "site" / "templates" / t,
                                        options={"extensions": "jinja2.ext.i18n"})}
    assert len(found) == 25  # 21, and the four a rule set of events says instead (a Go event received)
    for lang in LANGUAGES:
        with open(LOCALE / lang / "LC_MESSAGES" / "pending.po", "rb") as fh:
            catalogue = read_po(fh, locale=lang)
        messages = {m.id: m for m in catalogue if m.id}
        assert set(messages) == found, (lang, found ^ set(messages))
        for m in messages.values():
            assert m.string and not m.fuzzy, (lang, m.id)
            assert sorted(re.findall(r"%\(\w+\)s", m.id)) == sorted(re.findall(r"%\(\w+\)s", m.string)), (lang, m.id)
            assert ("python-format" in m.flags) == ("%(" in m.id), (lang, m.id)
