"""Maps of the corpus: how the texts group (stylo's cluster analysis, MDS, PCA and bootstrap
consensus trees; faststylometry's PCA plots).

For documents with feature rows ``X`` (n, d):

* **PCA** (:func:`pca_coordinates`): the columns z-scored over the documents
  (``z_ij = (x_ij - mean_j) / sd_j``, a constant column left at 0), then the singular value
  decomposition ``Z = U S V^T``; coordinates ``U_k S_k`` of the first ``k`` components and
  their share of the variance ``S_k^2 / sum S^2``.
* **Distances**: the symmetrised KL divergence of section 2.4,
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
* **Bootstrap consensus tree** (:func:`consensus_clades`): for each of several feature
  subsets (random column subsets, or the ``k`` most frequent words for several ``k`` as in
  stylo), the Ward tree of the subset's distances; a clade (the set of leaves under a node)
  is kept when it appears in at least ``strength`` of the trees (stylo's consensus strength,
  0.5: majority rule, so the kept clades nest). :func:`consensus_edges` writes the tree as an
  edge list ``Source, Target, Weight`` for network tools (Gephi): each clade and each leaf
  hangs from the smallest kept clade holding it (or ``root``), weight the child's support.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from punctstyle.divergence import pairwise_kl

ROOT = "root"


def zscore_columns(X: np.ndarray) -> np.ndarray:
    """``(x_ij - mean_j) / sd_j`` over the rows (``ddof = 1``; a constant column gives 0)."""
    X = np.asarray(X, dtype=np.float64)
    sd = X.std(axis=0, ddof=1) if X.shape[0] > 1 else np.zeros(X.shape[1])
    return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def pca_coordinates(X: np.ndarray, k: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``(U_k S_k, S_k^2 / sum S^2)``: the documents on the first ``k`` principal components
    of the z-scored columns, and each component's share of the variance."""
    Z = zscore_columns(X)
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
    """``(d_KL(p_i, p_j) + d_KL(p_j, p_i)) / 2`` (:func:`punctstyle.divergence.pairwise_kl`);
    non-finite entries (empty common support) become the largest finite one; diagonal 0."""
    K = pairwise_kl(np.asarray(P, np.float64), np.asarray(P, np.float64))
    D = (K + K.T) / 2.0
    finite = np.isfinite(D)
    D = np.where(finite, D, D[finite].max() if finite.any() else 0.0)
    np.fill_diagonal(D, 0.0)
    return D


def delta_distance_matrix(X: np.ndarray, max_cells: int = 16_000_000) -> np.ndarray:
    """Burrows' Delta between documents: ``(1/d) sum_k |z_ik - z_jk|`` on the columns
    z-scored over the documents (in blocks of rows of at most ``max_cells`` differences)."""
    Z = zscore_columns(X)
    n, d = Z.shape
    block = max(1, max_cells // max(1, n * d))
    D = np.empty((n, n))
    for a in range(0, n, block):
        D[a : a + block] = np.abs(Z[a : a + block, None, :] - Z[None, :, :]).sum(axis=2) / max(1, d)
    return (D + D.T) / 2.0


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


def consensus_clades(
    X: np.ndarray,
    subsets: Sequence[np.ndarray],
    distance: Callable[[np.ndarray], np.ndarray],
    strength: float = 0.5,
) -> list[tuple[frozenset[int], float]]:
    """``(clade, support)`` of the clades found in at least ``strength`` of the Ward trees of
    ``distance(X[:, subset])`` over ``subsets``; largest clades first."""
    counts: Counter[frozenset[int]] = Counter()
    for columns in subsets:
        counts.update(tree_clades(ward_tree(distance(np.asarray(X)[:, columns]))))
    rounds = max(1, len(subsets))
    kept = [(clade, count / rounds) for clade, count in counts.items() if count / rounds >= strength]
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


__all__ = [
    "ROOT",
    "author_means",
    "classical_mds",
    "consensus_clades",
    "consensus_edges",
    "delta_distance_matrix",
    "kl_distance_matrix",
    "pca_coordinates",
    "random_column_subsets",
    "short_label",
    "tree_clades",
    "tree_clusters",
    "ward_tree",
    "zscore_columns",
]
