"""A study's page (index.html of `ratings tune --out`): its settings, the best
feasible trial, the front of test score against drift, which parameters mattered,
the best trial's calibration beside the official lists', and every trial. Offline
(inline SVG, no outside file) and byte-identical for the same trials but for the
seconds each took, like the comparison page (pipeline/analysis/page.py)."""
from __future__ import annotations

import math
import warnings
from html import escape

import optuna
import pyarrow as pa
from optuna.importance import PedAnovaImportanceEvaluator
from optuna.trial import create_trial

from pipeline.pages import TEMPLATES
from pipeline.pages.svg import BOTTOM, COLOURS, HEIGHT, LEFT, RIGHT, TOP, WIDTH, chart_frame, line_chart, nice_ticks
from pipeline.tune.search import distributions_of
from pipeline.tune.space import Dimension
from pipeline.tune.study import Study, objective_value, planned, shown, state_of

FRONT, OTHER, OFFICIAL = COLOURS[1], COLOURS[0], "#555555"
LEGEND = 130  # room right of the front chart for its key


def searched(d: Dimension) -> str:
    """What the study searches of one parameter, in words."""
    if d.kind == "choice":
        return "one of " + ", ".join(shown(c) for c in d.choices)
    kind = "whole numbers" if d.kind == "int" else "numbers"
    step = f", step {shown(d.step)}" if d.step is not None else ""
    return f"{kind} {shown(d.low)} to {shown(d.high)}{step}{', log scale' if d.log else ''}"


def front_chart(study: Study, trials: list[dict], front: list[dict]) -> str:
    """Each rated trial at (size of its drift, test score): the front's in their own
    colour, an infeasible trial hollow, the official lists' test score a dashed line,
    --max-drift a dotted one."""
    score = f"test_{study.metric}"
    rated = [t for t in trials if not t["refused"] and t[score] is not None]
    if not rated:
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}"></svg>'
    on_front = {t["trial"] for t in front}
    official = next((t[f"official_{score}"] for t in rated if t[f"official_{score}"] is not None), None)
    sizes = [abs(t["drift"] or 0.0) for t in rated]  # no cohort: no drift, as pareto_front reads it
    x_top, (low, high) = _focus(study, rated, sizes, on_front, official)
    x_ticks = nice_ticks(0, x_top or 1)
    if high == low:  # a narrow band around the one score (nice_ticks would reach a whole point above it)
        low, high = low - 0.01, high + 0.01
    y_ticks = nice_ticks(low, high)
    right = WIDTH - RIGHT - LEGEND
    x = lambda v: LEFT + (v - x_ticks[0]) / (x_ticks[-1] - x_ticks[0]) * (right - LEFT)  # noqa: E731
    y = lambda v: HEIGHT - BOTTOM - (v - y_ticks[0]) / (y_ticks[-1] - y_ticks[0]) * (HEIGHT - BOTTOM - TOP)  # noqa: E731
    parts = chart_frame(y_ticks, y, [(x(t), f"{t:g}") for t in x_ticks], _score_name(study, test=True),
                   "size of the drift (points)")
    if study.max_drift is not None:
        parts.append(f'<line class="max-drift" x1="{x(study.max_drift):.1f}" x2="{x(study.max_drift):.1f}" '
                     f'y1="{TOP}" y2="{HEIGHT - BOTTOM}" stroke="#c44e52" stroke-dasharray="2 3"/>')
    if official is not None:
        parts.append(f'<line class="official" x1="{LEFT}" x2="{right}" y1="{y(official):.1f}" y2="{y(official):.1f}" '
                     f'stroke="{OFFICIAL}" stroke-width="1.5" stroke-dasharray="6 3"><title>official lists: '
                     f'{official:.5f}</title></line>')
    # The front last: drawn over the trials it beats.
    for t, size in sorted(zip(rated, sizes), key=lambda p: (p[0]["trial"] in on_front, p[0]["trial"])):
        kind = "front" if t["trial"] in on_front else "other"
        colour = FRONT if kind == "front" else OTHER
        fill = f'fill="{colour}"' if t["feasible"] else f'fill="#fff" stroke="{colour}" stroke-width="1.5"'
        said = ", ".join(w for w, true in (("on the front", kind == "front"), ("infeasible", not t["feasible"])) if true)
        beyond = size > x_ticks[-1] or t[score] > y_ticks[-1]  # drawn at the edge, said in its title
        said += ("; " if said else "") + "beyond the chart's range, drawn at its edge" if beyond else ""
        parts.append(f'<circle class="trial {kind} {state_of(t)}{" beyond" if beyond else ""}" data-trial="{t["trial"]}" '
                     f'cx="{x(min(size, x_ticks[-1])):.1f}" cy="{y(min(t[score], y_ticks[-1])):.1f}" '
                     f'r="{4 if kind == "front" else 3}" {fill}><title>trial {t["trial"]}: '
                     f'{t[score]:.5f}, drift {t["drift"] or 0.0:+.1f}{f" ({said})" if said else ""}</title></circle>')
    parts.extend(_front_key(right, official is not None, study.max_drift is not None))
    beyond = sum(1 for t, size in zip(rated, sizes) if size > x_ticks[-1] or t[score] > y_ticks[-1])
    if beyond:
        parts.append(f'<text class="beyond-note" x="{right}" y="{HEIGHT - BOTTOM - 6}" text-anchor="end" '
                     f'fill="#333">{beyond} trial{"s" if beyond > 1 else ""} beyond the range, drawn at its '
                     'edge</text>')
    parts.append("</svg>")
    return "".join(parts)


