"""A card's values (pipeline/ruleset/card.py): what a sentence holds is checked, whatever
way it takes (values of the held types are taken as they are, the rest judged)."""
from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from pipeline.ruleset.card import Line, Num


@pytest.mark.parametrize("value", [True, np.bool_(False), 1.5, np.float64(2.0), [1, 0.5], object()])
def test_a_bool_a_bare_float_or_another_object_is_refused(value):
    with pytest.raises(TypeError, match="a card value may not be"):
        Line("%(v)s", {"v": value})


def test_the_held_values_are_kept_and_numpy_s_made_python_s():
    when = dt.datetime(2027, 5, 1, 12, 0)
    line = Line("%(a)s", {"a": np.int64(7), "b": np.str_("x"), "c": [np.int64(1), "y"], "d": when,
                          "e": Num(1.5, 1), "f": None, "g": dt.date(2027, 5, 1), "h": Line("inner")})
    assert line.values == {"a": 7, "b": "x", "c": (1, "y"), "d": when, "e": Num(1.5, 1), "f": None,
                           "g": dt.date(2027, 5, 1), "h": Line("inner")}
    assert [type(line.values[k]) for k in "abc"] == [int, str, tuple] and type(line.values["c"][0]) is int
