"""A study (`ratings tune NAME`): its settings and trials kept in the warehouse
(studies, study_trials, study_calibration: sql/migrations/10.sql), each trial recorded
as soon as it is scored; the search itself, which asks Optuna, is pipeline/tune/search.py
(`ratings tunes` lists the studies without loading Optuna).

The search is a function of the seed and the trials already rated: each trial's
parameters come from a sampler seeded by the study's seed and the trial's number,
told every trial before it. A study stopped (Ctrl-C) and run again goes on where it
stopped and makes the very trials an uninterrupted run makes.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import re
from dataclasses import dataclass

import duckdb
import pyarrow as pa

from pipeline import systems
from pipeline.rate import stale_lists
from pipeline.rate.series import SeriesError, chosen, known_list
from pipeline.tune.space import Dimension, Space, read_space
from pipeline.tune.trial import SCORES, Outcome
from pipeline.warehouse import row, scalar, transaction

OBJECTIVES = ("log-loss", "brier")  # the first: the default
DEFAULT_TRIALS = 50
DEFAULT_SEED = 0
STUDY_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


class StudyError(ValueError):
    """A study that cannot be made, resumed or read; the message says why and what to do."""


@dataclass(frozen=True)
class Study:
    name: str
    system: str
    space: Space
    objective: str
    max_drift: float | None
    train_until: str | None
    split_day: dt.date | None
    seed: int
    sampler: str  # tpe or grid
    trials_asked: int
    inputs: int
    score: str = SCORES[0]  # own (the rule set's own forecast) or yardstick; a study made before: yardstick

    @property
    def metric(self) -> str:
        """The figures' column suffix of the objective: log_loss or brier."""
        return "log_loss" if self.objective == "log-loss" else "brier"

    def drift_excess(self, drift: float | None) -> float:
        """How far a trial's drift goes past --max-drift (at most 0: within; no cohort: no drift)."""
        return abs(drift or 0.0) - (math.inf if self.max_drift is None else self.max_drift)


def _inputs(con: duckdb.DuckDBPyConnection, official: str) -> int:
    """What the official lists rest on, as one number (their stored input signatures)."""
    return int(scalar(con, "select coalesce(bit_xor(hash(list_id, input_signature)), 0) from lists where series = ?",
                      [official]))


def _official(con: duckdb.DuckDBPyConnection, system: str) -> None:
    """The rule set's official lists, current: trials are scored on the games they rate
    and their drift read against them."""
    try:
        series = chosen(con, system)
    except SeriesError as err:
        raise StudyError(f"{err}: a study compares its trials with the official lists of its rule set") from None
    if series.scenario:
        raise StudyError(f"{system!r} is a scenario: a study searches a rule set (its official lists: --system "
                         f"{series.rule_set.name})")
    if series.rule_set.game != "chess":
        raise StudyError(f"{system!r}: studies score chess lists (the games table); the Go rule sets' are not "
                         "supported yet")
    if not scalar(con, "select count(*) from lists where series = ?", [series.name]):
        raise StudyError(f"no {system} list has been computed yet (a list is computed once its window has "
                         "closed): a study scores its trials against the official lists")
    stale = stale_lists(con, series)
    if stale:
        raise StudyError(f"the {system} lists {stale[0]}{' …' if len(stale) > 1 else ''} are not current (games or "
                         f"corrections came in since they were computed): rate them first (ratings rate --system {system})")


def study_of(con: duckdb.DuckDBPyConnection, name: str) -> Study | None:
    found = row(con, """select system, space, objective, max_drift, train_until, split_day, seed, sampler,
                               trials_asked, inputs, score from studies where study = ?""", [name])
    if found is None:
        return None
    system, space, objective, max_drift, train_until, split_day, seed, sampler, asked, inputs, score = found
    return Study(name, system, _stored_space(system, json.loads(space)), objective, max_drift, train_until,
                 split_day, seed, sampler, asked, int(inputs), score)


