"""One trial of a study: the history rated with one parameter set as a scenario
inside a transaction that is always rolled back (never stored, never published, no
file written), then scored on the games it and the official lists both rate, split
in time at the study's day, and its drift read as `ratings compare` defines it.

A trial is scored by its rule set's own forecast (pipeline/analysis/forecasts.py, as
`ratings evaluate` scores a series: Glicko-2's expectation with both deviations, FIDE's
table) where the study says so (`--score own`, Setting.score), the logistic yardstick of
scored_games.sql otherwise; the yardstick's figures are kept beside the own forecast's."""
from __future__ import annotations

import datetime as dt
import re
import time
from dataclasses import dataclass, field

import duckdb
import pyarrow as pa

from pipeline.analysis.evaluate import scored_games
from pipeline.analysis.forecasts import OWN, own_forecasts
from pipeline.analysis.sources import Source, load_sources
from pipeline.rate import computed_lists
from pipeline.rate.periods import to_arrow
from pipeline.rate.series import scenario
from pipeline.rate.store import computed_rows, split_extensions
from pipeline.systems import ParameterError
from pipeline.warehouse import scratch, sql_text, stage_sql

TRIAL = "tune-trial"  # the scenario a trial is rated as, gone when the trial is scored
SCORES = (OWN, "yardstick")  # what a study's trials are scored by (the first: the default)


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
    # The logistic yardstick's figures on the same games (those above are the study's score's)
    yardstick_train: Part | None = None
    yardstick_test: Part | None = None
    official_yardstick_test: Part | None = None

    @property
    def drift(self) -> float | None:
        """The decade cohort's change of largest size, with its sign (None: no cohort)."""
        if not self.drift_by_decade:
            return None
        return max(self.drift_by_decade.values(), key=lambda v: (abs(v), v))


@dataclass(frozen=True)
class Setting:
    """What every trial of a study shares."""

    system: str  # the rule set, whose official lists are the series of its name
    split_day: dt.date | None  # the last day of training; None: every game is in both parts
    run_id: int
    base: dict = field(default_factory=dict)  # the official lists' own parameters, which a trial keeps
    score: str = OWN  # what the trials are scored by: the rule set's own forecast (OWN) or the yardstick


def rated_trial(con: duckdb.DuckDBPyConnection, setting: Setting, parameters: dict) -> Outcome:
    """The trial of `parameters` (the others as the official lists have them): rated,
    scored and forgotten (the warehouse is as before)."""
    started = time.perf_counter()
    with scratch(con):
        try:
            series = scenario(con, TRIAL, setting.system, {**setting.base, **parameters}, setting.run_id)
        except ParameterError as err:
            return Outcome(parameters, time.perf_counter() - started, refused=str(err).removesuffix("; nothing was rated"))
        frames = computed_lists(con, setting.run_id, series, show_progress=False).frames
        _rows_scored(con, series, frames)
        found = _scores(con, setting)
    return Outcome(parameters, time.perf_counter() - started, **found)


def _rows_scored(con: duckdb.DuckDBPyConnection, series, frames: dict[str, list]) -> None:
    """Of what the trial computed, what its scores read: its lists (in the shared table),
    its ratings (the registered relation trial_state: list_id, player_id, rating) and who
    played in each window (trial_played). Storing the whole of it, with revisions, would
    cost a third of the trial."""
    lists = split_extensions(con, {"lists": frames["lists"]}, series.rule_set.extensions)["lists"]
    new = computed_rows(con, series.name, "lists", lists)
    con.execute(f"insert into lists by name select 1 as revision, * from {new}")
    con.execute(f"drop table {new}")
    # The state's columns the rule set's own forecast reads (`s.deviation`), beside the rating
    forecast = " ".join(series.rule_set.forecast_columns or ())
    kept = [k for k in frames["player_state"][0]
            if k in ("list_id", "player_id", "rating") or re.search(rf"\bs\.{re.escape(k)}\b", forecast)]
    con.register("trial_state", to_arrow([{k: p[k] for k in kept} for p in frames["player_state"]]))
    played = [{"list_id": p["list_id"], "player_id": p["player_id"][p["games_played"] > 0]}
              for p in frames["calculations"]]
    con.register("trial_played", to_arrow(played))


