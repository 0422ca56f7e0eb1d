"""Shared plumbing of the figure modules: Agg figures, saving, mark colours and labels.

Figures are built with the object-oriented API: :func:`new_figure` makes a
``matplotlib.figure.Figure`` and binds it to the Agg canvas (the Agg backend is selected per
figure, inside the call; pyplot and its global figure registry are never touched, so nothing
depends on a display or on ``MPLBACKEND``). Figure functions do no file I/O;
:func:`save_figure` writes PNG (150 dpi) and PDF atomically.
"""

from __future__ import annotations

import os
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from punctstyle.io import atomic_path
from punctstyle.marks import MARK_COLOURS, MARK_NAMES, MARKS

PNG_DPI: int = 150

NEUTRAL_COLOUR = "#555555"
"""Bars that are not about one mark (e.g. the f5 bins)."""

CI_COLOUR = "#b0b0b0"
"""Grey of the confidence bands (as in the paper)."""

BASELINE_COLOUR = "#1f77b4"
"""Blue of the baselines and of the cross-class distributions (as in the paper)."""


def new_figure(nrows: int = 1, ncols: int = 1, *, figsize: tuple[float, float] = (6.0, 4.0),
               squeeze: bool = True, **subplot_kw: Any) -> tuple[Figure, Any]:
    """A constrained-layout Figure on the Agg canvas and its axes (``Figure.subplots``)."""
    fig = Figure(figsize=figsize, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=squeeze, **subplot_kw)
    return fig, axes


def mark_label(code: int, *, name: bool = False) -> str:
    """The mark of ``code`` (``marks.MARKS``), with its name in parentheses if ``name``."""
    return f"{MARKS[code]} ({MARK_NAMES[code]})" if name else MARKS[code]


def plain_text(text: Any) -> str:
    """``str(text)`` with ``$`` escaped, so user labels (titles, author names) are never mathtext."""
    return str(text).replace("$", r"\$")


def mark_colour(code: int) -> str:
    """The colour of ``code`` (``marks.MARK_COLOURS``)."""
    return MARK_COLOURS[code]


def save_figure(fig: Figure, png_path: str | os.PathLike[str],
                pdf_path: str | os.PathLike[str] | None = None) -> None:
    """Write ``fig`` as PNG (150 dpi) and, if ``pdf_path`` is given, as PDF; then close it.

    Each file is written to a temporary file beside its target and renamed onto it
    (``punctstyle.io.atomic_path``), so a failure never leaves a partial figure. The figure
    is closed afterwards, even when a write fails: it is cleared and, if pyplot manages it,
    released from pyplot.
    """
    try:
        with atomic_path(png_path) as tmp:
            fig.savefig(tmp, format="png", dpi=PNG_DPI)
        if pdf_path is not None:
            with atomic_path(pdf_path) as tmp:
                fig.savefig(tmp, format="pdf")
    finally:
        close_figure(fig)


def close_figure(fig: Figure) -> None:
    """Release ``fig``: drop it from pyplot if pyplot manages it, and clear it."""
    manager = getattr(fig.canvas, "manager", None)
    if manager is not None:
        import matplotlib.pyplot as plt  # only reached for figures pyplot created

        plt.close(fig)
    fig.clear()


def placeholder_figure(message: str, title: str | None = None) -> Figure:
    """A small figure that only says ``message`` (why there is nothing to draw)."""
    fig, ax = new_figure(figsize=(6.0, 2.5))
    ax.set_axis_off()
    ax.text(0.5, 0.5, plain_text(message), ha="center", va="center", wrap=True, fontsize=10,
            transform=ax.transAxes)
    if title:
        ax.set_title(plain_text(title))
    return fig