def _stored_space(system: str, stored: list[dict]) -> Space:
    return Space(system, tuple(Dimension(d["name"], d["kind"], d.get("low"), d.get("high"), d.get("step"),
                                         d.get("log", False), tuple(d.get("choices", ())))
                               for d in stored))


def study_name(name: str) -> str:
    """`name` when it can name a study (and its folder, tune-NAME), else StudyError."""
    if not STUDY_NAME.fullmatch(name):
        raise StudyError(f"study name {name!r}: lower-case letters, digits, _ and -, at most 40 (it names its folder)")
    return name


def prepared(con: duckdb.DuckDBPyConnection, name: str, given: dict, run_id: int) -> Study:
    """The study NAME: made when new from the options `given` (system, space, objective,
    score, max_drift, train_until, trials, seed; None: not given, the default); when it
    exists, an option given must be what it was (a resumed study searches what it
    searched), and the official lists must rest on what they rested on when it began."""
    held = study_of(con, study_name(name))
    if held is not None:
        return _resumed(con, held, given)
    if given["system"] is None:
        raise StudyError("give the rule set to search: --system NAME")
    if given["space"] is None:
        raise StudyError("give the space to search: --space FILE.toml")
    system = given["system"]
    _official(con, system)
    space = read_space(given["space"], system)
    train_until, split_day = given["train_until"], None
    if train_until is not None:
        known_list(con, chosen(con, system), train_until)
        split_day = scalar(con, "select window_end from lists where series = ? and list_id = ?", [system, train_until])
        if not scalar(con, "select count(*) from games where white_score is not null and date > ?", [split_day]):
            raise StudyError(f"no game was played after the {train_until} list's window (it ends {split_day}): "
                             "nothing to test on; train until an earlier list")
    trials = given["trials"] or DEFAULT_TRIALS
    study = Study(name, system, space, given["objective"] or OBJECTIVES[0], given["max_drift"], train_until,
                  split_day, DEFAULT_SEED if given["seed"] is None else given["seed"],
                  "grid" if space.grid(trials) is not None else "tpe", trials, _inputs(con, system),
                  given.get("score") or SCORES[0])
    con.execute("insert into studies values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [name, system, space.text(), study.objective, study.max_drift, train_until, split_day, study.seed,
                 study.sampler, trials, study.inputs, run_id, dt.datetime.now(), study.score])
    return study


def _resumed(con: duckdb.DuckDBPyConnection, held: Study, given: dict) -> Study:
    stored = {"system": held.system, "space": held.space.text(), "objective": held.objective, "score": held.score,
              "max_drift": held.max_drift, "train_until": held.train_until, "seed": held.seed}
    asked = {"score": None, **given,
             "space": None if given["space"] is None else read_space(given["space"], held.system).text()}
    differ = [f"--{k.replace('_', '-')}" for k, v in stored.items() if asked[k] is not None and asked[k] != v]
    if differ:
        raise StudyError(f"study {held.name!r} exists with other settings ({', '.join(differ)} differ): give its own, "
                         f"or none, to go on; or drop it (ratings tunes --drop {held.name}); or choose another name")
    _official(con, held.system)
    if _inputs(con, held.system) != held.inputs:
        raise StudyError(f"the {held.system} lists changed since study {held.name!r} began (games, corrections or "
                         f"parameters): its trials were scored on other games; drop it (ratings tunes --drop "
                         f"{held.name}) and start again")
    if given["trials"] is None:
        return held
    con.execute("update studies set trials_asked = ? where study = ?", [given["trials"], held.name])
    return dataclasses.replace(held, trials_asked=given["trials"])


def trials_of(con: duckdb.DuckDBPyConnection, name: str) -> list[dict]:
    """The study's trials in order, as stored (parameters read back)."""
    rows = con.sql("select * exclude (study) from study_trials where study = ? order by trial",
                   params=[name]).to_arrow_table().to_pylist()
    return [{**r, "parameters": json.loads(r["parameters"]),
             "drift_by_decade": json.loads(r["drift_by_decade"]) if r["drift_by_decade"] else {}} for r in rows]


def objective_value(study: Study, trial: dict) -> float | None:
    """What the search minimises: the training games' log-loss or Brier score."""
    return trial[f"train_{study.metric}"]


