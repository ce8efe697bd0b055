"""`ratings tune`: a search over a rule set's parameters (pipeline/tune/).

The federation here is made so that the best parameter is known: its players' true
ratings move by the FIDE update with K = 20 (every player established, below 2400,
adult: FIDE's k_standard applies), and each result is drawn from the logistic
expected score of the true ratings of the month. The FIDE rules with the logistic
expectation and K = 20 then compute the very ratings the results were drawn from, so
no other K predicts the games better (the test asserts the search finds it)."""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline.tune.space import SpaceError, read_space
from tests.as_user import ratings
from tests.conftest import cli_runner

TRUE_K = 20


def write_elo_federation(folder: Path, k: int = TRUE_K, players: int = 40, months: int = 30, seed: int = 1) -> dict:
    """Players, their initial FIDE ratings and games: four rounds a month of random
    pairings, results drawn from the true ratings, which then move by k (S - E)."""
    rng = np.random.default_rng(seed)
    truth = np.round(rng.uniform(1700, 2100, players))
    ids = np.arange(1, players + 1)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "players.csv").write_text("player_id,name,birth_year\n" +
                                        "".join(f"{i},Player {i},1970\n" for i in ids))
    (folder / "ratings.csv").write_text("player_id,rating,games_total,peak_rating\n" +
                                        "".join(f"{i},{r:.0f},100,{r:.0f}\n" for i, r in zip(ids, truth)))
    lines = []
    for m in range(months):  # games on the 5th to the 17th: inside FIDE's window of the next month's list
        year, month = 2010 + (m + 1) // 12, (m + 1) % 12 + 1
        change = np.zeros(players)
        for r in range(4):
            order = rng.permutation(players)
            white, black = order[::2], order[1::2]
            expected = 1 / (1 + 10 ** ((truth[black] - truth[white]) / 400))
            won = rng.random(len(white)) < expected
            np.add.at(change, white, won - expected)
            np.add.at(change, black, expected - won)
            day = dt.date(year, month, 5 + 4 * r).isoformat()
            lines += [f"{day},{ids[w]},{ids[b]},{'1-0' if x else '0-1'}\n" for w, b, x in zip(white, black, won)]
        truth = truth + k * change
    (folder / "games.csv").write_text("date,white_id,black_id,result\n" + "".join(lines))
    (folder / "logistic.toml").write_text("logistic = true\n")
    return {name: folder / f"{name}.csv" for name in ("players", "ratings", "games")}


@pytest.fixture(scope="module")
def elo_warehouse(tmp_path_factory) -> Path:
    """The federation rated under the FIDE rules with the logistic expectation (K = 20)."""
    folder = tmp_path_factory.mktemp("elo")
    files = write_elo_federation(folder)
    cli_runner()("run", "--system", "fide", "--rules", str(folder / "logistic.toml"), "--players", str(files["players"]),
                 "--ratings", str(files["ratings"]), "--games", str(files["games"]), "--warehouse",
                 str(folder / "w.duckdb"), "--out", str(folder / "out"), "--no-reports")
    return folder / "w.duckdb"


def fresh(elo_warehouse: Path, tmp_path: Path, name: str = "w.duckdb") -> Path:
    copy = tmp_path / name
    copy.write_bytes(elo_warehouse.read_bytes())
    return copy


