"""`ratings site` run again on its folder after a late result: the folder it leaves is,
file for file and byte for byte, the site built anew from the same warehouse (what a
re-run skips, keeps or removes changes no file), and the size it reports is the
folder's. What the data step keeps beside the folder (pipeline/site/kept.py) is taken
only where it holds: after a late result, a warehouse changed behind its back in each
way, and never with --whole."""
from __future__ import annotations

import json
import re

import duckdb
import pytest

from pipeline.publish.record import code_digest
from pipeline.rate.series import chosen
from pipeline.site.build import build_site
from pipeline.site.kept import Kept, kept_path
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


def _built(folder, name: str, languages=("en",)) -> dict[str, bytes]:
    """The site of the warehouse in `folder` built into folder/name (a re-run if it is
    there, with what the run before kept beside it), its files and bytes."""
    with duckdb.connect(str(folder / "w.duckdb"), read_only=True) as con:
        build_site(con, chosen(con, None), folder / name, list(languages), pending=True)
    return tree(folder / name)


# Edits of the warehouse behind the kept data's back, each of a kind the data step must
# notice (kept.py's keys): the site re-run on the edited warehouse must be the one built
# anew. Each edit changes what a list shows (player 1's rating on 2027-01, which is also
# the previous rating that 2027-05's change reads) where the lists' own rows would not
# tell a kept list from a changed one, but for what the case changes.
BEHIND = "update player_state set rating = rating + 50 where list_id = '2027-01' and player_id = 1"
EDITS = {
    # 2027-01 revised (its lists row says so), 2027-05 not: its change reads 2027-01's
    # rating, so a list's key holds the keys of the lists before it
    "a list in the middle revised": [BEHIND, "update lists set revision = revision + 1 where list_id = '2027-01'"],
    # another warehouse with the same lists rows: its first run tells it apart
    "another warehouse": [BEHIND, "update runs set started_at = started_at - interval 1 day where run_id = 1"],
    # a new layout (the version row moves with each migration): nothing kept holds
    "a warehouse migrated": [BEHIND, "update warehouse_version set version = version + 1"],
    # the registry's sex and birth year (categories, filters) belong to no list's key
    "the registry changed": ["update players set extra = '{\"sex\": \"F\"}', birth_year = 2011 where player_id = 1"],
    # a whole series re-rated with other parameters
    "the series re-rated": [BEHIND, "update series set parameters = json_merge_patch(parameters, '{}') || ''",
                            "update lists set run_id = run_id + 1"],
}


@pytest.mark.parametrize("edits", EDITS.values(), ids=EDITS.keys())
def test_a_rerun_after_the_warehouse_changed_behind_its_back_is_the_site_built_anew(tmp_path, edits):
    _federation(tmp_path)
    before = _built(tmp_path, "site")
    with duckdb.connect(str(tmp_path / "w.duckdb")) as con:
        for sql in edits:
            con.execute(sql)
    again, anew = _built(tmp_path, "site"), _built(tmp_path, "anew")
    assert again != before  # the edit shows on the site
    assert sorted(again) == sorted(anew)
    assert [name for name in anew if again[name] != anew[name]] == []


def test_the_kept_data_is_beside_the_folder_never_in_it(tmp_path):
    _federation(tmp_path)
    _built(tmp_path, "site")
    assert (tmp_path / ".site.site-cache.duckdb").is_file()
    assert not [name for name in tree(tmp_path / "site") if "cache" in name]


def test_a_late_result_recomputes_only_its_list(tmp_path):
    # The kept data is used: after a late result in 2027-05's window, 2027-01's rows are
    # the ones kept (a whole computation would read 2027-01 again), and the site is the
    # one built anew.
    late = _federation(tmp_path)
    _built(tmp_path, "site", LANGUAGES.split(","))
    ratings(tmp_path, "run", "--games", late, "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        con.execute("set variable series = 'performance'")
        # the JSON files there (a kept text is the folder's file: its digest in the manifest)
        manifest = json.loads((tmp_path / "site" / ".site-manifest.json").read_text())
        kept = Kept(kept_path(tmp_path / "site"),
                    on_disk={path[len("api/v1/"):]: key for path, key in manifest.items() if path.startswith("api/v1/")})
        kept.kept_lists(con, chosen(con, None), 0, code_digest())
        assert (kept.kept, kept.fresh) == (["2027-01"], ["2027-05"])
        kept.close()
    again, anew = _built(tmp_path, "site", LANGUAGES.split(",")), _built(tmp_path, "anew", LANGUAGES.split(","))
    assert sorted(again) == sorted(anew) and [name for name in anew if again[name] != anew[name]] == []


def test_whole_takes_nothing_kept(tmp_path):
    # --whole: the kept data is not read (a player's kept values, edited in the file, do
    # not show) and every file is written again
    _federation(tmp_path)
    ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb", "--lang", "en")
    with duckdb.connect(str(tmp_path / ".site.site-cache.duckdb")) as kept:
        kept.execute("update players set name = 'Zora Kept' where player_id = 1")  # the keys still hold
    page = tmp_path / "site" / "en" / "players" / "1.html"
    ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb", "--lang", "en")
    assert "Zora Kept" in page.read_text()  # taken as kept
    printed = ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb", "--lang", "en", "--whole")
    assert " 0 unchanged" in printed
    assert "Zora Kept" not in page.read_text() and "Anna Rated" in page.read_text()


def test_a_json_file_gone_from_the_folder_is_made_again(tmp_path):
    # The JSON files' texts are not kept, their digests are: a file removed from the folder
    # has its list, event or player computed again, not taken as kept (a file there is
    # trusted as the manifest trusts it).
    _federation(tmp_path)
    before = _built(tmp_path, "site")
    api = tmp_path / "site" / "api" / "v1"
    event = sorted((api / "events").iterdir())[0]
    for path in (api / "players" / "1.json", api / "lists" / "2027-01.json", event):
        path.unlink()
    again = _built(tmp_path, "site")
    assert again == before  # the files made again, byte for byte; no other file moved


def test_a_site_another_run_is_writing_is_one_message(tmp_path):
    # Two `ratings site` into one folder: the second finds the kept data's file in use
    # (DuckDB's lock), says so and writes nothing.
    _federation(tmp_path)
    ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb", "--lang", "en")
    before = tree(tmp_path / "site")
    with duckdb.connect(str(tmp_path / ".site.site-cache.duckdb")):  # the other run's
        said = ratings(tmp_path, "site", "--out", "site", "--warehouse", "w.duckdb", "--lang", "en", code=1)
    assert said.startswith(f"Error: {tmp_path / '.site.site-cache.duckdb'}: in use by another `ratings site` "
                           "writing the same folder; try again when it has finished"), said
    assert tree(tmp_path / "site") == before


def test_a_language_added_is_the_site_built_anew(tmp_path):
    # The kept data is the same in every language: a language added renders its pages
    # from it, and the folder is the one built anew with both.
    late = _federation(tmp_path)
    _built(tmp_path, "site", ["en"])
    ratings(tmp_path, "run", "--games", late, "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    again, anew = _built(tmp_path, "site", ["en", "fr"]), _built(tmp_path, "anew", ["en", "fr"])
    assert any(name.startswith("fr/players/") for name in again)
    assert sorted(again) == sorted(anew) and [name for name in anew if again[name] != anew[name]] == []
