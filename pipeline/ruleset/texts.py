"""Texts chosen per player by conditions (which rule gave a rating, what a game counted for)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def first_that_holds(conditions: Sequence[np.ndarray], texts: Sequence[str],
                     default: str | np.ndarray) -> np.ndarray:
    """np.select over texts, as Python strings (an object array): the text of the first
    condition that holds, else `default` (one text, or an array of texts).

    np.select over the texts themselves fills NumPy's fixed-width text, four bytes a
    character and every value as wide as the longest (77 characters), once per choice;
    choosing a number and looking it up copies no text (bench/README.md)."""
    chosen = np.select(conditions, np.arange(len(texts)), len(texts))
    lookup = np.array([str(t) for t in texts] + [""], dtype=object)
    if isinstance(default, np.ndarray):
        return np.where(chosen < len(texts), lookup[chosen], default.astype(object))
    lookup[-1] = str(default)
    return lookup[chosen]
