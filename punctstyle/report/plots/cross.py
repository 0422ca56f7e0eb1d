"""Figures of issue 25 (beyond the paper): where punctuation beats words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.report.plots.base import new_figure, placeholder_figure, set_title, set_xlabel, set_ylabel

WORD_INPUT_PREFIXES: tuple[str, ...] = ("words", "masked_unigrams", "dv_ma", "dv_sa")


def is_word_method(method: str) -> bool:
    """Whether a ``<classifier>:<input>`` method reads words (words<k>, a set with words, a distortion)."""
    name = method.split(":", 1)[-1]
    return "words" in name or name.startswith(WORD_INPUT_PREFIXES[1:])


def plot_cross_domain(summary: pd.DataFrame, title: str) -> Figure:
    """Within-group (filled) and cross-group (open) accuracy per method, mean ± sd over pairs
    and seeds; punctuation methods warm, word methods cool."""
    fig, ax = new_figure(figsize=(6.6, 4.2))
    frame = summary.sort_values("method").reset_index(drop=True)
    x = np.arange(len(frame))
    colours = ["#1f77b4" if is_word_method(m) else "#d62728" for m in frame["method"]]
    ax.errorbar(x - 0.12, frame["within_mean"], yerr=frame["within_sd"], fmt="none", ecolor="grey", capsize=3)
    ax.errorbar(x + 0.12, frame["cross_mean"], yerr=frame["cross_sd"], fmt="none", ecolor="grey", capsize=3)
    ax.scatter(x - 0.12, frame["within_mean"], c=colours, marker="o", label="within group", zorder=3)
    ax.scatter(x + 0.12, frame["cross_mean"], facecolors="none", edgecolors=colours, marker="o",
               label="across groups", zorder=3)  # fmt: skip
    ax.set_xticks(x, [m.replace(":", "\n") for m in frame["method"]], fontsize=7)
    ax.set_ylim(0, 1.02)
    set_ylabel(ax, "test accuracy (mean ± sd over pairs and seeds)")
    ax.legend(fontsize=8, loc="lower left", frameon=False)
    set_title(ax, title)
    return fig


def plot_gap_fit(examples: pd.DataFrame, title: str) -> Figure:
    """Goodness of fit: observed (dots) and fitted (lines) survival ``S(k)`` of three books on a
    log scale, and their fitted hazard ``h(k)``."""
    fig, (left, right) = new_figure(1, 2, figsize=(8.0, 3.8))
    for (which, book), group in examples.groupby(["which", "title"], sort=False):
        label = f"{which}: β = {group['beta'].iloc[0]:.2f}, p = {group['p'].iloc[0]:.3f}"
        line = left.plot(group["k"], group["fitted_survival"], label=label)[0]
        observed = group["observed_survival"].where(group["observed_survival"] > 0)
        left.scatter(group["k"], observed, s=8, color=line.get_color())
        right.plot(group["k"], group["hazard"], color=line.get_color(), label=label)
    left.set_yscale("log")
    observed = examples["observed_survival"][examples["observed_survival"] > 0]
    if len(observed):  # the fitted tails may fall far below anything observed
        left.set_ylim(bottom=float(observed.min()) / 10.0)
    left.set_ylim(top=2.0)  # S(k) <= 1: the log scale's margins on those tails reached 1e14
    set_xlabel(left, "words between consecutive marks k")
    set_ylabel(left, "S(k) = P(gap > k)")
    set_xlabel(right, "k")
    set_ylabel(right, "hazard h(k)")
    left.legend(fontsize=6, loc="upper right", frameon=False)  # the curves fall from the upper left
    set_title(left, title)
    set_title(right, "Fitted hazard")
    return fig


def plot_weibull_plane(fits: pd.DataFrame, title: str, top_authors: int = 8) -> Figure:
    """The (p, β) plane of the word gaps: left, the ``top_authors`` authors with most books in
    colour (others grey); right, every book coloured by its author's birth year."""
    fig, (left, right) = new_figure(1, 2, figsize=(8.6, 3.9))
    known = fits.dropna(subset=["p", "beta"])
    top = known["author"].value_counts().index[:top_authors]
    others = known[~known["author"].isin(top)]
    left.scatter(others["p"], others["beta"], s=6, color="lightgrey", label="other authors")
    for author in top:
        group = known[known["author"] == author]
        left.scatter(group["p"], group["beta"], s=10, label=str(author)[:28])
    left.axhline(1.0, color="black", linestyle=":", linewidth=0.8)
    dated = known.dropna(subset=["birth"])
    points = right.scatter(dated["p"], dated["beta"], c=dated["birth"].astype(float), s=8, cmap="viridis")
    fig.colorbar(points, ax=right, label="author's birth year")
    right.axhline(1.0, color="black", linestyle=":", linewidth=0.8)
    for ax in (left, right):
        set_xlabel(ax, "p (word gaps)")
        set_ylabel(ax, "β")
    left.legend(fontsize=5, loc="upper right", frameon=False)
    set_title(left, title)
    set_title(right, "By era")
    return fig


