"""Temporal figures of section 5: author dates (``temporal_repartition``), mean f1 by decade
(``freq_pun_overtime``), punctuation rate by decade (``7_overtime_3plots``) and chosen
authors over publication years (``shak_wells_overtime``).

The tables come from :mod:`punctstyle.analyses.temporal`; the functions only draw them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from punctstyle.marks import COMMA, COLON, ELLIPSIS, EXCLAMATION, LEFT_PAREN, MARK_COLOURS, MARK_NAMES, MARKS
from punctstyle.marks import N_MARKS, PERIOD, QUESTION, QUOTE, RIGHT_PAREN, SEMICOLON
from punctstyle.report.plots.base import CI_COLOUR, MARK_LEGEND_WIDTH, integer_axis, new_figure, set_suptitle, set_title
from punctstyle.analyses.temporal_tables import author_date_exclusions, author_dates_note, date_counts_by_decade

F1_PANEL_GROUPS: tuple[tuple[int, ...], ...] = (
    (QUOTE, PERIOD, COMMA),
    (EXCLAMATION, SEMICOLON),
    (LEFT_PAREN, RIGHT_PAREN, COLON, QUESTION, ELLIPSIS),
)
"""The paper's panels (b), (c), (d): quotation/period/comma; exclamation/semicolon; the rest."""

BIRTH_COLOUR = "#1f77b4"
DEATH_COLOUR = "#7f7f7f"
MIDDLE_COLOUR = "#2ca02c"


