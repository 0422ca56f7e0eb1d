"""Verification (General Imposters) against text length: the PAN measures per feature family.

Takes the summary of :func:`punctstyle.attribution.verification_run.summary_table` (one row per
family and length, ``<measure>_mean`` and ``<measure>_std`` over seeds) and returns a Figure; no
file I/O (see :mod:`punctstyle.report.plots.base`). One panel per measure (AUC, c@1, F0.5u),
length on a log axis with whole texts one doubling right of the longest excerpt; punctuation
families warm and solid, word families (alone or with punctuation) cool and dashed, as in the
length curve's figure.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.report.plots.base import legend_label, new_figure, set_suptitle, set_title, set_xlabel, set_ylabel
from punctstyle.report.plots.length import PUNCTUATION_COLOURS, WORD_COLOURS, whole_position

PANELS: tuple[tuple[str, str], ...] = (("auc", "AUC"), ("c_at_1", "c@1"), ("f_05_u", "F0.5u"))
WHOLE = "whole"


def family_uses_words(family: str) -> bool:
    return family == "words" or family.endswith("+words")


def plot_verification(summary: pd.DataFrame, family_labels: dict[str, str] | None = None,
                      title: str = "Verification (General Imposters) against text length",
                      measures: Sequence[tuple[str, str]] = PANELS) -> Figure:
    """Mean ± sd over seeds of each measure, one line per family (module docstring)."""
    labels = family_labels or {}
    excerpt_lengths = sorted({int(v) for v in summary["length"].astype(str) if v != WHOLE})
    whole_x = whole_position(excerpt_lengths) if excerpt_lengths else 1.0

    def x_of(values: pd.Series) -> np.ndarray:
        return np.array([whole_x if str(v) == WHOLE else float(v) for v in values])

    fig, axes = new_figure(1, len(measures), figsize=(4.2 * len(measures), 4.2), squeeze=False)
    counts = {False: 0, True: 0}
    families = list(dict.fromkeys(summary["family"].astype(str)))
    for family in families:
        words = family_uses_words(family)
        palette = WORD_COLOURS if words else PUNCTUATION_COLOURS
        colour = palette[counts[words] % len(palette)]
        counts[words] += 1
        rows = summary[summary["family"].astype(str) == family].copy()
        rows["x"] = x_of(rows["length"])
        rows = rows.sort_values("x")
        for ax, (measure, _) in zip(axes[0], measures, strict=True):
            ax.errorbar(rows["x"], rows[f"{measure}_mean"], yerr=rows[f"{measure}_std"].fillna(0.0),
                        color=colour, linestyle="--" if words else "-", marker="s" if words else "o",
                        capsize=3, label=legend_label(fig, labels.get(family, family)))
    ticks = [*excerpt_lengths, whole_x]
    for ax, (_, name) in zip(axes[0], measures, strict=True):
        ax.set_xscale("log")
        ax.set_xticks(ticks)
        ax.set_xticklabels([*(str(n) for n in excerpt_lengths), "whole"])
        ax.minorticks_off()
        ax.set_ylim(0.0, 1.02)
        ax.axhline(0.5, color="#999999", linewidth=0.8, linestyle=":")
        set_title(ax, name)
        set_xlabel(ax, "text length (marks)")
        set_ylabel(ax, f"{name} (mean ± sd over seeds)")
    handles, names = axes[0][0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, names, loc="outside lower center", ncols=min(len(handles), 3), fontsize=8)
    set_suptitle(fig, title)
    return fig
