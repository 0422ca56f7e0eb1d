"""Shared plumbing of the figure modules: Agg figures, saving, mark colours and labels, and
text that fits.

Figures are built with the object-oriented API: :func:`new_figure` makes a
``matplotlib.figure.Figure`` and binds it to the Agg canvas (the Agg backend is selected per
figure, inside the call; pyplot and its global figure registry are never touched, so nothing
depends on a display or on ``MPLBACKEND``). Figure functions do no file I/O;
:func:`save_figure` writes PNG (150 dpi) and PDF atomically.

No text is ever clipped: user text (titles, book and author names) is wrapped to the width
it has, measured with the figure's own renderer (:func:`fit_text`), and shortened with an
ellipsis beyond a few lines; the setters :func:`set_title`, :func:`set_suptitle`,
:func:`set_xlabel` and :func:`set_ylabel` size that width from the axes' cell of the grid,
and constrained layout then keeps every text inside the figure.
"""

from __future__ import annotations

import os
from typing import Any

from matplotlib import rcParams
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.ticker import MaxNLocator

from punctstyle.io import atomic_path
from punctstyle.marks import MARK_NAMES, MARKS

PNG_DPI: int = 150

NEUTRAL_COLOUR = "#555555"
"""Bars that are not about one mark (e.g. the f5 bins)."""

CI_COLOUR = "#b0b0b0"
"""Grey of the confidence bands (as in the paper)."""

BASELINE_COLOUR = "#1f77b4"
"""Blue of the baselines and of the cross-class distributions (as in the paper)."""

ELLIPSIS = "\u2026"
TITLE_LINES: int = 3
"""Most lines a title takes before it is shortened with an ellipsis."""
LABEL_LINES: int = 2
"""Most lines an axis label or a legend entry takes."""
TEXT_SHARE: float = 0.8
"""Share of an axes' grid cell width that its title or x label may take; the rest is left to
tick labels, colour bars and padding."""
Y_TEXT_SHARE: float = 0.6
"""Share of an axes' grid cell height that its y label may take (the title and the x label
take the rest)."""
MARK_LEGEND_WIDTH: float = 1.7
"""Inches taken by a legend of the ten marks placed beside the axes."""


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


# ------------------------------------------------------------------------ text that fits


def points(size: Any) -> float:
    """A font size in points: a number, or a name such as ``"large"`` (relative to ``font.size``)."""
    return float(FontProperties(size=size).get_size_in_points())


def text_width(fig: Figure, text: str, fontsize: float) -> float:
    """Width in inches of one line of plain ``text`` at ``fontsize`` points, as ``fig`` renders it."""
    renderer = fig.canvas.get_renderer()
    width, _, _ = renderer.get_text_width_height_descent(text, FontProperties(size=fontsize), ismath=False)
    return float(width) / fig.dpi


def _longest_prefix(fig: Figure, text: str, width: float, fontsize: float, suffix: str = "") -> int:
    """Largest ``n >= 1`` with ``text[:n] + suffix`` at most ``width`` inches wide (bisection)."""
    low, high = 1, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(fig, text[:mid] + suffix, fontsize) <= width:
            low = mid
        else:
            high = mid - 1
    return low


def _wrap_paragraph(fig: Figure, paragraph: str, width: float, fontsize: float) -> list[str]:
    """Greedy word wrap of one paragraph to ``width`` inches; a word wider than a line is cut."""
    lines: list[str] = []
    line = ""
    for word in paragraph.split():
        candidate = f"{line} {word}" if line else word
        if text_width(fig, candidate, fontsize) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while text_width(fig, word, fontsize) > width:
            cut = _longest_prefix(fig, word, width, fontsize)
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line or not lines:
        lines.append(line)
    return lines


def fit_text(fig: Figure, text: Any, width: float, fontsize: Any, max_lines: int = TITLE_LINES) -> str:
    """``text`` as plain text (``$`` escaped, never mathtext) in lines at most ``width`` inches wide.

    Each line of ``text`` is word-wrapped (greedy; a word longer than a line is cut) with
    widths measured by ``fig``'s renderer at ``fontsize`` (points or a size name). Beyond
    ``max_lines`` lines the text is cut and the last kept line ends in an ellipsis.
    """
    size = points(fontsize)
    width = max(float(width), 0.3)
    lines = [line for paragraph in str(text).split("\n") for line in _wrap_paragraph(fig, paragraph, width, size)]
    if len(lines) > max_lines:
        last = lines[max_lines - 1].rstrip()
        lines = lines[:max_lines - 1]
        if text_width(fig, last + ELLIPSIS, size) > width:
            last = last[:_longest_prefix(fig, last, width, size, suffix=ELLIPSIS)].rstrip()
        lines.append(last + ELLIPSIS)
    return plain_text("\n".join(lines))


def cell_size(ax: Axes) -> tuple[float, float]:
    """Width and height in inches of the grid cell(s) that ``ax`` spans (whole figure if none)."""
    fig_width, fig_height = ax.figure.get_size_inches()
    spec = ax.get_subplotspec()
    if spec is None:
        return float(fig_width), float(fig_height)
    nrows, ncols = spec.get_gridspec().get_geometry()
    rows, cols = spec.rowspan, spec.colspan
    return float(fig_width) * len(cols) / ncols, float(fig_height) * len(rows) / nrows


