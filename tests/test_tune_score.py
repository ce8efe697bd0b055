"""What a study's trials are scored by (`ratings tune --score own|yardstick`): the rule
set's own forecast, as `ratings evaluate` scores a series, or the logistic yardstick of
every source; the yardstick's figures kept beside. A study made before the choice (a
warehouse of layout 12) was scored by the yardstick and reads as such."""
from __future__ import annotations

import json
import math

import duckdb
import pyarrow.parquet as pq

from tests.test_publication_record import SHARED_INITIAL_COLUMNS
from tests.test_tune import fresh, space, stored_trials

# Two players the initial list rates 2000 and 1500, two games in the first list's window:
# both are scored by the initial ratings (nothing was computed before them), whatever the
# trial's K. The FIDE rules with the logistic option forecast at D capped at 400 (table
# 8.1.2's rule, ruling X4: neither player is of 2650): E = 1 / (1 + 10^(-400/400)) = 1/1.1;
# the yardstick takes D as it is: E = 1 / (1 + 10^(-500/400)).
OWN = 1 / (1 + 10 ** (-400 / 400))         # 0.909091
YARDSTICK = 1 / (1 + 10 ** (-500 / 400))   # 0.946760
# White (2000) wins the first game and loses the second: log-loss -(ln E + ln(1 - E)) / 2.
OWN_LOG_LOSS = -(math.log(OWN) + math.log(1 - OWN)) / 2                    # 1.246603
YARDSTICK_LOG_LOSS = -(math.log(YARDSTICK) + math.log(1 - YARDSTICK)) / 2  # 1.495118
# Brier: ((1 - E)^2 + E^2) / 2
OWN_BRIER = ((1 - OWN) ** 2 + OWN ** 2) / 2                                # 0.417355
YARDSTICK_BRIER = ((1 - YARDSTICK) ** 2 + YARDSTICK ** 2) / 2              # 0.449599


def two_players(cli, tmp_path):
    (tmp_path / "players.csv").write_text("player_id,name,birth_year\n1,Strong,1970\n2,Weak,1970\n")
    (tmp_path / "ratings.csv").write_text("player_id,rating,games_total,peak_rating\n1,2000,100,2000\n"
                                          "2,1500,100,1500\n")
    (tmp_path / "games.csv").write_text("date,white_id,black_id,result\n2010-02-05,1,2,1-0\n2010-02-09,1,2,0-1\n")
    (tmp_path / "logistic.toml").write_text("logistic = true\n")
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "fide", "--rules", str(tmp_path / "logistic.toml"),
        "--players", str(tmp_path / "players.csv"), "--ratings", str(tmp_path / "ratings.csv"), "--games", str(tmp_path / "games.csv"), "--warehouse", str(w),
        "--out", str(tmp_path / "out"), "--no-reports")
    return w


