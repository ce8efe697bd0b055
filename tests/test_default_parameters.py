"""The default parameters of each rule set have not changed (style habit 8).

Each rule set is a frozen dataclass whose defaults are the regulations' numbers;
every field is listed here literally, so that a changed, added or removed default
fails with the field's name. The reference tables loaded as data are pinned by
their length, a few entries and a digest of every value. A default changes only
with the regulation (and a reviewed reason): then change it here too, in the same
commit. (tests/test_performance_rules.py has its own, older check of the
performance Elo; the two overlap on purpose.)
"""
from __future__ import annotations

import dataclasses
import hashlib

from pipeline.systems.fide import RULES as FIDE
from pipeline.systems.fide import FideRules
from pipeline.systems.go_belgium import RULES as GO_BELGIUM
from pipeline.systems.go_belgium import GoBelgiumRules
from pipeline.systems.go_ffg1984 import RULES as GO_FFG1984
from pipeline.systems.go_ffg1984 import Ffg1984Rules
from pipeline.systems.performance import RULES as PERFORMANCE
from pipeline.systems.performance import PerformanceRules


def _fields(rules, *tables: str) -> dict:
    """The dataclass as a dict, without the tables loaded as data."""
    return {k: v for k, v in dataclasses.asdict(rules).items() if k not in tables}


def _digest(table) -> str:
    """A digest of every value of a table (rows of numbers), independent of how it is stored."""
    rows = tuple(tuple(float(x) for x in row) for row in table)
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def test_the_module_rules_are_the_defaults():
    # Each module's RULES is the dataclass with its defaults, nothing overridden.
    assert dataclasses.asdict(PERFORMANCE) == dataclasses.asdict(PerformanceRules())
    assert dataclasses.asdict(FIDE) == dataclasses.asdict(FideRules())
    assert dataclasses.asdict(GO_BELGIUM) == dataclasses.asdict(GoBelgiumRules())
    assert dataclasses.asdict(GO_FFG1984) == dataclasses.asdict(Ffg1984Rules())
    for rules in (PERFORMANCE, FIDE, GO_BELGIUM, GO_FFG1984):
        assert all(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
                   for f in dataclasses.fields(rules)), f"{type(rules).__name__}: a field without a default"
        assert type(rules).__dataclass_params__.frozen


def test_performance_elo_defaults():
    assert _fields(PERFORMANCE, "dp_table") == {
        "compatibility_gap": 350.0,  # seed II.2
        "entry_games": 8,  # seed I
        "junior_quota": 8,
        "senior_quota": 16,
        "brake_weight": 16,  # seed V-1-a
        "performance_floor": 1000.0,  # seed II.5
        "bonus_bound": 470.0,  # seed II.4, R5
        "junior_age": 20,  # R2
        "start_value": 1500.0,  # R7
        "settle_tolerance": 20.0,  # R9
        "max_rounds": 25,  # R9
        "rounding_step": 10,  # R3
    }
    # D(P), pipeline/systems/performance/performance-dp-table.csv: p = 0.01 … 0.99, odd around 0.50.
    dp = PERFORMANCE.dp_table
    assert len(dp) == 99
    assert dp[0] == (0.01, -677.0) and dp[1] == (0.02, -589.0)
    assert dp[49] == (0.50, 0.0) and dp[69] == (0.70, 149.0)
    assert dp[-2] == (0.98, 589.0) and dp[-1] == (0.99, 677.0)
    assert _digest(dp) == "db0bd75eb1d35d97"  # every value: a changed cell anywhere fails