def state_of(trial: dict) -> str:
    """refused (by the rules), feasible or infeasible (past --max-drift)."""
    return "refused" if trial["refused"] else "feasible" if trial["feasible"] else "infeasible"


def shown(value) -> str:
    """A parameter's value as a --rules file writes it (floats without trailing zeros)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return f"{value:g}" if isinstance(value, float) else str(value)


def parameters_text(parameters: dict) -> str:
    """`name = value, ...`, in the space's order."""
    return ", ".join(f"{k} = {shown(v)}" for k, v in parameters.items())


def planned(study: Study) -> int:
    """How many trials the study makes in all: --trials, or the grid's points if fewer."""
    if study.sampler == "grid":
        return min(study.trials_asked, len(study.space.points()))
    return study.trials_asked


def record(con: duckdb.DuckDBPyConnection, study: Study, number: int, outcome: Outcome, run_id: int) -> dict:
    """The trial stored (one transaction); returns it as trials_of reads it."""
    feasible = None if outcome.refused else study.drift_excess(outcome.drift) <= 0
    part = {k: getattr(outcome, k) for k in ("train", "test", "official_train", "official_test", "yardstick_train",
                                              "yardstick_test", "official_yardstick_test")}

    def value(name, figure):
        p = part[name]
        return None if p is None else getattr(p, figure)

    values = [study.name, number, json.dumps({k: outcome.parameters[k] for k in study.space.names}), outcome.refused,
              value("train", "games"), value("train", "log_loss"), value("train", "brier"),
              value("test", "games"), value("test", "log_loss"), value("test", "brier"),
              value("official_train", "log_loss"), value("official_train", "brier"),
              value("official_test", "log_loss"), value("official_test", "brier"),
              outcome.drift, json.dumps({str(k): v for k, v in sorted(outcome.drift_by_decade.items())}) if not outcome.refused else None,
              outcome.idle_drift, feasible, outcome.seconds, run_id,
              value("yardstick_train", "log_loss"), value("yardstick_train", "brier"),
              value("yardstick_test", "log_loss"), value("yardstick_test", "brier"),
              value("official_yardstick_test", "log_loss"), value("official_yardstick_test", "brier")]
    with transaction(con):
        con.execute(f"insert into study_trials values ({', '.join('?' * len(values))})", values)
        if outcome.calibration is not None:
            con.register("trial_calibration", outcome.calibration)
            con.execute("""insert into study_calibration
                           select ?, ?, case when source = ? then 'trial' else 'official' end,
                                  bin, bin_end, games, expected, actual from trial_calibration""",
                        [study.name, number, "tune-trial"])
            con.unregister("trial_calibration")
    return trials_of(con, study.name)[number - 1]


def official_parameters(con: duckdb.DuckDBPyConnection, system: str) -> dict:
    """The parameters the official lists use that differ from the rule set's defaults:
    a trial keeps them and changes only those it searches."""
    stored = chosen(con, system).rule_set.parameter_values()
    defaults = systems.rule_set(system, {}).parameter_values()
    return {k: v for k, v in sorted(stored.items()) if defaults.get(k) != v}


def interrupted(err: BaseException) -> bool:
    """Whether `err` is a Ctrl-C. Python raises KeyboardInterrupt; when the signal lands
    during a statement, DuckDB (2.0.1) takes it and raises RuntimeError('Query
    interrupted'), and when it lands while DuckDB scans a trial's Arrow relation, a
    duckdb.Error that names the KeyboardInterrupt (`... 'trial_state' failed:
    KeyboardInterrupt`). A study stopped by Ctrl-C reads all three as one."""
    if isinstance(err, KeyboardInterrupt):
        return True
    if type(err) is RuntimeError:
        return str(err) == "Query interrupted"
    return isinstance(err, duckdb.Error) and re.search(r"\bKeyboardInterrupt\b", str(err)) is not None


