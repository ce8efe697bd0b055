"""`ratings site` run again on its folder after a late result: the folder it leaves is,
file for file and byte for byte, the site built anew from the same warehouse (what a
re-run skips, keeps or removes changes no file), and the size it reports is the
folder's."""
from __future__ import annotations

import re

import duckdb
import pytest

from pipeline.rate.series import chosen
from pipeline.site.build import build_site
from tests.as_user import ratings, tree
from tests.conftest import write_rows, write_small_federation

LANGUAGES = "en,fr,nl,de"
GAMES = ["date", "white_id", "black_id", "result", "event", "round"]
# The pages of a site by their folder in a language (the index, the how and calculator
# pages are at its top): the small federation's site has each kind.
PAGE_FOLDERS = {"lists", "players", "clubs", "events", "pending"}


def _federation(folder):
    """The small federation rated (lists 2027-01 and 2027-05, window to 2027-04-30)."""
    files = write_small_federation(folder)
    ratings(folder, "run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
            "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    # in 2027-05's window (2027-01 - 2027-04): it revises that list
    return write_rows(folder / "late.csv", GAMES, [["2027-03-20", 1, 4, "0-1", "Late club", 1]])


def _received(folder) -> None:
    """Games received after the last list's window, taken in (the pending pages)."""
    after = write_rows(folder / "after.csv", GAMES, [["2027-05-08", 1, 2, "1-0", "Spring open", 1],
                                                      ["2027-06-12", 2, 3, "0-1", "Spring open", 2]])
    ratings(folder, "ingest", after, "--warehouse", "w.duckdb")
    ratings(folder, "validate", "--warehouse", "w.duckdb")


def _sample(folder):
    """The embedded sample rated; its last game again, a late result that revises its last list."""
    ratings(folder, "run", "--sample", "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    with duckdb.connect(str(folder / "w.duckdb"), read_only=True) as con:
        date, white, black = con.execute(
            "select date, white_id, black_id from games order by date desc, game_id desc limit 1").fetchall()[0]
    return write_rows(folder / "late.csv", GAMES, [[date, white, black, "1-0", "Late club game", 1]])


@pytest.mark.parametrize("made", [_federation, _sample], ids=["federation", "sample"])
def test_a_rerun_after_a_late_result_leaves_the_site_built_anew(tmp_path, made):
    late = made(tmp_path)
    site = ["--warehouse", "w.duckdb", "--lang", LANGUAGES, "--pending"]
    ratings(tmp_path, "site", "--out", "site", *site)
    ratings(tmp_path, "run", "--games", late, "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    if made is _federation:
        _received(tmp_path)  # new pages too: the pending games
    printed = ratings(tmp_path, "site", "--out", "site", *site)
    # the late result changed pages, and they were rewritten
    assert int(re.search(r"([\d,]+) files changed", printed)[1].replace(",", "")) > 0
    ratings(tmp_path, "site", "--out", "anew", *site)
    again, anew = tree(tmp_path / "site"), tree(tmp_path / "anew")
    # The whole folder, hidden files (the manifest, the folder's marker) included.
    assert sorted(again) == sorted(anew)
    assert [name for name in anew if again[name] != anew[name]] == []
    folders = {name.split("/")[1] for name in anew if name.startswith("en/") and name.count("/") == 2}
    assert {"lists", "players", "events"} <= folders and {"en/index.html", "en/how.html"} <= set(anew)
    if made is _federation:  # the sample has no club and no game received after its last list
        assert PAGE_FOLDERS <= folders and "en/calculator.html" in anew


def test_the_size_reported_is_the_folders(tmp_path):
    # The size is counted from the folder's one walk and the files written and removed
    # since, not from a second walk: it must be what is on disk after a first build, a
    # re-run and a re-run with fewer languages (files removed).
    _federation(tmp_path)
    _received(tmp_path)
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        series = chosen(con, None)
        for languages in (["en", "fr"], ["en", "fr"], ["en"]):
            built = build_site(con, series, tmp_path / "site", languages, pending=True)
            on_disk = sum(p.stat().st_size for p in (tmp_path / "site").rglob("*") if p.is_file())
            assert built.bytes == on_disk, languages
    assert built.removed > 0 and not (tmp_path / "site" / "fr").exists()
