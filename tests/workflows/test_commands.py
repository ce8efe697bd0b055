"""docs/commands.md's examples, as printed, on a copy of the season published (list
2027-01, player 12345 corrected to 1850): a card and every card of the list, a what-if, a
query, the lists published for pairing programs and a spreadsheet, the lists rated again
from a list, the listings in JSON and CSV; and `ratings simulate`, same seed, same bytes."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.workflows.helpers import audit_ok, copied, digests, query, ratings, shell, user_env
from tests.workflows.inputs import SEASON_LIST, SEASON_PLAYER
from tests.workflows.season import TODAY


@pytest.fixture
def published(season, tmp_path) -> Path:
    folder = copied(season.folder, tmp_path / "season")
    shutil.copyfile(folder / "data" / "warehouse.duckdb", folder / "w.duckdb")  # the examples' --warehouse w.duckdb
    return folder


def run(line: str, folder: Path, expect: int | tuple[int, ...] | None = 0):
    return shell(line, folder, expect=expect, env=user_env(today=TODAY))


def test_cards_a_what_if_and_a_query(published):
    card = run("ratings explain 12345 --list 2027-01", published)
    assert card.stdout.startswith(f"Sim Player {SEASON_PLAYER} ({SEASON_PLAYER}), list {SEASON_LIST}")
    assert "appeal upheld" in card.stdout  # the commission's correction, in the card
    every = run("ratings explain --list 2027-01 --all --out cards", published)
    cards = sorted((published / "cards").glob("*.txt"))  # beside them, the marker of the folder explain made
    assert f"{len(cards)} cards of list {SEASON_LIST} written to cards" in every.stdout
    assert (published / "cards" / f"{SEASON_PLAYER}.txt").read_text().splitlines()[0] == card.stdout.splitlines()[0]
    whatif = run("ratings whatif 12345 --opponent 1850", published)
    assert whatif.stdout.startswith(f"Player {SEASON_PLAYER}, one more game against 1850, list 2027-05:")
    lists = run('ratings query "select * from lists"', published)
    assert lists.stdout.splitlines()[1].split()[:2] == ["performance", SEASON_LIST]


def test_the_lists_for_pairing_programs_and_a_spreadsheet(published):
    run("ratings publish --format csv,txt,swiss-manager --warehouse w.duckdb --out lists/", published)
    names = {p.name for p in (published / "lists" / "lists").iterdir()}
    assert {f"{SEASON_LIST}.csv", f"{SEASON_LIST}.txt", f"{SEASON_LIST}-swiss-manager.csv"} <= names
    assert not any(name.endswith(".parquet") for name in names)
    run("ratings publish --format csv --csv-dialect excel --warehouse w.duckdb --out excel/", published)
    excel = (published / "excel" / "lists" / f"{SEASON_LIST}-excel.csv").read_bytes()
    assert excel.startswith(b"\xef\xbb\xbf") and b";" in excel.splitlines()[0]
    # The same list, in the standard CSV, in both folders: the dialect adds a twin, changes nothing.
    assert (published / "excel" / "lists" / f"{SEASON_LIST}.csv").read_bytes() \
        == (published / "lists" / "lists" / f"{SEASON_LIST}.csv").read_bytes()
    audit_ok(published, "--warehouse", "w.duckdb")


def test_rated_again_from_a_list_nothing_changes(published):
    before = digests(published / "reports")
    run("ratings rate --from 2027-01 --warehouse w.duckdb", published)
    assert query(published / "w.duckdb", "select max(revision) from list_revisions") == [(2,)]
    run("ratings publish --warehouse w.duckdb", published)
    assert digests(published / "reports") == before


def test_listings_in_json_and_csv(published):
    submissions = json.loads(run("ratings submissions --format json", published).stdout)
    assert [s["name"] for s in submissions][:4] == ["registry.csv", "ratings.csv", "league.csv", "friendly.csv"]
    for s in submissions:  # read = stored + rejected + fixed + withdrawn + closed
        assert s["read"] == s["stored"] + s["rejected"] + s["fixed"] + s["withdrawn"] + s["closed"], s
    revisions = json.loads(run("ratings revisions --format json", published).stdout)
    assert [(r["list_id"], r["revision"]) for r in revisions] == [(SEASON_LIST, 1), (SEASON_LIST, 2)]
    assert revisions[1]["computed_at"][10] == "T"  # an ISO time
    run("ratings corrections --format csv > corrections.csv", published)
    assert (published / "corrections.csv").read_text().splitlines()[1].split(",")[:6] == \
        ["1", "performance", str(SEASON_PLAYER), f"Sim Player {SEASON_PLAYER}", SEASON_LIST, "1850"]


def test_simulate_writes_the_same_bytes_for_a_seed(tmp_path):
    for out in ("a", "b"):
        ratings("simulate", "--players", 500, "--lists", 2, "--seed", 1, "--out", out, cwd=tmp_path)
    assert digests(tmp_path / "a") == digests(tmp_path / "b")
    assert sorted(digests(tmp_path / "a")) == ["games.csv", "players.csv", "ratings.csv"]
