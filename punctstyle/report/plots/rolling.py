"""Rolling attribution drawn along the text (Eder 2016's rolling plots): each slice's score
against the authors that win a slice, the slices' authors as a coloured strip, the change
points as vertical lines. Takes a :class:`punctstyle.attribution.rolling.RollingResult`; no
file I/O (see :mod:`punctstyle.report.plots.base`).

Label policy: one colour per author that wins at least one slice (at most
:data:`MAX_COLOURED` of them, by number of slices won); every other author is drawn thin and
grey, without a legend entry, so the figure stays readable with 50+ reference authors.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.attribution.rolling import PROBABILITY, RollingResult
from punctstyle.io import atomic_path
from punctstyle.report.plots.base import (
    close_figure,
    legend_label,
    new_figure,
    placeholder_figure,
    plain_text,
    set_title,
    set_xlabel,
    set_ylabel,
)

MAX_COLOURED = 10
AUTHOR_COLOURS: tuple[str, ...] = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#393b79",
)


def coloured_authors(slice_authors: Sequence[str], limit: int = MAX_COLOURED) -> list[str]:
    """The authors that win a slice, most slices first (ties by name), at most ``limit``."""
    names, counts = np.unique(np.asarray(slice_authors, dtype=str), return_counts=True)
    order = sorted(zip(names.tolist(), counts.tolist()), key=lambda item: (-item[1], item[0]))
    return [name for name, _ in order[:limit]]


def rolling_figure(result: RollingResult, title: str, true_changes: Sequence[float] = ()) -> Figure:
    """Scores along the text (x: slice centre in marks; y: probability, or distance where
    smaller is closer), a strip of the slices' authors above, the change points found
    (dashed) and, when given, the true ones (dotted)."""
    fig, (strip, ax) = new_figure(2, 1, figsize=(8.0, 4.5), height_ratios=[1, 6], sharex=True)
    x = result.centres
    values = np.asarray(result.scores.values, dtype=np.float64)
    authors = [str(a) for a in result.scores.authors]
    winners = result.slice_authors().astype(str)
    coloured = coloured_authors(winners)
    colour = {name: AUTHOR_COLOURS[i % len(AUTHOR_COLOURS)] for i, name in enumerate(coloured)}
    for j, name in enumerate(authors):
        if name not in colour:
            ax.plot(x, values[:, j], color="#c7c7c7", linewidth=0.5, zorder=1)
    for name in coloured:
        j = authors.index(name)
        ax.plot(x, values[:, j], color=colour[name], linewidth=1.6, zorder=2, label=legend_label(fig, name))
    half = result.step / 2.0
    for xi, name in zip(x, winners, strict=True):
        strip.axvspan(xi - half, xi + half, color=colour.get(name, "#7f7f7f"), linewidth=0)
    strip.set_yticks([])
    for axis in (strip, ax):
        for position in result.change_marks:
            axis.axvline(position, color="black", linestyle="--", linewidth=1.2, zorder=3)
        for position in true_changes:
            axis.axvline(position, color="#555555", linestyle=":", linewidth=1.2, zorder=3)
    ax.set_xlim(0, result.n_marks)
    kind = "probability P(author | slice)" if result.scores.kind == PROBABILITY else "distance (lower is closer)"
    set_ylabel(ax, kind)
    set_xlabel(ax, f"position in the text (marks; slices of {result.window} every {result.step})")
    set_title(strip, plain_text(title))
    if coloured:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return fig


METHOD_NAMES: dict[str, str] = {
    "kl_f3": "KL f3 (punctuation)",
    "delta_punct": "Delta f1..f6 (punctuation)",
    "delta_words": "Delta, words",
    "delta_both": "Delta, words + f1..f6",
}
METHOD_COLOURS: dict[str, str] = {"kl_f3": "#d62728", "delta_punct": "#ff7f0e", "delta_words": "#1f77b4",
                                  "delta_both": "#2ca02c"}


def collaborations_figure(summary: pd.DataFrame, title: str, step: int) -> Figure:
    """Two panels of grouped bars per collaboration kind, one bar per method (mean over seeds,
    error bar: sd): the share of slices attributed right, and the share of true changes found
    within one step (punctuation methods warm, word methods cool)."""
    fig, axes = new_figure(1, 2, figsize=(9.0, 3.8), sharey=True)
    kinds = list(dict.fromkeys(summary["kind"]))
    methods = list(dict.fromkeys(summary["method"]))
    width = 0.8 / max(1, len(methods))
    for ax, column, label in ((axes[0], "slice_accuracy", "slices attributed right"),
                              (axes[1], "within_step", f"changes found within one step ({step} marks)")):
        for k, method in enumerate(methods):
            rows = summary[summary["method"] == method].set_index("kind").reindex(kinds)
            ax.bar(np.arange(len(kinds)) + (k - (len(methods) - 1) / 2) * width, rows[f"{column}_mean"],
                   width, yerr=rows[f"{column}_sd"].fillna(0.0), color=METHOD_COLOURS.get(method, "#7f7f7f"),
                   label=legend_label(fig, METHOD_NAMES.get(method, method)), capsize=2)
        ax.set_xticks(np.arange(len(kinds)), kinds)
        ax.set_ylim(0, 1)
        set_title(ax, label)
        set_xlabel(ax, "collaboration")
    set_ylabel(axes[0], "share (mean over seeds)")
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.suptitle(plain_text(title), fontsize=10)
    return fig


def collaborations_report_figure(summary: pd.DataFrame, window: int, step: int, seeds: Sequence[int]) -> Figure:
    """Rule rolling_collaborations' figure: :func:`collaborations_figure` of ``summary`` titled with
    the slices (``window`` marks every ``step``) and the ``seeds``; a placeholder when no
    collaboration could be made."""
    if not len(summary):
        return placeholder_figure("No collaboration: no held-out book is long enough for its parts (rolling.part_marks)")
    title = f"Rolling attribution on synthetic collaborations: slices of {window} marks every {step}, seeds {list(seeds)}"
    return collaborations_figure(summary, title, step)


FIGURE_FORMATS = ("png", "pdf", "svg")


def save_figure_as(fig: Figure, path: str) -> None:
    """Write ``fig`` to ``path`` in the format its extension names (png, pdf or svg; 150 dpi),
    atomically (temporary file, then rename); then close it. ValueError for another extension."""
    extension = str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""
    try:
        if extension not in FIGURE_FORMATS:
            raise ValueError(f"{path}: figure file must end in .png, .pdf or .svg")
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=extension, dpi=150)
    finally:
        close_figure(fig)


__all__ = ["FIGURE_FORMATS", "collaborations_figure", "collaborations_report_figure", "MAX_COLOURED", "coloured_authors", "rolling_figure", "save_figure_as"]