def set_title(ax: Axes, text: Any, fontsize: Any = None, *, prefix: str = "", suffix: str = "",
              max_lines: int = TITLE_LINES, reserve: float = 0.0) -> None:
    """Title of ``ax``: ``prefix``, plain ``text`` fitted to the axes' cell, then ``suffix``.

    ``prefix`` and ``suffix`` are kept as they are (mathtext allowed), so they must be short;
    ``reserve``: inches of the cell's width taken by something beside the axes (a legend).
    """
    size = rcParams["axes.titlesize"] if fontsize is None else fontsize
    fitted = fit_text(ax.figure, text, TEXT_SHARE * (cell_size(ax)[0] - reserve), size, max_lines)
    ax.set_title(prefix + fitted + suffix, fontsize=size)


def set_suptitle(fig: Figure, text: Any, fontsize: Any = None, max_lines: int = TITLE_LINES) -> None:
    """Figure title, plain ``text`` fitted to 95 % of the figure width."""
    size = rcParams["figure.titlesize"] if fontsize is None else fontsize
    fig.suptitle(fit_text(fig, text, 0.95 * fig.get_size_inches()[0], size, max_lines), fontsize=size)


def set_xlabel(ax: Axes, text: Any, *, prefix: str = "", max_lines: int = LABEL_LINES, reserve: float = 0.0) -> None:
    """x label of ``ax``: ``prefix`` (may be mathtext) then plain ``text`` fitted to the cell width
    less ``reserve`` inches (a legend beside the axes)."""
    size = rcParams["axes.labelsize"]
    width = TEXT_SHARE * (cell_size(ax)[0] - reserve)
    ax.set_xlabel(prefix + fit_text(ax.figure, text, width, size, max_lines))


def set_ylabel(ax: Axes, text: Any, *, prefix: str = "", max_lines: int = LABEL_LINES) -> None:
    """y label of ``ax``: ``prefix`` (may be mathtext) then plain ``text`` fitted to the cell height."""
    size = rcParams["axes.labelsize"]
    ax.set_ylabel(prefix + fit_text(ax.figure, text, Y_TEXT_SHARE * cell_size(ax)[1], size, max_lines))


def legend_label(fig: Figure, text: Any, width: float = 2.0, fontsize: Any = 8) -> str:
    """A legend entry: plain ``text`` fitted to ``width`` inches (two lines at most)."""
    return fit_text(fig, text, width, fontsize, LABEL_LINES)


def integer_axis(axis: Any) -> None:
    """Ticks of a count or year axis (``ax.xaxis`` or ``ax.yaxis``) only at integers, spaced
    1, 2 or 5 times a power of ten (years by decades: 1700, 1750, ...)."""
    axis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))


# ------------------------------------------------------------------------ placeholders


def _words(text: str) -> list[str]:
    return "".join(c.lower() if c.isalnum() else " " for c in text).split()


def without_repeats(message: str, title: str | None = None) -> str:
    """``message`` without the clauses (split at ``": "``) that repeat an earlier one or the title.

    A clause repeats when its words (case and punctuation aside) are the first words of an
    earlier clause or of ``title``: "No genre results: No genre results: too few classes" and
    "No genre recognition results: No genre recognition: too few classes" both keep the first
    clause and "too few classes".
    """
    kept: list[str] = []
    seen = [_words(title)] if title else []
    for clause in str(message).split(": "):
        words = _words(clause)
        if words and any(earlier[:len(words)] == words for earlier in seen):
            continue
        kept.append(clause)
        seen.append(words)
    return ": ".join(kept) if kept else str(message)


PLACEHOLDER_WIDTH: float = 6.0
PLACEHOLDER_LINES: int = 8


def placeholder_figure(message: str, title: str | None = None) -> Figure:
    """A small figure that only says ``message`` (why there is nothing to draw), said once.

    Clauses of ``message`` that repeat ``title`` or an earlier clause are dropped
    (:func:`without_repeats`); the text is wrapped to the figure (at most eight lines) and the
    figure is as tall as its text needs.
    """
    measure = Figure(figsize=(PLACEHOLDER_WIDTH, 1.0))
    FigureCanvasAgg(measure)
    text = fit_text(measure, without_repeats(message, title), 0.9 * PLACEHOLDER_WIDTH, 10, PLACEHOLDER_LINES)
    fitted_title = fit_text(measure, title, 0.9 * PLACEHOLDER_WIDTH, rcParams["axes.titlesize"]) if title else ""
    n_lines = text.count("\n") + 1 + (fitted_title.count("\n") + 1 if title else 0)
    fig, ax = new_figure(figsize=(PLACEHOLDER_WIDTH, max(2.5, 0.8 + 0.25 * n_lines)))
    ax.set_axis_off()
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=10, transform=ax.transAxes)
    if title:
        ax.set_title(fitted_title)
    return fig

