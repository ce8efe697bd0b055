"""Properties that hold for any input (hypothesis)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.systems.performance.components import component_labels
from pipeline.systems.performance import rate_list

N = 12


@st.composite
def federations(draw):
    ratings = draw(st.lists(st.one_of(st.none(), st.integers(100, 250).map(lambda r: r * 10.0)),
                            min_size=N, max_size=N))
    pairs = draw(st.lists(st.tuples(st.integers(0, N - 1), st.integers(0, N - 1),
                                    st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=40)
                 .map(lambda gs: [g for g in gs if g[0] != g[1]]).filter(bool))
    archives = draw(st.lists(st.integers(0, 7), min_size=N, max_size=N))
    seed = draw(st.integers(0, 2**32 - 1))
    return np.array([np.nan if r is None else r for r in ratings]), pairs, np.array(archives), seed


def _rate(previous, games, archive_games):
    w, b, s = (np.array(x) for x in zip(*games))
    pa = np.where((archive_games > 0) & np.isnan(previous), 1400.0 + 37 * np.arange(N), np.nan)
    na = np.where(np.isnan(pa), 0, archive_games)
    return rate_list(w, b, s, previous, pa, na, np.full(N, 2000.0), 2027)


@settings(max_examples=150, deadline=None)
@given(federations())
def test_game_order_does_not_change_the_list(fed):
    previous, games, archives, seed = fed
    shuffled = list(games)
    np.random.default_rng(seed).shuffle(shuffled)
    a, b = _rate(previous, games, archives), _rate(previous, shuffled, archives)
    np.testing.assert_array_equal(a.rating, b.rating)
    np.testing.assert_allclose(a.unrounded, b.unrounded, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(a.archive_games, b.archive_games)
    assert a.estimation.moving_per_round == b.estimation.moving_per_round


@settings(max_examples=150, deadline=None)
@given(federations())
def test_every_rated_player_stays_rated_and_ratings_are_tens(fed):
    previous, games, archives, _ = fed
    r = _rate(previous, games, archives)
    rated = ~np.isnan(previous)
    assert not np.isnan(r.rating[rated]).any()
    assert (r.rating[~np.isnan(r.rating)] % 10 == 0).all()
    assert r.estimation.rounds <= 25


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=60))
def test_components_match_a_union_find(edges):
    n = 31
    a = np.array([e[0] for e in edges], dtype=np.int64)
    b = np.array([e[1] for e in edges], dtype=np.int64)
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for x, y in edges:
        parent[find(x)] = find(y)
    label = component_labels(a, b, n)
    for i in range(n):
        for j in range(n):
            assert (label[i] == label[j]) == (find(i) == find(j))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=60),
       st.lists(st.integers(0, 30), max_size=5))
def test_anchoring_is_sharing_a_component_with_a_rated_player(edges, rated_nodes):
    from pipeline.systems.performance.components import anchored
    n = 31
    a = np.array([e[0] for e in edges], dtype=np.int64)
    b = np.array([e[1] for e in edges], dtype=np.int64)
    rated = np.zeros(n, dtype=bool)
    rated[rated_nodes] = True
    label = component_labels(a, b, n)
    expected = np.isin(label, label[rated])
    np.testing.assert_array_equal(anchored(a, b, rated), expected)