def space(tmp_path: Path, text: str, name: str = "space.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def stored_trials(warehouse: Path, study: str) -> list[tuple]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.execute("""select trial, parameters, refused, train_log_loss, test_log_loss, drift, feasible
                              from study_trials where study = ? order by trial""", [study]).fetchall()


def test_the_true_k_is_found(cli, elo_warehouse, tmp_path):
    w = fresh(elo_warehouse, tmp_path)
    k = space(tmp_path, "[k_standard]\nchoices = [10, 20, 40]\n")
    result = cli("tune", "kfind", "--system", "fide", "--space", str(k), "--warehouse", str(w),
                 "--out", str(tmp_path / "study"))
    trials = stored_trials(w, "kfind")
    # Three choices and 50 trials asked: a grid, each choice once, in the order given.
    assert [json.loads(t[1]) for t in trials] == [{"k_standard": 10}, {"k_standard": 20}, {"k_standard": 40}]
    by_k = {json.loads(t[1])["k_standard"]: t[3] for t in trials}
    assert by_k[20] < by_k[10] and by_k[20] < by_k[40]
    assert "best feasible: trial 2, k_standard = 20" in result.output
    best = (tmp_path / "study" / "best.toml").read_text()
    # The official lists' logistic = true is kept with the K found: the file rates what the trial rated.
    assert "logistic = true" in best and "k_standard = 20" in best
    page = (tmp_path / "study" / "index.html").read_text()
    assert "Trial 2: the lowest training log-loss of the feasible trials." in page
    table = pq.read_table(tmp_path / "study" / "trials.parquet")
    assert table.column_names[:3] == ["trial", "k_standard", "state"]
    assert table.column("k_standard").to_pylist() == [10, 20, 40]


def test_the_trial_of_the_official_parameters_scores_as_the_official_lists(cli, elo_warehouse, tmp_path):
    """K = 20 is the official lists' own: its trial's ratings are theirs, and so is every
    figure; its test games are those `evaluate --since` scores from the day after the
    --train-until list's window."""
    w = fresh(elo_warehouse, tmp_path)
    for name, split in (("same", ()), ("split", ("--train-until", "2011-12"))):
        cli("tune", name, "--system", "fide", "--space", str(space(tmp_path, "[k_standard]\nchoices = [20]\n")),
            *split, "--warehouse", str(w), "--out", str(tmp_path / name))
    with duckdb.connect(str(w), read_only=True) as con:
        figures = {study: row for study, *row in con.execute(
            """select study, train_games, test_games, train_log_loss, test_log_loss, official_train_log_loss,
                      official_test_log_loss, yardstick_test_log_loss, official_yardstick_test_log_loss
               from study_trials order by study""").fetchall()}
        split_day = con.execute("select split_day from studies where study = 'split'").fetchall()[0][0]
    games, test_games, train, test, official_train, official_test, yardstick, official_yardstick = figures["same"]
    assert train == official_train and test == official_test and yardstick == official_yardstick
    assert (games, train) == (test_games, test)  # no --train-until: every game both trains and tests
    games_before, games_after, train, test, official_train, official_test, yardstick, official_yardstick = \
        figures["split"]
    assert games_before + games_after == games and train == official_train and test == official_test
    assert yardstick == official_yardstick
    assert split_day == dt.date(2011, 11, 28)  # the FIDE 2011-12 list window closes before the month ends
    scored = cli("evaluate", "--system", "fide", "--since", "2011-11-29", "--format", "csv",
                 "--warehouse", str(w)).stdout
    whole = [r for r in csv.DictReader(io.StringIO(scored)) if r["list_id"] == ""]
    # The study scores by the FIDE rules' own forecast (--score own, the default: table 8.1.2's
    # logistic option at D capped at 400), as evaluate's own_log_loss; the yardstick beside it
    # is evaluate's log_loss. They differ here (a pair more than 400 apart): each is the one.
    assert int(whole[0]["games"]) == games_after and round(float(whole[0]["own_log_loss"]), 10) == round(test, 10)
    assert round(float(whole[0]["log_loss"]), 10) == round(yardstick, 10) and yardstick != test


def test_the_same_seed_makes_the_same_trials(cli, elo_warehouse, tmp_path):
    """Twelve trials: the first ten are TPE's random start, the last two its model's
    proposals; two warehouses, the same seed, the same trials to the last digit."""
    k = space(tmp_path, "[k_standard]\nlow = 5\nhigh = 60\n[k_new]\nlow = 10\nhigh = 60\n")
    runs = []
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        w = fresh(elo_warehouse, tmp_path, f"{name}.duckdb")
        cli("tune", "s", "--system", "fide", "--space", str(k), "--trials", "12", "--seed", seed,
            "--train-until", "2011-12", "--warehouse", str(w), "--out", str(tmp_path / name))
        runs.append(stored_trials(w, "s"))
    assert len(runs[0]) == 12 and runs[0] == runs[1]
    assert [t[1] for t in runs[0]] != [t[1] for t in runs[2]]  # another seed searches elsewhere
    assert (tmp_path / "a" / "best.toml").read_bytes() == (tmp_path / "b" / "best.toml").read_bytes()


@pytest.mark.parametrize(("text", "message"), [
    ("[k_bogus]\nlow = 1\nhigh = 2\n", "k_bogus: not a parameter of the fide rules"),
    ("[k_standard]\nlow = 10.0\nhigh = 30.5\n", "k_standard: low = 10.0, a range of the wrong type: the parameter "
                                                "takes whole numbers"),
    ("[k_standard]\nchoices = [10, 20.5]\n", "k_standard: choice 20.5 is of the wrong type"),
    ("[logistic]\nlow = 0\nhigh = 1\n", "logistic: a range of the wrong type"),
    ("[k_standard]\nlow = 30\nhigh = 10\n", "k_standard: low (30) must be below high (10)"),
    ("[floor]\nlow = 0\nhigh = 5000\n", "floor:"),
    ("[k_standard]\nhigh = 10\n", "k_standard: give low and high"),
    ("k_standard = 20\n", "k_standard: give a table"),
])
def test_a_space_the_rules_cannot_search_is_refused_naming_the_parameter(tmp_path, text, message):
    with pytest.raises(SpaceError, match=None) as refused:
        read_space(space(tmp_path, text), "fide")
    assert str(refused.value).startswith(f"{tmp_path / 'space.toml'}: ")
    assert message in str(refused.value)


def test_a_refused_space_is_one_message_and_nothing_is_made(cli, elo_warehouse, tmp_path):
    w = fresh(elo_warehouse, tmp_path)
    result = cli("tune", "bad", "--system", "fide", "--space", str(space(tmp_path, "[quota]\nlow = 1\nhigh = 2\n")),
                 "--warehouse", str(w), ok=False)
    assert result.exit_code == 1 and "quota: not a parameter of the fide rules" in result.output
    assert "Traceback" not in result.output
    assert cli("tunes", "--warehouse", str(w)).output.startswith("no study")


def test_trials_the_rules_refuse_together_are_kept_with_the_reason(cli, tmp_path, small_federation):
    """The performance rules take a senior quota of at most the brake's weight: a brake
    of 8 with a quota of 12 is refused by the rules, recorded, and rates nothing."""
    f = small_federation
    w = tmp_path / "w.duckdb"
    cli("run", "--players", str(f["players"]), "--ratings", str(f["ratings"]), "--games", str(f["games"]),
        "--warehouse", str(w), "--out", str(tmp_path / "out"), "--no-reports")
    s = space(tmp_path, "[brake_weight]\nchoices = [8, 16]\n[senior_quota]\nchoices = [8, 12]\n")
    result = cli("tune", "q", "--system", "performance", "--space", str(s), "--warehouse", str(w),
                 "--out", str(tmp_path / "o"))
    trials = stored_trials(w, "q")
    refused = [t for t in trials if t[2]]
    assert [json.loads(t[1]) for t in refused] == [{"brake_weight": 8, "senior_quota": 12}]
    assert "senior_quota = 12 refused: the performance rules take a number from 1 to 8" in refused[0][2]
    assert refused[0][3] is None and refused[0][6] is None
    assert "refused by the rules" in result.output


def test_max_drift_marks_trials_infeasible_and_keeps_them(cli, elo_warehouse, tmp_path):
    """A closed federation: every game moves points from one player to another, so
    the cohort's mean keeps within a point under any K, and never exactly at 0 after
    rounding; a limit of 0 points makes every trial infeasible, kept all the same."""
    w = fresh(elo_warehouse, tmp_path)
    k = space(tmp_path, "[k_standard]\nchoices = [10, 40]\n")
    result = cli("tune", "d", "--system", "fide", "--space", str(k), "--max-drift", "0", "--warehouse", str(w),
                 "--out", str(tmp_path / "o"))
    trials = stored_trials(w, "d")
    assert len(trials) == 2
    for t in trials:
        assert abs(t[5]) < 1.5
        assert t[6] is (abs(t[5]) <= 0)
    assert "none feasible" in result.output or "best feasible" in result.output
    if not any(t[6] for t in trials):
        assert not (tmp_path / "o" / "best.toml").exists()
    states = pq.read_table(tmp_path / "o" / "trials.parquet").column("state").to_pylist()
    assert states == ["feasible" if t[6] else "infeasible" for t in trials]


def test_trials_are_never_kept_nor_published(cli, elo_warehouse, tmp_path):
    w = fresh(elo_warehouse, tmp_path)

    def held():
        with duckdb.connect(str(w), read_only=True) as con:
            return {t: con.execute(f"select count(*), sum(hash(x)) from {t} x").fetchall()[0]
                    for t in ("series", "lists", "player_state", "calculations", "list_revisions")}

    before = held()
    cli("publish", "--warehouse", str(w), "--out", str(tmp_path / "before"))
    cli("tune", "p", "--system", "fide", "--space", str(space(tmp_path, "[k_standard]\nchoices = [10, 40]\n")),
        "--warehouse", str(w), "--out", str(tmp_path / "o"))
    assert held() == before
    assert cli("scenarios", "--warehouse", str(w)).output.startswith("no scenario")
    cli("audit", "--warehouse", str(w))  # the record holds: every check passes with the study in the warehouse
    cli("publish", "--warehouse", str(w), "--out", str(tmp_path / "after"))
    files = sorted(p.relative_to(tmp_path / "before") for p in (tmp_path / "before").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "after") for p in (tmp_path / "after").rglob("*") if p.is_file())
    assert all((tmp_path / "before" / f).read_bytes() == (tmp_path / "after" / f).read_bytes() for f in files)