def repeated(con: duckdb.DuckDBPyConnection, study: Study, number: int, earlier: dict, run_id: int) -> dict:
    """Trial `number`, of the parameters of trial `earlier`: its figures, no time taken."""
    with transaction(con):
        con.execute("""insert into study_trials select * replace (? as trial, 0.0 as seconds, ? as run_id)
                       from study_trials where study = ? and trial = ?""", [number, run_id, study.name, earlier["trial"]])
        con.execute("""insert into study_calibration select * replace (? as trial)
                       from study_calibration where study = ? and trial = ?""", [number, study.name, earlier["trial"]])
    return trials_of(con, study.name)[number - 1]


def best(study: Study, trials: list[dict]) -> dict | None:
    """The feasible trial with the lowest training objective (the earliest of equals)."""
    chosen_ = [t for t in trials if t["feasible"] and objective_value(study, t) is not None]
    return min(chosen_, key=lambda t: (objective_value(study, t), t["trial"])) if chosen_ else None


STUDY_COLUMNS = ("study", "rule_set", "parameters", "objective", "score", "max_drift", "train_until", "sampler",
                 "trials", "best_trial", "best_train", "best_test")


def study_listing(con: duckdb.DuckDBPyConnection) -> list[dict]:
    found = []
    for (name,) in con.execute("select study from studies order by created_at, study").fetchall():
        study = study_of(con, name)
        trials = trials_of(con, name)
        top = best(study, trials)
        metric = study.metric
        found.append({"study": name, "rule_set": study.system, "parameters": ", ".join(study.space.names),
                      "objective": study.objective, "score": study.score, "max_drift": study.max_drift, "train_until": study.train_until,
                      "sampler": study.sampler, "trials": f"{len(trials)} of {planned(study)}",
                      "best_trial": None if top is None else top["trial"],
                      "best_train": None if top is None else round(top[f"train_{metric}"], 4),
                      "best_test": None if top is None or top[f"test_{metric}"] is None else round(top[f"test_{metric}"], 4)})
    return found


def drop_study(con: duckdb.DuckDBPyConnection, name: str) -> int:
    """Remove the study and its trials; returns how many trials it had."""
    if study_of(con, name) is None:
        raise StudyError(f"no study {name!r} (`ratings tunes` lists them)")
    trials = scalar(con, "select count(*) from study_trials where study = ?", [name])
    with transaction(con):
        for table in ("study_calibration", "study_trials", "studies"):
            con.execute(f"delete from {table} where study = ?", [name])
    return trials


def calibration_of(con: duckdb.DuckDBPyConnection, name: str, trial: int | None) -> pa.Table:
    """The test games' calibration bins of a trial and of the official lists on the same
    games: source (trial, official), bin, bin_end, games, expected, actual; no row
    without a trial."""
    return con.sql("""select source, bin, bin_end, games, expected, actual from study_calibration
                      where study = ? and trial is not distinct from ? order by source desc, bin""",
                   params=[name, trial]).to_arrow_table()


def no_scenario_named(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """`--keep` makes the scenario NAME: StudyError when a scenario of that name exists
    (made by `ratings scenario` or an earlier --keep), which it would replace unsaid."""
    if scalar(con, "select count(*) from series where series = ? and scenario", [name]):
        raise StudyError(f"the scenario {name!r} exists already, and --keep would replace it: drop it first "
                         f"(ratings scenario {name} --drop), then keep the trial as the scenario {name}")


def kept_trial(study: Study, trials: list[dict], keep: str) -> dict:
    """The trial `--keep` names: `best` (the best feasible) or its number; StudyError
    when there is none to keep."""
    if keep == "best":
        chosen_ = best(study, trials)
        if chosen_ is None:
            raise StudyError(f"study {study.name!r} has no feasible trial to keep")
        return chosen_
    if not keep.isdigit() or not 1 <= int(keep) <= len(trials):
        raise StudyError(f"--keep {keep}: give `best` or a trial's number, 1 to {len(trials)}")
    chosen_ = trials[int(keep) - 1]
    if chosen_["refused"]:
        raise StudyError(f"trial {keep} was refused by the rules ({chosen_['refused']}): nothing to keep")
    return chosen_
