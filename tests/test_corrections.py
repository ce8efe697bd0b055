"""Corrections are data with a trail: checked before they are recorded, listed with
who entered them, withdrawn with a reason, and the lists follow at the next rate."""
from __future__ import annotations

import duckdb
import pytest

from tests.conftest import copy_built
from tests.test_go_pipeline import go_files  # noqa: F401 (a fixture)
from tests.test_submissions import FIRST, SECOND, query, ratings_of


@pytest.fixture
def published(published_once, tmp_path):
    """Here a copy of the small federation the session rated and published once
    (tests/conftest.py): no test of this file gives its input files again."""
    return copy_built(published_once, tmp_path)


@pytest.mark.parametrize("args, says", [
    ((2, "--list", "2027-01", "--rating", -100), "rating -100 refused: a performance list publishes a multiple of 10 "
                                                 "from 10 to 3000 (R3)"),
    ((2, "--list", "2027-01", "--rating", 1505), "rating 1505 refused: a performance list publishes a multiple of 10"),
    ((2, "--list", "2031-01", "--rating", 1500), "no computed list '2031-01' (the lists are 2027-01 … 2027-05)"),
    ((2, "--list", "2027-09", "--rating", 1500), "no computed list '2027-09'"),
    ((99, "--list", "2027-01", "--rating", 1500), "player 99 is not in the registry"),
    ((2, "--list", "2027-01", "--rating", 1500, "--reason", " "), "give the commission's reason"),
])
def test_a_bad_correction_is_refused_with_its_reason(cli, published, args, says):
    w, _ = published
    reason = () if "--reason" in args else ("--reason", "appeal")
    refused = cli("correct", *args, *reason, "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and says in refused.output, refused.output
    assert query(w, "select count(*) from corrections") == [(0,)]


def test_a_correction_is_listed_withdrawn_and_the_lists_follow(cli, published):
    w, out = published
    recorded = cli("correct", 2, "--list", "2027-01", "--rating", 1700, "--reason", "appeal upheld",
                   "--by", "commission", "--warehouse", w).output
    assert "Correction 1 recorded by commission: player 2, list 2027-01, rating 1700 (appeal upheld)." in recorded
    cli("rate", "--warehouse", w)
    cli("publish", "--warehouse", w, "--out", out)
    assert ratings_of(out, "2027-01")[2] == 1700 and ratings_of(out, "2027-05")[2] == 1700
    listing = cli("corrections", "--warehouse", w).output
    assert "commission" in listing and "in force" in listing and "Bert Rated" in listing
    withdrawn = cli("correct", "--withdraw", 1, "--reason", "appeal reversed", "--by", "board", "--warehouse", w).output
    assert "Correction 1 withdrawn (player 2, list 2027-01): appeal reversed." in withdrawn
    cli("run", "--warehouse", w, "--out", out)
    assert ratings_of(out, "2027-01") == FIRST and ratings_of(out, "2027-05") == SECOND
    assert "withdrawn by board: appeal reversed" in cli("corrections", "--player", 2, "--warehouse", w).output
    assert query(w, "select revision, reason from list_revisions where list_id = '2027-01' order by 1") == [
        (1, "first computed"), (2, "correction 1 (player 2)"), (3, "correction 1 withdrawn")]
    assert query(w, "select reason from rating_changes where list_id = '2027-01' and revision = 3") == [
        ("correction 1 withdrawn by board: appeal reversed",)]
    again = cli("correct", "--withdraw", 1, "--reason", "x", "--warehouse", w, ok=False)
    assert "correction 1 was already withdrawn" in again.output
    assert "no correction 7" in cli("correct", "--withdraw", 7, "--reason", "x", "--warehouse", w, ok=False).output


def test_fide_corrections_are_whole_numbers_from_the_floor(cli, small_federation, tmp_path):
    w = tmp_path / "fide.duckdb"
    cli("run", "--system", "fide", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    for rating in (1850.5, 1300):
        refused = cli("correct", 1, "--list", "2026-10", "--rating", rating, "--reason", "x", "--warehouse", w, ok=False)
        assert "refused: a fide list publishes a whole number from 1400 to 3000" in refused.output
    cli("correct", 1, "--list", "2026-10", "--rating", 1851, "--reason", "appeal", "--warehouse", w)


def test_go_corrections_are_points_at_a_computed_event(cli, go_files, tmp_path):  # noqa: F811
    w = tmp_path / "go.duckdb"
    cli("run", "--system", "go-belgium", "--players", go_files["players"], "--events", go_files["events"],
        "--games", go_files["games"], "--warehouse", w, "--out", tmp_path / "out")
    assert "refused: a go-belgium list publishes Go points from -2450 to 1000" in cli(
        "correct", 1, "--list", "club-1", "--rating", 3500, "--reason", "x", "--warehouse", w, ok=False).output
    assert "no computed event 'club-9'" in cli(
        "correct", 1, "--list", "club-9", "--rating", -1900, "--reason", "x", "--warehouse", w, ok=False).output
    cli("correct", 1, "--list", "club-1", "--rating", -1900.5, "--reason", "appeal", "--warehouse", w)
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select rating from corrections").fetchall() == [(-1900.5,)]
