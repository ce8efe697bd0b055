"""Connected components of the players of a period, for anchoring (ruling R11)."""
from __future__ import annotations

import numpy as np


def component_labels(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """Label of each of `n` nodes: the smallest node index of its component.

    Min-label propagation over the edges (a, b) with pointer jumping; each pass
    is one vectorised sweep, and labels only decrease, so it terminates; at the
    fixed point both ends of every edge share a label.
    """
    label = np.arange(n)
    while True:
        before = label.copy()
        low = np.minimum(label[a], label[b])
        np.minimum.at(label, a, low)
        np.minimum.at(label, b, low)
        np.minimum.at(label, label[a], low)
        np.minimum.at(label, label[b], low)
        while True:
            jumped = label[label]
            if np.array_equal(jumped, label):
                break
            label = jumped
        if np.array_equal(label, before):
            return label


def anchored(a: np.ndarray, b: np.ndarray, rated: np.ndarray) -> np.ndarray:
    """Whether each node is connected to at least one rated node (R11).

    A breadth-first search from the rated nodes, one vectorised sweep over the
    edges per step; the number of steps is the longest distance to a rated
    player, a handful in practice.
    """
    reached = rated.copy()
    while True:
        grow = reached[a] != reached[b]
        if not grow.any():
            return reached
        reached[a[grow]] = True
        reached[b[grow]] = True
