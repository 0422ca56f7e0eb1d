"""Temporal analysis (section 5 of the paper): punctuation versus the authors' middle years.

Project Gutenberg has no publication dates, so the paper dates a document by its author's
*middle year* (caption of the figure ``temporal_repartition``):

* the mean of the birth year and the death year when both are known;
* birth year + 30 when only the birth year is known;
* death year - 30 when only the death year is known;
* undefined otherwise.

(The paper's own code used birth + 30 in every case; this module follows the rule the paper
states.) Analyses keep the documents whose middle year lies in a window, 1500-2012 inclusive
by default, bin middle years into decades (floor to the decade: 1859 -> 1850, -1 -> -10) and
report, per decade, the mean of a per-document quantity with a 95 % normal confidence interval

    mean +- 1.96 * sd / sqrt(n)      (sd: sample standard deviation, ddof = 1)

(no interval, NaN, when n = 1). The quantities are the punctuation-mark frequencies f^{1,k}
and the punctuation rate E[f^{5,k}] (equation ``punctuation_rate``)::

    E[f^{5,k}] = sum_i i * f^{5,k}_i = |D^w_k| / n_k    (words per punctuation mark).

Every function here is pure: tables in, tables out; the only file it reads is a publication
year CSV that the caller names (:func:`read_publication_years`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.corpus.tables import feature_matrix
from punctstyle.marks import N_GAP_BINS

DEFAULT_WINDOW: tuple[int, int] = (1500, 2012)
"""Middle years kept by the analyses (inclusive), as in section 5 of the paper."""

MIDDLE_YEAR_OFFSET: int = 30
"""Years added to a lone birth year (or taken from a lone death year)."""

Z_95: float = 1.96
"""Normal quantile of the 95 % confidence intervals."""

RATE_COLUMN: str = "words_per_mark"
"""Optional exact per-document punctuation rate column of a features table."""

RATE_SOURCE_COLUMN = "words_per_mark column"
RATE_SOURCE_COUNTS = "n_words / n_marks"
RATE_SOURCE_F5 = "sum_i i*f5_i (lower bound: bin 39+ counted as 39)"


# --------------------------------------------------------------------------- years


def _as_float_array(values: Any) -> np.ndarray:
    """A float64 array of years, missing values (None, NA, NaN) as NaN."""
    return pd.array(values, dtype="Float64").to_numpy(dtype=np.float64, na_value=np.nan)


def _index_of(*candidates: Any) -> pd.Index | None:
    for candidate in candidates:
        if isinstance(candidate, pd.Series):
            return candidate.index
    return None


def middle_year(birth: Any, death: Any) -> pd.Series:
    """An author's middle year, the paper's proxy for a publication year (vectorised).

    ``middle = (birth + death) / 2`` if both are known, ``birth + 30`` if only the birth year
    is known, ``death - 30`` if only the death year is known, ``<NA>`` otherwise.

    ``birth`` and ``death`` are aligned array-likes (typically the nullable ``Int64`` columns
    of a features table; BCE years negative). Returns a nullable ``Float64`` Series (a mean of
    two years can end in .5) with the index of ``birth`` (or ``death``) when it is a Series.
    """
    b = _as_float_array(birth)
    d = _as_float_array(death)
    if b.shape != d.shape:
        raise ValueError(f"birth and death differ in length ({b.size} != {d.size})")
    has_b = ~np.isnan(b)
    has_d = ~np.isnan(d)
    out = np.full(b.shape, np.nan)
    both = has_b & has_d
    out[both] = (b[both] + d[both]) / 2.0
    only_b = has_b & ~has_d
    out[only_b] = b[only_b] + MIDDLE_YEAR_OFFSET
    only_d = has_d & ~has_b
    out[only_d] = d[only_d] - MIDDLE_YEAR_OFFSET
    return pd.Series(pd.array(out, dtype="Float64"), index=_index_of(birth, death), name="middle_year")


def decade(years: Any) -> pd.Series:
    """Floor each year to its decade: 1859 -> 1850, 1860 -> 1860, -1 -> -10, -10 -> -10.

    ``decade = 10 * floor(year / 10)``; missing years stay ``<NA>``. Returns an ``Int64``
    Series (index kept when ``years`` is a Series).
    """
    y = _as_float_array(years)
    out = np.floor(y / 10.0) * 10.0
    return pd.Series(pd.array(out, dtype="Float64").astype("Int64"), index=_index_of(years), name="decade")


def _check_window(window: tuple[int, int]) -> tuple[float, float]:
    lo, hi = window
    if lo > hi:
        raise ValueError(f"window start {lo} is after its end {hi}")
    return float(lo), float(hi)


def in_window(years: Any, window: tuple[int, int] = DEFAULT_WINDOW) -> np.ndarray:
    """Boolean mask ``window[0] <= year <= window[1]`` (inclusive); missing years are False."""
    lo, hi = _check_window(window)
    y = _as_float_array(years)
    with np.errstate(invalid="ignore"):
        return (y >= lo) & (y <= hi)


def dated_documents(frame: pd.DataFrame, window: tuple[int, int] | None = DEFAULT_WINDOW) -> pd.DataFrame:
    """The rows of a features table with a middle year, restricted to ``window`` (inclusive).

    Adds the columns ``middle_year`` (Float64) and ``decade`` (Int64, floor of the middle
    year to its decade). ``window=None`` keeps every dated row. The input is not modified.
    """
    for column in ("birth", "death"):
        if column not in frame.columns:
            raise KeyError(f"table has no column {column!r} (needed for the middle year)")
    years = middle_year(frame["birth"], frame["death"])
    keep = years.notna().to_numpy(dtype=bool)
    if window is not None:
        keep = keep & in_window(years, window)
    out = frame.loc[keep].copy()
    out["middle_year"] = years.array[keep]
    out["decade"] = decade(out["middle_year"])
    return out


# ------------------------------------------------------------------ means with CIs


def mean_ci(values: Any, z: float = Z_95) -> tuple[float, float, float]:
    """``(mean, low, high)`` of the finite ``values``: mean +- z * sd / sqrt(n), sd with ddof=1.

    ``low`` and ``high`` are NaN when fewer than two values are finite; all three are NaN
    when none is.
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    x = x[np.isfinite(x)]
    if x.size == 0:
        return (np.nan, np.nan, np.nan)
    mean = float(x.mean())
    if x.size < 2:
        return (mean, np.nan, np.nan)
    half = z * float(x.std(ddof=1)) / np.sqrt(x.size)
    return (mean, mean - half, mean + half)


