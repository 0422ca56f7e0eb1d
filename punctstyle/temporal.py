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

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.corpus import feature_matrix
from punctstyle.io import InputError
from punctstyle.marks import MARKS, N_GAP_BINS, N_MARKS

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


# ------------------------------------------------------------------ by decade


def f1_by_decade(frame: pd.DataFrame, window: tuple[int, int] | None = DEFAULT_WINDOW, z: float = Z_95) -> pd.DataFrame:
    """Mean punctuation-mark frequency f^{1,k}_i per middle-year decade and mark, with 95 % CI.

    Long table, sorted by decade then mark code, with columns ``decade``, ``code`` (0..9),
    ``mark`` (``marks.MARKS``), ``n``, ``mean``, ``sd``, ``ci_low``, ``ci_high``.
    """
    dated = dated_documents(frame, window)
    f1 = feature_matrix(dated, "f1")
    decades = dated["decade"].to_numpy(dtype=np.int64)
    long = pd.DataFrame(
        {
            "decade": np.repeat(decades, N_MARKS),
            "code": np.tile(np.arange(N_MARKS), len(dated)),
            "value": f1.ravel(),
        }
    )
    out = grouped_mean_ci(long, ["decade", "code"], "value", z=z)
    out.insert(2, "mark", np.asarray(MARKS, dtype=object)[out["code"].to_numpy(dtype=np.int64)])
    return out


def rate_by_decade(frame: pd.DataFrame, window: tuple[int, int] | None = DEFAULT_WINDOW, z: float = Z_95) -> pd.DataFrame:
    """Mean punctuation rate E[f^{5,k}] per middle-year decade, with 95 % CI.

    Columns ``decade``, ``n``, ``mean``, ``sd``, ``ci_low``, ``ci_high``. The rate comes from
    :func:`punctuation_rate` (see :func:`punctuation_rate_source` for which estimate).
    """
    dated = dated_documents(frame, window)
    long = pd.DataFrame({"decade": dated["decade"].to_numpy(dtype=np.int64), "value": punctuation_rate(dated).to_numpy()})
    return grouped_mean_ci(long, "decade", "value", z=z)


def date_counts_by_decade(frame: pd.DataFrame, start: int = 1500, end: int | None = None) -> pd.DataFrame:
    """Documents per decade of the author's birth, death and middle year (figure of section 5).

    As in the paper, only documents whose author was born in ``start`` or later are counted
    (a document whose author has no birth year is left out too: :func:`author_date_exclusions`
    counts both); then each of the three years is counted in its decade when that decade lies
    in ``[start, end]`` (``end=None``: no upper bound). Columns ``decade``, ``birth``,
    ``death``, ``middle`` (document counts, 0 where none), one row per decade from the first
    to the last non-empty.
    """
    birth = _as_float_array(frame["birth"])
    death = _as_float_array(frame["death"])
    with np.errstate(invalid="ignore"):
        keep = birth >= start
    middle = middle_year(birth, death).to_numpy(dtype=np.float64, na_value=np.nan)
    columns: dict[str, pd.Series] = {}
    for name, years in (("birth", birth), ("death", death), ("middle", middle)):
        dec = np.floor(years[keep] / 10.0) * 10.0
        dec = dec[np.isfinite(dec) & (dec >= start)]
        if end is not None:
            dec = dec[dec <= end]
        columns[name] = pd.Series(dec.astype(np.int64)).value_counts()
    found = sorted(set().union(*(c.index for c in columns.values())))
    if not found:
        return pd.DataFrame({"decade": pd.Series(dtype=np.int64), "birth": pd.Series(dtype=np.int64),
                             "death": pd.Series(dtype=np.int64), "middle": pd.Series(dtype=np.int64)})
    decades = np.arange(found[0], found[-1] + 10, 10, dtype=np.int64)
    out = pd.DataFrame({"decade": decades})
    for name, counts in columns.items():
        out[name] = counts.reindex(decades, fill_value=0).to_numpy(dtype=np.int64)
    return out


def author_date_exclusions(frame: pd.DataFrame, start: int = 1500) -> dict[str, int]:
    """What :func:`date_counts_by_decade` leaves out: authors (distinct names) and documents
    whose author was born before ``start`` (``birth < start``) or has no birth year.

    Keys ``start``, ``authors_born_before_start``, ``documents_born_before_start``,
    ``authors_without_birth``, ``documents_without_birth``; documents without an author
    count among the documents only.
    """
    birth = _as_float_array(frame["birth"])
    named = frame["author"].notna().to_numpy(dtype=bool)
    with np.errstate(invalid="ignore"):
        before = birth < start
    unknown = np.isnan(birth)
    return {
        "start": int(start),
        "authors_born_before_start": int(frame["author"][before & named].nunique()),
        "documents_born_before_start": int(before.sum()),
        "authors_without_birth": int(frame["author"][unknown & named].nunique()),
        "documents_without_birth": int(unknown.sum()),
    }


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def author_dates_note(exclusions: dict[str, int]) -> str:
    """Caption line of the author-date histogram from :func:`author_date_exclusions`, e.g.
    "authors born in 1500 or later; left out: 6 authors born before 1500 (9 documents) and
    1 author without a birth year (3 documents)"."""
    start, e = exclusions["start"], exclusions
    return (f"authors born in {start} or later; left out: {_count(e['authors_born_before_start'], 'author')} "
            f"born before {start} ({_count(e['documents_born_before_start'], 'document')}) and "
            f"{_count(e['authors_without_birth'], 'author')} without a birth year "
            f"({_count(e['documents_without_birth'], 'document')})")


