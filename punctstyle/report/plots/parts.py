"""Figures of the parts of a book against the whole (a descriptive analysis,
:mod:`punctstyle.descriptive.parts`): the parts' KL divergences to three references and the
share of parts closer to their own book or author, by part size.

Figure functions take the analysis tables and return a Figure; no file I/O (see
:mod:`punctstyle.report.plots.base`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.report.plots.base import (
    BASELINE_COLOUR,
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