def test_keep_stores_the_best_trial_as_a_scenario_that_scores_as_the_trial(cli, elo_warehouse, tmp_path):
    w = fresh(elo_warehouse, tmp_path)
    cli("tune", "keepme", "--system", "fide", "--space", str(space(tmp_path, "[k_standard]\nchoices = [10, 40]\n")),
        "--warehouse", str(w), "--out", str(tmp_path / "o"))
    kept = cli("tune", "keepme", "--keep", "best", "--warehouse", str(w))
    assert "kept as the scenario keepme" in kept.output
    listed = cli("scenarios", "--warehouse", str(w), "--format", "csv").output
    best_k = 10 if "k_standard = 10" in kept.output else 40
    assert f"k_standard = {best_k}" in listed and "logistic = True" in listed
    # No --train-until: the trial was scored on every game both rate, as evaluate scores the scenario
    # (by the FIDE rules' own forecast: evaluate's own_log_loss).
    scores = cli("evaluate", "--scenario", "keepme", "--system", "fide", "--format", "csv",
                 "--warehouse", str(w)).stdout
    with duckdb.connect(str(w), read_only=True) as con:
        trial_loss = con.execute("select test_log_loss from study_trials where study = 'keepme' and parameters = ?",
                                 [json.dumps({"k_standard": best_k})]).fetchall()[0][0]
    rows = list(csv.DictReader(io.StringIO(scores)))
    assert {r["source"]: round(float(r["own_log_loss"]), 10) for r in rows if r["list_id"] == ""}["keepme"] == \
        round(trial_loss, 10)
    refused = cli("tune", "keepme", "--keep", "9", "--warehouse", str(w), ok=False)
    assert "--keep 9: give `best` or a trial's number, 1 to 2" in refused.output


