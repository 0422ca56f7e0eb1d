"""Accuracy against the length of the punctuation sequence (beyond the paper).

Takes the summary of :func:`punctstyle.length_curve.summarise` and returns a Figure; no file
I/O (see :mod:`punctstyle.plots.base`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.length_curve import WHOLE, length_sort_key
from punctstyle.plots.base import legend_label, new_figure, set_suptitle, set_title, set_xlabel, set_ylabel

LINE_COLOURS: tuple[str, ...] = ("#d62728", "#9467bd", "#2ca02c", "#ff7f0e", "#8c564b", "#17becf", "#e377c2")
TRAINING_STYLES: dict[str, str] = {"whole": "-", "excerpt": "--"}
"""Line style of a training mode: solid = trained on whole documents, dashed = on excerpts."""


def whole_position(lengths: list[int]) -> float:
    """Where the whole-document points go on the log axis: ``2 * max(lengths)`` (one doubling right)."""
    return 2.0 * max(lengths) if lengths else 1.0


def words_text(words: float) -> str:
    """Median words, short: ``86``, ``1.2k``, ``12k`` (empty when unknown)."""
    if not np.isfinite(words):
        return ""
    return f"{words / 1000:.0f}k" if words >= 10_000 else f"{words / 1000:.1f}k" if words >= 1000 else f"{words:.0f}"


def tick_label(length: int | str, words: float) -> str:
    """``"800\n7.1k"``: the length (marks, or ``whole``) over the median words it spans."""
    return f"{length}\n{words_text(words)}".rstrip()


def plot_length_curve(summary: pd.DataFrame, display: Callable[[str], str], title: str) -> Figure:
    """One panel per number of authors: mean test accuracy (over seeds) against the excerpt
    length in marks (log axis, ticks with the median words), a band of +-1 sd, one line per
    (method, feature set, training mode: solid whole documents, dashed excerpts), the chance
    level dashed in black, and the whole-document accuracy as a diamond with its sd at the right
    (one per method and feature set, side by side)."""
    sizes = sorted(summary["n_classes"].unique())
    fig, axes = new_figure(1, len(sizes), figsize=(5.6 * len(sizes), 4.6), squeeze=False)
    keys = list(dict.fromkeys(zip(summary["method"], summary["feature_set"], strict=True)))
    colours = {key: LINE_COLOURS[i % len(LINE_COLOURS)] for i, key in enumerate(keys)}
    for ax, n_classes in zip(axes[0], sizes, strict=True):
        block = summary[summary["n_classes"] == n_classes]
        numeric = block[block["length"] != WHOLE]
        lengths = sorted({int(n) for n in numeric["length"]})
        right = whole_position(lengths)
        for (method, feature_set, mode), line in block.groupby(["method", "feature_set", "training"], sort=False):
            colour, name = colours[(method, feature_set)], f"{display(method)}, {feature_set}"
            curve = line[line["length"] != WHOLE].sort_values("length", key=lambda s: s.map(length_sort_key))
            x = curve["length"].astype(float).to_numpy()
            mean, sd = curve["accuracy_mean"].to_numpy(float), curve["accuracy_sd"].fillna(0.0).to_numpy(float)
            label = legend_label(fig, f"{name}, trained on {'whole documents' if mode == 'whole' else 'excerpts'}")
            ax.plot(
                x, mean, marker="o", markersize=3, linestyle=TRAINING_STYLES.get(mode, ":"), color=colour, label=label
            )
            ax.fill_between(
                x, np.clip(mean - sd, 0, 1), np.clip(mean + sd, 0, 1), color=colour, alpha=0.15, linewidth=0
            )
            whole = line[line["length"] == WHOLE]
            if len(whole):
                y, e = whole["accuracy_mean"].to_numpy(float), whole["accuracy_sd"].fillna(0.0).to_numpy(float)
                error = np.vstack([np.minimum(e, y), np.minimum(e, 1 - y)])  # +-1 sd, clipped to [0, 1]
                shift = 1.05 ** (keys.index((method, feature_set)) - (len(keys) - 1) / 2)  # side by side
                ax.errorbar([right * shift], y, yerr=error, marker="D", color=colour, capsize=3, linestyle="none")
        ax.axhline(block["baseline"].mean(), color="black", linestyle="--", linewidth=1, label="chance level")
        ax.set_xscale("log")
        words = block.groupby("length")["median_words"].first()
        ticks = [*lengths, right]
        labels = [tick_label(n, float(words.get(str(n), np.nan))) for n in lengths]
        labels.append(tick_label(WHOLE, float(words.get(WHOLE, np.nan))))
        ax.set_xticks(ticks, labels, fontsize=7)
        ax.minorticks_off()
        ax.set_xlim(min(ticks) / 1.5, right * 1.5)
        ax.set_ylim(-0.02, 1.02)
        set_xlabel(ax, "excerpt length in marks (below: median words)")
        set_ylabel(ax, "test accuracy (mean over seeds, band: +-1 sd)")
        set_title(ax, f"{n_classes} authors")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=min(3, len(handles)), fontsize=7, handlelength=4)
    set_suptitle(fig, title)
    return fig
