"""Recognition figures: accuracy versus the number of classes per feature set (the paper's
tables ``tab:table_neighb``, ``tab:table_nn`` and the genre table, drawn as curves)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.report.plots.base import legend_label, new_figure, set_suptitle, set_title, set_xlabel

ACCURACY_COLUMNS: tuple[str, ...] = (
    "n_classes", "feature_set", "method", "accuracy_mean", "accuracy_std", "baseline_mean",
)

FEATURE_SET_COLOURS: dict[str, str] = {
    "f1": "#1b9e77",
    "f2": "#a6761d",
    "f3": "#d95f02",
    "f4": "#7570b3",
    "f5": "#e7298a",
    "f6": "#66a61e",
    "f7": "#1f78b4",
    "f1+f3+f4+f5": "#e6ab02",
    "all": "#333333",
}
"""Fixed colours of the usual feature sets (others cycle through ``OTHER_COLOURS``), far apart
from each other (f7 is blue: it was an orange next to f3's, and their KL curves lie close)."""
FEATURE_SET_MARKERS: dict[str, str] = {
    "f1": "o", "f2": "s", "f3": "^", "f4": "D", "f5": "v", "f6": "P", "f7": "X", "f1+f3+f4+f5": "*", "all": "o",
}
"""Markers of the usual feature sets, so that two curves that overlap are still told apart
(others: ``OTHER_MARKERS``, by the order of their first use)."""
OTHER_MARKERS: tuple[str, ...] = ("h", "<", ">", "p", "d", "8")
LEGEND_ENTRY_WIDTH: float = 2.6
"""Inches per legend column: a feature-set name fitted to 2 inches, its marker and padding."""
OTHER_COLOURS: tuple[str, ...] = ("#8dd3c7", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69")


def _marker(feature_set: str, others: dict[str, str]) -> str:
    if feature_set in FEATURE_SET_MARKERS:
        return FEATURE_SET_MARKERS[feature_set]
    return OTHER_MARKERS[list(others).index(feature_set) % len(OTHER_MARKERS)] if feature_set in others else "o"


def _colour(feature_set: str, others: dict[str, str]) -> str:
    if feature_set in FEATURE_SET_COLOURS:
        return FEATURE_SET_COLOURS[feature_set]
    if feature_set not in others:
        others[feature_set] = OTHER_COLOURS[len(others) % len(OTHER_COLOURS)]
    return others[feature_set]


def plot_accuracy_vs_classes(results: pd.DataFrame, methods: Sequence[str] | None = None,
                             label: str = "classes", log_x: bool | None = None,
                             title: str | None = None) -> Figure:
    """Test accuracy versus number of classes, one curve per feature set, one panel per method.

    ``results`` has the columns ``n_classes``, ``feature_set``, ``method``, ``accuracy_mean``,
    ``accuracy_std`` (over seeds; drawn as error bars) and ``baseline_mean`` (mean over the
    feature sets of a method and class count, drawn as a dashed line). ``label`` names the
    classes on the axis ("authors", "genres"); ``log_x=None`` uses a log axis when the class
    counts span a factor of 20 or more. One legend for all panels sits below them, off the
    curves and the baseline.
    """
    missing = [c for c in ACCURACY_COLUMNS if c not in results.columns]
    if missing:
        raise KeyError(f"accuracy table has no column {missing[0]!r}")
    if results.empty:
        raise ValueError("accuracy table is empty")
    chosen = list(dict.fromkeys(results["method"])) if methods is None else list(methods)
    fig, axes = new_figure(1, len(chosen), figsize=(5.5 * len(chosen), 4.8), squeeze=False, sharey=True)
    counts = results["n_classes"].to_numpy(dtype=np.float64)
    if log_x is None:
        log_x = bool(counts.min() > 0 and counts.max() / counts.min() >= 20)
    others: dict[str, str] = {}
    for ax, method in zip(axes[0], chosen):
        rows = results.loc[results["method"] == method]
        for feature_set in dict.fromkeys(rows["feature_set"]):
            curve = rows.loc[rows["feature_set"] == feature_set].sort_values("n_classes")
            ax.errorbar(curve["n_classes"].to_numpy(dtype=np.float64), curve["accuracy_mean"].to_numpy(dtype=np.float64),
                        yerr=curve["accuracy_std"].to_numpy(dtype=np.float64), color=_colour(str(feature_set), others),
                        marker=_marker(str(feature_set), others), markersize=6, capsize=3, linewidth=1.3,
                        label=legend_label(fig, feature_set))
        base = rows.groupby("n_classes", sort=True)["baseline_mean"].mean()
        ax.plot(base.index.to_numpy(dtype=np.float64), base.to_numpy(dtype=np.float64), color="black",
                linestyle="--", linewidth=1.2, label="baseline")
        if log_x:
            ax.set_xscale("log")
        ticks = np.unique(rows["n_classes"].to_numpy())
        ax.set_xticks(ticks, [str(int(t)) for t in ticks])
        ax.minorticks_off()
        set_xlabel(ax, f"number of {label}")
        ax.set_ylim(0.0, 1.0)
        set_title(ax, method)
    axes[0][0].set_ylabel("test accuracy")
    handles: dict[str, Any] = {}
    for ax in axes[0]:
        for handle, text in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(text, handle)
    baseline = handles.pop("baseline", None)
    if baseline is not None:
        handles["baseline"] = baseline
    ncols = max(1, min(len(handles), int(fig.get_size_inches()[0] // LEGEND_ENTRY_WIDTH)))
    fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncols=ncols, fontsize=8,
               frameon=False)
    if title:
        set_suptitle(fig, title)
    return fig