def test_keep_never_replaces_an_existing_scenario(elo_warehouse, tmp_path):
    # Issue 50: `tune NAME --keep` replaced the scenario NAME made by `ratings scenario`
    # with the trial's parameters, without a word.
    fresh(elo_warehouse, tmp_path)
    (tmp_path / "k30.toml").write_text("k_standard = 30\nlogistic = true\n")
    space(tmp_path, "[k_standard]\nchoices = [10, 40]\n")
    ratings(tmp_path, "scenario", "keepme", "--system", "fide", "--rules", "k30.toml", "--warehouse", "w.duckdb")
    ratings(tmp_path, "tune", "keepme", "--system", "fide", "--space", "space.toml", "--warehouse", "w.duckdb")
    before = ratings(tmp_path, "scenarios", "--format", "csv", "--warehouse", "w.duckdb")
    said = ratings(tmp_path, "tune", "keepme", "--keep", "best", "--warehouse", "w.duckdb", code=1)
    assert said == ("Error: the scenario 'keepme' exists already, and --keep would replace it: drop it first "
                    "(ratings scenario keepme --drop), then keep the trial as the scenario keepme\n")
    assert ratings(tmp_path, "scenarios", "--format", "csv", "--warehouse", "w.duckdb") == before
    assert "k_standard = 30" in before
    ratings(tmp_path, "scenario", "keepme", "--drop", "--warehouse", "w.duckdb")
    assert "kept as the scenario keepme" in ratings(tmp_path, "tune", "keepme", "--keep", "best",
                                                    "--warehouse", "w.duckdb")


