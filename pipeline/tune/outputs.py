"""What a study writes (`ratings tune --out DIR`): every trial (trials.csv and
.parquet, one column per parameter under its own name), the Pareto front of test
score against drift (front.csv, .parquet), the best feasible trial's parameters as a
`--rules` file (best.toml, for `ratings scenario`), and an offline page (index.html)."""
from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from pipeline.analysis.files import write_tables
from pipeline.writers import write_bytes
from pipeline.tune.page import study_page
from pipeline.tune.study import Study, best, state_of

FIGURES = ("train_games", "train_log_loss", "train_brier", "test_games", "test_log_loss", "test_brier",
           "official_test_log_loss", "official_test_brier", "yardstick_test_log_loss", "yardstick_test_brier",
           "official_yardstick_test_log_loss", "official_yardstick_test_brier", "drift")


def trials_table(study: Study, trials: list[dict]) -> pa.Table:
    """One row per trial: its number, its parameters (their own names), whether the rule
    set took them and they keep within --max-drift, then the figures, the drift of each
    decade's cohort, the drift of those who did not play, and the seconds it took."""
    decades = sorted({int(d) for t in trials for d in t["drift_by_decade"]})
    rows = []
    for t in trials:
        r = {"trial": t["trial"]}
        r.update({name: t["parameters"].get(name) for name in study.space.names})
        r["state"] = state_of(t)
        r["refused"] = t["refused"]
        r.update({k: t[k] for k in FIGURES})
        r.update({f"drift_{d}s": t["drift_by_decade"].get(str(d)) for d in decades})
        r["idle_drift"] = t["idle_drift"]
        r["seconds"] = round(t["seconds"], 2)
        rows.append(r)
    if not rows:
        return pa.table({"trial": pa.array([], pa.int32())})
    return pa.Table.from_pylist(rows)


def pareto_front(study: Study, trials: list[dict]) -> list[dict]:
    """The rated trials no other beats on both the test score and the size of the drift
    (lower both), by test score."""
    metric = f"test_{study.metric}"
    rated = [t for t in trials if not t["refused"] and t[metric] is not None]

    def point(t):
        return t[metric], abs(t["drift"] or 0.0)

    front = [t for t in rated
             if not any(point(o)[0] <= point(t)[0] and point(o)[1] <= point(t)[1] and point(o) != point(t)
                        for o in rated)]
    return sorted(front, key=lambda t: (point(t), t["trial"]))


def rules_toml(study: Study, trial: dict, base: dict) -> str:
    """The trial's parameters as a --rules file, with those of the official lists it kept
    (`base`: where they differ from the rule set's defaults)."""
    lines = [f"# ratings tune {study.name}: trial {trial['trial']} of the {study.system} rules, the best feasible",
             f"# (training {study.objective} {trial[f'train_{study.metric}']:.6f}).",
             f"# Use: ratings scenario NAME --system {study.system} --rules best.toml"]
    kept = {k: v for k, v in base.items() if k not in trial["parameters"]}
    if kept:
        lines.append("# The official lists' own parameters, which every trial kept:")
        lines.extend(f"{k} = {_toml_value(v)}" for k, v in kept.items())
        lines.append("# The parameters the study searched:")
    lines.extend(f"{name} = {_toml_value(trial['parameters'][name])}" for name in study.space.names)
    return "\n".join(lines) + "\n"


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return '"none"'
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def write_study(study: Study, trials: list[dict], calibration: pa.Table, base: dict, out: Path) -> list[Path]:
    """The study's files in OUT; returns them. best.toml is there only when a trial is
    feasible (an old one is removed when none is)."""
    table = trials_table(study, trials)
    front = pareto_front(study, trials)
    numbers = {t["trial"] for t in front}
    front_table = table.filter(pa.array([n in numbers for n in table.column("trial").to_pylist()])) \
        if len(table) else table
    written = write_tables({"trials": table, "front": front_table}, out)
    top = best(study, trials)
    toml = out / "best.toml"
    if top is not None:
        write_bytes(rules_toml(study, top, base).encode("utf-8"), toml)
        written.append(toml)
    else:
        toml.unlink(missing_ok=True)
    write_bytes(study_page(study, trials, front, top, calibration).encode("utf-8"), out / "index.html")
    return [*written, out / "index.html"]
