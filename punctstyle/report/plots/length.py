"""Accuracy against the length of the punctuation sequence (beyond the paper), punctuation and
word methods on the same excerpts.

Takes the summary of :func:`punctstyle.training.length_summary.summarise` and returns a Figure; no file
I/O (see :mod:`punctstyle.report.plots.base`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.training.length_curve import (
    TRAINING_MODES,
    length_sort_key,
)
from punctstyle.training.length_features import (
    WHOLE,
    resolve_excerpt_features,
    word_feature_k,
)
from punctstyle.training.length_summary import feature_text
from punctstyle.report.plots.base import legend_label, new_figure, set_suptitle, set_title, set_xlabel, set_ylabel

PUNCTUATION_COLOURS: tuple[str, ...] = ("#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#bcbd22")
"""Warm colours: methods on punctuation features only."""
WORD_COLOURS: tuple[str, ...] = ("#1f77b4", "#17becf", "#2ca02c", "#393b79", "#637939", "#7f7f7f")
"""Cool colours: methods on words (alone or with punctuation features)."""
TRAINING_TITLES: dict[str, str] = {"whole": "trained on whole documents", "excerpt": "trained on excerpts of n marks"}
"""Panel title of a training mode: one row of panels per mode."""


def uses_words(feature_set: str) -> bool:
    """Whether a feature set has a word feature (``words<k>``, alone or after punctuation)."""
    try:
        return any(word_feature_k(name) is not None for name in resolve_excerpt_features(feature_set))
    except ValueError:
        return False


def line_styles(keys: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, str, str]]:
    """(colour, line style, marker) of each (method, feature set): punctuation methods warm and
    solid with circles, word methods cool and dashed with squares, in order of appearance."""
    styles, counts = {}, {False: 0, True: 0}
    for key in keys:
        words = uses_words(key[1])
        palette = WORD_COLOURS if words else PUNCTUATION_COLOURS
        styles[key] = (palette[counts[words] % len(palette)], "--" if words else "-", "s" if words else "o")
        counts[words] += 1
    return styles


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
    """A panel per number of authors (columns) and training mode (rows: trained on whole
    documents, then on excerpts of the same length): mean test accuracy (over seeds) against the
    excerpt length in marks (log axis, ticks with the median words), a band of +-1 sd, one line
    per (method, feature set) (punctuation methods warm and solid, word methods cool and dashed),
    the chance level dashed in black, and the whole-document accuracy as a diamond with its sd at
    the right of every row (one per method and feature set, side by side; at whole documents
    both training modes are the same experiment)."""
    sizes = sorted(summary["n_classes"].unique())
    modes = [mode for mode in TRAINING_MODES if mode in set(summary["training"])]
    modes += sorted(set(summary["training"]) - set(modes))
    fig, axes = new_figure(len(modes), len(sizes), figsize=(5.6 * len(sizes), 1.2 + 3.9 * len(modes)), squeeze=False)
    keys = list(dict.fromkeys(zip(summary["method"], summary["feature_set"], strict=True)))
    keys.sort(key=lambda key: uses_words(key[1]))  # punctuation first, then words (stable)
    styles = line_styles(keys)
    for row, mode in enumerate(modes):
        for ax, n_classes in zip(axes[row], sizes, strict=True):
            block = summary[summary["n_classes"] == n_classes]
            numeric = block[block["length"] != WHOLE]
            lengths = sorted({int(n) for n in numeric["length"]})
            right = whole_position(lengths)
            for method, feature_set in keys:
                line = block[(block["method"] == method) & (block["feature_set"] == feature_set)]
                if line.empty:
                    continue
                colour, linestyle, marker = styles[(method, feature_set)]
                curve = line[(line["training"] == mode) & (line["length"] != WHOLE)]
                curve = curve.sort_values("length", key=lambda s: s.map(length_sort_key))
                label = legend_label(fig, f"{display(method)}, {feature_text(feature_set)}", width=2.2)
                if len(curve):
                    x = curve["length"].astype(float).to_numpy()
                    mean = curve["accuracy_mean"].to_numpy(float)
                    sd = curve["accuracy_sd"].fillna(0.0).to_numpy(float)
                    ax.plot(x, mean, marker=marker, markersize=3, linestyle=linestyle, color=colour, label=label)
                    ax.fill_between(
                        x, np.clip(mean - sd, 0, 1), np.clip(mean + sd, 0, 1), color=colour, alpha=0.12, linewidth=0
                    )
                whole = line[line["length"] == WHOLE].drop_duplicates("length")
                if len(whole):
                    y, e = whole["accuracy_mean"].to_numpy(float), whole["accuracy_sd"].fillna(0.0).to_numpy(float)
                    error = np.vstack([np.minimum(e, y), np.minimum(e, 1 - y)])  # +-1 sd, clipped to [0, 1]
                    shift = 1.05 ** (keys.index((method, feature_set)) - (len(keys) - 1) / 2)  # side by side
                    ax.errorbar(
                        [right * shift], y, yerr=error, marker="D", color=colour, capsize=3, linestyle="none",
                        label=None if len(curve) else label,
                    )  # fmt: skip
            ax.axhline(block["baseline"].mean(), color="black", linestyle="--", linewidth=1, label="chance level")
            length_axes(ax, block, lengths, right, f"{n_classes} authors, {TRAINING_TITLES.get(mode, f'trained on {mode}')}")
    shared_legend(fig, axes)
    set_suptitle(fig, title)
    return fig


def length_axes(ax: Any, block: pd.DataFrame, lengths: Sequence[int], right: float, title: str) -> None:
    """A panel's axes: log lengths with their median words below (``lengths`` then the whole
    documents at ``right``), accuracy in [0, 1], the labels and ``title``."""
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
    set_ylabel(ax, "test accuracy (mean ± 1 sd)")  # one line: the caption says "over seeds"
    set_title(ax, title)


def shared_legend(fig: Figure, axes: np.ndarray) -> None:
    """One legend below the panels: every (method, feature set) once, whichever panel drew it,
    in columns of about 2.7 inches."""
    handles, labels = {}, []
    for ax in axes.ravel():  # every (method, feature set) once, whichever panel drew it
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            if label not in handles:
                handles[label] = handle
                labels.append(label)
    columns = max(1, min(len(labels), int(fig.get_size_inches()[0] // 2.7)))  # entries of 2.2 in + handle
    fig.legend(
        [handles[label] for label in labels], labels, loc="outside lower center", ncol=columns,
        fontsize=7, handlelength=3,
    )  # fmt: skip
