"""Corpus-level figures: documents per author (figure ``hist_authors``) and the histograms of
punctuation-mark frequency f^{1,k}_i over the corpus (figure ``feature_dist``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.corpus.tables import feature_matrix
from punctstyle.marks import MARK_COLOURS, MARK_NAMES, MARKS, N_MARKS
from punctstyle.report.plots.base import NEUTRAL_COLOUR, integer_axis, new_figure, set_suptitle, set_title

F1_BIN_WIDTH: float = 0.01


def plot_documents_per_author(authors: Iterable[Any], title: str | None = None) -> Figure:
    """Histogram of the number of documents per author.

    ``authors``: one author label per document (missing labels are left out). The horizontal
    axis is the number of documents of an author (one bar per integer), the vertical axis
    the number of authors with that many documents.
    """
    labels = pd.Series(list(authors), dtype=object).dropna()
    counts = labels.value_counts().to_numpy(dtype=np.int64)
    fig, ax = new_figure(figsize=(6.0, 4.0))
    if counts.size:
        edges = np.arange(counts.min() - 0.5, counts.max() + 1.5, 1.0)
        ax.hist(counts, bins=edges, color=NEUTRAL_COLOUR, edgecolor="white", linewidth=0.5)
    integer_axis(ax.xaxis)
    integer_axis(ax.yaxis)
    ax.set_xlabel("number of documents per author")
    ax.set_ylabel("number of authors")
    set_title(ax, title if title else f"{counts.size} authors, {int(counts.sum())} documents")
    return fig


def plot_f1_histograms(f1: Any, bin_width: float = F1_BIN_WIDTH, title: str | None = None) -> Figure:
    """Ten panels, one per mark: histogram of f^{1,k}_i over the documents, bins of 0.01.

    Bar ``j`` of the panel of mark ``i`` counts the documents with
    ``j * 0.01 <= f^{1,k}_i < (j + 1) * 0.01``; the mean of ``{f^{1,k}_i}_k`` is written in
    the panel (three decimals, as in the paper's caption). ``f1``: (n_docs, 10) array.
    """
    values = np.asarray(f1, dtype=np.float64)
    if values.ndim != 2 or values.shape[1] != N_MARKS:
        raise ValueError(f"f1 must be an (n_docs, {N_MARKS}) array, got shape {values.shape}")
    n_bins = int(round(1.0 / bin_width))
    edges = np.linspace(0.0, n_bins * bin_width, n_bins + 1)
    fig, axes = new_figure(2, 5, figsize=(15.0, 6.0), squeeze=False)
    for code, ax in enumerate(axes.ravel()):
        column = values[:, code]
        column = column[np.isfinite(column)]
        counts, _ = np.histogram(column, bins=edges)
        ax.stairs(counts, edges, fill=True, color=MARK_COLOURS[code])
        top = float(column.max()) if column.size else 0.0
        ax.set_xlim(0.0, min(1.0, max(0.05, np.ceil(top / bin_width) * bin_width + bin_width)))
        mean = float(column.mean()) if column.size else float("nan")
        ax.text(0.97, 0.95, f"mean = {mean:.3f}", transform=ax.transAxes, ha="right", va="top", fontsize=9)
        ax.set_title(f"{MARKS[code]}  ({MARK_NAMES[code]})", fontsize=10)
        ax.set_xlabel("frequency")
        integer_axis(ax.yaxis)
        if code % 5 == 0:
            ax.set_ylabel("number of documents")
    if title:
        set_suptitle(fig, title)
    return fig


FIGURES: dict[str, Callable[[pd.DataFrame], Figure]] = {
    "documents_per_author": lambda table: plot_documents_per_author(table["author"]),
    "f1_histograms": lambda table: plot_f1_histograms(feature_matrix(table, "f1")),
}
"""The corpus family's figures: rule ``figures_corpus``'s output name (its PDF: ``<name>_pdf``) ->
the function drawing it from the corpus table ``corpus/f1.parquet``. The rule's job
(:func:`punctstyle.report.figure_jobs.corpus_figures`) draws every entry the rule declares, so a
figure of this family is added here, as two outputs of the rule and as its caption text."""
