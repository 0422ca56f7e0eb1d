"""KL-divergence figures: document-by-document heat maps with class blocks (figure
``heatmaps_KL``), consistency curves (figures ``consistency_plots`` and the genre analogue) and
within- versus cross-class distributions (figures ``dist_KL`` and the genre analogue)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.colors import PowerNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from punctstyle.report.plots.base import (
    BASELINE_COLOUR,
    CI_COLOUR,
    integer_axis,
    legend_label,
    new_figure,
    set_title,
    set_xlabel,
)

HEATMAP_CMAP = "RdYlBu_r"
"""Dark blue (KL 0) to dark red (the maximum), as in the paper."""
HEATMAP_GAMMA: float = 0.5
LEGEND_WIDTH: float = 2.0
"""Inches of text of a legend entry placed beside the axes."""


def _block_bounds(block_edges: Sequence[int], n: int) -> np.ndarray:
    edges = np.asarray(list(block_edges), dtype=np.int64)
    if edges.size and (edges.min() < 0 or edges.max() > n):
        raise ValueError(f"block edges must lie in [0, {n}], got {edges.tolist()}")
    return np.unique(np.concatenate([[0], edges, [n]]))


def plot_kl_heatmap(matrix: Any, block_edges: Sequence[int] = (), title: str | None = None,
                    gamma: float = HEATMAP_GAMMA, colorbar: bool = True) -> Figure:
    """Heat map of a (n, n) document-by-document KL-divergence matrix, class blocks outlined.

    Documents must be ordered by class; ``block_edges`` are the row indices where a class
    starts or ends (0 and n may be given or left out: ``[3, 7]`` with n = 10 gives the blocks
    0-2, 3-6, 7-9). Each diagonal block is outlined in black. Colours scale nonlinearly
    (``PowerNorm(gamma)``) from 0 to the largest finite entry; larger (infinite) entries take
    the top colour and NaN entries are left blank.
    """
    kl = np.asarray(matrix, dtype=np.float64)
    if kl.ndim != 2 or kl.shape[0] != kl.shape[1]:
        raise ValueError(f"KL matrix must be square, got shape {kl.shape}")
    n = kl.shape[0]
    bounds = _block_bounds(block_edges, n)
    finite = kl[np.isfinite(kl)]
    vmax = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    shown = np.where(np.isposinf(kl), vmax, kl)
    fig, ax = new_figure(figsize=(5.5, 4.8))
    image = ax.imshow(shown, cmap=HEATMAP_CMAP, norm=PowerNorm(gamma=gamma, vmin=0.0, vmax=vmax, clip=True),
                      interpolation="none", origin="upper")
    for start, stop in zip(bounds[:-1], bounds[1:]):
        ax.add_patch(Rectangle((start - 0.5, start - 0.5), stop - start, stop - start,
                               fill=False, edgecolor="black", linewidth=1.2))
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_xlabel("documents")
    ax.set_ylabel("documents")
    if colorbar:
        fig.colorbar(image, ax=ax, label="KL divergence")
    if title:
        set_title(ax, title)
    return fig


def plot_consistency(consistency: Any, ci_low: Any, ci_high: Any, baseline: float,
                     label: str = "author", title: str | None = None) -> Figure:
    """Consistency curve: classes ordered from least to most consistent.

    ``consistency[c]`` is the mean KL divergence over the pairs of documents of class ``c``
    (equation ``consistency``; lower is more consistent) and ``ci_low``/``ci_high`` its
    confidence interval. Classes are sorted by decreasing consistency value; the curve is
    black, the interval a grey band and ``baseline`` (mean KL over pairs of documents of
    distinct classes) a dotted blue line, labelled. ``label`` names the classes ("author",
    "genre"). The legend sits below the axes, where it covers neither curve nor baseline.
    """
    values = np.asarray(consistency, dtype=np.float64).ravel()
    low = np.asarray(ci_low, dtype=np.float64).ravel()
    high = np.asarray(ci_high, dtype=np.float64).ravel()
    if not (values.shape == low.shape == high.shape):
        raise ValueError(f"consistency, ci_low and ci_high differ in length ({values.size}, {low.size}, {high.size})")
    order = np.argsort(-values, kind="stable")
    rank = np.arange(1, values.size + 1)
    fig, ax = new_figure(figsize=(6.0, 4.4))
    ax.fill_between(rank, low[order], high[order], color=CI_COLOUR, alpha=0.6, linewidth=0,
                    label="confidence interval")
    ax.plot(rank, values[order], color="black", linewidth=1.3, label="consistency")
    ax.axhline(baseline, color=BASELINE_COLOUR, linestyle=":", linewidth=1.5, label=f"baseline ({baseline:.3g})")
    set_xlabel(ax, f"{label}s, from least to most consistent")
    ax.set_ylabel("mean KL divergence")
    integer_axis(ax.xaxis)
    if values.size:
        ax.set_xlim(1, max(values.size, 2))
    fig.legend(loc="outside lower center", ncols=3, frameon=False, fontsize=8)
    if title:
        set_title(ax, title)
    return fig


def plot_kl_distributions(within: Any, cross: Any, label: str = "author", title: str | None = None,
                          bins: int = 50, ks: tuple[float, float] | None = None) -> Figure:
    """Densities of KL divergence within classes (black) and across classes (blue).

    ``within``: KL values between pairs of documents of the same class; ``cross``: values
    between pairs of documents of distinct classes. Means go in the legend (right of the
    axes, off the histograms); the title gives
    the two-sample Kolmogorov-Smirnov statistic and p-value (``ks``, or ``scipy.stats.ks_2samp``
    of the finite values when None). Non-finite values are left out of the histograms.
    """
    a = np.asarray(within, dtype=np.float64).ravel()
    b = np.asarray(cross, dtype=np.float64).ravel()
    a_f = a[np.isfinite(a)]
    b_f = b[np.isfinite(b)]
    if ks is None:
        if a_f.size and b_f.size:
            from scipy import stats  # lazy: every figure job imports this module, few test here (issue 37)

            result = stats.ks_2samp(a_f, b_f)
            ks = (float(result.statistic), float(result.pvalue))
        else:
            ks = (float("nan"), float("nan"))
    both = np.concatenate([a_f, b_f])
    top = float(both.max()) if both.size and both.max() > 0 else 1.0
    edges = np.linspace(0.0, top, bins + 1)
    fig, ax = new_figure(figsize=(7.5, 4.0))
    for values, raw, colour, name in ((a_f, a, "black", f"same {label}"), (b_f, b, BASELINE_COLOUR, f"distinct {label}s")):
        dropped = raw.size - values.size
        mean = float(values.mean()) if values.size else float("nan")
        text = legend_label(fig, name, LEGEND_WIDTH) + f"\nmean {mean:.3g}, n={values.size}"
        if dropped:
            text += f"\n{dropped} non-finite left out"
        if values.size:
            ax.hist(values, bins=edges, density=True, histtype="step", color=colour, linewidth=1.5, label=text)
            ax.hist(values, bins=edges, density=True, histtype="stepfilled", color=colour, alpha=0.15)
        else:
            ax.plot([], [], color=colour, label=text)
    ax.set_xlabel("KL divergence")
    ax.set_ylabel("density")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False, fontsize=8)
    heading = f"KS statistic = {ks[0]:.3f}, p-value = {ks[1]:.3g}"
    if title:
        set_title(ax, title, suffix="\n" + heading, max_lines=2, reserve=LEGEND_WIDTH + 0.4)
    else:
        ax.set_title(heading)
    return fig
