"""Punctuation-sequence images (figures ``fig:raw_sequence`` and ``heatmaps_punctuation_marks``).

A book's punctuation is a sequence of mark codes 0..9 (``marks.MARKS`` order). The figure
shows ``length`` (3000) successive marks starting at the midpoint of the sequence, laid out
row-major on a ``rows x cols`` grid (50 x 60), one colour per mark (``marks.MARK_COLOURS``,
exactly, no interpolation) and a colour bar labelled with the marks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.cm import ScalarMappable
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.figure import Figure

from punctstyle.marks import MARK_COLOURS, MARKS, N_MARKS
from punctstyle.report.plots.base import new_figure, set_title

SEQUENCE_LENGTH: int = 3000
GRID_SHAPE: tuple[int, int] = (50, 60)
PAD_CODE: int = N_MARKS
"""Sentinel of the empty cells (book shorter than the window); drawn white."""
PAD_COLOUR = "#ffffff"


def _as_codes(codes: Any) -> np.ndarray:
    arr = np.asarray(codes)
    if arr.ndim != 1:
        raise ValueError(f"mark-code sequence must be one-dimensional, got shape {arr.shape}")
    if arr.size and (not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0 or arr.max() >= N_MARKS):
        raise ValueError(f"mark codes must be integers 0..{N_MARKS - 1}")
    return arr.astype(np.uint8, copy=False)


def midpoint_window(codes: Any, length: int = SEQUENCE_LENGTH) -> np.ndarray:
    """``length`` successive codes starting at the midpoint ``n // 2`` of the sequence.

    When fewer than ``length`` codes follow the midpoint the window is moved back so that it
    ends at the last code (``start = min(n // 2, n - length)``), and a sequence shorter than
    ``length`` is returned whole; the result always has ``min(n, length)`` codes.
    """
    if length <= 0:
        raise ValueError(f"window length must be positive, got {length}")
    arr = _as_codes(codes)
    n = arr.size
    start = max(0, min(n // 2, n - length))
    return arr[start:start + length].copy()


def sequence_grid(codes: Any, rows: int = GRID_SHAPE[0], cols: int = GRID_SHAPE[1]) -> np.ndarray:
    """The (rows, cols) uint8 grid of the midpoint window of ``rows * cols`` marks.

    Cell ``(r, c)`` holds the mark code at position ``r * cols + c`` of
    :func:`midpoint_window` (row-major); cells beyond the end of a short book hold
    :data:`PAD_CODE` (drawn white).
    """
    if rows <= 0 or cols <= 0:
        raise ValueError(f"grid shape must be positive, got ({rows}, {cols})")
    window = midpoint_window(codes, rows * cols)
    grid = np.full(rows * cols, PAD_CODE, dtype=np.uint8)
    grid[:window.size] = window
    return grid.reshape(rows, cols)


def sequence_colormap() -> tuple[ListedColormap, BoundaryNorm]:
    """Colormap and norm mapping code ``i`` to ``MARK_COLOURS[i]`` and :data:`PAD_CODE` to white."""
    cmap = ListedColormap([*MARK_COLOURS, PAD_COLOUR], name="punctuation_marks")
    norm = BoundaryNorm(np.arange(-0.5, PAD_CODE + 1.0, 1.0), cmap.N)
    return cmap, norm


def plot_punctuation_sequence(codes: Any, rows: int = GRID_SHAPE[0], cols: int = GRID_SHAPE[1],
                              title: str | None = None, colorbar: bool = True) -> Figure:
    """Image of the midpoint window of a book's mark sequence (one cell per mark, row-major).

    ``codes``: the book's mark codes (0..9). Each cell is drawn in its mark's colour exactly
    (``interpolation="none"``); the colour bar lists the ten marks.
    """
    grid = sequence_grid(codes, rows, cols)
    cmap, norm = sequence_colormap()
    fig, ax = new_figure(figsize=(6.0, 5.0 * rows / max(cols, 1) + 0.6))
    ax.imshow(grid, cmap=cmap, norm=norm, interpolation="none", aspect="equal", origin="upper")
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        set_title(ax, title)
    if colorbar:
        mark_cmap = ListedColormap(list(MARK_COLOURS), name="marks")
        mark_norm = BoundaryNorm(np.arange(-0.5, N_MARKS, 1.0), mark_cmap.N)
        bar = fig.colorbar(ScalarMappable(norm=mark_norm, cmap=mark_cmap), ax=ax, ticks=np.arange(N_MARKS))
        bar.ax.set_yticklabels(list(MARKS))
        bar.ax.tick_params(length=0)
    return fig
