"""The analysts' views, their comments (the data dictionary of docs/outputs.md), and the export."""
from __future__ import annotations

import re

import duckdb
import pandas as pd
import pytest

from tests.conftest import PROJECT_DIR, copy_built
from tests.test_go_pipeline import go_files  # noqa: F401 (a fixture)

VIEWS = ("list_ratings", "registry_snapshots", "rating_history", "player_card", "list_summary", "top_players")
GO_VIEWS = ("go_history",)  # made by the Go rule sets (pipeline/systems/go/schema.sql)


@pytest.fixture
def published(published_once, tmp_path):
    """Here a copy of the small federation the session rated and published once
    (tests/conftest.py): no test of this file gives its input files again."""
    return copy_built(published_once, tmp_path)


@pytest.fixture
def warehouse(published):
    return published[0]


def test_views_hold_the_hand_computed_lists(warehouse, tmp_path):
    con = duckdb.connect(str(warehouse), read_only=True)
    # rating_history is the published lists together.
    history = con.sql("select * from rating_history order by list_id, rating desc, player_id").df()
    published = pd.concat([pd.read_csv(tmp_path / "out" / "lists" / f"{k}.csv") for k in ("2027-01", "2027-05")])
    assert history["rating"].tolist() == published["rating"].tolist()
    # Player 1: 1800 → 1780 (2027-01) → 1770 (2027-05); peak 1780 on 2027-01; 3 + 1 games.
    assert con.execute("""select rating, last_list, peak_rating, peak_list, first_list, last_played_list, games
                          from player_card where player_id = 1""").fetchall() == [
        (1770, "2027-05", 1780, "2027-01", "2027-01", "2027-05", 4)]
    # 2027-01: five rated; the biggest gain is the junior 5 (1400 → 1450), the biggest loss 2 (1700 → 1660).
    assert con.execute("""select players_rated, new_players, biggest_gain, biggest_gain_player,
                                 biggest_loss, biggest_loss_player, forfeits
                          from list_summary where list_id = '2027-01'""").fetchall() == [(5, 0, 50, 5, -40, 2, 1)]
    # Drift: on 2027-01 everyone played, mean change (-20 - 40 + 20 + 0 + 50) / 5 = +2.0; on 2027-05
    # 1 (-10) and 3 (+10) played, 2, 4 and 5 did not (0): both means 0; the list's mean 1602 both times.
    assert con.execute("""select list_id, mean_change_played, mean_change_not_played, mean_change, mean_rating_change
                          from list_summary order by list_id""").fetchall() == [
        ("2027-01", 2.0, None, 2.0, None), ("2027-05", 0.0, 0.0, 0.0, 0.0)]
    # The only junior (born 2012) is 5, ranked 5th of 5.
    assert con.execute("select player_id, rank from top_players where list_id = '2027-01' and junior").fetchall() \
        == [(5, 5)]
    assert con.execute("select count(*) from top_players where club = 'Club A' and list_id = '2027-05'"
                       ).fetchall() == [(2,)]


def _documented(warehouse, views):
    readme = (PROJECT_DIR / "docs" / "outputs.md").read_text()  # the data dictionary
    con = duckdb.connect(str(warehouse), read_only=True)
    for view in views:
        comment = con.execute("select comment from duckdb_views() where view_name = ?", [view]).fetchall()[0][0]
        assert comment and f"**`{view}`**: {comment}" in readme
        for column, text in con.execute("select column_name, comment from duckdb_columns() where table_name = ?",
                                        [view]).fetchall():
            assert text, (view, column)
            assert f"| `{column}` | {text} |" in readme, (view, column)


def test_every_view_column_is_commented_and_in_the_readme(warehouse):
    _documented(warehouse, VIEWS)


def test_the_go_views_are_commented_and_in_the_readme(cli, go_files, tmp_path):  # noqa: F811
    w = tmp_path / "go.duckdb"
    cli("run", "--system", "go-belgium", "--players", go_files["players"], "--events", go_files["events"],
        "--games", go_files["games"], "--warehouse", w, "--out", tmp_path / "out")
    _documented(w, GO_VIEWS)


def test_export_history_is_a_dataset_by_list(cli, warehouse, tmp_path):
    out = tmp_path / "history"
    result = cli("export", "history", "--warehouse", warehouse, "--out", out)
    assert re.search(r"\d+ rows of 2 lists", result.output)
    assert sorted(p.name for p in out.iterdir()) == ["list_id=2027-01", "list_id=2027-05"]
    back = pd.read_parquet(out)
    assert len(back) == 10 and set(back["list_id"].astype(str)) == {"2027-01", "2027-05"}
    first = (out / "list_id=2027-01" / "part-0.parquet").read_bytes()
    cli("export", "history", "--warehouse", warehouse, "--out", out)  # again: replaced whole, same bytes
    assert (out / "list_id=2027-01" / "part-0.parquet").read_bytes() == first
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    refused = cli("export", "history", "--warehouse", warehouse, "--out", tmp_path / "mine", ok=False)
    assert refused.exit_code == 1 and (tmp_path / "mine" / "notes.txt").exists()
