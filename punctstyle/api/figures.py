"""The paper's figures for one text or one author, as matplotlib figures (no file I/O).

* :func:`sequence_figure`: a text's punctuation sequence as the paper draws it (section 2,
  one coloured cell per mark, the midpoint window; :func:`punctstyle.report.plots.plot_punctuation_sequence`);
* :func:`fingerprint_figure`: f1 (mark frequencies, bars in the marks' colours) and f3 (the
  10 x 10 joint transition matrix: ``f^3_{ij}`` the share of successive mark pairs that are
  (i, j), summing to 1; a heat map) of one or more
  texts or authors side by side, one row each;
* :func:`text_figure`: an attribution's text beside its nearest authors' signatures;
* :func:`author_figure`: one author's fingerprint from a run or a bundle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from punctstyle.marks import MARK_COLOURS, MARKS, N_MARKS
from punctstyle.report.plots.base import mark_label, new_figure, set_title, set_xlabel, set_ylabel
from punctstyle.report.plots.sequence import plot_punctuation_sequence

SEQUENCE_ROWS, SEQUENCE_COLUMNS = 30, 40
"""The app's sequence image: 1,200 marks (the paper's figure 1 draws a window of a book)."""


def sequence_figure(sequence: Any, title: str | None = None, rows: int = SEQUENCE_ROWS,
                    cols: int = SEQUENCE_COLUMNS) -> Figure:
    """A punctuation sequence (``.marks`` codes, or the codes themselves) drawn as in the paper."""
    codes = np.asarray(getattr(sequence, "marks", sequence), dtype=np.uint8)
    return plot_punctuation_sequence(codes, rows=rows, cols=cols, title=title)


def fingerprint_figure(fingerprints: Mapping[str, Mapping[str, Any]], title: str | None = None) -> Figure:
    """One row per entry of ``fingerprints`` (label -> ``{"f1": 10 values, "f3": 100 values}``):
    the f1 bars on the left, the f3 heat map on the right (one shared colour scale, 0 .. max)."""
    if not fingerprints:
        raise ValueError("nothing to draw: no fingerprint")
    labels = list(fingerprints)
    f1 = [np.asarray(fingerprints[k]["f1"], dtype=np.float64).reshape(N_MARKS) for k in labels]
    f3 = [np.asarray(fingerprints[k]["f3"], dtype=np.float64).reshape(N_MARKS, N_MARKS) for k in labels]
    fig, axes = new_figure(len(labels), 2, figsize=(9.0, 3.6 * len(labels)), squeeze=False,
                           gridspec_kw={"width_ratios": [1.2, 1.0]})
    top = max(max(float(np.nanmax(v)) for v in f1) * 1.1, 0.05)
    vmax = max(float(np.nanmax(m)) for m in f3) or 1.0
    ticks = [mark_label(code) for code in range(N_MARKS)]
    for row, label in enumerate(labels):
        bars, heat = axes[row]
        bars.bar(np.arange(N_MARKS), f1[row], color=list(MARK_COLOURS), edgecolor="none")
        bars.set_xticks(np.arange(N_MARKS), list(MARKS))
        bars.set_ylim(0.0, top)
        set_ylabel(bars, "frequency f¹")
        set_title(bars, label)
        image = heat.imshow(f3[row], cmap="viridis", vmin=0.0, vmax=vmax, interpolation="none")
        heat.set_xticks(range(N_MARKS), ticks)
        heat.set_yticks(range(N_MARKS), ticks)
        set_xlabel(heat, "next mark")
        set_ylabel(heat, "mark")
        set_title(heat, "mark pairs f³")
        fig.colorbar(image, ax=heat, shrink=0.85)
    if title:
        fig.suptitle(title)
    return fig


def text_figure(attribution: Any, signatures: Any, nearest: int = 2) -> Figure:
    """The text's f1 and f3 above those of its ``nearest`` first-ranked authors (their signatures:
    :meth:`punctstyle.api.Results.signatures`)."""
    from punctstyle.marks import feature_column_names

    rows = {f"this text ({attribution.n_marks} marks)": attribution.features}
    table = signatures.set_index("author")
    for author in attribution.ranking["author"].head(nearest):
        row = table.loc[author]
        rows[f"{author} (rank {len(rows)})"] = {f: row[feature_column_names(f)].to_numpy(np.float64) for f in ("f1", "f3")}
    return fingerprint_figure(rows)


def author_figure(results: Any, author: str) -> Figure:
    """One author's fingerprint (mean f1 and f3 over the author's books)."""
    return fingerprint_figure({author: results.fingerprint(author)})
