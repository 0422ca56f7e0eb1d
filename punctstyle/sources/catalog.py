"""Project Gutenberg's catalog: reading ``pg_catalog.csv``, parsing authors, selecting books.

Section 2.1 of the paper: keep English documents; remove the author labels "Various",
"Anonymous" and "Unknown"; let each title appear only once; remove every document with the
word "complete" in its title; keep only authors with at least 10 documents. (The paper also
drops documents without double quotation marks; that needs the texts, so it happens after
download, not here.) Bookshelves serve as genres (section 4); see :func:`assign_genres`.

The catalog is Gutenberg's ``pg_catalog.csv`` feed, columns
``Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves``; several values in
one cell are joined with ``"; "``. A person in the Authors cell looks like
``Dickens, Charles, 1812-1870`` or ``Leech, John, 1817-1864 [Illustrator]`` (a role tag in
brackets). Years are parsed by :func:`parse_years`; people by :func:`parse_person`.

Pipeline (:func:`select_books`)::

    catalog --parse_catalog--> one row per catalog row (author = first person without a role)
        --filter_unique_ids--> --filter_language--> --filter_type--> --filter_authors-->
        --filter_unique_titles--> --filter_title_words--> --filter_min_docs-->
        --sample_authors--> --cap_docs-->
        selection (sorted by book_id) + filter log

Each filter is a small pure function ``frame -> frame`` on the parsed table; the log has one
``{"filter", "removed", "remaining"}`` entry per filter, in that order.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from punctstyle.io import InputError
from punctstyle.sources.persons import first_author, split_cell

CATALOG_COLUMNS: tuple[str, ...] = (
    "Text#",
    "Type",
    "Issued",
    "Title",
    "Language",
    "Authors",
    "Subjects",
    "LoCC",
    "Bookshelves",
)
"""Columns of Gutenberg's ``pg_catalog.csv`` feed, in order."""

REQUIRED_COLUMNS: tuple[str, ...] = tuple(c for c in CATALOG_COLUMNS if c != "LoCC")
"""Columns :func:`read_catalog` insists on (``LoCC`` is not used)."""

MAX_BOOK_ID = 2**63 - 1
"""Largest book number kept (the int64 limit of the tables); 0 and larger ones are dropped."""


# --------------------------------------------------------------------------------------
# Reading the catalog
# --------------------------------------------------------------------------------------


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def read_catalog(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read ``pg_catalog.csv`` into a DataFrame of strings (``Text#`` as int64).

    Empty cells are empty strings (never NaN). Raises :class:`punctstyle.io.InputError`
    (one line naming the file) when the file is missing or unreadable, is not CSV, lacks one
    of :data:`REQUIRED_COLUMNS`, or has a ``Text#`` that is not a whole number. A whole number
    that is no book number (0, a negative one, or one past :data:`MAX_BOOK_ID`, the int64
    limit) is dropped
    with its row; their count is ``frame.attrs["invalid_book_ids"]``, which
    :func:`select_books` reports as its first filter. Other rows are kept as they are: the
    real 2018 feed repeats two book numbers (52276, 55485), which :func:`filter_unique_ids`
    resolves.
    """
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputError(f"{path}: catalog file not found") from exc
    except pd.errors.EmptyDataError as exc:
        raise InputError(f"{path}: catalog file is empty") from exc
    except (pd.errors.ParserError, UnicodeDecodeError, OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot parse as a CSV catalog ({_one_line(exc)})") from exc
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(
            f"{path}: missing required column(s) {', '.join(missing)} "
            f"(expected {','.join(CATALOG_COLUMNS)})"
        )
    ids = frame["Text#"].astype(str).str.strip()
    bad = ~ids.str.fullmatch(r"-?\d+")
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputError(f"{path}: Text# {ids.iloc[row]!r} on data row {row + 1} is not a book number")
    valid = ids.map(_is_book_number).astype(bool).to_numpy()
    frame = frame[valid].reset_index(drop=True)
    frame["Text#"] = ids[valid].astype("int64").to_numpy()
    frame.attrs["invalid_book_ids"] = int((~valid).sum())
    return frame


def _is_book_number(digits: str) -> bool:
    """A whole number (``-?\\d+``) that is a book number: 1 <= n <= MAX_BOOK_ID."""
    if digits.startswith("-"):
        return False
    stripped = digits.lstrip("0")
    return bool(stripped) and (len(stripped) < 19 or int(stripped) <= MAX_BOOK_ID)


# --------------------------------------------------------------------------------------
# One row per book
# --------------------------------------------------------------------------------------


def parse_catalog(catalog: pd.DataFrame) -> pd.DataFrame:
    """The raw catalog -> one parsed row per book, in catalog order.

    Columns: ``book_id`` (int64), ``type``, ``title``, ``language`` (the raw cell),
    ``languages`` (list), ``author`` (the first person without a role tag, name only; None
    when there is none), ``author_key`` (that person's string without role, see
    :class:`Person`), ``birth``, ``death`` (Int64), ``bookshelves``, ``subjects`` (lists of
    str), ``issued``. The filters below work on this table.
    """
    missing = [c for c in REQUIRED_COLUMNS if c not in catalog.columns]
    if missing:
        raise KeyError(f"catalog lacks column(s) {', '.join(missing)}")
    cells = catalog["Authors"].fillna("").astype(str)
    parsed = {cell: first_author(cell) for cell in pd.unique(cells)}
    authors = [parsed[cell] for cell in cells]

    def text(column: str) -> pd.Series:  # str dtype even when empty (a header-only catalog)
        return pd.Series(catalog[column].fillna("").astype(str).tolist(), dtype=str)

    return pd.DataFrame(
        {
            "book_id": catalog["Text#"].astype("int64").to_numpy(),
            "type": text("Type"),
            "title": text("Title"),
            "language": text("Language"),
            "languages": [split_cell(v) for v in text("Language").tolist()],
            "author": pd.Series([p.name if p else None for p in authors], dtype=object),
            "author_key": pd.Series([p.key if p else None for p in authors], dtype=object),
            "birth": pd.array([p.birth if p else None for p in authors], dtype="Int64"),
            "death": pd.array([p.death if p else None for p in authors], dtype="Int64"),
            "bookshelves": [split_cell(v) for v in text("Bookshelves").tolist()],
            "subjects": [split_cell(v) for v in text("Subjects").tolist()],
            "issued": text("Issued"),
        }
    )