def test_a_refused_study_makes_no_folder(elo_warehouse, tmp_path):
    # Issue 50: the study's folder (tune-NAME beside the warehouse) was made before the
    # study was refused: "../escape" made tune-../escape, a name with a space its folder.
    w = fresh(elo_warehouse, tmp_path)
    space(tmp_path, "[k_standard]\nchoices = [10, 40]\n")
    cases = [(("../escape", "--system", "fide", "--space", "space.toml"), "study name '../escape': lower-case letters"),
             (("Bad Name", "--system", "fide", "--space", "space.toml"), "study name 'Bad Name': lower-case letters"),
             (("good", "--system", "fide"), "give the space to search: --space FILE.toml"),
             (("good", "--system", "fide", "--space", "space.toml", "--train-until", "1999-01"), "no list '1999-01'")]
    for args, message in cases:
        assert message in ratings(tmp_path, "tune", *args, "--warehouse", "w.duckdb", code=1), args
        assert sorted(p.name for p in tmp_path.iterdir()) == ["space.toml", "w.duckdb"], args
    # A folder refused (a user's files in it) leaves no study behind.
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "index.html").write_text("my page")
    said = ratings(tmp_path, "tune", "good", "--system", "fide", "--space", "space.toml", "--out", "mine",
                   "--warehouse", "w.duckdb", code=1)
    assert "mine holds files this command did not write" in said
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select count(*) from studies").fetchall() == [(0,)]


def test_a_study_goes_on_with_its_own_settings_and_refuses_others(cli, elo_warehouse, tmp_path):
    w = fresh(elo_warehouse, tmp_path)
    k = space(tmp_path, "[k_standard]\nlow = 5\nhigh = 60\n")
    cli("tune", "r", "--system", "fide", "--space", str(k), "--trials", "2", "--warehouse", str(w),
        "--out", str(tmp_path / "o"))
    more = cli("tune", "r", "--trials", "3", "--warehouse", str(w), "--out", str(tmp_path / "o"))
    assert "trial 3/3" in more.output and "trial 1/" not in more.output
    assert len(stored_trials(w, "r")) == 3
    other = cli("tune", "r", "--seed", "5", "--warehouse", str(w), ok=False)
    assert "study 'r' exists with other settings (--seed differ)" in other.output
    listed = cli("tunes", "--warehouse", str(w), "--format", "csv").output
    assert listed.splitlines()[1].startswith("r,fide,k_standard,log-loss,own,,,tpe,3 of 3,")
    assert cli("tunes", "--drop", "r", "--warehouse", str(w)).output.strip() == "Study r dropped (3 trials)."
    assert stored_trials(w, "r") == []


