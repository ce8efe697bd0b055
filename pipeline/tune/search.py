"""The search of a study (`ratings tune NAME`): the next trial's parameters asked of
Optuna's TPE sampler (or a grid), trials rated one by one (pipeline/tune/trial.py), each
recorded as soon as it is scored (pipeline/tune/study.py).

The search is a function of the seed and the trials already rated: each trial's
parameters come from a sampler seeded by the study's seed and the trial's number,
told every trial before it. A study stopped (Ctrl-C) and run again goes on where it
stopped and makes the very trials an uninterrupted run makes.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable

import duckdb
import optuna
from optuna.distributions import BaseDistribution, CategoricalDistribution, FloatDistribution, IntDistribution
from optuna.trial import create_trial

from pipeline.tune.space import Dimension, Space
from pipeline.tune.study import Study, objective_value, official_parameters, planned, record, repeated, trials_of
from pipeline.tune.trial import Setting, official_scored, rated_trial


def distribution(d: Dimension) -> BaseDistribution:
    """A parameter's Optuna distribution."""
    if d.kind == "choice":
        return CategoricalDistribution(d.choices)
    if d.kind == "int":
        return IntDistribution(int(d.low), int(d.high), step=int(d.step or 1), log=d.log)
    return FloatDistribution(d.low, d.high, step=d.step, log=d.log)


def distributions_of(space: Space) -> dict[str, BaseDistribution]:
    """Each parameter's Optuna distribution, in the space's order (the sampler draws in it)."""
    return {d.name: distribution(d) for d in space.dimensions}


def next_parameters(study: Study, done: list[dict]) -> dict | None:
    """The parameters of trial len(done); None when a grid has none left."""
    if study.sampler == "grid":
        grid = study.space.points()
        return grid[len(done)] if len(done) < len(grid) else None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    distributions = distributions_of(study.space)
    rated = [objective_value(study, t) for t in done if objective_value(study, t) is not None]
    worst = max(rated, default=1.0)
    history = []
    for trial in done:
        # A trial the rules refused is told as an infeasible one (scored as the worst so
        # far): the sampler then learns to avoid such combinations, as it would not from
        # a failed trial, which it ignores.
        refused = trial["refused"] is not None or objective_value(study, trial) is None
        drift = 0.0 if refused or study.max_drift is None else study.drift_excess(trial["drift"])
        history.append(create_trial(value=worst if refused else objective_value(study, trial),
                                    params=trial["parameters"], distributions=distributions,
                                    constraints={"rules": 1.0 if refused else 0.0, "drift": drift}))
    # A sampler of its own for each trial, seeded by the study's seed and the trial's
    # number: the next parameters depend on the seed and the trials before only.
    sampler = optuna.samplers.TPESampler(seed=(study.seed * 1_000_003 + len(done)) % 2**32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        searched = optuna.create_study(direction="minimize", sampler=sampler)
        searched.add_trials(history)
        return searched.ask(distributions).params


def run_study(con: duckdb.DuckDBPyConnection, study: Study, run_id: int,
              on_trial: Callable[[dict, int], None]) -> list[dict]:
    """Rate the trials the study still lacks, one by one, each recorded when scored; a
    KeyboardInterrupt (Ctrl-C) stops it between two statements, the trial under way
    rolled back, those recorded kept. Parameters already rated are not rated again:
    the trial takes the earlier one's figures (a sampler may propose a point twice in a
    small space). Returns every trial."""
    setting = Setting(study.system, study.split_day, run_id, official_parameters(con, study.system), study.score)
    official_scored(con, setting)
    done = trials_of(con, study.name)
    while len(done) < planned(study):
        parameters = next_parameters(study, done)
        if parameters is None:
            break
        earlier = next((t for t in done if t["parameters"] == parameters), None)
        if earlier is not None:
            done.append(repeated(con, study, len(done) + 1, earlier, run_id))
        else:
            done.append(record(con, study, len(done) + 1, rated_trial(con, setting, parameters), run_id))
        on_trial(done[-1], planned(study))
    return done
