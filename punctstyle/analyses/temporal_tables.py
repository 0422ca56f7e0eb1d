"""The temporal tables: f1 and punctuation rate by decade, dates, publication years.

(Split from the former temporal.py.)"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.analyses.temporal import (
    DEFAULT_WINDOW,
    Z_95,
    _as_float_array,
    dated_documents,
    grouped_mean_ci,
    in_window,
    middle_year,
    punctuation_rate,
)
from punctstyle.corpus.tables import feature_matrix
from punctstyle.io import InputError
from punctstyle.marks import MARKS, N_MARKS

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


def default_over_time_authors(frame: pd.DataFrame, years: pd.DataFrame, n: int = 3) -> list[str]:
    """The ``n`` authors with the most books that have a publication year (ties: author name).

    Used when ``temporal.authors_over_time`` is empty; ``years`` has columns ``book_id``, ``year``.
    """
    dated = frame.loc[frame["book_id"].isin(years["book_id"]) & frame["author"].notna(), "author"]
    counts = dated.value_counts().reset_index()
    counts.columns = ["author", "n"]
    counts = counts.sort_values(["n", "author"], ascending=[False, True], kind="mergesort")
    return [str(a) for a in counts["author"].iloc[:n]]


def author_date_counts(frame: pd.DataFrame, window: tuple[int, int]) -> dict[str, int]:
    """Counts of section 5 of the paper, per author (an author's first known birth/death year).

    ``authors``, ``authors_with_birth``, ``authors_with_death``, ``authors_with_both``,
    ``authors_with_a_year`` (birth or death known) and ``authors_in_window`` (middle year,
    :func:`punctstyle.analyses.temporal.middle_year`, within ``window``, inclusive); plus
    ``documents`` and ``documents_with_a_year``.
    """

    rows = frame.loc[frame["author"].notna()]
    years = rows.groupby("author", sort=True)[["birth", "death"]].first()
    has_birth = years["birth"].notna()
    has_death = years["death"].notna()
    middle = middle_year(years["birth"], years["death"])
    doc_years = frame["birth"].notna() | frame["death"].notna()
    return {
        "authors": int(len(years)),
        "authors_with_birth": int(has_birth.sum()),
        "authors_with_death": int(has_death.sum()),
        "authors_with_both": int((has_birth & has_death).sum()),
        "authors_with_a_year": int((has_birth | has_death).sum()),
        "authors_in_window": int(in_window(middle, window).sum()),
        "documents": int(len(frame)),
        "documents_with_a_year": int(doc_years.sum()),
    }