def test_a_study_refuses_to_go_on_once_the_games_changed(cli, elo_warehouse, tmp_path):
    w = fresh(elo_warehouse, tmp_path)
    k = space(tmp_path, "[k_standard]\nlow = 5\nhigh = 60\n")
    cli("tune", "g", "--system", "fide", "--space", str(k), "--trials", "1", "--warehouse", str(w),
        "--out", str(tmp_path / "o"))
    late = tmp_path / "late.csv"
    late.write_text("date,white_id,black_id,result\n2012-06-07,1,2,1-0\n")
    cli("run", "--system", "fide", "--games", str(late), "--warehouse", str(w), "--out", str(tmp_path / "out"),
        "--no-reports")
    refused = cli("tune", "g", "--trials", "2", "--warehouse", str(w), ok=False)
    assert "the fide lists changed since study 'g' began" in refused.output


def test_ctrl_c_leaves_a_resumable_study_that_makes_the_uninterrupted_trials(cli, elo_warehouse, tmp_path):
    k = space(tmp_path, "[k_standard]\nlow = 5\nhigh = 60\n[k_new]\nlow = 10\nhigh = 60\n")
    whole = fresh(elo_warehouse, tmp_path, "whole.duckdb")
    cli("tune", "c", "--system", "fide", "--space", str(k), "--trials", "6", "--warehouse", str(whole),
        "--out", str(tmp_path / "whole"))
    w = fresh(elo_warehouse, tmp_path)
    command = [str(Path(sys.executable).parent / "ratings"), "tune", "c", "--system", "fide", "--space", str(k),
               "--trials", "6", "--warehouse", str(w), "--out", str(tmp_path / "o")]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "RATINGS_TODAY": "2030-06-30"}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as run:
        for line in run.stdout:
            if "trial 2/6" in line:  # stopped while trial 3 is being rated
                run.send_signal(signal.SIGINT)
                break
        out, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert "Stopped after" in err and "run the same command again to go on" in err and "Traceback" not in err
    done = stored_trials(w, "c")
    assert 2 <= len(done) < 6
    with duckdb.connect(str(w), read_only=True) as con:  # the trial under way left nothing
        assert con.execute("select series from series").fetchall() == [("fide",)]
        assert con.execute("select count(*) from lists where series <> 'fide'").fetchall()[0][0] == 0
        assert con.execute("select status from runs where command = 'tune'").fetchall() == [("failed",)]
    assert (tmp_path / "o" / "trials.csv").read_text().count("\n") == len(done) + 1  # what it had, written
    cli("audit", "--warehouse", str(w))
    cli("tune", "c", "--warehouse", str(w), "--out", str(tmp_path / "o"))
    assert stored_trials(w, "c") == stored_trials(whole, "c")


def test_what_a_study_cannot_search_is_refused_in_one_message(cli, elo_warehouse, tmp_path):
    k = space(tmp_path, "[k_standard]\nchoices = [10, 20]\n")
    cases = [
        (("tune", "x", "--system", "fide", "--space", str(k), "--train-until", "1999-01"),
         "no list '1999-01' in fide: its lists are 2010-03 … 2012-08"),  # the games' months, each list the next
        (("tune", "x", "--system", "performance", "--space", str(space(tmp_path, "[senior_quota]\nchoices = [8]\n",
                                                                          "q.toml"))),
         "this warehouse has no performance lists (it holds fide)"),
        (("tune", "x", "--keep", "best"), "no study 'x' (`ratings tunes` lists them)"),
        (("tune", "x", "--system", "fide"), "give the space to search: --space FILE.toml"),
        (("tune", "Bad Name", "--system", "fide", "--space", str(k)), "study name 'Bad Name': lower-case letters"),
        (("tunes", "--drop", "x"), "no study 'x'"),
    ]
    w = fresh(elo_warehouse, tmp_path)
    for args, message in cases:
        refused = cli(*args, "--warehouse", str(w), ok=False)
        assert refused.exit_code == 1 and message in refused.output and "Traceback" not in refused.output, args
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select count(*) from studies").fetchall() == [(0,)]
    usage = cli("tune", "x", "--keep", "best", "--seed", "3", "--warehouse", str(w), ok=False)
    assert usage.exit_code == 2 and "--keep takes no other option" in usage.output