# ------------------------------------------------------------ authors over publication years


def read_publication_years(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a user CSV of publication years: columns ``book_id`` and ``year`` (integers).

    Raises :class:`punctstyle.io.InputError` (one line naming the file) when the file cannot
    be parsed, lacks a column, has a non-integer or missing value, or repeats a book_id.
    """
    try:
        raw = pd.read_csv(path)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the publication-year CSV ({exc})") from exc
    missing = [c for c in ("book_id", "year") if c not in raw.columns]
    if missing:
        raise InputError(f"{path}: publication-year CSV lacks column {missing[0]!r} (needs book_id, year)")
    out = pd.DataFrame(index=raw.index)
    for column in ("book_id", "year"):
        numeric = pd.to_numeric(raw[column], errors="coerce")
        bad = numeric.isna() | (numeric != np.floor(numeric))
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise InputError(f"{path}: row {row + 2}: {column} {raw[column].iloc[row]!r} is not an integer")
        out[column] = numeric.astype(np.int64)
    duplicated = out["book_id"].duplicated()
    if duplicated.any():
        book = int(out.loc[duplicated, "book_id"].iloc[0])
        raise InputError(f"{path}: book_id {book} has more than one publication year")
    return out


def f1_by_publication_year(
    frame: pd.DataFrame,
    years: pd.DataFrame,
    authors: Sequence[str],
    window: tuple[int, int] | None = DEFAULT_WINDOW,
) -> pd.DataFrame:
    """Mean, min and max f^{1,k}_i per chosen author, publication year and mark.

    ``years`` has columns ``book_id``, ``year``; books without a year, by other authors, or
    (when ``window`` is given) published outside it are left out. Columns ``author``,
    ``year``, ``code``, ``mark``, ``n``, ``mean``, ``min``, ``max``, sorted by author (in the
    order of ``authors``), year and code.
    """
    chosen = frame.loc[frame["author"].isin(list(authors))].drop(columns=["year"], errors="ignore")
    merged = chosen.merge(years.loc[:, ["book_id", "year"]], on="book_id", how="inner")
    if window is not None:
        merged = merged.loc[in_window(merged["year"], window)]
    f1 = feature_matrix(merged, "f1")
    long = pd.DataFrame(
        {
            "author": np.repeat(merged["author"].to_numpy(dtype=object), N_MARKS),
            "year": np.repeat(merged["year"].to_numpy(dtype=np.int64), N_MARKS),
            "code": np.tile(np.arange(N_MARKS), len(merged)),
            "value": f1.ravel(),
        }
    )
    grouped = long.groupby(["author", "year", "code"], sort=True)["value"]
    out = grouped.agg(n="count", mean="mean", min="min", max="max").reset_index()
    out.insert(3, "mark", np.asarray(MARKS, dtype=object)[out["code"].to_numpy(dtype=np.int64)])
    order = {a: i for i, a in enumerate(authors)}
    out["_order"] = out["author"].map(order)
    out = out.sort_values(["_order", "year", "code"], kind="stable").drop(columns="_order")
    return out.reset_index(drop=True)


def author_f1_over_time(
    frame: pd.DataFrame,
    publication_years: pd.DataFrame | str | os.PathLike[str] | None,
    authors: Sequence[str],
    window: tuple[int, int] | None = DEFAULT_WINDOW,
) -> tuple[pd.DataFrame | None, str]:
    """Optional per-author analysis over publication years (figure ``shak_wells_overtime``).

    ``publication_years`` is a table (``book_id``, ``year``), the path of such a CSV, or None.
    Returns ``(table, reason)``: the :func:`f1_by_publication_year` table and a one-line
    summary, or ``(None, reason)`` when there is no file, the file does not exist, or none
    of the chosen authors has a dated book (the reason says which, for the report). A file
    that exists but is malformed raises :class:`punctstyle.io.InputError`.
    """
    if publication_years is None:
        return None, ("no publication-year file given: Project Gutenberg metadata has no "
                      "publication dates, so the per-author analysis over time is skipped")
    if isinstance(publication_years, pd.DataFrame):
        years = publication_years
    else:
        path = Path(publication_years)
        if not path.is_file():
            return None, f"publication-year file {path} does not exist: the per-author analysis over time is skipped"
        years = read_publication_years(path)
    if not authors:
        return None, "no authors chosen for the per-author analysis over time"
    table = f1_by_publication_year(frame, years, authors, window)
    if table.empty:
        return None, ("none of the chosen authors (" + ", ".join(authors) + ") has a book with a "
                      "publication year" + ("" if window is None else f" in {window[0]}-{window[1]}"))
    found = list(dict.fromkeys(table["author"]))
    absent = [a for a in authors if a not in found]
    n_books = int(table.loc[table["code"] == 0, "n"].sum())
    reason = f"{n_books} dated books by {len(found)} of {len(authors)} chosen authors"
    if absent:
        reason += "; no dated book for " + ", ".join(absent)
    return table, reason
