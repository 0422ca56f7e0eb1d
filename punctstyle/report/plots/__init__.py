"""Figures of the paper, one module per family; every function returns a matplotlib Figure.

Modules: :mod:`~punctstyle.report.plots.sequence` (punctuation-sequence images),
:mod:`~punctstyle.report.plots.corpus` (documents per author, f1 histograms),
:mod:`~punctstyle.report.plots.documents` (per-document f1/f5 bars, f1-versus-f1 scatter),
:mod:`~punctstyle.report.plots.kl` (KL heat maps, consistency curves, KL distributions),
:mod:`~punctstyle.report.plots.temporal` (section 5) and
:mod:`~punctstyle.report.plots.classification` (accuracy versus number of classes).

Figure functions do no file I/O and use the Agg canvas (no display, no pyplot state);
:func:`save_figure` writes PNG (150 dpi) and PDF atomically and closes the figure. Mark
colours and labels always come from :mod:`punctstyle.marks`.
"""

from punctstyle.report.plots.base import close_figure, new_figure, save_figure
from punctstyle.report.plots.classification import plot_accuracy_vs_classes
from punctstyle.report.plots.corpus import plot_documents_per_author, plot_f1_histograms
from punctstyle.report.plots.documents import plot_f1_bars, plot_f1_scatter, plot_f5_bars
from punctstyle.report.plots.kl import plot_consistency, plot_kl_distributions, plot_kl_heatmap
from punctstyle.report.plots.sequence import midpoint_window, plot_punctuation_sequence, sequence_grid
from punctstyle.report.plots.temporal import (
    plot_author_dates,
    plot_author_f1_over_time,
    plot_f1_by_decade,
    plot_f1_by_decade_panels,
    plot_rate_by_decade,
)

__all__ = [
    "close_figure",
    "midpoint_window",
    "new_figure",
    "plot_accuracy_vs_classes",
    "plot_author_dates",
    "plot_author_f1_over_time",
    "plot_consistency",
    "plot_documents_per_author",
    "plot_f1_bars",
    "plot_f1_by_decade",
    "plot_f1_by_decade_panels",
    "plot_f1_histograms",
    "plot_f1_scatter",
    "plot_f5_bars",
    "plot_kl_distributions",
    "plot_kl_heatmap",
    "plot_punctuation_sequence",
    "plot_rate_by_decade",
    "save_figure",
    "sequence_grid",
]
