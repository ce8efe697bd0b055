"""`ratings compare` and `ratings evaluate` on a federation small enough to compute by
hand: four players, three played games, two files of published ratings."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from tests.conftest import cli_runner, copy_built, write_rows

RATINGS = ["player_id", "list_id", "rating"]


@pytest.fixture(scope="module")
def federation_once(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("federation")
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year", "club"], [
        [1, "Anna", 1980, "A"], [2, "Bert", 1975, "A"], [3, "Cara <b>", 1990, "B"], [4, "Dirk", 1985, "B"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700], [3, 1600],
                                                                            [4, 1500]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-12-05", 1, 3, "1-0"],      # before both files' first list (2027-01): no rating in force, not scored
        ["2027-02-06", 1, 2, "1-0"],      # game 1
        ["2027-02-06", 3, 4, "1/2-1/2"],  # game 2
        ["2027-02-13", 4, 1, "0-1"],      # game 3
        ["2027-02-13", 1, 2, "+/-"],      # a forfeit: never scored
    ])
    w = tmp_path / "w.duckdb"
    cli_runner()("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w,
                 "--out", tmp_path / "out", "--no-reports")
    write_rows(tmp_path / "a.csv", RATINGS, [
        [1, "2027-01", 1600], [2, "2027-01", 1600], [3, "2027-01", 2000], [4, "2027-01", 1400],
        [1, "2027-05", 1620], [2, "2027-05", 1580], [3, "2027-05", 2010], [4, "2027-05", 1390]])
    write_rows(tmp_path / "b.csv", RATINGS, [  # list ids as the Belgian files write them (YYYYMM)
        [1, "202701", 1700], [2, "202701", 1500], [3, "202701", 1990], [4, "202701", 1300],
        [1, "202705", 1710], [2, "202705", 1490], [3, "202705", 1980]])  # 4 is not on B's 2027-05 list
    return tmp_path


@pytest.fixture
def federation(federation_once, tmp_path):
    """The warehouse holds the games; A and B are two files of ratings of the four players
    (copies for this test of what the module made once)."""
    return copy_built(federation_once, tmp_path, ["w.duckdb", "a.csv", "b.csv"])


# White's expected score E = 1 / (1 + 10^(-D/400)), D = White's rating - Black's, on list 2027-01:
#   game 1 (1-0):  A: D = 0, E = 0.5;          B: D = +200, E = 0.759747
#   game 2 (½-½):  A: D = +600, E = 0.969347;  B: D = +690, E = 0.981512
#   game 3 (0-1):  A: D = -200, E = 0.240253;  B: D = -400, E = 1/11 = 0.090909
# log-loss -(s ln E + (1 - s) ln(1 - E)):
#   A: ln 2 = 0.693147; -(ln 0.969347 + ln 0.030653)/2 = 1.758072; -ln 0.759747 = 0.274770 → mean 0.908663
#   B: -ln 0.759747 = 0.274770; -(ln 0.981512 + ln 0.018488)/2 = 2.004641; -ln(10/11) = 0.095310 → mean 0.791574
# Brier (s - E)^2:
#   A: 0.25, (0.5 - 0.969347)^2 = 0.220287, 0.240253^2 = 0.057722 → mean 0.176003
#   B: 0.240253^2 = 0.057722, (0.5 - 0.981512)^2 = 0.231854, 0.090909^2 = 0.008264 → mean 0.099280
LOG_LOSS = {"a": 0.908663, "b": 0.791574}
BRIER = {"a": 0.176003, "b": 0.099280}


def test_evaluate_scores_each_file_on_the_same_games(cli, federation, tmp_path):
    w, a, b = federation
    out = tmp_path / "scores"
    printed = cli("evaluate", "--ratings", a, "--ratings", b, "--warehouse", w, "--out", out).output
    whole = pd.read_csv(out / "accuracy.csv").query("list_id != list_id")  # the whole history: list_id empty
    assert whole.set_index("source")["games"].to_dict() == {"a": 3, "b": 3}
    for source in ("a", "b"):
        row = whole.set_index("source").loc[source]
        assert row["log_loss"] == pytest.approx(LOG_LOSS[source], abs=1e-6)
        assert row["brier"] == pytest.approx(BRIER[source], abs=1e-6)
    # A file of ratings has no forecast of its own: its own columns are the yardstick's, and say so.
    lines = {line.split()[0]: line.split() for line in printed.splitlines()[1:3]}
    assert lines["a"][2:6] == ["0.9087", "0.1760", "0.9087", "0.1760"]
    assert lines["b"][2:6] == ["0.7916", "0.0993", "0.7916", "0.0993"]
    assert printed.count("the yardstick (no forecast of its own)") == 2
    assert set(whole["forecast"]) == {"yardstick"}
    assert (whole["own_log_loss"] == whole["log_loss"]).all()
    # Calibration of A: one game in each of the bins 0.2 (lost), 0.5 (won), 0.9 (drawn).
    calibration = pd.read_csv(out / "calibration.csv").query("source == 'a'")
    assert calibration["bin"].round(1).tolist() == [0.2, 0.5, 0.9]
    assert calibration["actual"].tolist() == [0.0, 1.0, 0.5]
    assert calibration["expected"].tolist() == pytest.approx([0.240253, 0.5, 0.969347], abs=1e-6)


def test_evaluate_keeps_only_the_games_every_source_rates(cli, federation, tmp_path):
    w, a, b = federation
    c = write_rows(tmp_path / "c.csv", RATINGS, [[1, "2027-01", 1650], [2, "2027-01", 1650], [3, "2027-01", 1650]])
    out = tmp_path / "scores"
    cli("evaluate", "--ratings", a, "--ratings", c, "--warehouse", w, "--out", out)
    whole = pd.read_csv(out / "accuracy.csv").query("list_id != list_id").set_index("source")
    # C does not rate player 4: only game 1 (1 v 2) is scored, for both; A's D = 0, so ln 2.
    assert whole["games"].to_dict() == {"a": 1, "c": 1}
    assert whole.loc["a", "log_loss"] == pytest.approx(math.log(2), abs=1e-9)


def test_compare_per_list_and_over_the_history(cli, federation, tmp_path):
    w, a, b = federation
    out = tmp_path / "cmp"
    printed = cli("compare", a, b, "--warehouse", w, "--out", out).output
    lists = pd.read_csv(out / "lists.csv").set_index("list_id")
    first = lists.loc["2027-01"]
    # On 2027-01 all four: A 1600 1600 2000 1400 (mean 1650, median 1600);
    # B 1700 1500 1990 1300 (mean 1622.5, median (1500 + 1700) / 2 = 1600).
    assert (first["players"], first["mean_a"], first["mean_b"]) == (4, 1650, 1622.5)
    assert (first["median_a"], first["median_b"], first["mean_difference"]) == (1600, 1600, -27.5)
    # Differences +100, -100, -10, -100: three of four differ by 50 or more.
    assert first["share_50_or_more"] == 0.75
    # Ranks A (ties at their mean rank): 2.5, 2.5, 4, 1; B: 3, 2, 4, 1. Deviations from 2.5:
    # A 0, 0, 1.5, -1.5; B 0.5, -0.5, 1.5, -1.5; r = 4.5 / sqrt(4.5 × 5) = 0.948683.
    assert first["spearman"] == pytest.approx(0.948683, abs=1e-6)
    assert first["games_scored"] == 3 and first["log_loss_a"] == pytest.approx(LOG_LOSS["a"], abs=1e-6)
    # The cohort of the 2020s: the players both rate on every list of the decade, 1, 2 and 3
    # (4 is not on B's 2027-05). 2027-01: A (1600 + 1600 + 2000) / 3 = 1733.33, B (1700 + 1500 + 1990) / 3
    # = 1730; 2027-05: A (1620 + 1580 + 2010) / 3 = 1736.67, B (1710 + 1490 + 1980) / 3 = 1726.67.
    cohorts = pd.read_csv(out / "cohorts.csv")
    assert cohorts["players"].tolist() == [3, 3]
    assert cohorts["mean_a"].tolist() == pytest.approx([1733.333333, 1736.666667])
    assert cohorts["mean_b"].tolist() == pytest.approx([1730.0, 1726.666667])
    # Drift: every player each source rates, its own lists (B's 2027-05 has three).
    drift = pd.read_csv(out / "drift.csv").set_index(["source", "list_id"])
    assert drift.loc[("b", "2027-05"), "players"] == 3 and drift.loc[("b", "2027-05"), "top"] == 1980
    # The biggest differences of the latest list name the players (escaped on the page).
    differences = pd.read_csv(out / "differences.csv").query("list_id == '2027-05'")
    assert differences["player_id"].tolist()[0] in (1, 2, 3)
    page = (out / "index.html").read_text()
    assert all(f'id="{chart}"' in page for chart in ("drift", "accuracy", "scatter")) and page.count("<svg") == 3
    assert "Cara &lt;b&gt;" in page and "Cara <b>" not in page
    assert "latest list 2027-05" in printed


def test_a_rerun_of_compare_writes_the_same_bytes(cli, federation, tmp_path):
    w, a, b = federation
    cli("compare", a, b, "--warehouse", w, "--out", tmp_path / "one")
    cli("compare", a, b, "--warehouse", w, "--out", tmp_path / "two")
    for path in sorted((tmp_path / "one").iterdir()):
        assert path.read_bytes() == (tmp_path / "two" / path.name).read_bytes(), path.name


def test_compare_a_series_with_a_file(cli, federation, tmp_path):
    w, a, _ = federation
    printed = cli("compare", "performance", a, "--warehouse", w, "--out", tmp_path / "cmp").output
    assert "lists of performance compared with a's" in printed


@pytest.mark.parametrize("rows, message", [
    ([[1, "2027-01", "high"]], "row 1"),
    ([[1, "2027-01", 1600], [1, "2027-01", 1610]], "rows 1, 2: player 1 has two ratings on list 2027-01"),
    ([[1, "27-01", 1600]], "is not a player id, a list id"),
    ([[1, "2027-01", 1600], [2, "2027-13", 1600]], "row 2"),
])
def test_a_bad_file_of_ratings_names_the_file_and_the_row(cli, federation, tmp_path, rows, message):
    w, a, _ = federation
    bad = write_rows(tmp_path / "bad.csv", RATINGS, rows)
    refused = cli("evaluate", "--ratings", bad, "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "bad.csv" in refused.output and message in refused.output
    assert "Traceback" not in refused.output


def test_compare_refuses_what_is_neither_a_series_nor_a_file(cli, federation):
    w, a, _ = federation
    refused = cli("compare", "quota99", a, "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "neither a series of the warehouse (performance)" in refused.output


def test_the_figures_do_not_depend_on_the_order_rows_are_added_in():
    """A sum of doubles depends on the order it is added in, which on a big warehouse is
    the order DuckDB's threads finish in: a rerun of compare on FIDE's Belgian lists
    wrote other last digits in 804 lines. The means and correlations are taken over
    exact sums: the same rows in any order give the same figures, bit for bit. One
    thread, the rows stored in order and then reversed: two orders of addition (the
    old sums fail it for accuracy, calibration and drift; compared_lists' rows reach
    its sums sorted by its rank windows, so only threads could reorder them)."""
    import duckdb

    from pipeline.warehouse import stage_sql

    def figures(order: str) -> list:
        con = duckdb.connect()
        con.execute("set threads = 1")
        # 20,000 games, 20 lists; White's score 1, ½ or 0 and its expected score anything.
        con.execute(f"""create table scored as
            select 's' as source, 'L' || (i % 20) as list_id, i as game_key, (i % 3) / 2 as white_score,
                   0.01 + 0.98 * ((i * 7919) % 10007) / 10007.0 as expected
            from range(20000) t(i) order by i {order}""")
        # Two sources rating 5,000 players on 3 lists, ratings with decimals (a file's), ties.
        con.execute(f"""create table source_ratings as
            select src as source, '2020-0' || l as list_id, ('2020-0' || l || '-01')::date as list_date,
                   p as player_id, 1000 + ((p * 7919 + l * 104729 + (src = 'b')::int * 13) % 1500) / 3.0 as rating
            from range(5000) t(p), range(1, 4) u(l), (values ('a'), ('b')) v(src)
            order by p {order}, l, src""")
        con.execute("""create table source_lists as
            select source, list_id, list_date, null::bigint as list_order, count(*) as players
            from source_ratings group by all""")
        con.execute("set variable a = 'a'")
        con.execute("set variable b = 'b'")
        con.execute(f"create table compared_pairs as {stage_sql('analysis/compared_pairs')}")
        return [con.execute(stage_sql(f"analysis/{name}")).fetchall()
                for name in ("accuracy", "calibration", "drift", "compared_lists")]

    forward, backward = figures("asc"), figures("desc")
    assert len(forward[0]) == 21 and len(forward[3]) == 3  # 20 lists and the whole history; 3 lists compared
    assert forward == backward