def test_fide_elo_defaults():
    assert _fields(FIDE, "expected_table", "dp_table") == {
        "difference_cap": 400.0,  # the 400-point rule
        "cap_exempt_from": 2650.0,  # B02 since October 2025 (None: the seed's rule)
        "cap_exempt_since": "2025-10-01",  # ruling X4: events that start on or after it
        "logistic": False,  # table 8.1.2, not the logistic curve
        "k_new": 40,
        "established_games": 30,
        "k_junior": 40,
        "junior_age": 18,
        "junior_below": 2300.0,
        "k_standard": 20,
        "k_master": 10,
        "master_from": 2400.0,
        "max_k_times_games": 700,  # B02 8.3.3
        "floor": 1400.0,  # B02 7.2.1
        "initial_games": 5,  # B02 8.2
        "pool_months": 26,
        "fictitious_rating": 1800.0,
        "fictitious_draws": 2,
        "initial_cap": 2200.0,
        "closing_days": 3,  # ruling X1: a list closes three days before its date
        "inactive_months": 12,  # B02 7.2.2
    }
    # Table 8.1.2 (pipeline/systems/fide/fide-8.1.2-expected-score.csv): difference from, E higher, E lower.
    e = FIDE.expected_table
    assert len(e) == 51
    assert e[0] == (0.0, 0.5, 0.5) and e[1] == (4.0, 0.51, 0.49) and e[2] == (11.0, 0.52, 0.48)
    assert e[-2] == (620.0, 0.99, 0.01) and e[-1] == (736.0, 1.0, 0.0)
    assert _digest(e) == "923ff4322996b346"  # every value: a changed cell anywhere fails
    # Table 8.1.1: the performance table with p = 0 → −800 and p = 1 → +800 added.
    dp = FIDE.dp_table
    assert len(dp) == 101
    assert dp[0] == (0.0, -800.0) and dp[1] == (0.01, -677.0)
    assert dp[50] == (0.50, 0.0) and dp[64] == (0.64, 102.0)
    assert dp[-2] == (0.99, 677.0) and dp[-1] == (1.0, 800.0)
    assert _digest(dp) == "3c8ad883e77848b3"  # every value: a changed cell anywhere fails


def test_belgian_go_defaults():
    assert _fields(GO_BELGIUM, "table") == {
        "asymmetry": 0.986,
        "symmetric_expectation": False,  # True: the seed's table and examples
        "giver_factor_squared": True,  # False: the seed's second example
        "stone_value": 100.0,
        "handicap_offset": 0.5,
        "factor_step": 10.0,
        "factor_minimum": 0.1,
        "class_weights": (("A", 1.2), ("B", 1.0), ("C", 0.8), ("D", 0.0)),
        "board_weights": ((19, 1.0), (13, 0.5), (9, 0.3)),
        "small_boards_since": "2021-01-01",  # the seed: "since 2021"
        "floor": -2450.0,  # 25 kyu
        "first_rating_bounds": (-2450.0, 1000.0),  # G2
        "first_rating_margin": 100.0,  # G2
        "bisection_steps": 60,
    }
    # Table I (pipeline/systems/go_belgium/go-belgium-table-1.csv): rating, Con, A, every 100 points.
    t = GO_BELGIUM.table
    assert len(t) == 27
    assert t[0] == (-1950.0, 116.0, 200.0) and t[1] == (-1850.0, 110.0, 195.0)
    assert t[19] == (-50.0, 27.0, 105.0)
    assert t[-2] == (550.0, 11.0, 75.0) and t[-1] == (650.0, 10.0, 70.0)
    assert _digest(t) == "8c5ca58ed009e202"  # every value: a changed cell anywhere fails


def test_french_go_1984_defaults():
    assert _fields(GO_FFG1984) == {
        "stone_value": 100.0,  # the fictitious level: + 100 a stone received
        "loser_loses": 10.0,  # case 1
        "step": 10.0,  # the + 10 of case 1
        "stronger_divisor": 10.0,  # case 1.1
        "weaker_divisor": 3.0,  # case 1.2
        "ignored_beyond": 100.0,  # case 2.1
        "base": 110.0,  # case 2.2
        "divisor": 10.0,  # case 2.2
    }

