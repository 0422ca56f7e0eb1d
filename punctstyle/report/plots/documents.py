"""Per-document figures: f1 and f5 bar charts (figure ``feature_freq``) and the f1-versus-f1
scatter plot of two books (figure ``scatter_plot_freq_pun``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from punctstyle.marks import MARK_COLOURS, MARK_NAMES, MARKS, N_GAP_BINS, N_MARKS
from punctstyle.report.plots.base import (
    MARK_LEGEND_WIDTH,
    NEUTRAL_COLOUR,
    new_figure,
    set_title,
    set_xlabel,
    set_ylabel,
)


def _vector(values: Any, size: int, name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.shape != (size,):
        raise ValueError(f"{name} must be a vector of {size} values, got shape {arr.shape}")
    return arr


def plot_f1_bars(f1: Any, title: str | None = None) -> Figure:
    """Bar chart of one document's punctuation-mark frequencies f^{1,k} (one coloured bar per mark)."""
    values = _vector(f1, N_MARKS, "f1")
    fig, ax = new_figure(figsize=(5.0, 3.5))
    ax.bar(np.arange(N_MARKS), values, color=list(MARK_COLOURS), edgecolor="none")
    ax.set_xticks(np.arange(N_MARKS), list(MARKS))
    ax.set_xlabel("punctuation mark")
    ax.set_ylabel("frequency $f^1$")
    ax.set_ylim(0.0, max(float(np.nanmax(values)) * 1.1, 0.05) if values.size else 1.0)
    if title:
        set_title(ax, title)
    return fig


def plot_f5_bars(f5: Any, title: str | None = None) -> Figure:
    """Bar chart of one document's f^{5,k}: frequency of the number of words between successive
    marks, bins 0 .. 38 and the overflow bin ``39+``."""
    values = _vector(f5, N_GAP_BINS, "f5")
    fig, ax = new_figure(figsize=(6.0, 3.5))
    ax.bar(np.arange(N_GAP_BINS), values, color=NEUTRAL_COLOUR, edgecolor="none")
    ticks = np.arange(0, N_GAP_BINS, 5)
    labels = [str(t) for t in ticks]
    ticks = np.append(ticks, N_GAP_BINS - 1)
    labels.append(f"{N_GAP_BINS - 1}+")
    ax.set_xticks(ticks, labels)
    ax.set_xlim(-0.8, N_GAP_BINS - 0.2)
    ax.set_xlabel("number of words between successive punctuation marks")
    ax.set_ylabel("frequency $f^5$")
    if title:
        set_title(ax, title)
    return fig


def plot_f1_scatter(f1_x: Any, f1_y: Any, label_x: str = "document 1", label_y: str = "document 2",
                    title: str | None = None) -> Figure:
    """f^1 of one book against f^1 of another: one marker per mark in its colour, grey identity line.

    A mark above the line is used more often in the book on the vertical axis. The legend
    sits outside the axes, to the right, so that it hides no marker.
    """
    x = _vector(f1_x, N_MARKS, "f1_x")
    y = _vector(f1_y, N_MARKS, "f1_y")
    fig, ax = new_figure(figsize=(6.4, 4.5))
    top = max(float(np.nanmax(np.concatenate([x, y]))), 0.01) * 1.08
    ax.plot([0.0, top], [0.0, top], color="grey", linewidth=1.0, zorder=1)
    for code in range(N_MARKS):
        ax.scatter(x[code], y[code], color=MARK_COLOURS[code], s=50, zorder=2,
                   label=f"{MARKS[code]} {MARK_NAMES[code]}", edgecolors="none")
    ax.set_xlim(0.0, top)
    ax.set_ylim(0.0, top)
    ax.set_aspect("equal")
    set_xlabel(ax, label_x, prefix="$f^1$: ", reserve=MARK_LEGEND_WIDTH)
    set_ylabel(ax, label_y, prefix="$f^1$: ")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    if title:
        set_title(ax, title, reserve=MARK_LEGEND_WIDTH)
    return fig
