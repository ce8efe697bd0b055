"""Plausible dates: a typed year cannot publish a century of lists nor revise every
list already published (sql/validate/plausible_dates.sql)."""
from __future__ import annotations

import pytest

from tests.conftest import copy_built, write_rows
from tests.test_submissions import query

LISTS = [("2027-01",), ("2027-05",)]


def late(tmp_path, date: str):
    """A game on that date, and one on 2027-02-06 (every file a game of its own there)."""
    return write_rows(tmp_path / f"late-{date}.csv", ["date", "white_id", "black_id", "result", "event"], [
        [date, 1, 2, "1-0", date], ["2027-02-06", 2, 1, "1-0", date]])


@pytest.fixture
def published(published_once, tmp_path):
    """Here a copy of the small federation the session rated and published once
    (tests/conftest.py): no test of this file gives its input files again."""
    return copy_built(published_once, tmp_path)


def test_a_game_after_today_and_31_days_is_in_the_future(cli, published, tmp_path, monkeypatch):
    w, out = published
    monkeypatch.setenv("RATINGS_TODAY", "2027-03-01")  # the horizon is 2027-04-01
    result = cli("run", "--games", late(tmp_path, "2127-03-01"), "--warehouse", w, "--out", out, rejected=True)
    assert "row 1: date: 2127-03-01 is in the future (after 2027-04-01, today + 31 days)" in result.output
    ok = cli("run", "--games", late(tmp_path, "2027-04-01"), "--warehouse", w, "--out", out).output  # the last day allowed
    assert "accepted 2 + rejected 0" in ok
    assert query(w, "select list_id from lists order by 1") == LISTS  # no list for 2127


def test_a_game_before_the_first_list_is_before_the_history(cli, published, tmp_path):
    w, out = published
    result = cli("run", "--games", late(tmp_path, "2026-08-31"), "--warehouse", w, "--out", out, rejected=True)
    assert ("row 1: date: 2026-08-31 is before the history starts (the first list, 2027-01, rates the games "
            "from 2026-09-01)") in result.output
    assert query(w, "select list_id, revision from lists order by 1") == [("2027-01", 1), ("2027-05", 2)]


def test_a_date_years_away_from_every_other_game_is_a_typo(cli, small_federation, tmp_path):
    # Nothing stored yet: the file's own games are the history. 1919-09-05 is 107 years and
    # 2 days before the earliest other game, 2026-09-05: 39,082 days / 365.25 = 107.0 years.
    rows = [["1919-09-05", 1, 2, "1-0"], ["2026-09-05", 3, 4, "1-0"], ["2026-09-12", 4, 3, "1-0"]]
    games = write_rows(tmp_path / "typo.csv", ["date", "white_id", "black_id", "result"], rows)
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                 "--games", games, "--warehouse", w, "--out", tmp_path / "out", rejected=True)
    assert ("row 1: date: 1919-09-05 is 107.0 years before the earliest other game (2026-09-05) with no games "
            "between: likely a typo (a gap of more than two years)") in result.output
    assert query(w, "select list_id from lists") == [("2027-01",)]
    # Two years and a day after the latest game (2026-09-12: 732 days, 2.0 years) is a typo
    # too; two years exactly is not.
    later = write_rows(tmp_path / "later.csv", ["date", "white_id", "black_id", "result"], [["2028-09-13", 1, 2, "1-0"]])
    result = cli("run", "--games", later, "--warehouse", w, "--out", tmp_path / "out", rejected=True)
    assert "row 1: date: 2028-09-13 is 2.0 years after the latest other game (2026-09-12)" in result.output
    just = write_rows(tmp_path / "just.csv", ["date", "white_id", "black_id", "result"], [["2028-09-12", 2, 1, "1-0"]])
    assert "accepted 1 + rejected 0" in cli("run", "--games", just, "--warehouse", w, "--out", tmp_path / "out").output