def test_a_go_warehouse_and_stale_lists_are_refused(cli, elo_warehouse, tmp_path):
    """Studies score chess games (the games table): a Go rule set is refused by name; and
    a study scores trials against the official lists, so they must be current: games
    taken in but not rated yet (`ratings validate` without `rate`) are refused first."""
    from tests.conftest import write_small_go_club

    go = write_small_go_club(tmp_path)
    gw = tmp_path / "go.duckdb"
    cli("run", "--system", "go-belgium", "--players", str(go["players"]), "--events", str(go["events"]),
        "--games", str(go["games"]), "--warehouse", str(gw), "--out", str(tmp_path / "go-out"), "--no-reports")
    s = space(tmp_path, "[k_standard]\nchoices = [10, 20]\n")
    refused = cli("tune", "g", "--system", "go-belgium", "--space", str(s), "--warehouse", str(gw), ok=False)
    assert "'go-belgium': studies score chess lists" in refused.output
    w = fresh(elo_warehouse, tmp_path)
    late = tmp_path / "late.csv"
    late.write_text("date,white_id,black_id,result\n2012-06-07,1,2,1-0\n")
    cli("ingest", str(late), "--warehouse", str(w))
    cli("validate", "--warehouse", str(w))
    stale = cli("tune", "k", "--system", "fide", "--space", str(s), "--warehouse", str(w), ok=False)
    assert "are not current" in stale.output and "rate them first (ratings rate --system fide)" in stale.output


def test_evaluate_on_a_warehouse_of_go_lists_scores_them_or_says_why_not(cli, tmp_path):
    """With no source named, evaluate scores every series of the warehouse, a Go
    warehouse's too (tests/test_evaluate_go.py); from a day on which no game has both
    players rated (Cleo, NC, is rated by the open only): one message, not an IndexError."""
    from tests.conftest import write_small_go_club

    go = write_small_go_club(tmp_path)
    gw = tmp_path / "go.duckdb"
    cli("run", "--system", "go-belgium", "--players", str(go["players"]), "--events", str(go["events"]),
        "--games", str(go["games"]), "--warehouse", str(gw), "--out", str(tmp_path / "go-out"), "--no-reports")
    scored = cli("evaluate", "--warehouse", str(gw)).output
    assert next(x.split() for x in scored.splitlines() if x.split()[:1] == ["go-belgium"])[1] == "1"  # club-2's
    refused = cli("evaluate", "--since", "2026-02-01", "--warehouse", str(gw), ok=False)
    assert refused.exit_code == 1 and "IndexError" not in refused.output
    assert ("no played game has both players rated by every source (go-belgium) on its day from 2026-02-01 on"
            in refused.output)


