"""Maps of the corpus: how the texts group (stylo's cluster analysis, MDS, PCA and bootstrap
consensus trees; faststylometry's PCA plots).

For documents with feature rows ``X`` (n, d):

* **PCA** (:func:`pca_coordinates`): the columns z-scored over the documents
  (``z_ij = (x_ij - mean_j) / sd_j``, a constant column left at 0), then the singular value
  decomposition ``Z = U S V^T``; coordinates ``U_k S_k`` of the first ``k`` components and
  their share of the variance ``S_k^2 / sum S^2``.
* **Distances** (both from :mod:`punctstyle.distances`): the symmetrised KL divergence of section 2.4,
  ``D_ij = (d_KL(p_i, p_j) + d_KL(p_j, p_i)) / 2`` on a distribution feature
  (:func:`kl_distance_matrix`; pairs with an empty common support, NaN, get the largest finite
  distance), and Burrows' Delta ``D_ij = (1/d) sum_k |z_ik - z_jk|`` on z-scores
  (:func:`delta_distance_matrix`).
* **Classical MDS** (:func:`classical_mds`, Torgerson): no library: the squared distances
  double-centred, ``B = -1/2 J D^2 J`` with ``J = I - 11^T / n``, eigen-decomposed
  (``numpy.linalg.eigh``); coordinates ``v_k sqrt(lambda_k)`` of the ``k`` largest positive
  eigenvalues.
* **Dendrogram** (:func:`ward_tree`): Ward linkage (stylo's default) of a distance matrix,
  :func:`scipy.cluster.hierarchy.linkage` on the condensed matrix (Ward's update assumes
  Euclidean distances; as in stylo, it is applied to Delta and KL distances as they are).
* **Bootstrap consensus tree** (:func:`consensus_clades`): for each of several column
  subsets, the Ward tree of the subset's distances; a clade (the set of leaves under a node)
  is kept when it appears in at least ``strength`` of the trees and in more than half of them
  (stylo's consensus strength, 0.5, as a strict majority, so the kept clades nest). The
  subsets are stylo's sweep (:func:`frequency_sweep_subsets`, ``maps.consensus: sweep``): the
  columns ordered by decreasing corpus-wide mean, one tree on the first ``k`` of them for
  ``k = k_min, k_min + k_step, ..., k_max`` (stylo's ``mfw.min``, ``mfw.incr``, ``mfw.max``
  over the most frequent words), or random column subsets (:func:`random_column_subsets`,
  ``maps.consensus: random``). :func:`consensus_edges` writes the tree as an
  edge list ``Source, Target, Weight`` for network tools (Gephi): each clade and each leaf
  hangs from the smallest kept clade holding it (or ``root``), weight the child's support.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from punctstyle.corpus.tables import feature_matrix
from punctstyle.corpus.words import select_vocabulary
from punctstyle.descriptive.map_families import WORDS, family_features
from punctstyle.distances import column_zscores, delta, symmetrised_kl
from punctstyle.settings import load_settings

ROOT = "root"


def pca_coordinates(X: np.ndarray, k: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``(U_k S_k, S_k^2 / sum S^2)``: the documents on the first ``k`` principal components
    of the z-scored columns (:func:`punctstyle.distances.column_zscores`), and each component's
    share of the variance."""
    Z = column_zscores(X)
    U, S, _ = np.linalg.svd(Z, full_matrices=False)
    k = min(k, S.size)
    total = float((S**2).sum())
    share = (S[:k] ** 2) / total if total > 0 else np.zeros(k)
    return U[:, :k] * S[:k], share