def test_a_trial_is_scored_by_the_rules_own_forecast_the_yardstick_beside(cli, tmp_path):
    w = two_players(cli, tmp_path)
    k = space(tmp_path, "[k_standard]\nchoices = [10, 20]\n")
    result = cli("tune", "own", "--system", "fide", "--space", str(k), "--warehouse", str(w), "--out",
                 str(tmp_path / "own"))
    assert "log-loss of the rules' own forecast" in result.output
    cli("tune", "yard", "--system", "fide", "--space", str(k), "--score", "yardstick", "--warehouse", str(w),
        "--out", str(tmp_path / "yard"))
    with duckdb.connect(str(w), read_only=True) as con:
        found = con.execute("""select s.study, s.score, t.train_games, t.train_log_loss, t.train_brier,
                                      t.official_train_log_loss, t.yardstick_train_log_loss, t.yardstick_train_brier,
                                      t.yardstick_test_log_loss, t.official_yardstick_test_log_loss
                               from studies s join study_trials t using (study) order by s.study, t.trial""").fetchall()
    for study, score, games, log_loss, brier, official, yard_loss, yard_brier, yard_test, official_yard in found:
        assert games == 2
        main = (OWN_LOG_LOSS, OWN_BRIER) if study == "own" else (YARDSTICK_LOG_LOSS, YARDSTICK_BRIER)
        assert score == ("own" if study == "own" else "yardstick")
        assert math.isclose(log_loss, main[0], rel_tol=1e-9) and math.isclose(brier, main[1], rel_tol=1e-9)
        assert math.isclose(official, main[0], rel_tol=1e-9)
        for figure in (yard_loss, yard_test, official_yard):
            assert math.isclose(figure, YARDSTICK_LOG_LOSS, rel_tol=1e-9)
        assert math.isclose(yard_brier, YARDSTICK_BRIER, rel_tol=1e-9)
    table = pq.read_table(tmp_path / "own" / "trials.parquet")
    assert math.isclose(table.column("test_log_loss")[0].as_py(), OWN_LOG_LOSS, rel_tol=1e-9)
    assert math.isclose(table.column("yardstick_test_log_loss")[0].as_py(), YARDSTICK_LOG_LOSS, rel_tol=1e-9)
    page = (tmp_path / "own" / "index.html").read_text()
    assert "official lists, yardstick" in page and "<th>test, yardstick</th>" in page
    listed = json.loads(cli("tunes", "--format", "json", "--warehouse", str(w)).stdout)
    assert [(s["study"], s["score"]) for s in listed] == [("own", "own"), ("yard", "yardstick")]


def test_a_study_resumed_keeps_its_score_and_refuses_another(cli, tmp_path):
    w = two_players(cli, tmp_path)
    k = space(tmp_path, "[k_standard]\nchoices = [10, 20, 40]\n")
    cli("tune", "yard", "--system", "fide", "--space", str(k), "--score", "yardstick", "--trials", "1",
        "--warehouse", str(w), "--out", str(tmp_path / "yard"))
    cli("tune", "yard", "--trials", "2", "--warehouse", str(w), "--out", str(tmp_path / "yard"))
    refused = cli("tune", "yard", "--score", "own", "--trials", "3", "--warehouse", str(w), "--out",
                  str(tmp_path / "yard"), ok=False)
    assert "--score differ" in refused.output
    assert [math.isclose(t[3], YARDSTICK_LOG_LOSS, rel_tol=1e-9) for t in stored_trials(w, "yard")] == [True, True]


def test_a_study_made_before_the_score_was_chosen_reads_as_yardstick(cli, tmp_path):
    """A warehouse of layout 12 (no studies.score, no yardstick columns): its study was
    scored by the yardstick, and once migrated says so, its yardstick figures its own,
    and goes on scoring by the yardstick."""
    w = two_players(cli, tmp_path)
    k = space(tmp_path, "[k_standard]\nchoices = [10, 20]\n")
    cli("tune", "old", "--system", "fide", "--space", str(k), "--score", "yardstick", "--trials", "1",
        "--warehouse", str(w), "--out", str(tmp_path / "old"))
    with duckdb.connect(str(w)) as con:
        con.execute("alter table studies drop column score")
        for column in ("yardstick_train_log_loss", "yardstick_train_brier", "yardstick_test_log_loss",
                       "yardstick_test_brier", "official_yardstick_test_log_loss", "official_yardstick_test_brier"):
            con.execute(f"alter table study_trials drop column {column}")
        con.execute(SHARED_INITIAL_COLUMNS)  # layout 14 moved them to `extra`
        con.execute("delete from warehouse_version where version > 12")
        con.execute("insert into warehouse_version select 12 where not exists (select 1 from warehouse_version)")
    cli("tune", "old", "--trials", "2", "--warehouse", str(w), "--out", str(tmp_path / "old"))
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select score from studies").fetchall() == [("yardstick",)]
        trials = con.execute("""select trial, train_log_loss, yardstick_train_log_loss, yardstick_test_log_loss
                                from study_trials order by trial""").fetchall()
    assert len(trials) == 2
    for _, score, yardstick, yardstick_test in trials:
        assert math.isclose(score, YARDSTICK_LOG_LOSS, rel_tol=1e-9)
        assert yardstick == score == yardstick_test