def grouped_mean_ci(frame: pd.DataFrame, by: str | Sequence[str], value: str, z: float = Z_95) -> pd.DataFrame:
    """Per group of ``by``: ``n``, ``mean``, ``sd`` (ddof=1), ``ci_low``, ``ci_high`` of ``value``.

    ``ci = mean +- z * sd / sqrt(n)`` over the non-missing values of the group; NaN when
    ``n < 2``. Groups come out sorted by ``by``; the result has ``by`` as columns.
    """
    keys = [by] if isinstance(by, str) else list(by)
    values = pd.to_numeric(frame[value], errors="raise").astype(np.float64)
    values = values.where(np.isfinite(values))
    grouped = values.groupby([frame[k] for k in keys], sort=True)
    stats = pd.DataFrame({"n": grouped.count(), "mean": grouped.mean(), "sd": grouped.std(ddof=1)})
    half = z * stats["sd"] / np.sqrt(stats["n"].where(stats["n"] > 0))
    stats["ci_low"] = stats["mean"] - half
    stats["ci_high"] = stats["mean"] + half
    stats["n"] = stats["n"].astype(np.int64)
    return stats.reset_index()


# ------------------------------------------------------------------ punctuation rate


def expected_gap_from_f5(f5: np.ndarray) -> np.ndarray:
    """``E[f^5] = sum_i i * f^5_i`` for each row of an (n_docs, 40) f5 array.

    The last bin is the overflow bin ``39+`` and is counted as 39 words, so this is a lower
    bound of the exact rate ``n_words / n_marks`` (exact when no gap exceeds 38 words).
    """
    f5 = np.atleast_2d(np.asarray(f5, dtype=np.float64))
    if f5.shape[1] != N_GAP_BINS:
        raise ValueError(f"f5 has {f5.shape[1]} bins, expected {N_GAP_BINS}")
    return f5 @ np.arange(N_GAP_BINS, dtype=np.float64)


def punctuation_rate_source(frame: pd.DataFrame) -> str:
    """Which estimate :func:`punctuation_rate` uses for ``frame`` (one of the RATE_SOURCE_*)."""
    if RATE_COLUMN in frame.columns:
        return RATE_SOURCE_COLUMN
    if "n_words" in frame.columns and "n_marks" in frame.columns:
        return RATE_SOURCE_COUNTS
    return RATE_SOURCE_F5


def punctuation_rate(frame: pd.DataFrame) -> pd.Series:
    """Per-document punctuation rate ``E[f^{5,k}] = |D^w_k| / n_k`` (words per mark).

    Uses, in this order, the exact column ``words_per_mark``; the exact ratio
    ``n_words / n_marks`` (NaN where ``n_marks`` is 0); or ``sum_i i * f5_i`` from the f5
    columns, a lower bound since bin ``39+`` holds every gap of 39 words or more (see
    :func:`punctuation_rate_source`). Returns a float Series named ``words_per_mark``.
    """
    source = punctuation_rate_source(frame)
    if source == RATE_SOURCE_COLUMN:
        rate = pd.to_numeric(frame[RATE_COLUMN]).to_numpy(dtype=np.float64, na_value=np.nan)
    elif source == RATE_SOURCE_COUNTS:
        words = pd.array(frame["n_words"], dtype="Float64").to_numpy(dtype=np.float64, na_value=np.nan)
        marks = pd.array(frame["n_marks"], dtype="Float64").to_numpy(dtype=np.float64, na_value=np.nan)
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = np.where(marks > 0, words / marks, np.nan)
    else:
        rate = expected_gap_from_f5(feature_matrix(frame, "f5"))
    return pd.Series(rate, index=frame.index, name=RATE_COLUMN, dtype=np.float64)