def _require(table: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise KeyError(f"{what} table has no column {missing[0]!r}")


def _from(table: pd.DataFrame, column: str, start: int | None) -> pd.DataFrame:
    return table if start is None else table.loc[table[column] >= start]


def omitted_decades(table: pd.DataFrame, start: int | None) -> str | None:
    """What a by-decade figure starting at ``start`` leaves out, in words (None when nothing):
    ``"Not drawn: 24 documents of the decades before 1700 (1590: 10, 1660: 14; temporal.decade_start)"``.
    ``table``: a by-decade table with the documents per decade in ``n`` (one row per decade, or
    per decade and mark as :func:`punctstyle.analyses.temporal_tables.f1_by_decade`)."""
    if start is None or "n" not in table.columns:
        return None
    before = table.loc[table["decade"] < start].groupby("decade", sort=True)["n"].max()
    if before.empty:
        return None
    counts = ", ".join(f"{int(decade)}: {int(n)}" for decade, n in before.items())
    total = int(before.sum())
    return (f"Not drawn: {total} document{'s' if total != 1 else ''} of the decades before {start} "
            f"({counts}; temporal.decade_start)")


def plot_author_dates(frame: pd.DataFrame, start: int = 1500, end: int | None = None) -> Figure:
    """Documents by decade of the author's birth (blue) and death (grey) year, and, in a second
    panel, with the middle year (green) as well; decades from ``start``.

    As in the paper only authors born in ``start`` or later are shown; the figure title says
    how many authors (and documents) were left out for an earlier or an unknown birth year
    (:func:`punctstyle.analyses.temporal_tables.author_date_exclusions`). ``frame``: one row per document with
    ``author``, ``birth`` and ``death``. One legend, below the panels, off the bars.
    """
    counts = date_counts_by_decade(frame, start=start, end=end)
    fig, axes = new_figure(1, 2, figsize=(11.0, 4.4), squeeze=False, sharey=True)
    left, right = axes[0]
    x = counts["decade"].to_numpy(dtype=np.float64)
    colours = {"birth": BIRTH_COLOUR, "death": DEATH_COLOUR, "middle": MIDDLE_COLOUR}
    for ax, columns in ((left, ("birth", "death")), (right, ("birth", "death", "middle"))):
        width = 10.0 / len(columns)
        for i, column in enumerate(columns):
            ax.bar(x + i * width, counts[column].to_numpy(), width=width, align="edge",
                   color=colours[column], label=f"{column} year", edgecolor="none")
        ax.set_xlabel("decade")
        integer_axis(ax.xaxis)
        integer_axis(ax.yaxis)
    left.set_ylabel("number of documents")
    left.set_title("birth and death year")
    right.set_title("birth, death and middle year")
    fig.legend(*right.get_legend_handles_labels(), loc="outside lower center", ncols=3, frameon=False)
    note = author_dates_note(author_date_exclusions(frame, start))
    set_suptitle(fig, f"Documents by decade of the author's dates: {note}", fontsize=10)
    return fig


DECADE = 10


def with_decade_gaps(rows: pd.DataFrame, x_column: str = "decade") -> pd.DataFrame:
    """``rows`` (one per decade) on every decade from the first to the last, a decade without
    data as a row of NaN, so that lines and bands break there instead of bridging it."""
    if rows.empty:
        return rows
    decades = rows[x_column].to_numpy(dtype=np.int64)
    every = np.arange(decades.min(), decades.max() + DECADE, DECADE)
    filled = rows.set_index(x_column).reindex(pd.Index(every, name=x_column))
    return filled.reset_index()


def _draw_marks(ax: Any, table: pd.DataFrame, codes: Sequence[int], x_column: str,
                low: str, high: str) -> None:
    for code in codes:
        rows = with_decade_gaps(table.loc[table["code"] == code].sort_values(x_column), x_column)
        x = rows[x_column].to_numpy(dtype=np.float64)
        ax.fill_between(x, rows[low].to_numpy(dtype=np.float64), rows[high].to_numpy(dtype=np.float64),
                        color=CI_COLOUR, alpha=0.45, linewidth=0)
        ax.plot(x, rows["mean"].to_numpy(dtype=np.float64), color=MARK_COLOURS[code], linewidth=1.5,
                marker="o", markersize=2.5, label=f"{MARKS[code]} {MARK_NAMES[code]}")


def plot_f1_by_decade(table: pd.DataFrame, start: int | None = None, title: str | None = None) -> Figure:
    """Mean f^1 of every mark versus middle-year decade in one panel, grey 95 % CI bands.

    ``table``: :func:`punctstyle.analyses.temporal_tables.f1_by_decade`; ``start``: first decade shown (the
    paper starts at 1700). The legend sits right of the axes, off the curves.
    """
    _require(table, ("decade", "code", "mean", "ci_low", "ci_high"), "f1-by-decade")
    shown = _from(table, "decade", start)
    fig, ax = new_figure(figsize=(8.0, 4.5))
    _draw_marks(ax, shown, range(N_MARKS), "decade", "ci_low", "ci_high")
    ax.set_xlabel("author middle year (decade)")
    ax.set_ylabel("mean frequency $f^1$")
    integer_axis(ax.xaxis)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    note = omitted_decades(table, start)
    if title or note:
        set_title(ax, ". ".join(text for text in (title, note) if text), reserve=MARK_LEGEND_WIDTH)
    return fig


def plot_f1_by_decade_panels(table: pd.DataFrame, start: int | None = None,
                             groups: Sequence[Sequence[int]] = F1_PANEL_GROUPS) -> Figure:
    """The paper's three panels of mean f^1 versus decade (quotation mark, period, comma;
    exclamation mark, semicolon; the other five marks), grey 95 % CI bands; decades without
    data break the lines (:func:`with_decade_gaps`)."""
    _require(table, ("decade", "code", "mean", "ci_low", "ci_high"), "f1-by-decade")
    shown = _from(table, "decade", start)
    fig, axes = new_figure(1, len(groups), figsize=(4.5 * len(groups), 4.0), squeeze=False)
    for ax, codes in zip(axes[0], groups):
        _draw_marks(ax, shown, codes, "decade", "ci_low", "ci_high")
        ax.set_xlabel("author middle year (decade)")
        integer_axis(ax.xaxis)
        set_title(ax, ", ".join(MARK_NAMES[c] for c in codes), fontsize=9)
        ax.legend(fontsize=7, loc="best", frameon=False)
    axes[0][0].set_ylabel("mean frequency $f^1$")
    if note := omitted_decades(table, start):
        set_suptitle(fig, note, fontsize=9)
    return fig


def plot_rate_by_decade(table: pd.DataFrame, start: int | None = None, source: str | None = None) -> Figure:
    """Mean punctuation rate E[f^5] (words per mark) versus middle-year decade, grey 95 % CI band.

    ``table``: :func:`punctstyle.analyses.temporal_tables.rate_by_decade`; ``source`` (e.g.
    :func:`punctstyle.analyses.temporal.punctuation_rate_source`) is written under the title. Decades
    without data break the line and the band (:func:`with_decade_gaps`).
    """
    _require(table, ("decade", "mean", "ci_low", "ci_high"), "rate-by-decade")
    rows = with_decade_gaps(_from(table, "decade", start).sort_values("decade"))
    x = rows["decade"].to_numpy(dtype=np.float64)
    fig, ax = new_figure(figsize=(7.0, 4.0))
    ax.fill_between(x, rows["ci_low"].to_numpy(dtype=np.float64), rows["ci_high"].to_numpy(dtype=np.float64),
                    color=CI_COLOUR, alpha=0.6, linewidth=0, label="95 % confidence interval")
    ax.plot(x, rows["mean"].to_numpy(dtype=np.float64), color="black", marker="o", markersize=3,
            linewidth=1.5, label="mean")
    ax.set_xlabel("author middle year (decade)")
    ax.set_ylabel("mean number of words\nper punctuation mark")
    integer_axis(ax.xaxis)
    if source:
        set_title(ax, f"({source})", fontsize=10, prefix="punctuation rate $E[f^5]$\n", max_lines=2)
    else:
        ax.set_title("punctuation rate $E[f^5]$", fontsize=10)
    ax.legend(loc="best", frameon=False, fontsize=8)
    if note := omitted_decades(table, start):
        set_suptitle(fig, note, fontsize=9)
    return fig


def plot_author_f1_over_time(table: pd.DataFrame, authors: Sequence[str] | None = None) -> Figure:
    """Mean f^1 per mark versus publication year, one panel per author, grey min-max band.

    ``table``: :func:`punctstyle.analyses.temporal_tables.f1_by_publication_year` (columns ``author``,
    ``year``, ``code``, ``mean``, ``min``, ``max``); ``authors``: panels to draw (default:
    every author of the table, in table order). Long names are wrapped over the panel; the
    legend sits right of the last panel.
    """
    _require(table, ("author", "year", "code", "mean", "min", "max"), "author-over-time")
    names = list(dict.fromkeys(table["author"])) if authors is None else list(authors)
    if not names:
        raise ValueError("no author to plot")
    fig, axes = new_figure(1, len(names), figsize=(4.5 * len(names) + MARK_LEGEND_WIDTH, 4.0), squeeze=False,
                           sharey=True)
    for ax, name in zip(axes[0], names):
        rows = table.loc[table["author"] == name]
        _draw_marks(ax, rows, range(N_MARKS), "year", "min", "max")
        set_title(ax, name, fontsize=10, reserve=MARK_LEGEND_WIDTH / len(names))
        ax.set_xlabel("publication year")
        integer_axis(ax.xaxis)
    axes[0][0].set_ylabel("mean frequency $f^1$")
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    return fig
