"""The consensus tree keeps a clade only on a strict majority of its trees (issue 35): two
conflicting clades, each in exactly half of the trees, are both left out."""

from __future__ import annotations

import numpy as np

from punctstyle.descriptive import maps

# three documents; column 0 joins 0 and 1, column 1 joins 1 and 2 (conflicting clades)
X = np.array([[0.0, 10.0], [1.0, 1.0], [10.0, 0.0]])


def test_two_conflicting_clades_at_exactly_half_are_both_dropped():
    clades = maps.consensus_clades(X, [np.array([0]), np.array([1])], maps.delta_distance_matrix, 0.5)
    assert clades == []
    edges = maps.consensus_edges(clades, ["a", "b", "c"])
    assert edges["Source"].tolist() == [maps.ROOT] * 3


def test_a_clade_in_more_than_half_is_kept_and_its_rival_is_not():
    subsets = [np.array([0]), np.array([1]), np.array([0])]
    clades = maps.consensus_clades(X, subsets, maps.delta_distance_matrix, 0.5)
    assert clades == [(frozenset({0, 1}), 2 / 3)]
    assert maps.consensus_clades(X, subsets, maps.delta_distance_matrix, 0.7) == []
