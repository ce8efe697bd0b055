"""Go grades and points, shared by both Go rule sets (rulings G4, G4a).

Points: 100 a grade, dan positive, kyu negative. A grade is kept as a level on
one scale: d dan is d, k kyu is 1 − k (1 kyu is 0, 2 kyu is −1, ...), so the
grade of level L spans the points 100(L − 1) … 100L.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

GRADE = re.compile(r"\s*(\d{1,2})\s*([kKdD])\s*")


def level_of_points(points: np.ndarray) -> np.ndarray:
    """Ruling G4 (and the 1984 article): r ≥ 0 is ⌊r/100⌋ + 1 dan, r < 0 is
    ⌊−r/100⌋ + 1 kyu (237 is 3 dan, −1075 is 11 kyu, −100 is 2 kyu)."""
    r = np.asarray(points, dtype=float)
    return np.where(r >= 0, np.floor(r / 100) + 1, -np.floor(-r / 100))  # float: NaN (no rating) stays NaN


def levels_of_grades(grades) -> np.ndarray:
    """'5k' → −4, '2d' → 2, one array pass; NaN for NC, blank, unreadable, or outside
    30 kyu … 9 dan (ruling G6: validation refuses those; 0k is never read as 1 dan)."""
    found = pd.Series(grades, dtype="string").str.extract(f"^{GRADE.pattern}$")
    n = pd.to_numeric(found[0]).to_numpy(dtype=float)  # NaN where the grade does not read
    dan = found[1].str.lower().eq("d").fillna(False).to_numpy(dtype=bool)
    valid = np.where(dan, (n >= 1) & (n <= 9), (n >= 1) & (n <= 30))
    return np.where(valid, np.where(dan, n, 1 - n), np.nan)


def level_of_grade(grade: str | None) -> int | None:
    """'5k' → −4, '2d' → 2; None for NC, blank or unreadable."""
    level = levels_of_grades([grade])[0]
    return None if np.isnan(level) else int(level)


def grade_text(level: np.ndarray) -> np.ndarray:
    """Levels as grades written like 5k and 2d (None where there is no grade)."""
    level = np.asarray(level, dtype=float)
    whole = np.nan_to_num(level).astype(np.int64)
    text = np.where(whole >= 1, np.char.add(whole.astype(str), "d"), np.char.add((1 - whole).astype(str), "k"))
    return np.where(np.isnan(level), None, text.astype(object))


def middle_of(level: np.ndarray, floor: float = -2450.0) -> np.ndarray:
    """The middle of a grade, where a new member starts: 1 dan 50, 5 kyu −450; a
    grade weaker than 25 kyu starts at the floor (ruling G6)."""
    return np.maximum(100.0 * np.asarray(level, dtype=float) - 50.0, floor)


def next_level(level: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The grade after an event, with hysteresis: promoted as soon as the points pass
    the grade's upper bound (strictly), demoted only strictly below the lower bound
    minus 100 (ruling G4: 5 kyu stays at −600, is 6 kyu at −601), then to the grade
    that keeps the same 100-point margin."""
    level = np.asarray(level, dtype=float)
    r = np.asarray(points, dtype=float)
    up = r > 100.0 * level
    down = r < 100.0 * (level - 2)
    return np.select([up, down], [level_of_points(r), level_of_points(r + 100)], level)


def corrected_level(level: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Ruling G4a: a rating commission's correction sets the points, and the grade moves
    from the grade the player had by G4's boundaries, as if the points had got there by
    games (a 5 kyu corrected to −600 stays 5 kyu, to −601 is 6 kyu; a 1 dan corrected to
    100 stays 1 dan); a player with no grade yet gets G4's first reading of the points."""
    level = np.asarray(level, dtype=float)
    return np.where(np.isnan(level), level_of_points(points), next_level(level, points))