def plot_translators(recognition: pd.DataFrame, title: str) -> Figure:
    """Accuracy with the translated books labelled by original author or by translator, per
    method (mean ± sd over seeds), and each labelling's chance level."""
    fig, ax = new_figure(figsize=(5.6, 3.8))
    summary = recognition.groupby(["method", "label"]).agg(
        mean=("accuracy", "mean"), sd=("accuracy", "std"), baseline=("baseline", "mean")
    ).reset_index()  # fmt: skip
    methods = sorted(summary["method"].unique())
    for offset, (label, colour) in zip((-0.15, 0.15), (("original author", "#d62728"), ("translator", "#1f77b4"))):
        rows = summary[summary["label"] == label].set_index("method").reindex(methods)
        x = np.arange(len(methods)) + offset
        ax.bar(x, rows["mean"], width=0.3, yerr=rows["sd"], color=colour, label=f"by {label}", capsize=3)
        ax.scatter(x, rows["baseline"], marker="_", color="black", s=80, linewidths=1.5, zorder=3,
                   label="chance level")
    ax.set_xticks(np.arange(len(methods)), methods)
    ax.set_ylim(0, 1.02)
    set_ylabel(ax, "test accuracy (mean ± sd)")  # over seeds: the caption
    found = dict(zip(*reversed(ax.get_legend_handles_labels())))  # one entry per label
    handles = {label: found[label] for label in ("by original author", "by translator", "chance level") if label in found}
    # below the axes, off the bars (a swatch over a bar of its own colour vanished there)
    fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncols=3, fontsize=8,
               frameon=False)
    set_title(ax, title)
    return fig


CROSS_FIGURE_SPECS: dict[str, tuple[str, Any, str, str]] = {
    "cross_domain": ("cross_domain_summary", plot_cross_domain, "Author recognition within one group and across groups",
                     "No pair of groups has enough authors with books in both (cross.genres.min_authors)"),
    "gap_weibull_fit": ("gap_weibull_examples", plot_gap_fit, "Discrete Weibull fits of the word gaps",
                        "No book has two distinct gap lengths"),
    "gap_weibull_plane": ("gap_weibull", plot_weibull_plane, "Word gaps: (p, β) by author", "No book to fit"),
    "translators": ("translator_recognition", plot_translators, "Translated books: original author or translator",
                    "Too few translated books with two translators or two original authors "
                    "(cross.translators.min_books)"),
}
"""Rule figures_cross's figures: output name -> (the table drawn, the function, title, what the
placeholder says when the table is empty)."""


def cross_figure(name: str, tables: Mapping[str, pd.DataFrame]) -> Figure:
    """Figure ``name`` of :data:`CROSS_FIGURE_SPECS` drawn from ``tables`` (rule cross_analyses' tables by
    name), or its placeholder when its table has no row."""
    table, draw, title, empty = CROSS_FIGURE_SPECS[name]
    frame = tables[table]
    return draw(frame, title) if len(frame) else placeholder_figure(empty, title)