def classical_mds(D: np.ndarray, k: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Torgerson's classical MDS: ``B = -1/2 J D^2 J``, ``J = I - 11^T / n``; coordinates
    ``v_k sqrt(lambda_k)`` of the ``k`` largest eigenvalues (negative ones give 0), and the
    eigenvalues' share ``lambda_k / sum_{lambda > 0} lambda``."""
    D = np.asarray(D, dtype=np.float64)
    n = D.shape[0]
    J = np.eye(n) - 1.0 / n
    B = -0.5 * J @ (D**2) @ J
    values, vectors = np.linalg.eigh((B + B.T) / 2)
    order = np.argsort(values)[::-1][:k]
    top = np.clip(values[order], 0.0, None)
    positive = values[values > 0].sum()
    return vectors[:, order] * np.sqrt(top), top / positive if positive > 0 else np.zeros(top.size)


def kl_distance_matrix(P: np.ndarray) -> np.ndarray:
    """``(d_KL(p_i, p_j) + d_KL(p_j, p_i)) / 2`` (:func:`punctstyle.distances.symmetrised_kl`);
    non-finite entries (empty common support) become the largest finite one; diagonal 0."""
    D = symmetrised_kl(np.asarray(P, np.float64))
    finite = np.isfinite(D)
    D = np.where(finite, D, D[finite].max() if finite.any() else 0.0)
    np.fill_diagonal(D, 0.0)
    return D


def delta_distance_matrix(X: np.ndarray) -> np.ndarray:
    """Burrows' Delta between documents: ``(1/d) sum_k |z_ik - z_jk|`` on the columns
    z-scored over the documents (:func:`punctstyle.distances.delta`, symmetric as computed)."""
    Z = column_zscores(X)
    return delta(Z, Z)


def ward_tree(D: np.ndarray) -> np.ndarray:
    """Ward linkage matrix of a symmetric distance matrix (scipy's ``linkage``, ``method="ward"``)."""
    D = np.asarray(D, dtype=np.float64)
    return linkage(squareform((D + D.T) / 2.0, checks=False), method="ward")


def tree_clusters(Z: np.ndarray, n_clusters: int) -> np.ndarray:
    """Cluster of each leaf when the tree is cut into ``n_clusters`` (``fcluster``, ``maxclust``)."""
    return fcluster(Z, t=n_clusters, criterion="maxclust")


def tree_clades(Z: np.ndarray) -> list[frozenset[int]]:
    """The clade (set of leaves) under every internal node of a linkage matrix, the root's
    (every leaf) left out."""
    n = Z.shape[0] + 1
    members: list[frozenset[int]] = [frozenset([i]) for i in range(n)]
    for a, b, *_ in Z:
        members.append(members[int(a)] | members[int(b)])
    return members[n:-1]


def random_column_subsets(n_columns: int, n_rounds: int, fraction: float, rng: np.random.Generator) -> list[np.ndarray]:
    """``n_rounds`` random subsets of ``max(2, round(fraction * d))`` columns (sorted)."""
    size = min(n_columns, max(2, int(round(fraction * n_columns))))
    return [np.sort(rng.choice(n_columns, size=size, replace=False)) for _ in range(n_rounds)]


def round_half_up(x: float) -> int:
    """``floor(x + 1/2)``: the nearest integer, halves rounded up (Python's ``round`` rounds
    them to even)."""
    return int(np.floor(x + 0.5))


def sweep_counts(n_columns: int, low: float, high: float, step: float) -> tuple[int, int, int]:
    """The sweep's fractions of the ``d = n_columns`` columns as counts ``(k_min, k_max, k_step)``:
    ``k_min = max(1, [low d])``, ``k_max = min(d, max(k_min, [high d]))``,
    ``k_step = max(1, [step d])``, ``[x]`` rounded half up (:func:`round_half_up`); e.g.
    ``d = 500``, ``(0.1, 1, 0.1)`` -> ``(50, 500, 50)``."""
    k_min = max(1, round_half_up(low * n_columns))
    k_max = min(n_columns, max(k_min, round_half_up(high * n_columns)))
    return min(k_min, n_columns), k_max, max(1, round_half_up(step * n_columns))


def frequency_sweep_subsets(column_means: np.ndarray, k_min: int, k_max: int, k_step: int) -> list[np.ndarray]:
    """Stylo's bootstrap consensus sweep over the most frequent columns: with the ``d`` columns
    ordered by decreasing mean ``m_j`` (ties by index: ``o = argsort`` of ``(-m_j, j)``), one
    subset ``o[:k]`` (in that order) for each ``k = k_min, k_min + k_step, ... <= k_max``, each
    ``k`` capped at ``d`` (``min(k, d)``) and a repeated ``k`` kept once. E.g. means
    ``(0.1, 0.4, 0.4, 0.2)``, ``k`` 1 to 6 step 2 -> ``[1]``, ``[1, 2, 3]``, ``[1, 2, 3, 0]``."""
    means = np.asarray(column_means, dtype=np.float64)
    if k_min < 1 or k_step < 1:
        raise ValueError(f"the sweep needs k_min >= 1 and k_step >= 1 (got {k_min}, {k_step})")
    order = np.lexsort((np.arange(means.size), -means))
    ks = np.unique(np.minimum(np.arange(k_min, max(k_min, k_max) + 1, k_step), means.size))
    return [order[:k] for k in ks if k > 0]


def consensus_clades(
    X: np.ndarray,
    subsets: Sequence[np.ndarray],
    distance: Callable[[np.ndarray], np.ndarray],
    strength: float = 0.5,
) -> list[tuple[frozenset[int], float]]:
    """``(clade, support)`` of the clades found in at least ``strength`` of the Ward trees of
    ``distance(X[:, subset])`` over ``subsets`` and in more than half of them (a strict
    majority: two clades that conflict cannot both be in one tree, so at most one of them is
    kept; at exactly half both could be); largest clades first."""
    counts: Counter[frozenset[int]] = Counter()
    for columns in subsets:
        counts.update(tree_clades(ward_tree(distance(np.asarray(X)[:, columns]))))
    rounds = max(1, len(subsets))
    kept = [(clade, count / rounds) for clade, count in counts.items()
            if count / rounds >= strength and 2 * count > rounds]
    return sorted(kept, key=lambda item: (-len(item[0]), sorted(item[0])))


def consensus_edges(clades: Sequence[tuple[frozenset[int], float]], leaf_labels: Sequence[str]) -> pd.DataFrame:
    """The consensus tree as ``Source, Target, Weight`` edges: clade ``k`` is node
    ``clade<k>`` (in the order given), leaves are their labels; every node hangs from the
    smallest clade holding it, else from ``root``; weight: the child's support (1 for a leaf)."""
    nodes = [(clade, f"clade{k}", support) for k, (clade, support) in enumerate(clades)]

    def parent(members: frozenset[int], own: str) -> str:
        holders = [(len(c), name) for c, name, _ in nodes if name != own and members < c]
        return min(holders)[1] if holders else ROOT

    rows = [(parent(clade, name), name, float(support)) for clade, name, support in nodes]
    rows += [(parent(frozenset([i]), ""), str(label), 1.0) for i, label in enumerate(leaf_labels)]
    return pd.DataFrame(rows, columns=["Source", "Target", "Weight"])


def author_means(X: np.ndarray, authors: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """``(authors, mean row per author)``, authors sorted."""
    authors = np.asarray(authors, dtype=object)
    names, inverse = np.unique(authors.astype(str), return_inverse=True)
    sums = np.zeros((names.size, np.asarray(X).shape[1]))
    np.add.at(sums, inverse, np.asarray(X, dtype=np.float64))
    return names.astype(object), sums / np.bincount(inverse)[:, None]


def short_label(author: str, title: str = "", width: int = 18) -> str:
    """A leaf label: the author's surname (before the first comma), then the title's first
    ``width`` characters (``...`` when cut)."""
    surname = str(author).split(",")[0].strip()
    title = str(title or "").strip()
    if not title:
        return surname
    return f"{surname}: {title[:width]}{'...' if len(title) > width else ''}"


# --------------------------------------------------------------------------- the workflow's job


@dataclass(frozen=True)
class MapSettings:
    """The workflow's ``maps`` block: legend size, leaf limit, the consensus's subsets
    (``consensus``: ``sweep`` over the most frequent columns, fractions ``consensus_sweep_min``
    to ``consensus_sweep_max`` by ``consensus_sweep_step`` of the columns, or ``random``:
    ``consensus_rounds`` subsets of ``consensus_fraction`` of the columns), its strength, the
    seed of the random subsets."""

    top_k_authors: int
    max_leaves: int
    consensus_rounds: int
    consensus_fraction: float
    consensus_strength: float
    seed: int
    consensus: str
    consensus_sweep_min: float
    consensus_sweep_max: float
    consensus_sweep_step: float

    SECTION: ClassVar[tuple[str, ...]] = ("maps",)

    @classmethod
    def from_config(cls, block: Mapping[str, Any]) -> MapSettings:
        """From the ``maps`` block (:func:`punctstyle.settings.load_settings`)."""
        return load_settings(cls, block)


@dataclass(frozen=True)
class CorpusMaps:
    """Everything drawn and written for one family: ``coordinates`` (one row per document:
    ``book_id``, ``author``, ``pca1``, ``pca2``, ``mds_delta1``, ``mds_delta2``, and
    ``mds_kl1``, ``mds_kl2`` when KL applies), the Ward ``tree`` of the dendrogram's
    ``leaf_labels``/``leaf_authors`` (documents, or author means when there are more than
    ``max_leaves`` documents), the consensus ``edges`` and a ``summary``."""

    coordinates: pd.DataFrame
    tree: np.ndarray
    leaf_labels: list[str]
    leaf_authors: list[str]
    edges: pd.DataFrame
    summary: dict[str, Any]


def nearest_neighbour_agreement(D: np.ndarray, authors: Sequence[Any]) -> float:
    """Share of documents whose nearest other document (smallest ``D_ij``, ``j != i``) has the
    same author."""
    D = np.array(D, dtype=np.float64)
    np.fill_diagonal(D, np.inf)
    authors = np.asarray(authors, dtype=object)
    return float(np.mean(authors[np.argmin(D, axis=1)] == authors))


def cluster_purity(clusters: np.ndarray, authors: Sequence[Any]) -> float:
    """``(1/n) sum_clusters max_a |cluster & a|``: the share of documents in their cluster's
    majority author."""
    frame = pd.DataFrame({"cluster": clusters, "author": np.asarray(authors, dtype=str)})
    return float(frame.groupby(["cluster", "author"]).size().groupby("cluster").max().sum() / len(frame))


def consensus_subsets(column_means: np.ndarray, settings: MapSettings) -> list[np.ndarray]:
    """The consensus tree's column subsets: ``sweep`` -> :func:`frequency_sweep_subsets` of the
    columns' corpus-wide means with the :func:`sweep_counts` of the settings' fractions;
    ``random`` -> :func:`random_column_subsets` (``consensus_rounds``, ``consensus_fraction``,
    seeded by ``seed``)."""
    d = int(np.asarray(column_means).size)
    if settings.consensus == "sweep":
        counts = sweep_counts(d, settings.consensus_sweep_min, settings.consensus_sweep_max,
                              settings.consensus_sweep_step)
        return frequency_sweep_subsets(column_means, *counts)
    if settings.consensus == "random":
        rng = np.random.default_rng(settings.seed)
        return random_column_subsets(d, settings.consensus_rounds, settings.consensus_fraction, rng)
    raise ValueError(f"maps.consensus must be sweep or random, not {settings.consensus!r}")


def consensus_support(clades: Sequence[tuple[frozenset[int], float]]) -> dict[str, float | int]:
    """The kept clades' support: ``consensus_support_mean`` (``(1/m) sum s_c`` over the ``m``
    kept clades, left out when none is kept) and ``consensus_clades_in_every_tree`` (``s_c = 1``)."""
    support = np.array([s for _, s in clades], dtype=np.float64)
    out: dict[str, float | int] = {"consensus_clades_in_every_tree": int(np.sum(support >= 1.0))}
    if support.size:
        out["consensus_support_mean"] = float(support.mean())
    return out


def corpus_maps(
    X: np.ndarray,
    book_ids: Sequence[int],
    authors: Sequence[Any],
    titles: Sequence[Any],
    settings: MapSettings,
    kl: bool,
) -> CorpusMaps:
    """PCA, MDS on Delta (and KL when ``kl``: ``X`` a distribution feature), the Ward dendrogram
    on Delta, the bootstrap consensus tree on Delta (:func:`consensus_subsets`), and the
    summary: variance shares, nearest-neighbour agreement with the author (Delta, KL) and the
    purity of the Ward tree cut into as many clusters as authors."""
    X = np.asarray(X, dtype=np.float64)
    authors = np.asarray(authors, dtype=object).astype(str)
    n_authors = int(np.unique(authors).size)
    pca, pca_share = pca_coordinates(X, 2)
    delta = delta_distance_matrix(X)
    mds_delta, delta_share = classical_mds(delta, 2)
    frame = pd.DataFrame({"book_id": np.asarray(book_ids, dtype=np.int64), "author": authors})
    frame[["pca1", "pca2"]] = _two_columns(pca)
    frame[["mds_delta1", "mds_delta2"]] = _two_columns(mds_delta)
    tree_all = ward_tree(delta)
    summary: dict[str, Any] = {
        "n_documents": int(X.shape[0]), "n_columns": int(X.shape[1]), "n_authors": n_authors,
        "pca_variance_share": [float(v) for v in pca_share],
        "mds_delta_eigenvalue_share": [float(v) for v in delta_share],
        "nearest_neighbour_same_author_delta": nearest_neighbour_agreement(delta, authors),
        "ward_delta_purity": cluster_purity(tree_clusters(tree_all, n_authors), authors),
    }
    if kl:
        kl_matrix = kl_distance_matrix(X)
        mds_kl, kl_share = classical_mds(kl_matrix, 2)
        frame[["mds_kl1", "mds_kl2"]] = _two_columns(mds_kl)
        summary["mds_kl_eigenvalue_share"] = [float(v) for v in kl_share]
        summary["nearest_neighbour_same_author_kl"] = nearest_neighbour_agreement(kl_matrix, authors)
        summary["ward_kl_purity"] = cluster_purity(tree_clusters(ward_tree(kl_matrix), n_authors), authors)
    if X.shape[0] <= settings.max_leaves:
        leaves, leaf_authors = [short_label(a, t) for a, t in zip(authors, titles, strict=True)], authors.tolist()
        tree, level, leaf_X = tree_all, "documents", X
    else:
        names, leaf_X = author_means(X, authors)
        leaves, leaf_authors = [short_label(a) for a in names], names.astype(str).tolist()
        tree, level = ward_tree(delta_distance_matrix(leaf_X)), "authors"
    subsets = consensus_subsets(X.mean(axis=0), settings)
    clades = consensus_clades(leaf_X, subsets, delta_distance_matrix, settings.consensus_strength)
    summary.update(tree_level=level, n_leaves=len(leaves), consensus=settings.consensus,
                   consensus_trees=len(subsets), consensus_columns=sorted({int(c.size) for c in subsets}),
                   consensus_clades=len(clades), **consensus_support(clades))
    return CorpusMaps(frame, tree, leaves, leaf_authors, consensus_edges(clades, _unique(leaves)), summary)


def family_matrix(family: str, tables: Mapping[str, pd.DataFrame], words: Any = None, k: int = 500) -> np.ndarray:
    """The documents' rows for a family: the feature set's columns side by side, or (``words``)
    the relative frequencies of the ``k`` most frequent words over every document of the corpus
    word matrix (:func:`punctstyle.corpus.words.select_vocabulary`; an unsupervised map
    chooses its words on every document, as stylo does)."""
    first = tables[family_features(family)[0]]
    if family == WORDS:
        freqs = words.relative_frequencies(first["book_id"].to_numpy())
        return freqs[:, select_vocabulary(freqs, k).columns].toarray()
    return np.hstack([feature_matrix(tables[f], f) for f in family_features(family)])


def _two_columns(coordinates: np.ndarray) -> np.ndarray:
    """Coordinates padded with zeros to two columns (a one-column map of two documents)."""
    out = np.zeros((coordinates.shape[0], 2))
    out[:, : coordinates.shape[1]] = coordinates[:, :2]
    return out


def _unique(labels: Sequence[str]) -> list[str]:
    """Labels made unique for the edge list (a repeated label gets `` #2``, `` #3`` ...)."""
    seen: Counter[str] = Counter()
    out = []
    for label in labels:
        seen[label] += 1
        out.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return out


__all__ = [
    "CorpusMaps",
    "MapSettings",
    "WORDS",
    "cluster_purity",
    "family_matrix",
    "corpus_maps",
    "nearest_neighbour_agreement",
    "ROOT",
    "author_means",
    "classical_mds",
    "consensus_clades",
    "consensus_edges",
    "consensus_subsets",
    "consensus_support",
    "frequency_sweep_subsets",
    "round_half_up",
    "sweep_counts",
    "delta_distance_matrix",
    "kl_distance_matrix",
    "pca_coordinates",
    "random_column_subsets",
    "short_label",
    "tree_clades",
    "tree_clusters",
    "ward_tree",
]
