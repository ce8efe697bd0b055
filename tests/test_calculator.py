"""The calculator page's arithmetic (pipeline/site/static/calculator.js) against the
rule sets' own Python functions (issue 52, item 3): for each rule set, 10,000 random
cases (seeded) run in Node, one process a rule set, every value the page prints
compared, to the decimals it prints them with, with the engine's, computed for all
the cases at once (each case a player of one list, period or event). The tables the
script reads are the rule set's (pipeline/site/calculator.py), never a copy."""
from __future__ import annotations

import json
import shutil
import subprocess
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pytest

import pipeline.site

from pipeline.site.calculator import calculator_data
from pipeline.systems import rule_set
from pipeline.systems.fide import rules as fide_rules
from pipeline.systems.glicko2 import rules as glicko
from pipeline.systems.go import grades
from pipeline.systems.go_belgium import rules as go
from pipeline.systems.go_ffg1984 import rules as ffg
from pipeline.systems.performance import rules as perf

NODE = shutil.which("node")
RUNNER = Path(__file__).parent / "calculator_runner.js"
SCRIPT = Path(pipeline.site.__file__).parent / "static" / "calculator.js"  # the installed package's, in CI
CASES = 10_000
pytestmark = pytest.mark.skipif(NODE is None, reason="Node is not installed (.ci/run installs Debian's nodejs)")


