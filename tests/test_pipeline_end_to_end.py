"""The whole pipeline through the `ratings` command, on a federation small enough
to compute by hand (tests/conftest.py: small_federation)."""
from __future__ import annotations


import duckdb
import pandas as pd
import pytest

from tests.conftest import write_rows


def run_small(cli, files, tmp_path, name="w"):
    out = tmp_path / f"out-{name}"
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
        "--warehouse", tmp_path / f"{name}.duckdb", "--out", out)
    return out


def test_lists_match_hand_computation(cli, small_federation, tmp_path):
    out = run_small(cli, small_federation, tmp_path)
    first = pd.read_csv(out / "lists" / "2027-01.csv")
    # Hand computation (window 2026-09-01 … 2026-12-31; the forfeit 6–4 is not rated):
    # 1 (1800): beats 1700 and 1500, loses to 1400: Nj 3, P 2/3, Ea 1533.33,
    #   D = 117 + 0.667 × 8 = 122.33 → Pj 1655.67 < 1800: brake (16·1800 + 3·1655.67)/19 = 1777.2 → 1780.
    # 6 (new): draw with 1700, win over 1600 → estimate 1650 + 193 = 1843, settled in round 2;
    #   Nj 2 < 8 → archived (1843, 2), no rating.
    # 2 (1700): losses to 1800 and 1600, draw with 6 at 1843: Ea 1747.67, P 1/6,
    #   D = −284 + 0.667 × 11 = −276.67 → Pj 1471: brake (16·1700 + 3·1471)/19 = 1663.8 → 1660.
    # 3 (1600): draw 1500, win 1700, loss to 6 at 1843: P 0.5, Ea 1681 → barycentre
    #   (3·1681 + 13·1600)/16 = 1615.2 → 1620.
    # 4 (1500): draw 1600, loss 1800: P 0.25, Ea 1700, Pj 1507 → (2·1507 + 14·1500)/16 = 1500.9 → 1500.
    # 5 (junior 1400): beats 1800: Pj 2270, 1 game < 8 → (2270 + 15·1400)/16 = 1454.4 → 1450.
    # 7 and 8 only met each other: unanchored (R11), nothing.
    assert first[["player_id", "rating", "previous_rating", "games", "status"]].values.tolist() == [
        [1, 1780, 1800, 3, "played"],
        [2, 1660, 1700, 3, "played"],
        [3, 1620, 1600, 3, "played"],
        [4, 1500, 1500, 2, "played"],
        [5, 1450, 1400, 1, "played"],
    ]
    assert list(first.columns) == ["list_id", "player_id", "name", "club", "rating", "previous_rating",
                                   "change", "games", "status"]
    # 2027-05: 1 (1780) draws 3 (1620): 1 brakes to (16·1780 + 1620)/17 = 1770.6 → 1770;
    # 3 gets (1780 + 15·1620)/16 = 1630; the others did not play.
    second = pd.read_csv(out / "lists" / "2027-05.csv").set_index("player_id")
    assert second.loc[1, "rating"] == 1770 and second.loc[3, "rating"] == 1630
    assert second.loc[2, "status"] == "did not play" and second.loc[2, "change"] == 0
    state = pd.read_parquet(out / "state" / "2027-01.parquet").set_index("player_id")
    assert state.loc[6, "archive_games"] == 2
    assert state.loc[6, "archive_performance"] == pytest.approx(1843)
    assert pd.isna(state.loc[6, "rating"])
    assert 7 not in state.index and 8 not in state.index
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    assert con.execute("select forfeits, unanchored_players from lists join performance_lists using (series, list_id) "
                       "where list_id = '2027-01'").fetchall() \
        == [(1, 2)]
    assert con.execute("select group_id, size from unanchored_groups").fetchall() == [(7, 2)]
    # The state carries over: list 2027-05 still holds 6's archives.
    assert con.execute("select archive_games from performance_state where list_id = '2027-05' and player_id = 6"
                       ).fetchall() == [(2,)]


def test_public_lists_carry_no_private_column(cli, small_federation, tmp_path):
    out = run_small(cli, small_federation, tmp_path)
    for path in (out / "lists").glob("*.csv"):
        text = path.read_text()
        assert "birth" not in text and "@example.org" not in text and "2012" not in text


