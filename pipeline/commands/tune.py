"""Parameter studies: `ratings tune` searches a rule set's parameters on the
warehouse's history (pipeline/tune/); `ratings tunes`, which lists the studies, is studies.py."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline import flow
from pipeline.commands.common import opened, recorded
from pipeline.commands.options import system_option, warehouse_option
from pipeline.console import ConsoleReporter
from pipeline.outputs import claim_folder
from pipeline.tune.outputs import write_study
from pipeline.tune.search import run_study
from pipeline.tune.study import (
    StudyError,
    best,
    calibration_of,
    interrupted,
    kept_trial,
    no_scenario_named,
    official_parameters,
    parameters_text,
    planned,
    prepared,
    study_name,
    study_of,
    trials_of,
)
from pipeline.warehouse import transaction

INTERRUPTED = 130  # the shell's status for a command stopped by Ctrl-C


@click.command("tune")
@click.argument("name")
@system_option
@click.option("--space", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              metavar="FILE.toml", help="The parameters to search and their ranges: a table per parameter with low "
                                        "and high (optional step, log), or choices.")
@click.option("--objective", type=click.Choice(["log-loss", "brier"]), default=None,
              help="What the search minimises on the training games  [default: log-loss]")
@click.option("--score", type=click.Choice(["own", "yardstick"]), default=None,
              help="What scores a trial's games: the rule set's own forecast (Glicko-2's with both deviations, "
                   "FIDE's table, as `ratings evaluate` scores a series) or the logistic yardstick of every source; "
                   "the yardstick's figures are kept beside  [default: own]")
@click.option("--max-drift", type=click.FloatRange(min=0), default=None, metavar="POINTS",
              help="A trial whose fixed cohort moves more than this in a decade is kept, marked infeasible.")
@click.option("--train-until", metavar="LIST_ID", default=None,
              help="The official list the training ends with: trials are chosen on the games up to its window "
                   "and judged on the games after (default: every game is both).")
@click.option("--trials", type=click.IntRange(min=1), default=None,
              help="How many trials the study makes in all (a study run again goes on to this number)  [default: 50]")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="The sampler's seed  [default: 0]")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the trials, the front, best.toml and the page (default: tune-NAME beside the "
                   "warehouse).")
@click.option("--keep", metavar="TRIAL", default=None,
              help="Store a trial (its number, or `best`: the best feasible) as the scenario NAME, and rate nothing "
                   "else.")
@warehouse_option
def tune(name: str, system: str | None, space: Path | None, objective: str | None, score: str | None,
         max_drift: float | None,
         train_until: str | None, trials: int | None, seed: int | None, out: Path | None, keep: str | None,
         warehouse: Path, wait: float) -> None:
    """Search the parameters of a rule set for those that would have predicted the
    warehouse's games best without drifting: each trial rates the whole history as a
    scenario that is never kept, scored by log-loss (or Brier) of the rule set's own
    forecast (or the yardstick) on the games after --train-until and by the drift of
    fixed cohorts, beside the official lists on the same games. The study is kept in the warehouse: run again, it goes on where it
    stopped (Ctrl-C stops it cleanly), and makes the same trials for the same seed.

    Writes trials and front (CSV, Parquet), best.toml (the best feasible trial's
    parameters, for `ratings scenario --rules`) and index.html to --out.

    Example: ratings tune quota --system performance --space quota.toml --train-until 2010-01 --max-drift 30
    """
    given = {"system": system, "space": space, "objective": objective, "score": score, "max_drift": max_drift,
             "train_until": train_until, "trials": trials, "seed": seed}
    if keep is not None:
        if any(v is not None for v in given.values()):
            raise click.UsageError("--keep takes no other option than --warehouse (the study has its settings)")
        _keep(name, keep, warehouse, wait)
        return
    _study(name, given, out, warehouse, wait)


def _study(name: str, given: dict, out: Path | None, warehouse: Path, wait: float) -> None:
    folder = out or Path(warehouse).parent / f"tune-{study_name(name)}"
    stopped = False
    with opened(warehouse, wait) as con:
        try:  # a study stopped by Ctrl-C is a failed run in the record, its trials kept
            with recorded(con, "tune", {"study": name, **{k: v for k, v in given.items() if v is not None}}) as run_id:
                # The folder once the study is sure: a study refused makes none, and a folder
                # refused leaves no study behind.
                with transaction(con):
                    study = prepared(con, name, given, run_id)
                    claim_folder(folder, "tune")
                click.echo(_heading(study))
                run_study(con, study, run_id, lambda t, n: click.echo(_trial_line(study, t, n)))
        except BaseException as err:  # a Ctrl-C, as Python or DuckDB raise it (study.interrupted)
            if not interrupted(err) or study_of(con, name) is None:
                raise
            stopped = True
        study = study_of(con, name)
        trials = trials_of(con, name)
        top = best(study, trials)
        files = write_study(study, trials, calibration_of(con, name, None if top is None else top["trial"]),
                            official_parameters(con, study.system), folder)
    click.echo(_summary(study, trials, top))
    click.echo(f"  trials, front, {'best.toml, ' if top else ''}page written to {folder}: open {files[-1]}")
    if stopped:
        click.echo(f"Stopped after {len(trials)} of {planned(study)} trials: the trial under way was dropped, those "
                   f"done are kept; run the same command again to go on.", err=True)
        click.get_current_context().exit(INTERRUPTED)


def _heading(study) -> str:
    split = (f"trained on the games to {study.split_day} (list {study.train_until}), tested on those after"
             if study.split_day else "no --train-until: every game both trains and tests")
    scored = "the rules' own forecast" if study.score == "own" else "the yardstick"
    limit = f", drift at most {study.max_drift:g} points a decade" if study.max_drift is not None else ""
    return (f"Study {study.name}: the {study.system} rules, {', '.join(study.space.names)} by "
            f"{'a grid' if study.sampler == 'grid' else f'TPE (seed {study.seed})'}; {study.objective} of {scored}"
            f"{limit}; {split}")


def _trial_line(study, t: dict, trials: int) -> str:
    head = f"  trial {t['trial']}/{trials}: {parameters_text(t['parameters'])}"
    if t["refused"]:
        return f"{head}: refused by the rules ({t['refused']})"
    metric = study.metric
    if t[f"train_{metric}"] is None:
        return f"{head}: no game of the training scored (the trial rates none of the players the official lists rate)"
    test = f", test {t[f'test_{metric}']:.4f}" if study.split_day and t[f"test_{metric}"] is not None else ""
    flag = "" if t["feasible"] else " (infeasible)"
    return (f"{head}: train {t[f'train_{metric}']:.4f}{test}, drift {round(t['drift'] or 0):+d}{flag}  "
            f"{t['seconds']:.1f} s")


def _summary(study, trials: list[dict], top: dict | None) -> str:
    metric = study.metric
    if top is None:
        return f"  {len(trials)} trials, none feasible" + (" (none rated)" if not trials else "")
    yardstick = (f" (yardstick {top[f'yardstick_test_{metric}']:.4f} against "
                 f"{top[f'official_yardstick_test_{metric}']:.4f})"
                 if study.score == "own" and top[f"yardstick_test_{metric}"] is not None else "")
    test = (f"; on the test games {top[f'test_{metric}']:.4f} against the official lists' "
            f"{top[f'official_test_{metric}']:.4f}{yardstick} ({top['test_games']:,} games)"
            if study.split_day and top[f"test_{metric}"] is not None else "")
    return (f"  best feasible: trial {top['trial']}, {parameters_text(top['parameters'])}: training "
            f"{study.objective} {top[f'train_{metric}']:.4f}{test}, drift {round(top['drift'] or 0):+d}")


def _keep(name: str, keep: str, warehouse: Path, wait: float) -> None:
    with opened(warehouse, wait) as con:
        study = study_of(con, name)
        if study is None:
            raise StudyError(f"no study {name!r} (`ratings tunes` lists them)")
        chosen = kept_trial(study, trials_of(con, name), keep)
        no_scenario_named(con, name)
        with recorded(con, "tune", {"study": name, "keep": keep}) as run_id, \
                flow.timed(ConsoleReporter(), "Rate"):
            flow.run_scenario(con, run_id, ConsoleReporter(), name, study.system,
                              {**official_parameters(con, study.system), **chosen["parameters"]})
    click.echo(f"Trial {chosen['trial']} of study {name} kept as the scenario {name} "
               f"({parameters_text(chosen['parameters'])}): ratings compare {study.system} {name}")


COMMANDS = (tune,)
