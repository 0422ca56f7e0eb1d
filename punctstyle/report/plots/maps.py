"""Maps of the corpus (:mod:`punctstyle.descriptive.maps`): documents on two axes (PCA, MDS) and
Ward dendrograms. Data in, Figure out; no file I/O (see :mod:`punctstyle.report.plots.base`).

Label policy, so that the figures stay readable at 50+ authors: points are coloured by
author for the ``top_k`` authors with the most documents (one colour each, in the legend);
every other author's points are small and grey, with one legend entry "other authors (n)".
Dendrogram leaves are labelled with :func:`punctstyle.descriptive.maps.short_label` (surname and
the first characters of the title), their colour the author's as in the scatter plots, the
font shrinking with the number of leaves (at least 3 points).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy.cluster.hierarchy import dendrogram

from punctstyle.descriptive.maps import CorpusMaps
from punctstyle.report.plots.base import (
    legend_label,
    new_figure,
    plain_text,
    set_title,
    set_xlabel,
    set_ylabel,
)

AUTHOR_COLOURS: tuple[str, ...] = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#393b79",
    "#637939", "#843c39",
)
OTHER_COLOUR = "#b0b0b0"
TOP_K = 10


def author_colours(authors: Sequence[str], top_k: int = TOP_K) -> dict[str, str]:
    """A colour for each of the ``top_k`` authors with the most documents (ties by name)."""
    names, counts = np.unique(np.asarray(authors, dtype=str), return_counts=True)
    ranked = sorted(zip(names.tolist(), counts.tolist()), key=lambda item: (-item[1], item[0]))[:top_k]
    return {name: AUTHOR_COLOURS[i % len(AUTHOR_COLOURS)] for i, (name, _) in enumerate(ranked)}


def scatter_map(coordinates: np.ndarray, authors: Sequence[str], title: str, xlabel: str, ylabel: str,
                top_k: int = TOP_K) -> Figure:
    """Documents on two axes, coloured by author (module docstring's label policy)."""
    fig, ax = new_figure(figsize=(7.5, 5.0))
    authors = np.asarray(authors, dtype=str)
    colours = author_colours(authors, top_k)
    others = ~np.isin(authors, list(colours))
    if others.any():
        n_other = np.unique(authors[others]).size
        ax.scatter(coordinates[others, 0], coordinates[others, 1], s=8, color=OTHER_COLOUR, linewidths=0,
                   label=f"other authors ({n_other})")
    for name, colour in colours.items():
        mine = authors == name
        ax.scatter(coordinates[mine, 0], coordinates[mine, 1], s=18, color=colour, linewidths=0,
                   label=legend_label(fig, plain_text(name)))
    legend = ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    # the title and the x label fit the cell less the legend beside the axes (inches)
    legend_width = legend.get_window_extent(fig.canvas.get_renderer()).width / fig.dpi
    set_title(ax, plain_text(title), reserve=legend_width)
    set_xlabel(ax, xlabel, reserve=legend_width)
    set_ylabel(ax, ylabel)
    return fig


def dendrogram_figure(linkage_matrix: np.ndarray, leaf_labels: Sequence[str], leaf_authors: Sequence[str],
                      title: str, top_k: int = TOP_K, document_authors: Sequence[str] | None = None) -> Figure:
    """A Ward dendrogram drawn left to right, leaves labelled and coloured by author; the
    coloured authors are chosen on ``document_authors`` (the documents' authors, so that an
    author-level tree has the scatter maps' colours) when given, else on the leaves."""
    n = len(leaf_labels)
    height = min(60.0, max(4.0, 0.11 * n + 1.5))
    fig, ax = new_figure(figsize=(8.0, height))
    font = max(3.0, min(8.0, 700.0 / max(1, n)))
    result = dendrogram(linkage_matrix, ax=ax, orientation="left", labels=[plain_text(x) for x in leaf_labels],
                        leaf_font_size=font, color_threshold=0, above_threshold_color="#555555")
    colours = author_colours(leaf_authors if document_authors is None else document_authors, top_k)
    authors = np.asarray(leaf_authors, dtype=str)
    for label, leaf in zip(ax.get_yticklabels(), result["leaves"], strict=True):
        label.set_color(colours.get(authors[leaf], "#444444"))
    set_title(ax, plain_text(title))
    set_xlabel(ax, "Ward linkage height")
    return fig


def map_figures(maps: CorpusMaps, family_name: str, top_k: int = TOP_K) -> dict[str, Figure]:
    """The maps of one family that rule corpus_map draws (outputs ``pca``, ``mds_delta``,
    ``dendrogram``): PCA with each axis' share of the variance, classical MDS of Burrows' Delta
    and the Ward dendrogram of Delta. The KL map is drawn by rule corpus_map_kl
    (:func:`kl_map`), planned for the distribution families only: a family where KL does not
    apply has no KL map at all, rather than a placeholder shown as a figure."""
    coordinates, authors = maps.coordinates, maps.coordinates["author"]
    pca = list(maps.summary["pca_variance_share"]) + [0.0, 0.0]
    return {
        "pca": scatter_map(coordinates[["pca1", "pca2"]].to_numpy(), authors, f"PCA of the documents, {family_name}",
                           f"PC1 ({pca[0]:.0%} of the variance)", f"PC2 ({pca[1]:.0%})", top_k),
        "mds_delta": scatter_map(coordinates[["mds_delta1", "mds_delta2"]].to_numpy(), authors,
                                 f"Classical MDS of Burrows' Delta distances, {family_name}", "MDS 1", "MDS 2", top_k),
        "dendrogram": dendrogram_figure(
            maps.tree, maps.leaf_labels, maps.leaf_authors,
            f"Ward dendrogram of Burrows' Delta ({maps.summary['tree_level']}), {family_name}", top_k, authors),
    }


def kl_map(coordinates: pd.DataFrame, family_name: str, top_k: int = TOP_K) -> Figure:
    """Classical MDS of the symmetrised KL divergences (rule corpus_map_kl): ``coordinates`` is
    rule corpus_map's table (``author``, ``mds_kl1``, ``mds_kl2``) of a distribution family."""
    missing = [c for c in ("author", "mds_kl1", "mds_kl2") if c not in coordinates.columns]
    if missing:
        raise KeyError(f"map coordinates have no column {missing[0]!r}: KL does not apply to {family_name}")
    return scatter_map(coordinates[["mds_kl1", "mds_kl2"]].to_numpy(), coordinates["author"],
                       f"Classical MDS of symmetrised KL divergences, {family_name}", "MDS 1", "MDS 2", top_k)


__all__ = ["TOP_K", "author_colours", "dendrogram_figure", "kl_map", "map_figures", "scatter_map"]
