"""Tests of the corpus maps (punctstyle.descriptive.maps) and their figures."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import pdist, squareform

from punctstyle.descriptive import maps
from punctstyle.report.plots.maps import dendrogram_figure, scatter_map


def two_styles(n_each: int = 12, d: int = 30, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two invented styles: distributions over ``d`` cells peaked on opposite halves."""
    rng = np.random.default_rng(seed)
    base = np.ones(d)
    first, second = base.copy(), base.copy()
    first[: d // 2] += 6.0
    second[d // 2 :] += 6.0
    rows = np.vstack([rng.dirichlet(first * 20, n_each), rng.dirichlet(second * 20, n_each)])
    return rows, np.array(["Alpha"] * n_each + ["Beta"] * n_each)


@pytest.mark.parametrize("distance", [maps.kl_distance_matrix, maps.delta_distance_matrix])
def test_two_well_separated_styles_give_two_clusters(distance):
    X, authors = two_styles()
    clusters = maps.tree_clusters(maps.ward_tree(distance(X)), 2)
    assert len(set(clusters[authors == "Alpha"])) == 1 and len(set(clusters[authors == "Beta"])) == 1
    assert clusters[0] != clusters[-1]
    for coordinates in (maps.classical_mds(distance(X))[0], maps.pca_coordinates(X)[0]):
        assert np.sign(coordinates[authors == "Alpha", 0]).tolist().count(np.sign(coordinates[0, 0])) == 12
        assert (np.sign(coordinates[authors == "Beta", 0]) == -np.sign(coordinates[0, 0])).all()


def test_consensus_tree_keeps_both_styles_and_writes_edges():
    X, authors = two_styles()
    subsets = maps.random_column_subsets(X.shape[1], 20, 0.5, np.random.default_rng(1))
    clades = maps.consensus_clades(X, subsets, maps.delta_distance_matrix)
    alpha, beta = frozenset(range(12)), frozenset(range(12, 24))
    support = dict(clades)
    assert support[alpha] == 1.0 and support[beta] == 1.0
    assert all(s >= 0.5 for _, s in clades)
    labels = [f"{a}{i}" for i, a in enumerate(authors)]
    edges = maps.consensus_edges(clades, labels)
    assert list(edges.columns) == ["Source", "Target", "Weight"]
    names = {clade: f"clade{k}" for k, (clade, _) in enumerate(clades)}
    assert edges.set_index("Target").loc[names[alpha], "Source"] == maps.ROOT
    leaf_parent = edges.set_index("Target").loc["Alpha0", "Source"]
    assert leaf_parent.startswith("clade") and 0 in next(c for c, n in names.items() if n == leaf_parent)
    assert len(edges) == len(clades) + len(labels)


def test_classical_mds_recovers_euclidean_distances_and_pca_shares():
    points = np.random.default_rng(2).normal(size=(15, 2))
    D = squareform(pdist(points))
    coordinates, share = maps.classical_mds(D, 2)
    assert np.allclose(squareform(pdist(coordinates)), D, atol=1e-8)
    assert share.sum() == pytest.approx(1.0)
    _, variance = maps.pca_coordinates(np.c_[points, points[:, 0] * 2], 3)
    assert variance.sum() == pytest.approx(1.0) and variance[2] == pytest.approx(0.0, abs=1e-12)


def test_kl_matrix_fills_empty_support_and_labels_are_short():
    P = np.array([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0], [0.4, 0.6, 0.0]])
    D = maps.kl_distance_matrix(P)
    assert np.isfinite(D).all() and (np.diag(D) == 0).all() and D[0, 1] == D.max()
    names, means = maps.author_means(np.array([[1.0], [3.0], [5.0]]), ["b", "a", "b"])
    assert names.tolist() == ["a", "b"] and means.ravel().tolist() == [3.0, 3.0]
    assert maps.short_label("Austen, Jane", "Pride and Prejudice", 5) == "Austen: Pride..."
    assert maps.short_label("Homer", "") == "Homer"


def test_map_figures_draw_with_many_authors():
    rng = np.random.default_rng(3)
    authors = np.array([f"Author {i:02d}, Someone" for i in rng.integers(0, 60, 120)])
    fig = scatter_map(rng.normal(size=(120, 2)), authors, "PCA " * 50, "PC1", "PC2")
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert len(labels) == 11 and labels[0].startswith("other authors")
    X = rng.normal(size=(40, 5))
    fig = dendrogram_figure(maps.ward_tree(maps.delta_distance_matrix(X)), [f"leaf {i}" for i in range(40)],
                            authors[:40], "Ward")
    assert len(fig.axes[0].get_yticklabels()) == 40


def test_corpus_maps_of_two_styles_documents_and_authors_level():
    X, authors = two_styles()
    settings = maps.MapSettings.from_config({"max_leaves": 100})
    result = maps.corpus_maps(X, np.arange(24), authors, ["A title"] * 24, settings, kl=True)
    assert result.summary["nearest_neighbour_same_author_delta"] == 1.0
    assert result.summary["ward_delta_purity"] == 1.0 and result.summary["ward_kl_purity"] == 1.0
    assert result.summary["tree_level"] == "documents" and len(result.leaf_labels) == 24
    assert {"pca1", "mds_delta2", "mds_kl1"} <= set(result.coordinates.columns)
    assert result.edges["Target"].is_unique
    fewer = maps.MapSettings.from_config({"max_leaves": 5, "consensus": "random", "consensus_rounds": 4})
    by_author = maps.corpus_maps(X, np.arange(24), authors, [""] * 24, fewer, kl=False)
    assert by_author.summary["tree_level"] == "authors" and by_author.leaf_labels == ["Alpha", "Beta"]
    assert "mds_kl1" not in by_author.coordinates.columns


def test_author_level_dendrogram_takes_the_documents_colours():
    authors = ["Zed"] * 5 + ["Amy"] + ["Bob"]
    names, means = maps.author_means(np.arange(21, dtype=float).reshape(7, 3) ** 1.5, authors)
    fig = dendrogram_figure(maps.ward_tree(maps.delta_distance_matrix(means)), list(names), list(names), "t",
                            top_k=1, document_authors=authors)
    colours = {t.get_text(): t.get_color() for t in fig.axes[0].get_yticklabels()}
    assert colours["Zed"] != colours["Amy"] and colours["Amy"] == colours["Bob"]
