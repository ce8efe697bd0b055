"""The study's page (pipeline/tune/page.py) from trials made by hand: no warehouse, no
rating. What it must show: the best trial's parameters, the front marked in its
chart and listed, infeasible and refused trials told apart (a refusal's reason
escaped), one importance bar per parameter, the calibration's numbers, and the
same bytes for the same trials."""
from __future__ import annotations

import copy
import datetime as dt
import re

import pyarrow as pa

from pipeline.tune.outputs import pareto_front
from pipeline.tune.page import front_chart, study_page
from pipeline.tune.space import Dimension, Space
from pipeline.tune.study import Study, best

QUOTA = Dimension("senior_quota", "int", 8, 16)
START = Dimension("start_value", "float", 1200.0, 1600.0)
SCRIPT = "<script>alert(1)</script> senior_quota above brake_weight"


def study(*dimensions: Dimension, max_drift: float | None = 30.0, split: bool = True) -> Study:
    return Study("quota", "performance", Space("performance", dimensions or (QUOTA, START)), "log-loss", max_drift,
                 "2010-01" if split else None, dt.date(2009, 12, 31) if split else None, 7, "tpe", 6, 0)


def trial(number: int, parameters: dict, train: float | None = None, test: float | None = None,
          drift: float | None = None, feasible: bool | None = True, refused: str | None = None) -> dict:
    rated = refused is None
    return {"trial": number, "parameters": parameters, "refused": refused,
            "train_games": 9000 if rated else None, "train_log_loss": train, "train_brier": train and train / 3,
            "test_games": 1234 if rated else None, "test_log_loss": test, "test_brier": test and test / 3,
            "official_train_log_loss": 0.6 if rated else None, "official_train_brier": 0.2 if rated else None,
            "official_test_log_loss": 0.63 if rated else None, "official_test_brier": 0.21 if rated else None,
            "yardstick_train_log_loss": train and train + 0.01, "yardstick_train_brier": train and train / 3,
            "yardstick_test_log_loss": test and test + 0.01, "yardstick_test_brier": test and test / 3,
            "official_yardstick_test_log_loss": 0.64 if rated else None,
            "official_yardstick_test_brier": 0.21 if rated else None,
            "drift": drift, "drift_by_decade": {"1990": drift, "2000": drift / 2} if rated else {},
            "idle_drift": -3.25 if rated else None, "feasible": feasible if rated else None,
            "seconds": 1.5 + number, "run_id": 1}


def trials() -> list[dict]:
    # max_drift 30: trial 2 (|drift| 40) is infeasible, 4 refused by the rules.
    return [trial(1, {"senior_quota": 8, "start_value": 1200.0}, 0.60, 0.62, 10.0),
            trial(2, {"senior_quota": 12, "start_value": 1400.0}, 0.58, 0.61, -40.0, feasible=False),
            trial(3, {"senior_quota": 16, "start_value": 1600.0}, 0.59, 0.60, 25.0),
            trial(4, {"senior_quota": 9, "start_value": 1500.0}, refused=SCRIPT),
            trial(5, {"senior_quota": 10, "start_value": 1300.0}, 0.61, 0.64, 5.0)]


CALIBRATION = pa.table({"source": ["trial", "official"], "bin": [0.4, 0.4], "bin_end": [0.5, 0.5],
                        "games": [1234, 1234], "expected": [0.456, 0.448], "actual": [0.471, 0.502]})


def page(s: Study | None = None, done: list[dict] | None = None, calibration: pa.Table = CALIBRATION) -> str:
    s = s or study()
    done = trials() if done is None else done
    return study_page(s, done, pareto_front(s, done), best(s, done), calibration)


def section(html: str, name: str) -> str:
    return html.split(f'<section id="{name}">', 1)[1].split("</section>", 1)[0]


def test_the_best_feasible_trial_and_its_parameters_are_named():
    # Trial 2 has the lowest training log-loss (0.58) but is infeasible; of 1, 3, 5
    # (0.60, 0.59, 0.61) trial 3 is lowest: 16 and 1600.0 (shown as 1600, as the CLI does).
    found = section(page(), "best")
    assert "Trial 3:" in found
    assert '<td class="text">senior_quota</td><td>16</td>' in found
    assert '<td class="text">start_value</td><td>1600</td>' in found
    # Its scores beside the official lists' on the same test games (0.63), and its drift
    # by decade (+25.0 in the 1990s, half that, +12.5, in the 2000s), idle drift -3.2.
    assert "<td>0.60000</td>" in found and "<td>0.63000</td>" in found
    assert "<td>1990s</td><td>+25.0</td>" in found and "<td>2000s</td><td>+12.5</td>" in found
    assert "those who did not play, added over the lists: -3.2." in found
    assert "--rules best.toml" in found and "ratings tune quota --keep best" in found


def test_no_feasible_trial_and_no_split_are_said():
    s = study(split=False, max_drift=1.0)
    done = [trial(1, {"senior_quota": 8, "start_value": 1200.0}, 0.6, 0.6, 10.0, feasible=False)]
    html = page(s, done, pa.table({"source": pa.array([], pa.string())}).slice(0, 0))
    assert "No trial is feasible" in section(html, "best") and "best.toml beside" not in section(html, "best")
    assert "no split: every game both trains and tests" in html
    assert "No calibration" in section(html, "calibration")