def printed(x, decimals: int) -> str:
    """As the page prints a number (calculator.js `fixed`): its double's exact value to
    `decimals` places, half away from zero, no minus sign on a zero."""
    if isinstance(x, (bool, np.bool_, str)):
        return str(x).lower() if not isinstance(x, str) else x
    text = str(Decimal(float(x)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def in_node(system: str, data: dict, cases: list[dict], fields: list[str],
            game_fields: list[tuple[str, str]]) -> list:
    """Every case computed by calculator.js in one Node process: per case, the printed
    `fields` and, per game, the printed `game_fields` ((value, its decimals' name))."""
    return node_run(system, data, cases, fields, game_fields)["cases"]


def node_run(system: str, data: dict, cases: list[dict], fields: list[str],
             game_fields: list[tuple[str, str]]) -> dict:
    """in_node's cases, and the decimals the page prints the rule set's values with."""
    done = subprocess.run([NODE, str(RUNNER), str(SCRIPT)], input=json.dumps({
        "system": system, "data": data, "cases": cases, "fields": fields, "game_fields": game_fields}),
        capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def compare(system: str, node: list, python_fields: list[list[str]], python_games: list[list[list[str]]]) -> None:
    """Every case's printed values equal; the first cases that differ named."""
    wrong = [(k, node[k], (python_fields[k], python_games[k])) for k in range(len(node))
             if node[k] != [python_fields[k], python_games[k]]]
    assert not wrong, f"{system}: {len(wrong)} of {len(node)} cases differ, e.g. {wrong[:3]}"


def groups(n_games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The case of each game, and each case's first game's index."""
    who = np.repeat(np.arange(len(n_games)), n_games)
    return who, np.r_[0, np.cumsum(n_games)[:-1]]


# --- FIDE --------------------------------------------------------------------------
@pytest.mark.parametrize("parameters", [None, {"logistic": True, "cap_exempt_from": None, "difference_cap": 350.0}],
                         ids=["regulations", "logistic-no-exemption"])
def test_fide_equals_the_rule_set(parameters):
    rs = rule_set("fide", parameters)
    rules = rs.parameters
    rng = np.random.default_rng(52_3)
    n = CASES
    rating = rng.integers(1000, 2901, n).astype(float)
    # A tenth around the 2650 exception (X4), with opponents more than 400 below.
    rating = np.where(rng.random(n) < 0.1, rng.integers(2600, 2801, n), rating).astype(float)
    games_total = rng.integers(0, 61, n)
    peak = np.maximum(rating, np.where(rng.random(n) < 0.2, rating + rng.integers(0, 400, n), rating))
    junior = rng.random(n) < 0.3
    exempt = rng.random(n) < 0.7  # X4: the event started on or after the 2650 exception's date
    given_k = np.where(rng.random(n) < 0.2, rng.choice([10, 15, 20, 30, 40], n), 0)
    # A few long events: K × n ≤ 700 lowers K from 18 games at K 40 (8.3.3).
    n_games = np.where(rng.random(n) < 0.1, rng.integers(15, 41, n), rng.integers(1, 12, n))
    who, first = groups(n_games)
    opponent = rng.integers(1000, 2901, len(who)).astype(float)
    score = rng.choice([0.0, 0.5, 1.0], len(who))

    # The rule set's functions, every game side at once (as rate_sides does).
    d = fide_rules.rating_difference(rating[who], opponent, rules, exempt=exempt[who])
    e = fide_rules.expected_score(d, rules)
    k, _ = fide_rules.k_factor(rating, games_total, peak, junior, n_games, rules)
    k = np.where(given_k > 0, given_k, k)
    gain = np.bincount(who, weights=k[who] * (score - e), minlength=n)
    change = fide_rules.half_away(gain)
    # The seed's linear performance (fide-elo.md): mean opponent + 400 × (wins − losses) / games.
    mean = np.bincount(who, weights=opponent, minlength=n) / n_games
    balance = np.bincount(who, weights=(score == 1) * 1.0 - (score == 0) * 1.0, minlength=n)
    performance = mean + 400 * balance / n_games

    fields = ["rating", "change", "gain", "expected", "performance", "mean"]
    cases = [{"rating": rating[c], "gamesTotal": int(games_total[c]), "peak": peak[c], "junior": bool(junior[c]),
              "k": int(given_k[c]) or None, "exempt": bool(exempt[c]),
              "games": [{"rating": opponent[g], "score": score[g]} for g in range(first[c], first[c] + n_games[c])]}
             for c in range(n)]
    run = node_run("fide", calculator_data(rs), cases, fields, [["d", "d"], ["e", "e"]])
    dec, node = run["decimals"], run["cases"]
    expected_sum = np.bincount(who, weights=e, minlength=n)
    values = {"rating": rating + change, "change": change, "gain": gain, "expected": expected_sum,
              "performance": performance, "mean": mean}
    py = [[printed(values[f][c], dec[f]) for f in fields] for c in range(n)]
    py_games = [[[printed(d[g], dec["d"]), printed(e[g], dec["e"])] for g in range(first[c], first[c] + n_games[c])]
                for c in range(n)]
    compare("fide", node, py, py_games)
    # and K itself, the rule set's: a case of 40 games at K 40 is rated with K 17 (700 / 40)
    assert fide_rules.k_factor(np.array([1500.0]), np.array([0]), np.array([1500.0]), np.array([False]),
                               np.array([40]))[0][0] == 17


def test_fide_worked_by_hand():
    """A player rated 2000 (20 games: K 40) beats a 2100 and loses to a 1500: table 8.1.2
    gives E = 0.36 at D = −100 (99–106: 0.64/0.36) and 0.92 at D = 400 (500, capped:
    the row 392 up, 0.92/0.08); Σ(S − E) = (1 − 0.36) + (0 − 0.92) = −0.28;
    K × Σ = −11.2, rounded −11: 1989."""
    node = in_node("fide", calculator_data(rule_set("fide")),
                   [{"rating": 2000, "gamesTotal": 20, "junior": False, "peak": None, "k": None,
                     "games": [{"rating": 2100, "score": 1}, {"rating": 1500, "score": 0}]}],
                   ["rating", "change", "gain"], [["d", "d"], ["e", "e"]])
    assert node == [[["1989", "-11", "-11.20"], [["-100", "0.36"], ["400", "0.92"]]]]


# --- the national performance Elo -----------------------------------------------------
def test_performance_equals_the_rule_set():
    rs = rule_set("performance")
    rules = rs.parameters
    rng = np.random.default_rng(52_31)
    n = CASES
    rating = rng.integers(1000, 2400, n).astype(float)
    junior = rng.random(n) < 0.3
    n_games = rng.integers(1, 25, n)
    who, first = groups(n_games)
    # Opponents around the player, some beyond the 350 points; a few exactly 350 away.
    gap = np.where(rng.random(len(who)) < 0.05, rng.choice([-350.0, 350.0], len(who)),
                   rng.integers(-600, 601, len(who)))
    opponent = np.clip(rating[who] + gap, 1, 3000)
    score = rng.choice([0.0, 0.5, 1.0], len(who), p=[0.4, 0.2, 0.4])

    # The engine's list: each case a rated player, each opponent a rated player of one game.
    opponents = n + np.arange(len(who))
    previous = np.concatenate([rating, opponent])
    birth = np.concatenate([np.where(junior, 2017.0, np.nan), np.full(len(who), np.nan)])
    r = perf.rate_list(who, opponents, score, previous, np.full(len(previous), np.nan),
                       np.zeros(len(previous)), birth, 2027, rules)
    t = r.totals
    ok = perf.compatible(score, rating[who], opponent, rules)

    fields = ["ea", "p", "dp", "pj", "rating", "published"]
    cases = [{"rating": rating[c], "junior": bool(junior[c]),
              "games": [{"rating": opponent[g], "score": score[g]} for g in range(first[c], first[c] + n_games[c])]}
             for c in range(n)]
    run = node_run("performance", calculator_data(rs), cases, fields, [["compatible", "compatible"]])
    dec, node = run["decimals"], run["cases"]
    some = t.games[:n] > 0
    values = {"ea": t.mean_opponent[:n], "p": t.p[:n], "dp": perf.bonus(t.p[:n], rules), "pj": r.performance[:n],
              "rating": r.unrounded[:n], "published": r.rating[:n]}
    py = [[printed(values[f][c], dec[f]) if (some[c] or f in ("rating", "published")) else "undefined"
           for f in fields] for c in range(n)]
    py_games = [[[printed(bool(ok[g]), 0)] for g in range(first[c], first[c] + n_games[c])] for c in range(n)]
    compare("performance", node, py, py_games)


def test_performance_worked_example():
    """performance-elo.md's worked example: a senior rated 1650; wins against 1500, 1720,
    1600 and 1250, a draw with 1690, losses to 1800 and 2100. The win against 1250 and the
    loss to 2100 are not compatible: Nj = 5, Ea = 1662, P = 0.70, D = 149, Pj = 1811;
    Ej = (1811 × 5 + 1650 × 11) / 16 = 1700.31 → 1700."""
    games = [(1500, 1), (1720, 1), (1600, 1), (1250, 1), (1690, 0.5), (1800, 0), (2100, 0)]
    node = in_node("performance", calculator_data(rule_set("performance")),
                   [{"rating": 1650, "junior": False, "games": [{"rating": o, "score": s} for o, s in games]}],
                   ["ea", "p", "dp", "pj", "rating", "published"], [["compatible", "compatible"]])
    assert node[0][0] == ["1662.00", "0.7000", "149.00", "1811.00", "1700.31", "1700"]
    assert [g[0] for g in node[0][1]] == ["true", "true", "true", "false", "true", "true", "false"]


# --- Belgian Go ------------------------------------------------------------------------
@pytest.mark.parametrize("parameters", [None, {"symmetric_expectation": True, "giver_factor_squared": False}],
                         ids=["rules", "seed-simplified"])
def test_go_belgium_equals_the_rule_set(parameters):
    rs = rule_set("go-belgium", parameters)
    rules = rs.parameters
    rng = np.random.default_rng(52_32)
    n = CASES
    rating = np.round(rng.uniform(-2450, 1000, n), 2)
    n_games = rng.integers(1, 9, n)
    who, first = groups(n_games)
    m = len(who)
    opponent = np.round(rng.uniform(-2450, 1000, m), 2)
    handicap = np.where(rng.random(m) < 0.5, 0, rng.integers(1, 10, m))
    # h ≥ 1: Black receives the stones; an even game: either colour.
    black = np.where(handicap >= 1, rng.random(m) < 0.5, rng.random(m) < 0.5)
    result = np.where(rng.random(m) < 0.02, 0.5, rng.choice([0.0, 1.0], m))
    event_class = rng.choice(["A", "B", "C", "D"], m, p=[0.3, 0.3, 0.3, 0.1])
    board = rng.choice([19, 13, 9], m, p=[0.8, 0.1, 0.1])
    weight = go.game_weight(event_class, board, np.full(m, np.nan), np.full(m, "2024-06-01", dtype="datetime64[D]"),
                            rules)

    # The engine's event: each case a player, each opponent a player of one game; the
    # player's sides come Black's games first (sides_of), so the cases list them so.
    opp_index = n + np.arange(m)
    b = np.where(black, who, opp_index)
    w = np.where(black, opp_index, who)
    black_result = np.where(black, result, 1 - result)
    points = np.concatenate([rating, opponent])
    r = go.rate_event(b, w, black_result, handicap.astype(float), weight, points, grades.level_of_points(points),
                      rules)
    order = np.lexsort((np.arange(m), ~black, who))  # per case: its Black games, then its White games
    side = np.where(black, np.arange(m), m + np.arange(m))  # the player's side of each game

    cases = []
    for c in range(n):
        games = order[first[c]:first[c] + n_games[c]]
        cases.append({"rating": rating[c], "games": [
            {"rating": opponent[g], "handicap": int(handicap[g]), "receives": bool(black[g]), "result": result[g],
             "eventClass": event_class[g], "board": int(board[g])} for g in games]})
    run = node_run("go-belgium", calculator_data(rs), cases, ["con", "a", "change", "rating", "newGrade"],
                   [["difference", "difference"], ["expected", "expected"], ["factor", "factor"],
                    ["weight", "weight"], ["change", "side"]])
    dec, node = run["decimals"], run["cases"]
    t = r.terms
    py, py_games = [], []
    for c in range(n):
        s = side[order[first[c]:first[c] + n_games[c]]]
        py.append([printed(t["con"][s[0]], dec["con"]), printed(t["a"][s[0]], dec["a"]),
                   printed(r.change[c], dec["change"]), printed(r.rating[c], dec["rating"]),
                   str(grades.grade_text(r.level[c:c + 1])[0])])
        py_games.append([[printed(t["difference"][k], dec["difference"]), printed(t["expected"][k], dec["expected"]),
                          printed(r.sides.factor[k], dec["factor"]), printed(r.sides.weight[k], dec["weight"]),
                          printed(t["change"][k], dec["side"])] for k in s])
    compare("go-belgium", node, py, py_games)


def test_go_belgium_seed_example():
    """Seed 000's first worked example under the seed's simplified formulas: a 1 dan at
    50 beats a 2 dan at 150, even game, class B (weight 1): Con 24, A 100 at 50; the
    difference −100; E = 1 / (e^(100/100) + 1) = 0.2689; change 24 × (1 − 0.2689) = 17.55."""
    node = in_node("go-belgium", calculator_data(rule_set("go-belgium", {"symmetric_expectation": True,
                                                                          "giver_factor_squared": False})),
                   [{"rating": 50, "games": [{"rating": 150, "handicap": 0, "receives": True, "result": 1,
                                              "eventClass": "B", "board": 19}]}],
                   ["con", "a", "change", "rating", "newGrade"], [["expected", "expected"]])
    assert node == [[["24.00", "100.00", "17.55", "67.55", "1d"], [["0.269"]]]]


# --- the French rules of 1984 -------------------------------------------------------------
def test_go_ffg1984_equals_the_rule_set():
    rs = rule_set("go-ffg1984")
    rng = np.random.default_rng(52_34)
    n = CASES
    rating = np.round(rng.uniform(-2450, 1000, n), 2)
    n_games = rng.integers(1, 9, n)
    who, first = groups(n_games)
    m = len(who)
    # Opponents near the player (the cases 1.1 to 2.2 all met), some far (2.1).
    opponent = np.round(np.clip(rating[who] + rng.normal(0, 150, m), -2450, 1000), 2)
    handicap = np.where(rng.random(m) < 0.6, 0, rng.integers(1, 10, m))
    black = rng.random(m) < 0.5  # Black receives the stones
    result = np.where(rng.random(m) < 0.03, 0.5, rng.choice([0.0, 1.0], m))

    # The engine: every case's games in order, the player's points carried from game to game
    # (rate_games rates them in waves: one game of each case at a time).
    opp = n + np.arange(m)
    b, w = np.where(black, who, opp), np.where(black, opp, who)
    winner = np.where(result == 0.5, "jigo", np.where((result == 1) == black, "B", "W")).astype(object)
    r = ffg.rate_games(b, w, winner, handicap, np.concatenate([rating, opponent]), rs.parameters)
    change = np.where(black, r.black_change, r.white_change)
    before = np.where(black, r.black_before, r.white_before)
    kase = np.where(r.case == ffg.Case.DRAW.value, "jigo", r.case)

    cases = [{"rating": rating[c], "games": [
        {"rating": opponent[k], "handicap": int(handicap[k]), "receives": bool(black[k]), "result": result[k]}
        for k in range(first[c], first[c] + n_games[c])]} for c in range(n)]
    run = node_run("go-ffg1984", calculator_data(rs), cases, ["rating", "newGrade"],
                   [["kase", "kase"], ["before", "points"], ["change", "change"], ["after", "points"]])
    dec, node = run["decimals"], run["cases"]
    py = [[printed(r.points[c], dec["rating"]), str(grades.grade_text(grades.level_of_points(r.points[c:c + 1]))[0])]
          for c in range(n)]
    py_games = [[[str(kase[k]), printed(before[k], dec["points"]), printed(change[k], dec["change"]),
                  printed(before[k] + change[k], dec["points"])] for k in range(first[c], first[c] + n_games[c])]
                for c in range(n)]
    compare("go-ffg1984", node, py, py_games)


def test_go_ffg1984_by_hand():
    """Seed 004's cases by hand, a 1 kyu at −50: beating a 1 dan at 50 in an even game is
    case 1.2 (the winner weaker in points): T = ((50 − (−50)) + 10) / 3 = 36.67; then, at
    −13.33, beating a 5 kyu at −450 who took 4 stones (fictitious −50): 2.2, T = (110 −
    (−13.33 − (−50))) / 10 = 7.33; then losing to a 3 kyu at −250 in an even game: the
    winner is weaker on the board and in points (1.2), the loser loses 10: −16.00, 1 kyu."""
    node = in_node("go-ffg1984", calculator_data(rule_set("go-ffg1984")),
                   [{"rating": -50, "games": [{"rating": 50, "handicap": 0, "receives": True, "result": 1},
                                              {"rating": -450, "handicap": 4, "receives": False, "result": 1},
                                              {"rating": -250, "handicap": 0, "receives": False, "result": 0}]}],
                   ["rating", "newGrade"], [["kase", "kase"], ["change", "change"]])
    assert node == [[["-16.00", "1k"], [["1.2", "36.67"], ["2.2", "7.33"], ["1.2", "-10.00"]]]]


# --- Glicko-2 ------------------------------------------------------------------------------
def test_glicko2_equals_the_rule_set():
    rs = rule_set("glicko2")
    rules = rs.parameters
    rng = np.random.default_rng(52_33)
    n = CASES
    rating = np.round(rng.uniform(800, 2800, n), 2)
    deviation = np.round(rng.uniform(30, 350, n), 2)
    volatility = np.round(rng.uniform(0.03, 0.1, n), 4)
    n_games = rng.integers(1, 16, n)
    who, first = groups(n_games)
    m = len(who)
    opp_rating = np.clip(rating[who] + np.round(rng.normal(0, 250, m), 2), 100, 3000)
    opp_deviation = np.round(rng.uniform(30, 350, m), 2)
    score = rng.choice([0.0, 0.5, 1.0], m)

    # The engine's period: each case a player (White in every game), each opponent a player.
    opp = n + np.arange(m)
    r = glicko.period_result(np.concatenate([rating, opp_rating]), np.concatenate([deviation, opp_deviation]),
                             np.concatenate([volatility, np.full(m, 0.06)]), who, opp, score, rules)
    mu, phi = glicko.to_glicko2(rating, deviation)
    mu_j, phi_j = glicko.to_glicko2(opp_rating, opp_deviation)
    e = glicko.expected(mu[who], mu_j, phi_j)
    g = glicko.g(phi_j)

    fields = ["mu", "phi", "v", "delta", "sigma", "rating", "deviation", "published"]
    cases = [{"rating": rating[c], "deviation": deviation[c], "volatility": volatility[c],
              "games": [{"rating": opp_rating[k], "deviation": opp_deviation[k], "score": score[k]}
                        for k in range(first[c], first[c] + n_games[c])]} for c in range(n)]
    run = node_run("glicko2", calculator_data(rs), cases, fields, [["g", "g"], ["e", "e"]])
    dec, node = run["decimals"], run["cases"]
    values = {"mu": mu, "phi": phi, "v": r.v, "delta": r.delta, "sigma": r.volatility, "rating": r.rating,
              "deviation": r.deviation, "published": glicko.published(r.rating)}
    py = [[printed(values[f][c], dec[f]) for f in fields] for c in range(n)]
    py_games = [[[printed(g[k], dec["g"]), printed(e[k], dec["e"])] for k in range(first[c], first[c] + n_games[c])]
                for c in range(n)]
    compare("glicko2", node, py, py_games)


def test_glicko2_glickman_example():
    """Glickman 2013's example: 1500 (RD 200, σ 0.06) plays 1400 (30) won, 1550 (100) and
    1700 (300) lost, τ = 0.5: r′ = 1464.05 (the paper, rounding its steps, 1464.06), RD′ = 151.52, σ′ = 0.05999."""
    node = in_node("glicko2", calculator_data(rule_set("glicko2")),
                   [{"rating": 1500, "deviation": 200, "volatility": 0.06,
                     "games": [{"rating": 1400, "deviation": 30, "score": 1}, {"rating": 1550, "deviation": 100,
                                                                                "score": 0},
                               {"rating": 1700, "deviation": 300, "score": 0}]}],
                   ["rating", "deviation", "sigma"], [])
    assert node[0][0] == ["1464.05", "151.52", "0.059996"]


def test_the_tables_come_from_the_data_not_the_script():
    """The script holds no table (issue 52: from the rule sets' data files, never copied):
    the worked example computed from a D(P) table whose row 0.70 reads 150 instead of 149
    gives Pj 1812, and none of the tables' telling values is written in the script."""
    data = calculator_data(rule_set("performance"))
    data["tables"]["dp"] = [[p, 150.0 if p == 0.7 else dp] for p, dp in data["tables"]["dp"]]
    games = [(1500, 1), (1720, 1), (1600, 1), (1250, 1), (1690, 0.5), (1800, 0), (2100, 0)]
    node = in_node("performance", data, [{"rating": 1650, "junior": False,
                                          "games": [{"rating": o, "score": s} for o, s in games]}], ["pj"], [])
    assert node[0][0] == ["1812.00"]
    script = SCRIPT.read_text(encoding="utf-8")
    # D(P) at 0.01 and 0.02, table 8.1.2's row from 392 (0.92), table I's first row (116, 200 at -1950)
    for value in ("677", "589", "392", "0.92", "116", "1950"):
        assert value not in script, value
