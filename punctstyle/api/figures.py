"""The paper's figures for one text or one author, as matplotlib figures (no file I/O).

* :func:`sequence_figure`: a text's punctuation sequence as the paper draws it (section 2,
  one coloured cell per mark, the midpoint window; :func:`punctstyle.report.plots.plot_punctuation_sequence`);
* :func:`fingerprint_figure`: f1 (mark frequencies, bars in the marks' colours) and f3 (the
  10 x 10 joint transition matrix: ``f^3_{ij}`` the share of successive mark pairs that are
  (i, j), summing to 1; a heat map) of one or more
  texts or authors side by side, one row each;
* :func:`comparison_figure`: several fingerprints in one compact figure (grouped f1 bars, a
  row of f3 heat maps);
* :func:`text_figure`: an attribution's text beside its nearest authors' signatures;
* :func:`author_figure`: one author's fingerprint from a run or a bundle;
* :func:`rolling_figure`: a rolling attribution along the text (:mod:`punctstyle.report.plots.rolling`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from punctstyle.marks import MARK_COLOURS, MARKS, N_MARKS
from punctstyle.report.plots.base import mark_label, plain_text
from punctstyle.report.plots.sequence import plot_punctuation_sequence

SEQUENCE_ROWS, SEQUENCE_COLUMNS = 30, 40
"""The app's sequence image: 1,200 marks (the paper's figure 1 draws a window of a book)."""
LABEL_CHARACTERS = 48
"""The longest row label drawn whole (a 9-inch figure's half)."""


def sequence_figure(sequence: Any, title: str | None = None, rows: int = SEQUENCE_ROWS,
                    cols: int = SEQUENCE_COLUMNS) -> Figure:
    """A punctuation sequence (``.marks`` codes, or the codes themselves) drawn as in the paper:
    its middle ``rows * cols`` marks, fewer rows for a shorter text (``ceil(n / cols)``)."""
    codes = np.asarray(getattr(sequence, "marks", sequence), dtype=np.uint8)
    rows = int(min(rows, max(1, -(-codes.size // cols))))
    return plot_punctuation_sequence(codes, rows=rows, cols=cols, title=title)


def fingerprint_figure(fingerprints: Mapping[str, Mapping[str, Any]], title: str | None = None) -> Figure:
    """One row per entry of ``fingerprints`` (label -> ``{"f1": 10 values, "f3": 100 values}``):
    the f1 bars on the left, the f3 heat map on the right (one colour scale, 0 .. the largest
    entry, shared by every row). A fixed layout (no constrained layout: 4 times faster to draw);
    long labels are shortened to fit."""
    if not fingerprints:
        raise ValueError("nothing to draw: no fingerprint")
    labels = list(fingerprints)
    f1 = [np.asarray(fingerprints[k]["f1"], dtype=np.float64).reshape(N_MARKS) for k in labels]
    f3 = [np.asarray(fingerprints[k]["f3"], dtype=np.float64).reshape(N_MARKS, N_MARKS) for k in labels]
    n = len(labels)
    height = 3.0 * n + (0.4 if title else 0.0)
    fig = Figure(figsize=(9.0, height))
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(n, 3, width_ratios=[1.25, 1.0, 0.05], left=0.08, right=0.93, wspace=0.3,
                            hspace=0.45, bottom=0.5 / height, top=1.0 - (0.75 if title else 0.35) / height)
    top = max(max(float(np.nanmax(v)) for v in f1) * 1.1, 0.05)
    vmax = max(float(np.nanmax(m)) for m in f3) or 1.0
    ticks = [plain_text(mark_label(code)) for code in range(N_MARKS)]
    image = None
    for row, label in enumerate(labels):
        bars, heat = fig.add_subplot(grid[row, 0]), fig.add_subplot(grid[row, 1])
        bars.bar(np.arange(N_MARKS), f1[row], color=list(MARK_COLOURS), edgecolor="none")
        bars.set_xticks(np.arange(N_MARKS), list(MARKS))
        bars.set_ylim(0.0, top)
        bars.set_ylabel("frequency f¹")
        bars.set_title(shortened(label), fontsize=10)
        image = heat.imshow(f3[row], cmap="viridis", vmin=0.0, vmax=vmax, interpolation="none")
        heat.set_xticks(range(N_MARKS), ticks, fontsize=8)
        heat.set_yticks(range(N_MARKS), ticks, fontsize=8)
        heat.set_xlabel("second mark", fontsize=9)
        heat.set_ylabel("first mark", fontsize=9)
        heat.set_title("mark pairs f³", fontsize=10)
    fig.colorbar(image, cax=fig.add_subplot(grid[:, 2]), label="share of mark pairs")
    if title:
        fig.suptitle(shortened(title, 90))
    return fig


def shortened(text: str, limit: int = LABEL_CHARACTERS) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut); mathtext is not read."""
    text = str(text)
    return plain_text(text if len(text) <= limit else text[: limit - 1] + "…")


COMPARISON_COLOURS = ("#333333", "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd")
"""Bar colours of :func:`comparison_figure`: the text first, then the authors by rank."""


def comparison_figure(fingerprints: Mapping[str, Mapping[str, Any]], title: str | None = None) -> Figure:
    """Several fingerprints compared in one compact figure: f1 as grouped bars (one colour per
    entry, marks on the x axis) above one f3 heat map per entry (one shared colour scale).
    Four to six axes instead of two per entry: about half the drawing time of
    :func:`fingerprint_figure` for three entries, which matters for the app's answer time."""
    if not fingerprints or len(fingerprints) > len(COMPARISON_COLOURS):
        raise ValueError(f"compare 1 to {len(COMPARISON_COLOURS)} fingerprints, got {len(fingerprints)}")
    labels = list(fingerprints)
    n = len(labels)
    f1 = np.array([np.asarray(fingerprints[k]["f1"], dtype=np.float64).reshape(N_MARKS) for k in labels])
    f3 = [np.asarray(fingerprints[k]["f3"], dtype=np.float64).reshape(N_MARKS, N_MARKS) for k in labels]
    fig = Figure(figsize=(9.0, 6.6))
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(2, n + 1, width_ratios=[1.0] * n + [0.05], height_ratios=[1.0, 1.25],
                            left=0.08, right=0.93, bottom=0.07, top=0.9 if title else 0.95, hspace=0.35, wspace=0.25)
    bars = fig.add_subplot(grid[0, :n])
    width = 0.8 / n
    for row, label in enumerate(labels):
        bars.bar(np.arange(N_MARKS) + (row - (n - 1) / 2) * width, f1[row], width=width,
                 color=COMPARISON_COLOURS[row], label=shortened(label), edgecolor="none")
    bars.set_xticks(np.arange(N_MARKS), list(MARKS))
    bars.set_ylabel("frequency f¹")
    bars.legend(fontsize=8, frameon=False, loc="upper right")
    vmax = max(float(np.nanmax(m)) for m in f3) or 1.0
    ticks = [plain_text(mark_label(code)) for code in range(N_MARKS)]
    image = None
    for column, label in enumerate(labels):
        heat = fig.add_subplot(grid[1, column])
        image = heat.imshow(f3[column], cmap="viridis", vmin=0.0, vmax=vmax, interpolation="none")
        heat.set_xticks(range(N_MARKS), ticks, fontsize=7)
        heat.set_yticks(range(N_MARKS), ticks if column == 0 else [], fontsize=7)
        heat.set_title(shortened(label, 30), fontsize=9, color=COMPARISON_COLOURS[column])
        heat.set_xlabel("second mark", fontsize=8)
        if column == 0:
            heat.set_ylabel("first mark (f³: mark pairs)", fontsize=8)
    fig.colorbar(image, cax=fig.add_subplot(grid[1, n]), label="share of mark pairs")
    if title:
        fig.suptitle(shortened(title, 90))
    return fig


def text_figure(attribution: Any, signatures: Any, nearest: int = 2) -> Figure:
    """The text's f1 and f3 beside those of its ``nearest`` first-ranked authors (their signatures:
    :meth:`punctstyle.api.Results.signatures`), :func:`comparison_figure`."""
    from punctstyle.marks import feature_column_names

    rows = {f"this text ({attribution.n_marks} marks)": attribution.features}
    table = signatures.set_index("author")
    for author in attribution.ranking["author"].head(nearest):
        row = table.loc[author]
        rows[f"{author} (rank {len(rows)})"] = {f: row[feature_column_names(f)].to_numpy(np.float64) for f in ("f1", "f3")}
    return comparison_figure(rows)


def author_figure(results: Any, author: str) -> Figure:
    """One author's fingerprint (mean f1 and f3 over the author's books)."""
    return fingerprint_figure({author: results.fingerprint(author)})


def rolling_figure(result: Any, title: str | None = None) -> Figure:
    """A rolling attribution (:meth:`punctstyle.api.Results.rolling`) along the text: each slice's
    score for the authors that win a slice, the slices' authors as a strip, the change points
    dashed (:func:`punctstyle.report.plots.rolling.rolling_figure`)."""
    from punctstyle.report.plots.rolling import rolling_figure as draw

    return draw(result, title if title is not None else f"rolling attribution: {result.n_marks} marks")