def test_the_front_is_marked_in_the_chart_and_listed():
    # Points (test, |drift|): 1 (0.62, 10), 2 (0.61, 40), 3 (0.60, 25), 5 (0.64, 5).
    # 3 beats 2 on both; 1, 3 and 5 each lead on one: the front is 3, 1, 5 by test score.
    found = section(page(), "front")
    marks = dict((int(n), kind) for kind, n in re.findall(r'<circle class="trial (\w+) \w+" data-trial="(\d+)"', found))
    assert marks == {1: "front", 2: "other", 3: "front", 5: "front"}  # 4 was refused: not rated, not drawn
    listed = re.findall(r'<tr class="num front" data-trial="(\d+)">', found)
    assert listed == ["3", "1", "5"]
    assert 'class="official"' in found and "official lists: 0.63000" in found
    assert 'class="max-drift"' in found


def test_an_infeasible_trial_is_shown_so():
    html = page()
    row = re.search(r'<tr class="num infeasible" data-trial="2">(.*?)</tr>', section(html, "trials"), re.S)
    assert row is not None and ">infeasible<" in row.group(1) and "<td>-40.0</td>" in row.group(1)
    # hollow in the chart: a white fill
    assert re.search(r'<circle class="trial other infeasible" data-trial="2"[^>]*fill="#fff"', html)


def test_a_refused_trial_shows_its_reason_escaped():
    html = page()
    assert "<script>" not in html
    assert "refused: &lt;script&gt;alert(1)&lt;/script&gt; senior_quota above brake_weight" in section(html, "trials")


def test_importance_has_a_bar_per_parameter():
    # Four rated trials (2 infeasible counts: importance is of the training score) with
    # both parameters varied: one bar each, the shares adding up to 1 (to 2 decimals,
    # at most 0.01 off by rounding).
    found = section(page(), "importance")
    rows = re.findall(r'<tr class="num importance"><td class="text">(\w+)</td>.*?width: ([\d.]+)%.*?<td>([\d.]+)</td>',
                      found)
    assert sorted(name for name, _, _ in rows) == ["senior_quota", "start_value"]
    assert abs(sum(float(v) for _, _, v in rows) - 1) <= 0.011
    assert all(abs(float(w) - 100 * float(v)) <= 0.5 for _, w, v in rows)


def test_one_parameter_too_few_trials_or_one_score_give_a_sentence():
    one = page(study(QUOTA), [trial(n, {"senior_quota": q}, 0.6 + n / 100, 0.6, 1.0) for n, q in ((1, 8), (2, 12), (3, 16))])
    assert "One parameter: its importance is all its own." in section(one, "importance")
    assert 'class="num importance"' not in one
    few = page(done=trials()[:1])
    assert "Too few trials" in section(few, "importance") and "(1 so far)" in few
    # three trials, both parameters varied, the same training score: nothing to tell apart
    same = page(done=[trial(n, {"senior_quota": 8 + n, "start_value": 1200.0 + n}, 0.6, 0.6, 1.0) for n in (1, 2, 3)])
    assert "Every rated trial has the same training log-loss" in section(same, "importance")


def test_the_calibration_numbers_appear():
    found = section(page(), "calibration")
    # trial 3 (the best) and the official lists, bin 0.4–0.5, 1,234 games each
    assert "<td class=\"text\">trial 3</td><td>0.4–0.5</td>\n<td>1,234</td><td>0.456</td><td>0.471</td>" in found
    assert "<td class=\"text\">official lists</td><td>0.4–0.5</td>\n<td>1,234</td><td>0.448</td><td>0.502</td>" in found
    assert "<svg" in found and "expected = actual" in found


def test_the_page_is_the_same_bytes_twice():
    first, second = page(done=trials()), page(done=copy.deepcopy(trials()))
    assert first == second
    # and only the seconds move it: trial 1 taking longer changes its cell, 2.5 to 9.0
    slower = trials()
    slower[0]["seconds"] = 9.0
    third = page(done=slower)
    assert third != first and third.replace("<td>9.0</td>", "<td>2.5</td>") == first


def test_the_page_is_a_page():
    html = page()
    assert html.startswith("<!doctype html>") and '<html lang="en">' in html
    assert "<title>Study quota: the performance rules</title>" in html
    levels = [int(n) for n in re.findall(r"<h([1-6])", html)]
    assert levels[0] == 1 and all(b - a <= 1 for a, b in zip(levels, levels[1:]))
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html


def test_trials_far_off_are_drawn_at_the_edge_and_counted():
    """The front drifts 10 and 20 points (the axis reaches twice the larger, 40) and
    scores 0.60 and 0.59, the official lists 0.63: the scores reach 0.63 + (0.63 - 0.59)
    = 0.67. A trial of drift 300 and score 0.69 lies beyond both: drawn at the edge, and
    said once; the front's trials are drawn where they are."""
    s = study(max_drift=None)
    near = [trial(1, {"senior_quota": 8, "start_value": 1200.0}, 0.60, 0.60, 10.0),
            trial(2, {"senior_quota": 9, "start_value": 1300.0}, 0.61, 0.59, 20.0)]
    far = trial(3, {"senior_quota": 10, "start_value": 1400.0}, 0.70, 0.69, 300.0)
    assert [t["trial"] for t in pareto_front(s, [*near, far])] == [2, 1]
    chart = front_chart(s, [*near, far], near)
    assert 'class="trial other feasible beyond" data-trial="3"' in chart
    assert "1 trial beyond the range, drawn at its edge" in chart
    assert 'class="trial front feasible" data-trial="1"' in chart and 'class="trial front feasible" data-trial="2"' in chart
