"""Stylo's bootstrap consensus sweep (issue 35): one Ward tree on the ``k`` columns of largest
corpus-wide mean for each ``k`` of a sweep, worked examples by hand."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from punctstyle.descriptive import maps


def as_lists(subsets):
    return [s.tolist() for s in subsets]


def test_sweep_orders_columns_by_decreasing_mean_ties_by_index():
    means = np.array([0.1, 0.4, 0.4, 0.2])  # order: 1, 2 (tie, lower index first), 3, 0
    assert as_lists(maps.frequency_sweep_subsets(means, 1, 4, 1)) == [[1], [1, 2], [1, 2, 3], [1, 2, 3, 0]]
    # k = 1, 3, 5 -> 5 capped at the 4 columns
    assert as_lists(maps.frequency_sweep_subsets(means, 1, 6, 2)) == [[1], [1, 2, 3], [1, 2, 3, 0]]
    # k = 4, 6, 8 all capped at 4: one tree on every column
    assert as_lists(maps.frequency_sweep_subsets(means, 4, 8, 2)) == [[1, 2, 3, 0]]
    assert as_lists(maps.frequency_sweep_subsets(means, 2, 2, 5)) == [[1, 2]]
    with pytest.raises(ValueError):
        maps.frequency_sweep_subsets(means, 0, 4, 1)


def test_sweep_counts_from_fractions():
    assert maps.sweep_counts(500, 0.1, 1.0, 0.1) == (50, 500, 50)
    assert maps.sweep_counts(100, 0.1, 1.0, 0.1) == (10, 100, 10)
    assert maps.sweep_counts(10, 0.1, 1.0, 0.1) == (1, 10, 1)
    assert maps.sweep_counts(550, 0.1, 1.0, 0.1) == (55, 550, 55)
    assert maps.sweep_counts(5, 0.1, 0.5, 0.3) == (1, 3, 2)  # 0.5, 2.5, 1.5 rounded half up
    assert maps.sweep_counts(10, 0.6, 0.2, 0.1) == (6, 6, 1)  # max below min: one tree


# three documents; column 1 (mean 103.7, the largest) joins documents 0 and 1, column 2 (13.8)
# and column 0 (3.7) join 1 and 2. Delta (mean |z| difference): k = 1 (column 1): d01 0.182 <
# d12 1.634; k = 2 (columns 1, 2): d01 0.879 < d12 0.956; k = 3 (all): d12 0.698 < d01 1.131.
X = np.array([[10.0, 100.0, 20.0], [1.0, 101.0, 11.5], [0.0, 110.0, 10.0]])


def test_consensus_over_the_sweep_keeps_and_drops_known_clades():
    sweep = maps.frequency_sweep_subsets(X.mean(axis=0), 1, 3, 1)
    assert as_lists(sweep) == [[1], [1, 2], [1, 2, 0]]
    trees = [maps.tree_clades(maps.ward_tree(maps.delta_distance_matrix(X[:, s]))) for s in sweep]
    assert trees == [[frozenset({0, 1})], [frozenset({0, 1})], [frozenset({1, 2})]]
    # k = 1, 2, 3: {0, 1} in 2 of 3 trees is kept, {1, 2} (1 of 3) is not
    assert maps.consensus_clades(X, sweep, maps.delta_distance_matrix, 0.5) == [(frozenset({0, 1}), 2 / 3)]
    # k = 2, 3: each clade in exactly half of the trees, neither kept (strict majority)
    later = maps.frequency_sweep_subsets(X.mean(axis=0), 2, 3, 1)
    assert maps.consensus_clades(X, later, maps.delta_distance_matrix, 0.5) == []
    # k = 3 alone: the tree on every column, {1, 2}
    full = maps.frequency_sweep_subsets(X.mean(axis=0), 3, 3, 1)
    assert maps.consensus_clades(X, full, maps.delta_distance_matrix, 0.5) == [(frozenset({1, 2}), 1.0)]


def test_consensus_subsets_by_setting():
    base = maps.MapSettings.from_config({"consensus_rounds": 7, "consensus_sweep_min": 0.25,
                                         "consensus_sweep_max": 0.5, "consensus_sweep_step": 0.25})
    means = np.arange(20.0)  # the largest mean is the last column
    assert as_lists(maps.consensus_subsets(means, base)) == [[19, 18, 17, 16, 15], list(range(19, 9, -1))]
    random = maps.consensus_subsets(means, replace(base, consensus="random"))
    assert len(random) == 7 and {s.size for s in random} == {10}
    with pytest.raises(ValueError, match="sweep or random"):
        maps.consensus_subsets(means, replace(base, consensus="bootstrap"))


def test_corpus_maps_summary_records_the_sweep():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.dirichlet(np.r_[np.full(10, 8.0), np.ones(10)], 6),
                   rng.dirichlet(np.r_[np.ones(10), np.full(10, 8.0)], 6)])
    authors = ["A"] * 6 + ["B"] * 6
    settings = maps.MapSettings.from_config({"consensus_sweep_min": "0.5", "consensus_sweep_step": "0.25"})
    result = maps.corpus_maps(X, np.arange(12), authors, [""] * 12, settings, kl=False)
    summary = result.summary
    assert summary["consensus"] == "sweep" and summary["consensus_columns"] == [10, 15, 20]
    assert summary["consensus_trees"] == 3
    kept = result.edges[result.edges["Target"].str.startswith("clade")]["Weight"]
    assert summary["consensus_support_mean"] == pytest.approx(kept.mean())
    # the two styles' documents are a clade in every tree of the sweep
    weights = result.edges.set_index("Target")["Weight"]
    assert summary["consensus_clades"] >= 2 and (weights[weights.index.str.startswith("clade")] > 0.5).all()


def test_consensus_support_of_the_kept_clades():
    clades = [(frozenset({0, 1, 2}), 1.0), (frozenset({0, 1}), 0.6), (frozenset({3, 4}), 0.8)]
    assert maps.consensus_support(clades) == {"consensus_clades_in_every_tree": 1,
                                              "consensus_support_mean": pytest.approx(0.8)}
    assert maps.consensus_support([]) == {"consensus_clades_in_every_tree": 0}