def official_scored(con: duckdb.DuckDBPyConnection, setting: Setting) -> None:
    """The temp table tune_official: the games the official lists rate, as they score
    them (sql/analysis/scored_games.sql, with their own `forecast`), once for every trial
    of a study (outside the trials' transactions, which would drop it)."""
    official = [Source(setting.system, series=setting.system)]
    scored_games(con, official)
    own_forecasts(con, official)
    con.execute("drop table if exists tune_official")
    con.execute("alter table scored rename to tune_official")


def _scores(con: duckdb.DuckDBPyConnection, setting: Setting) -> dict:
    """The trial and the official lists on the games both rate (as scored_games.sql
    scores two sources: each game by each one's list in force on its day), split at the
    study's day; the cohorts' drift. The official lists' rows were scored once."""
    trial = Source(TRIAL, series=TRIAL, state="trial_state")
    scored_games(con, [trial])
    own_forecasts(con, [trial])
    # Each game both rate once, with both sources' forecasts (the study's score's and the
    # yardstick) and its part; read by the accuracy and calibration of analysis/ as
    # `scored`, the part standing for the list.
    con.execute("set variable split_day = ?", [setting.split_day])
    score = "forecast" if setting.score == OWN else "expected"
    con.execute(f"""create or replace temp table tune_pairs as
                    select t.game_key, t.date, t.white_score, t.{score} as trial, o.{score} as official,
                           t.expected as trial_yardstick, o.expected as official_yardstick,
                           case when getvariable('split_day') is null then 'all'
                                when t.date <= getvariable('split_day') then 'train' else 'test' end as part
                    from scored t join tune_official o using (game_key)""")
    con.execute("drop table scored")
    yardstick = (f"{TRIAL} yardstick", f"{setting.system} yardstick")
    columns = ((TRIAL, "trial"), (setting.system, "official"), (yardstick[0], "trial_yardstick"),
               (yardstick[1], "official_yardstick"))
    sides = " union all ".join(f"select game_key, {sql_text(name)} as source, part as list_id, date, white_score, "
                               f"{column} as expected from tune_pairs" for name, column in columns)
    con.execute(f"create or replace temp view scored as {sides}")
    parts = {}
    for source, part, n, log_loss, brier in con.execute(
            f"select source, list_id, games, log_loss, brier from ({stage_sql('analysis/accuracy')}) "
            "where list_id is not null").fetchall():
        for named in (("train", "test") if part == "all" else (part,)):
            parts[(source, named)] = Part(n, float(log_loss), float(brier))
    con.execute(f"create or replace temp view scored as select * from ({sides}) "
                f"where list_id in ('test', 'all') and source in ({sql_text(TRIAL)}, {sql_text(setting.system)})")
    calibration = con.sql(stage_sql("analysis/calibration")).to_arrow_table()  # the test games'
    con.execute("drop view scored")
    con.execute("drop table tune_pairs")
    con.execute("set variable a = ?", [TRIAL])
    con.execute("set variable b = ?", [setting.system])
    load_sources(con, [trial, Source(setting.system, series=setting.system)])
    con.execute(f"create or replace temp table compared_pairs as {stage_sql('analysis/compared_pairs')}")
    drift = con.execute(stage_sql("tune/cohort_drift").replace("__COHORTS__", stage_sql("analysis/cohorts"))
                        ).fetchall()
    con.execute("drop table compared_pairs")
    con.unregister("trial_state")
    con.unregister("trial_played")
    empty = Part(0, None, None)
    return {"train": parts.get((TRIAL, "train"), empty), "test": parts.get((TRIAL, "test"), empty),
            "official_train": parts.get((setting.system, "train"), empty),
            "official_test": parts.get((setting.system, "test"), empty),
            "yardstick_train": parts.get((yardstick[0], "train"), empty),
            "yardstick_test": parts.get((yardstick[0], "test"), empty),
            "official_yardstick_test": parts.get((yardstick[1], "test"), empty),
            "drift_by_decade": {int(d): float(c) for d, c in drift if d is not None},
            "idle_drift": next(float(c) for d, c in drift if d is None), "calibration": calibration}