def _focus(study: Study, rated: list[dict], sizes: list[float], on_front: set, official: float | None):
    """The chart's reach: to twice the front's drift (or --max-drift) and to the front's
    and the official lists' scores plus as much again above the best, so that trials
    far off (a drift of 270 points) do not crowd the front into a corner."""
    score = f"test_{study.metric}"
    scores = [t[score] for t in rated]
    front_sizes = [s for t, s in zip(rated, sizes) if t["trial"] in on_front] or sizes
    front_scores = [t[score] for t in rated if t["trial"] in on_front] or scores
    x_top = max(min(max(sizes), 2 * max([*front_sizes, study.max_drift or 0.0])), study.max_drift or 0.0)
    low = min([*scores, *([] if official is None else [official])])
    near = max([*front_scores, *([] if official is None else [official])])
    return x_top, (low, min(max(scores), near + (near - low)))


def _front_key(right: float, official: bool, max_drift: bool) -> list[str]:
    """The front chart's key, right of the plot: a mark and its words a row."""
    key = [(f'<circle cx="{right + 16}" cy="{{y}}" r="4" fill="{FRONT}"/>', "the front"),
           (f'<circle cx="{right + 16}" cy="{{y}}" r="3" fill="{OTHER}"/>', "other trials"),
           (f'<circle cx="{right + 16}" cy="{{y}}" r="3" fill="#fff" stroke="{OTHER}" stroke-width="1.5"/>',
            "infeasible")]
    if official:
        key.append((f'<line x1="{right + 10}" x2="{right + 22}" y1="{{y}}" y2="{{y}}" stroke="{OFFICIAL}" '
                    f'stroke-width="1.5" stroke-dasharray="6 3"/>', "official lists"))
    if max_drift:
        key.append((f'<line x1="{right + 10}" x2="{right + 22}" y1="{{y}}" y2="{{y}}" stroke="#c44e52" '
                    f'stroke-dasharray="2 3"/>', "max drift"))
    return [mark.format(y=TOP + 14 * k + 4) + f'<text x="{right + 26}" y="{TOP + 14 * k + 8}" fill="#333">'
            f'{escape(label)}</text>' for k, (mark, label) in enumerate(key)]


