"""One trial of a study: the history rated with one parameter set as a scenario
inside a transaction that is always rolled back (never stored, never published, no
file written), then scored on the games it and the official lists both rate, split
in time at the study's day, and its drift read as `ratings compare` defines it."""
from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field

import duckdb
import pyarrow as pa

from pipeline.analysis.evaluate import scored_games
from pipeline.analysis.sources import Source
from pipeline.warehouse import scratch, stage_sql

TRIAL = "tune-trial"  # the scenario a trial is rated as, gone when the trial is scored


@dataclass(frozen=True)
class Part:
    """The figures of one part of the games (train or test) for one source."""

    games: int
    log_loss: float | None
    brier: float | None


@dataclass(frozen=True)
class Outcome:
    """What a trial found; `refused` is the rule set's reason when it would not take
    the parameters together (a quota above the brake's weight)."""

    parameters: dict
    seconds: float
    refused: str | None = None
    train: Part | None = None
    test: Part | None = None
    official_train: Part | None = None
    official_test: Part | None = None
    drift_by_decade: dict[int, float] = field(default_factory=dict)
    idle_drift: float | None = None
    calibration: pa.Table | None = None  # the test games' bins: source (trial, official), bin, ...

    @property
    def drift(self) -> float | None:
        """The decade cohort's change of largest size, with its sign (None: no cohort)."""
        if not self.drift_by_decade:
            return None
        return max(self.drift_by_decade.values(), key=lambda v: (abs(v), v))


@dataclass(frozen=True)
class Setting:
    """What every trial of a study shares."""

    system: str
    official: str  # the series of the rule set's official lists
    split_day: dt.date | None  # the last day of training; None: every game is in both parts
    run_id: int
    base: dict = field(default_factory=dict)  # the official lists' own parameters, which a trial keeps


def rated_trial(con: duckdb.DuckDBPyConnection, setting: Setting, parameters: dict) -> Outcome:
    """The trial of `parameters` (the others as the official lists have them): rated,
    scored and forgotten (the warehouse is as before)."""
    from pipeline.rate import rate_series
    from pipeline.rate.series import scenario
    from pipeline.systems import ParameterError

    started = time.perf_counter()
    with scratch(con):
        try:
            series = scenario(con, TRIAL, setting.system, {**setting.base, **parameters}, setting.run_id)
        except ParameterError as err:
            return Outcome(parameters, time.perf_counter() - started, refused=str(err).removesuffix("; nothing was rated"))
        rate_series(con, setting.run_id, series, show_progress=False)
        found = _scores(con, setting)
    return Outcome(parameters, time.perf_counter() - started, **found)


def _scores(con: duckdb.DuckDBPyConnection, setting: Setting) -> dict:
    trial, official = Source(TRIAL, series=TRIAL), Source(setting.official, series=setting.official)
    scored_games(con, [trial, official])
    con.execute("drop table if exists tune_scored")
    con.execute("alter table scored rename to tune_scored")
    con.execute("set variable split_day = ?", [setting.split_day])
    parts = {}
    for part, games in (("train", "date <= getvariable('split_day')"), ("test", "date > getvariable('split_day')")):
        where = "true" if setting.split_day is None else games
        con.execute(f"create or replace temp view scored as select * from tune_scored where {where}")
        for source, n, log_loss, brier in con.execute(
                f"select source, games, log_loss, brier from ({stage_sql('analysis/accuracy')}) "
                "where list_id is null").fetchall():
            parts[(source, part)] = Part(n, float(log_loss), float(brier))
    calibration = con.sql(stage_sql("analysis/calibration")).to_arrow_table()  # the test games'
    con.execute("drop view scored")
    con.execute("drop table tune_scored")
    con.execute("set variable a = ?", [TRIAL])
    con.execute("set variable b = ?", [setting.official])
    con.execute("set variable trial = ?", [TRIAL])
    con.execute(f"create or replace temp table compared_pairs as {stage_sql('analysis/compared_pairs')}")
    drift = con.execute(stage_sql("tune/cohort_drift").replace("__COHORTS__", stage_sql("analysis/cohorts"))
                        ).fetchall()
    con.execute("drop table compared_pairs")
    empty = Part(0, None, None)
    return {"train": parts.get((TRIAL, "train"), empty), "test": parts.get((TRIAL, "test"), empty),
            "official_train": parts.get((setting.official, "train"), empty),
            "official_test": parts.get((setting.official, "test"), empty),
            "drift_by_decade": {int(d): float(c) for d, c in drift if d is not None},
            "idle_drift": next(float(c) for d, c in drift if d is None), "calibration": calibration}
