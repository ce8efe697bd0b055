"""Late results and corrections: recomputation from the first list they touch,
revisions that keep the old list, and diff reports that say who changed and why."""
from __future__ import annotations

import duckdb
import pandas as pd
import pytest

from tests.conftest import copy_built, write_rows


@pytest.fixture
def published(published_once, tmp_path):
    """Here a copy of the small federation the session rated and published once
    (tests/conftest.py): no test of this file gives its input files again."""
    return copy_built(published_once, tmp_path)


def ratings_of(out, list_id) -> dict[int, int]:
    frame = pd.read_csv(out / "lists" / f"{list_id}.csv")
    return dict(zip(frame["player_id"], frame["rating"]))


def test_late_games_revise_only_the_players_they_touch(cli, published, tmp_path):
    w, out = published
    first_before, second_before = ratings_of(out, "2027-01"), ratings_of(out, "2027-05")
    assert first_before[3] == 1620 and first_before[4] == 1500 and second_before[3] == 1630
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result", "event"], [
        ["2026-11-15", 4, 3, "1-0", "Late club match"]])
    result = cli("run", "--games", late, "--warehouse", w, "--out", out)
    assert "2027-01" in result.output and "2027-05" in result.output

    # 2027-01, by hand. 4 (1500): draw 1600, loss 1800, win 1600 (late): P 0.5, Ea 1666.67 →
    #   barycentre (3·1666.67 + 13·1500)/16 = 1531.25 → 1530.
    # 3 (1600): draw 1500, win 1700, loss to 6 at 1843, loss to 1500 (late): P 0.375,
    #   Ea 1635.75, D = −95 + 0.5·8 = −91 → Pj 1544.75: brake (16·1600 + 4·1544.75)/20 = 1588.95 → 1590.
    # Nobody else's games involve them with a changed rating: 1, 2, 5 stay.
    first = ratings_of(out, "2027-01")
    assert first == first_before | {3: 1590, 4: 1530}
    # 2027-05: 3 (now 1590) draws 1 (1780): (1780 + 15·1590)/16 = 1601.9 → 1600; 4 carries 1530;
    # 1 brakes to (16·1780 + 1590)/17 = 1768.8 → 1770, the same published rating.
    second = ratings_of(out, "2027-05")
    assert second == second_before | {3: 1600, 4: 1530}

    con = duckdb.connect(str(w), read_only=True)
    assert con.execute("select list_id, revision from lists order by 1").fetchall() == [
        ("2027-01", 2), ("2027-05", 2)]
    # The old revision is still there.
    assert con.execute("""select player_id, rating from player_state_revisions
                          where list_id = '2027-01' and revision = 1 and player_id in (3, 4) order by 1""").fetchall() \
        == [(3, 1620.0), (4, 1500.0)]
    changes = con.execute("""select list_id, revision, player_id, old_rating, new_rating, reason
                             from rating_changes order by 1, 3""").fetchall()
    late_reason = "late games (submission 4): 2026-11-15 4-3 1-0"
    assert changes == [
        ("2027-01", 2, 3, 1620.0, 1590.0, late_reason),
        ("2027-01", 2, 4, 1500.0, 1530.0, late_reason),
        ("2027-05", 2, 3, 1630.0, 1600.0, "earlier lists or opponents changed"),
        ("2027-05", 2, 4, 1500.0, 1530.0, "earlier lists or opponents changed"),
    ]
    assert con.execute("select list_id, revision, players_changed from list_revisions order by 1, 2").fetchall() == [
        ("2027-01", 1, 0), ("2027-01", 2, 2), ("2027-05", 1, 0), ("2027-05", 2, 2)]
    con.close()
    diff = pd.read_csv(out / "diffs" / "2027-01-r2.csv")
    assert list(diff["player_id"]) == [3, 4] and list(diff["old_rating"]) == [1620, 1500]
    assert list(diff["name"]) == ["Cara Rated", "Dirk Rated"] and set(diff["reason"]) == {late_reason}
    assert sorted(p.name for p in (out / "diffs").iterdir()) == ["2027-01-r2.csv", "2027-05-r2.csv"]

    # Nothing new: nothing recomputed, no revision.
    again = cli("rate", "--warehouse", w)
    assert "every list is up to date" in again.output
    forced = cli("rate", "--from", "2027-05", "--warehouse", w)
    assert "unchanged" in forced.output
    con = duckdb.connect(str(w), read_only=True)
    assert con.execute("select max(revision) from list_revisions").fetchall() == [(2,)]
    # rating_changes has one row per list, revision and player (the grain of sql/30_rating_changes.sql).
    assert con.execute("select count(*) = count(distinct (list_id, revision, player_id)) from rating_changes"
                       ).fetchall() == [(True,)]


def test_a_correction_is_applied_and_later_lists_follow(cli, published):
    w, out = published
    assert ratings_of(out, "2027-01")[2] == 1660
    cli("correct", 2, "--list", "2027-01", "--rating", 1700, "--reason", "appeal upheld", "--by", "commission",
        "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out)  # no new file: `run` notices the correction
    assert ratings_of(out, "2027-01")[2] == 1700
    assert ratings_of(out, "2027-05")[2] == 1700  # 2 did not play: the corrected rating carries on
    con = duckdb.connect(str(w), read_only=True)
    assert con.execute("select rule, rating from calculations where list_id = '2027-01' and player_id = 2"
                       ).fetchall() == [("correction: appeal upheld", 1700.0)]
    assert con.execute("select list_id, reason from rating_changes where player_id = 2 order by 1").fetchall() == [
        ("2027-01", "correction 1 by commission: appeal upheld"), ("2027-05", "earlier lists or opponents changed")]
    # Only 2 changed: 2027-05's games (1 against 3) do not involve 2.
    assert con.execute("select count(*) from rating_changes").fetchall() == [(2,)]


def test_unknown_list_and_player_are_refused(cli, published):
    w, _ = published
    refused = cli("rate", "--from", "2031-01", "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "no list '2031-01'" in refused.output
    refused = cli("correct", 99, "--list", "2027-01", "--rating", 1500, "--reason", "x", "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "player 99 is not in the registry" in refused.output