@pytest.mark.parametrize("raised", [
    RuntimeError("Query interrupted"),  # DuckDB 2.0.1, the signal landing during a statement
    duckdb.InvalidInputException("Invalid Input Error: offering a filter to the source registered as 'trial_state' "
                                 "failed: KeyboardInterrupt: "),  # landing while DuckDB scans the trial's Arrow state
])
def test_a_ctrl_c_duckdb_takes_stops_the_study_as_python_s_does(cli, elo_warehouse, tmp_path, monkeypatch, raised):
    """DuckDB takes a Ctrl-C that lands during a statement and raises its own error (seen
    by sending SIGINT at 20 moments of a trial: 6 of 20 ended `unexpected RuntimeError`
    or `the warehouse failed`, exit 1): the study stops as for Python's KeyboardInterrupt."""
    import pipeline.tune.search as search_module  # run_study calls rated_trial there

    real, calls = search_module.rated_trial, []

    def interrupted_second(con, setting, parameters):
        calls.append(parameters)
        if len(calls) == 2:
            raise raised
        return real(con, setting, parameters)

    monkeypatch.setattr(search_module, "rated_trial", interrupted_second)
    w = fresh(elo_warehouse, tmp_path)
    k = space(tmp_path, "[k_standard]\nchoices = [10, 20, 40]\n")
    stopped = cli("tune", "c", "--system", "fide", "--space", str(k), "--warehouse", str(w), "--out",
                  str(tmp_path / "o"), ok=False)
    assert stopped.exit_code == 130, stopped.output
    assert "Stopped after 1 of 3 trials" in stopped.output and "unexpected" not in stopped.output
    assert len(stored_trials(w, "c")) == 1


def test_an_error_that_is_no_ctrl_c_is_not_read_as_one():
    from pipeline.tune.study import interrupted

    assert interrupted(KeyboardInterrupt())
    assert not interrupted(RuntimeError("Query failed"))
    assert not interrupted(duckdb.InvalidInputException("Invalid Input Error: no such column"))
    assert not interrupted(ValueError("KeyboardInterrupt"))  # only DuckDB's own errors carry it in their text


def test_a_choice_of_none_switches_a_rule_off_where_the_rules_allow_it(tmp_path):
    # Glicko-2's max_deviation may be none (Glickman 2013 caps nothing), as a --rules file says
    # it: the space takes "none" among its choices; FIDE's K may not be none, and says so.
    found = read_space(space(tmp_path, '[max_deviation]\nchoices = [150, "none"]\n'), "glicko2")
    assert found.dimensions[0].choices == (150.0, None)
    with pytest.raises(SpaceError) as refused:
        read_space(space(tmp_path, '[k_standard]\nchoices = [20, "none"]\n'), "fide")
    assert "k_standard: choice 'none' is of the wrong type: the parameter takes whole numbers (default" in str(refused.value)
    with pytest.raises(SpaceError) as refused:
        read_space(space(tmp_path, '[max_deviation]\nchoices = [150, "off"]\n'), "glicko2")
    assert "choice 'off' is of the wrong type: the parameter takes numbers, or \"none\"" in str(refused.value)


def test_a_trial_with_the_cap_off_is_said_written_and_kept_as_none(cli, tmp_path):
    files = write_elo_federation(tmp_path / "f", months=12)
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "glicko2", "--players", str(files["players"]), "--games", str(files["games"]),
        "--warehouse", str(w), "--out", str(tmp_path / "out"), "--no-reports")
    s = space(tmp_path, '[max_deviation]\nchoices = ["none", 150.0]\n')
    result = cli("tune", "cap", "--system", "glicko2", "--space", str(s), "--warehouse", str(w),
                 "--out", str(tmp_path / "study"))
    assert "trial 1/2: max_deviation = none:" in result.output
    assert [json.loads(t[1]) for t in stored_trials(w, "cap")] == [{"max_deviation": None}, {"max_deviation": 150.0}]
    assert pq.read_table(tmp_path / "study" / "trials.parquet").column("max_deviation").to_pylist() == [None, 150.0]
    kept = cli("tune", "cap", "--keep", "1", "--warehouse", str(w))
    assert "kept as the scenario cap (max_deviation = none)" in kept.output
    with duckdb.connect(str(w), read_only=True) as con:
        stored = json.loads(con.execute("select parameters from series where series = 'cap'").fetchone()[0])
    assert stored["max_deviation"] is None  # the rule off, as `--rules` with max_deviation = "none" stores it