def test_outputs_are_byte_identical_whatever_the_game_order(cli, small_federation, tmp_path):
    first = run_small(cli, small_federation, tmp_path, "a")
    rows = pd.read_csv(small_federation["games"], dtype=str, keep_default_na=False)
    shuffled = rows.sample(frac=1, random_state=7)
    shuffled.to_csv(tmp_path / "shuffled.csv", index=False)
    files = dict(small_federation, games=tmp_path / "shuffled.csv")
    second = run_small(cli, files, tmp_path, "b")
    # The lists and states (the HTML pages name the input files, which differ here).
    names = sorted(p.relative_to(first) for p in first.glob("[ls]*/*.*"))
    assert names == sorted(p.relative_to(second) for p in second.glob("[ls]*/*.*"))
    assert {n.parts[0] for n in names} == {"lists", "state"}
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_same_file_twice_adds_nothing(cli, small_federation, tmp_path):
    out = run_small(cli, small_federation, tmp_path)
    before = (out / "lists" / "2027-01.csv").read_bytes()
    result = cli("ingest", "--games", small_federation["games"], "--warehouse", tmp_path / "w.duckdb")
    assert "already taken in as submission 3, nothing of it rejected: adds nothing" in result.output
    run_small(cli, small_federation, tmp_path)
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    assert con.execute("select count(*) from games").fetchall() == [(10,)]
    assert con.execute("select count(*) from source_files").fetchall() == [(3,)]
    assert con.execute("select count(*) from submissions").fetchall() == [(3,)]
    assert (out / "lists" / "2027-01.csv").read_bytes() == before


def test_stages_run_one_by_one(cli, small_federation, tmp_path):
    w = tmp_path / "w.duckdb"
    cli("ingest", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", w)
    con = duckdb.connect(str(w))
    assert con.execute("select count(*) from staged_games").fetchall() == [(10,)]
    assert con.execute("select count(*) from games").fetchall() == [(0,)]
    con.close()
    cli("validate", "--warehouse", w)
    cli("rate", "--warehouse", w)
    cli("publish", "--warehouse", w, "--out", tmp_path / "out")
    assert (tmp_path / "out" / "lists" / "2027-01.parquet").exists()
    parquet = pd.read_parquet(tmp_path / "out" / "lists" / "2027-01.parquet")
    csv = pd.read_csv(tmp_path / "out" / "lists" / "2027-01.csv")
    pd.testing.assert_frame_equal(parquet, csv, check_dtype=False)


def test_calendar_file_decides_the_windows(cli, small_federation, tmp_path):
    # R1: a list whose window was moved by a weekend: 2027-01 closes on 2026-09-13.
    calendar = write_rows(tmp_path / "calendar.csv", ["list_id", "window_start", "window_end"], [
        ["2027-01", "2026-09-01", "2026-09-13"],
        ["2027-05", "2026-09-14", "2027-04-30"],
    ])
    out = tmp_path / "out"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--calendar", calendar, "--games", small_federation["games"], "--warehouse", tmp_path / "w.duckdb",
        "--out", out)
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    assert con.execute("select list_id, games_rated from lists order by list_id").fetchall() == [
        ("2027-01", 4), ("2027-05", 5)]


def test_embedded_sample_runs_with_no_arguments(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the defaults: data/warehouse.duckdb and reports/ in the working folder
    result = cli("run", "--no-reports")
    assert "embedded sample" in result.output and (tmp_path / "data" / "warehouse.duckdb").is_file()
    assert sorted(p.name for p in (tmp_path / "reports" / "lists").glob("????-??.csv")) == [
        "2019-01.csv", "2019-05.csv", "2019-09.csv"]
    result = cli("run", "--sample", "--warehouse", tmp_path / "sample.duckdb", "--out", tmp_path / "out")
    assert "embedded sample" in result.output
    lists = sorted(p.stem for p in (tmp_path / "out" / "lists").glob("????-??.csv"))
    assert lists == ["2019-01", "2019-05", "2019-09"]
    top = pd.read_csv(tmp_path / "out" / "lists" / "2019-09.csv")
    assert top["rating"].is_monotonic_decreasing
    assert set(top["status"]) == {"new", "played", "did not play"}
    assert (top["rating"] % 10 == 0).all()


def test_audits_pass_after_a_run(cli, small_federation, tmp_path):
    run_small(cli, small_federation, tmp_path)
    result = cli("audit", "--warehouse", tmp_path / "w.duckdb")
    # sql/audits/, lists_on_withdrawn_games, series_rule_sets and own_tables_grain
    assert "FAILED" not in result.output and result.output.count("ok") == 10


def test_audit_finds_a_broken_rule(cli, small_federation, tmp_path):
    run_small(cli, small_federation, tmp_path)
    con = duckdb.connect(str(tmp_path / "w.duckdb"))
    con.execute("update player_state set rating = 1783 where player_id = 1 and list_id = '2027-01'")
    con.execute("insert into games select * from games limit 1")
    con.close()
    result = cli("audit", "--warehouse", tmp_path / "w.duckdb", ok=False)
    assert result.exit_code != 0
    assert "FAILED games_key_unique: 1 rows" in result.output
    assert "FAILED ratings_are_rounded: 1 rows" in result.output


def test_progress_bar_is_quiet_when_not_a_terminal(cli, small_federation, tmp_path):
    out = tmp_path / "out"
    result = cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                 "--games", small_federation["games"], "--warehouse", tmp_path / "w.duckdb", "--out", out)
    assert "rate:" not in result.output and "list/s" not in result.output and "\r" not in result.output
