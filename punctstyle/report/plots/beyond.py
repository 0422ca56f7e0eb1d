"""Figures beyond the paper: f3 importance heat map and top-k accuracy; parts versus whole.

Figure functions take the analysis tables (:mod:`punctstyle.training.importance`,
:mod:`punctstyle.descriptive.parts`) and return a Figure; no file I/O (see :mod:`punctstyle.report.plots.base`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.marks import N_MARKS
from punctstyle.report.plots.base import (
    BASELINE_COLOUR,
    mark_label,
    new_figure,
    set_suptitle,
    set_title,
    set_xlabel,
    set_ylabel,
)

REFERENCE_LABELS: dict[str, str] = {
    "kl_rest": "rest of its own book",
    "kl_own_author": "author's other books (mean)",
    "kl_other_books": "other authors' books",
}
"""The three references of a part, in drawing order."""
REFERENCE_COLOURS: dict[str, str] = {"kl_rest": "#2ca02c", "kl_own_author": "#ff7f0e", "kl_other_books": BASELINE_COLOUR}
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


def plot_part_distributions(rows: pd.DataFrame, features: tuple[str, ...], title: str) -> Figure:
    """One panel per feature: box plots of the three divergences of a part, side by side for each p;
    one legend below the panels (off the boxes and whiskers)."""
    fig, axes = new_figure(1, len(features), figsize=(4.4 * len(features), 4.0), squeeze=False)
    part_counts = sorted(rows["n_parts"].unique())
    width = 0.8 / len(REFERENCE_LABELS)
    for ax, feature in zip(axes[0], features, strict=True):
        data = rows[rows["feature"] == feature]
        for r, (column, label) in enumerate(REFERENCE_LABELS.items()):
            values = [data.loc[data["n_parts"] == p, column].dropna().to_numpy() for p in part_counts]
            positions = np.arange(len(part_counts)) + (r - 1) * width
            boxes = ax.boxplot(values, positions=positions, widths=width * 0.9, showfliers=False,
                               patch_artist=True, manage_ticks=False)
            for patch in boxes["boxes"]:
                patch.set_facecolor(REFERENCE_COLOURS[column])
                patch.set_alpha(0.7)
            ax.plot([], [], color=REFERENCE_COLOURS[column], linewidth=6, label=label)
        ax.set_xticks(range(len(part_counts)), [str(p) for p in part_counts])
        set_xlabel(ax, "parts per book (p)")
        set_ylabel(ax, "KL divergence (reference, part)")
        set_title(ax, feature)
    # one legend below the panels, off the whiskers
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="outside lower center",
               ncols=len(REFERENCE_LABELS), fontsize=8, frameon=False)
    set_suptitle(fig, title)
    return fig


def plot_parts_by_size(summary: pd.DataFrame, title: str) -> Figure:
    """Share of parts closer to their own book (solid) or author (dashed) than to any other
    author's mean, versus the median part size in marks; one colour per feature. The legend
    sits right of the axes, off the lines."""
    fig, ax = new_figure(figsize=(6.4, 4.2))
    colours = dict(zip(sorted(summary["feature"].unique()), ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]))
    for feature, group in summary.groupby("feature"):
        group = group.sort_values("median_part_marks")
        ax.plot(group["median_part_marks"], group["share_closer_to_own_book"], marker="o", color=colours[feature],
                label=f"{feature}: own book")
        ax.plot(group["median_part_marks"], group["share_closer_to_own_author"], marker="s", linestyle="--",
                color=colours[feature], label=f"{feature}: own author")
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    set_xlabel(ax, "marks per part (median over books)")
    set_ylabel(ax, "share of parts closer than any other author's mean")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    set_title(ax, title)
    return fig