def _score_name(study: Study, test: bool = False) -> str:
    name = "log-loss" if study.objective == "log-loss" else "Brier score"
    if not test:
        return f"training {name}"
    return f"test {name}" if study.split_day else f"{name} (every game)"


def importances(study: Study, trials: list[dict]) -> tuple[list[tuple[str, float]], str]:
    """Each parameter's importance to the training objective, most first (their sum 1),
    and the method's name; or no importance and the sentence saying why."""
    if len(study.space.dimensions) < 2:
        return [], "One parameter: its importance is all its own."
    done = [t for t in trials if not t["refused"] and objective_value(study, t) is not None]
    if len(done) < 2:
        return [], f"Too few trials: importance needs two rated trials at least ({len(done)} so far)."
    if len({objective_value(study, t) for t in done}) == 1:
        return [], f"Every rated trial has the same {_score_name(study)}: no parameter made a difference."
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    distributions = distributions_of(study.space)
    evaluator, method = _evaluator()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ExperimentalWarning, and advice the page has no room for
            held = optuna.create_study(direction="minimize")
            held.add_trials([create_trial(value=objective_value(study, t), params=t["parameters"],
                                          distributions=distributions) for t in done])
            found = optuna.importance.get_param_importances(held, evaluator=evaluator())
    except Exception as err:  # whatever Optuna cannot do, the rest of the page still shows
        return [], f"Optuna could not tell the importance from these trials ({type(err).__name__}: {err})."
    if not found or any(not math.isfinite(v) for v in found.values()):
        return [], "The trials do not tell the parameters apart (their training scores do not vary with them)."
    return [(name, float(v)) for name, v in found.items()], method


def _evaluator():
    """Optuna's PED-ANOVA, as a maker and its name: it draws nothing at random and needs
    nothing more (fANOVA needs scikit-learn), so the page is the same on every machine."""
    return PedAnovaImportanceEvaluator, "PED-ANOVA"


def calibration_chart(calibration: pa.Table, trial_label: str) -> str:
    """Mean score against mean expected score in each bin, the trial's and the official
    lists', with the diagonal a perfect calibration lies on."""
    rows = [r for r in calibration.to_pylist() if r["expected"] is not None and r["actual"] is not None]
    lines = {label: [(r["expected"], r["actual"]) for r in rows if r["source"] == source]
             for source, label in (("trial", trial_label), ("official", "official lists"))}
    lines["expected = actual"] = [(0.0, 0.0), (1.0, 1.0)]
    return line_chart({k: v for k, v in lines.items() if v}, {v: f"{v:g}" for v in (0.0, 0.25, 0.5, 0.75, 1.0)},
                      "mean score (White)", "mean expected score (White)",
                      styles={"expected = actual": "dotted"},
                      colours={trial_label: FRONT, "official lists": OFFICIAL, "expected = actual": "#999999"})


def study_page(study: Study, trials: list[dict], front: list[dict], top: dict | None, calibration: pa.Table) -> str:
    """The page, as text."""
    found, why = importances(study, trials)
    trial_label = f"trial {top['trial']}" if top else "the trial"
    calibration_rows = [{**r, "source": trial_label if r["source"] == "trial" else "official lists"}
                        for r in calibration.to_pylist()]
    return TEMPLATES.get_template("tune.html.j2").render(
        study=study, names=study.space.names, searched=[(d.name, searched(d)) for d in study.space.dimensions],
        done=len(trials), planned=planned(study), trials=trials, front=front, top=top, m=study.metric,
        train_name=_score_name(study), test_name=_score_name(study, test=True), shown=shown, state=state_of,
        decades=sorted((top or {}).get("drift_by_decade", {}).items(), key=lambda d: int(d[0])),
        front_chart=front_chart(study, trials, front), importances=found, importance_note=why,
        calibration=calibration_rows, trial_label=trial_label,
        calibration_chart=calibration_chart(calibration, trial_label) if calibration_rows else "")
