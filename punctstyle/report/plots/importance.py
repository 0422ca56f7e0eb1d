"""Figures of the f3 importance (a training analysis, :mod:`punctstyle.training.importance`):
the permutation-importance heat map of the f3 entries and the top-k accuracy.

Figure functions take the analysis tables and return a Figure; no file I/O (see
:mod:`punctstyle.report.plots.base`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.marks import N_MARKS
from punctstyle.report.plots.base import (
    mark_label,
    new_figure,
    set_suptitle,
    set_title,
    set_xlabel,
    set_ylabel,
)

METHOD_COLOURS: dict[str, str] = {"kl": "#9467bd", "mlp": "#d62728"}


def plot_importance_heatmaps(matrices: Mapping[int, np.ndarray], title: str) -> Figure:
    """One 10 x 10 panel per class size: mean permutation importance of f3 entry (first, second).

    A diverging colour scale centred on 0 (a negative importance: shuffling the entry helped).
    """
    sizes = sorted(matrices)
    fig, axes = new_figure(1, len(sizes), figsize=(4.6 * len(sizes), 4.4), squeeze=False)
    limit = max(float(np.nanmax(np.abs(m))) for m in matrices.values()) or 1.0
    labels = [mark_label(code) for code in range(N_MARKS)]
    for ax, n_classes in zip(axes[0], sizes, strict=True):
        image = ax.imshow(matrices[n_classes], cmap="RdBu_r", vmin=-limit, vmax=limit)
        ax.set_xticks(range(N_MARKS), labels)
        ax.set_yticks(range(N_MARKS), labels)
        set_xlabel(ax, "second mark")
        set_ylabel(ax, "first mark")
        nil = not np.abs(matrices[n_classes]).max() > 0
        set_title(ax, f"{n_classes} authors" + (" (every entry 0: no shuffle changed a prediction)" if nil else ""))
        fig.colorbar(image, ax=ax, shrink=0.8, label="accuracy drop")
    set_suptitle(fig, title)
    return fig


def plot_top_k_accuracy(table: pd.DataFrame, display: Mapping[str, str], title: str) -> Figure:
    """Test accuracy (mean, sd over seeds) versus k, one panel per class size, one line per method."""
    sizes = sorted(table["n_classes"].unique())
    fig, axes = new_figure(1, len(sizes), figsize=(4.2 * len(sizes), 3.8), squeeze=False)
    for ax, n_classes in zip(axes[0], sizes, strict=True):
        rows = table[table["n_classes"] == n_classes]
        for method, group in rows.groupby("method"):
            group = group.sort_values("k")
            ax.errorbar(group["k"], group["mean"], yerr=group["sd"].fillna(0.0), marker="o", capsize=3,
                        color=METHOD_COLOURS.get(method), label=display.get(method, method))
        ax.axhline(rows["baseline"].mean(), color="black", linestyle="--", linewidth=1, label="baseline")
        ax.set_xscale("log")
        ax.set_ylim(0, 1)
        set_xlabel(ax, "f3 entries kept (k, 100 = all)")
        set_ylabel(ax, "test accuracy")
        set_title(ax, f"{n_classes} authors")
        ax.legend(fontsize=8)
    set_suptitle(fig, title)
    return fig
