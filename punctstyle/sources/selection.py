"""Selecting the books of the corpus from the parsed catalog (section 2.1 of the paper).

(Split from the former catalog.py.)"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import pandas as pd

from punctstyle.io import InputError
from punctstyle.sources.catalog import parse_catalog
from punctstyle.sources.persons import split_cell

DEFAULT_DROP_AUTHORS: tuple[str, ...] = ("Various", "Anonymous", "Unknown")
"""The paper's removed author labels (section 2.1)."""

SELECTION_COLUMNS: tuple[str, ...] = (
    "book_id",
    "title",
    "author",
    "birth",
    "death",
    "bookshelves",
    "language",
    "issued",
    "subjects",
)
"""Columns of the selection returned by :func:`select_books`."""


# --------------------------------------------------------------------------------------
# Filters: small pure functions, frame -> frame (rows kept in their order)
# --------------------------------------------------------------------------------------


def _author_keys(frame: pd.DataFrame) -> pd.Series:
    """Author identity: ``author_key`` when the table has it, else ``author``."""
    return frame["author_key"] if "author_key" in frame.columns else frame["author"]


def filter_unique_ids(frame: pd.DataFrame) -> pd.DataFrame:
    """Keep the first row of each book_id (the catalog feed has a few repeated rows)."""
    return frame[~frame["book_id"].duplicated(keep="first").to_numpy()]


def filter_language(frame: pd.DataFrame, language: str | None) -> pd.DataFrame:
    """Keep books whose only language is ``language`` (``en``); None keeps every book.

    Bilingual books (Language ``en; fr``) are dropped: their punctuation mixes conventions.
    """
    if language is None:
        return frame
    languages = frame["languages"] if "languages" in frame.columns else frame["language"].map(split_cell)
    keep = languages.map(lambda values: list(values) == [language]).astype(bool)
    return frame[keep]


def filter_type(frame: pd.DataFrame, type: str | None) -> pd.DataFrame:  # noqa: A002 - config name
    """Keep books of Gutenberg type ``type`` (``Text``; not ``Sound``, ``Image``, ...)."""
    if type is None:
        return frame
    return frame[frame["type"] == type]


def filter_authors(frame: pd.DataFrame, drop_authors: Iterable[str]) -> pd.DataFrame:
    """Drop books without an author (no person without a role tag) and books whose author's
    name is one of ``drop_authors`` (compared case-insensitively: "Various", "Anonymous",
    "Unknown")."""
    dropped = {name.strip().casefold() for name in drop_authors}
    names = frame["author"]
    has_author = names.notna() & (names.fillna("").str.strip() != "")
    listed = names.fillna("").str.strip().str.casefold().isin(dropped)
    return frame[has_author & ~listed]


def normalize_title(title: str) -> str:
    """Title for comparison: Unicode NFKC, case-folded, every non-alphanumeric removed.

    ``"Henry VI, Part 3"``, ``"henry vi part 3"`` and ``"Henry VI -- Part 3."`` compare equal
    (punctuation, spacing and case do not count).
    """
    folded = unicodedata.normalize("NFKC", title).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def filter_unique_titles(frame: pd.DataFrame, unique: bool = True) -> pd.DataFrame:
    """One book per title (compared by :func:`normalize_title`): keep the lowest book_id.

    Titles are compared across the whole table, whatever the author, as in the paper ("any
    given title appears only once"). Titles with no letter or digit are never merged.
    """
    if not unique or frame.empty:
        return frame
    normalized = frame["title"].map(normalize_title)
    order = np.argsort(frame["book_id"].to_numpy(), kind="stable")
    first = ~normalized.iloc[order].duplicated(keep="first")
    keep = pd.Series(False, index=frame.index)
    keep.iloc[order] = first.to_numpy()
    keep |= normalized == ""
    return frame[keep.to_numpy()]


def filter_title_words(frame: pd.DataFrame, words: Iterable[str]) -> pd.DataFrame:
    """Drop books whose title contains one of ``words`` as a whole word, ignoring case
    (``"complete"`` matches "Works -- Complete" but not "Completed" or "Incomplete")."""
    words = [w for w in words if w]
    if not words:
        return frame
    pattern = r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b"
    hit = frame["title"].str.contains(pattern, case=False, regex=True, na=False)
    return frame[~hit.to_numpy()]


def filter_min_docs(frame: pd.DataFrame, min_docs: int | None) -> pd.DataFrame:
    """Keep authors with at least ``min_docs`` books in ``frame`` (the paper: 10)."""
    if not min_docs or min_docs <= 1:
        return frame
    keys = _author_keys(frame)
    sizes = keys.map(keys.value_counts())
    return frame[(sizes >= min_docs).to_numpy()]


def sample_authors(frame: pd.DataFrame, max_authors: int | None, seed: int = 0) -> pd.DataFrame:
    """Keep the books of ``max_authors`` authors drawn at random (numpy ``default_rng(seed)``
    over the sorted author keys, without replacement); None, or at least as many as there
    are, keeps every author. The same table and seed give the same authors."""
    if max_authors is None:
        return frame
    if max_authors < 0:
        raise ValueError(f"max_authors must be >= 0, got {max_authors}")
    keys = _author_keys(frame)
    authors = np.sort(keys.dropna().unique().astype(str))
    if max_authors >= len(authors):
        return frame
    chosen = np.random.default_rng(seed).choice(authors, size=max_authors, replace=False)
    return frame[keys.isin(set(chosen.tolist())).to_numpy()]


def cap_docs(frame: pd.DataFrame, max_docs: int | None, min_docs: int | None = None) -> pd.DataFrame:
    """Keep at most ``max_docs`` books, deterministically, keeping ``min_docs`` per author
    where possible.

    1. If ``k = max_docs // min_docs`` is smaller than the number of authors, keep only the
       ``k`` authors with the most books (ties: author key); with ``k = 0`` (fewer books
       allowed than the minimum) keep the single largest author, whose minimum then cannot
       hold.
    2. Share ``max_docs`` among the kept authors as evenly as their book counts allow
       (smallest authors first, each gets ``min(n_books, remaining // authors_left)``), so
       every kept author gets at least ``min_docs`` books.
    3. Each author keeps its books with the lowest book ids.
    """
    if max_docs is None or len(frame) <= max_docs:
        return frame
    if max_docs < 0:
        raise ValueError(f"max_docs must be >= 0, got {max_docs}")
    minimum = max(int(min_docs or 1), 1)
    keys = _author_keys(frame).fillna("")
    counts = keys.value_counts()
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    keep_authors = max(max_docs // minimum, 1) if max_docs > 0 else 0
    ranked = ranked[:keep_authors]
    quotas: dict[str, int] = {}
    remaining = max_docs
    ascending = sorted(ranked, key=lambda item: (item[1], item[0]))
    for position, (author, n_books) in enumerate(ascending):
        take = min(n_books, remaining // (len(ascending) - position))
        quotas[author] = take
        remaining -= take
    rank_in_author = frame["book_id"].groupby(keys.to_numpy()).rank(method="first")
    quota = keys.map(quotas).fillna(0)
    return frame[(rank_in_author <= quota).to_numpy()]


# --------------------------------------------------------------------------------------
# The selection
# --------------------------------------------------------------------------------------


def _finalise(frame: pd.DataFrame) -> pd.DataFrame:
    """Selection columns, sorted by book_id; namesakes get their full catalog string."""
    out = frame.sort_values("book_id", kind="stable").reset_index(drop=True)
    if "author_key" in out.columns and not out.empty:
        persons_per_name = out.groupby("author")["author_key"].transform("nunique")
        out["author"] = out["author"].where(persons_per_name <= 1, out["author_key"])
    out = out.loc[:, list(SELECTION_COLUMNS)].copy()
    out["book_id"] = out["book_id"].astype("int64")
    out["birth"] = out["birth"].astype("Int64")
    out["death"] = out["death"].astype("Int64")
    return out


def _run_filters(
    frame: pd.DataFrame, steps: Sequence[tuple[str, Callable[[pd.DataFrame], pd.DataFrame]]], log: list[dict]
) -> tuple[pd.DataFrame, tuple[str | None, int]]:
    """Apply the named filters in order, appending ``{"filter", "removed", "remaining"}`` to
    ``log`` for each; returns the rows left and the largest author (name, books) just before
    ``min_docs_per_author`` (``(None, 0)`` without that step)."""
    largest: tuple[str | None, int] = (None, 0)
    for name, step in steps:
        before = len(frame)
        if name == "min_docs_per_author":
            largest = largest_author(frame)
        frame = step(frame)
        log.append({"filter": name, "removed": before - len(frame), "remaining": len(frame)})
    return frame, largest


def select_books(
    catalog: pd.DataFrame,
    *,
    language: str | None = "en",
    type: str | None = "Text",  # noqa: A002 - the workflow config's name
    drop_authors: Sequence[str] = DEFAULT_DROP_AUTHORS,
    unique_titles: bool = True,
    drop_title_words: Sequence[str] = ("complete",),
    min_docs_per_author: int | None = 10,
    max_authors: int | None = None,
    max_docs: int | None = None,
    seed: int = 0,
) -> tuple[pd.DataFrame, list[dict]]:
    """Select the corpus from a catalog (:func:`read_catalog`) with the paper's filters.

    Filters, in order (each one of the functions above, on :func:`parse_catalog`'s table):
    ``unique_book_ids`` (first row of a repeated Text#), ``language`` (only language ``en``),
    ``type`` (``Text``), ``drop_authors`` (no author, or "Various", "Anonymous", "Unknown"),
    ``unique_titles`` (one book per title, lowest id),
    ``drop_title_words`` (no "complete" in the title), ``min_docs_per_author`` (>= 10 books;
    after all the filters above), ``max_authors`` (seeded sample of the authors left) and
    ``max_docs`` (deterministic cap, see :func:`cap_docs`). None or an empty value turns a
    filter off; the last two are off by default.

    The document's author is the first person without a role tag; authors are told apart by
    their full catalog string (name and years), and where two selected authors share a name
    their ``author`` label is that full string (``Dumas, Alexandre, 1802-1870``).

    Returns the selection (columns :data:`SELECTION_COLUMNS`: ``book_id`` int, ``title``,
    ``author``, ``birth``/``death`` Int64 (BCE negative), ``bookshelves`` and ``subjects``
    lists of str, ``language``, ``issued``), sorted by book_id with a fresh index, and the
    filter log: ``[{"filter": name, "removed": n, "remaining": m}, ...]`` in filter order,
    led by ``valid_book_ids`` (rows :func:`read_catalog` dropped for an invalid Text#).

    Raises :class:`EmptySelectionError` (one line naming ``min_docs_per_author`` and the
    largest author's book count before that filter) when no book is selected.
    """
    n_invalid = int(catalog.attrs.get("invalid_book_ids", 0))
    log: list[dict] = [{"filter": "valid_book_ids", "removed": n_invalid, "remaining": len(catalog)}]
    frame = parse_catalog(catalog)
    steps = [
        ("unique_book_ids", filter_unique_ids),
        ("language", lambda f: filter_language(f, language)),
        ("type", lambda f: filter_type(f, type)),
        ("drop_authors", lambda f: filter_authors(f, drop_authors)),
        ("unique_titles", lambda f: filter_unique_titles(f, unique_titles)),
        ("drop_title_words", lambda f: filter_title_words(f, drop_title_words)),
        ("min_docs_per_author", lambda f: filter_min_docs(f, min_docs_per_author)),
        ("max_authors", lambda f: sample_authors(f, max_authors, seed)),
        ("max_docs", lambda f: cap_docs(f, max_docs, min_docs_per_author)),
    ]
    frame, largest = _run_filters(frame, steps, log)
    if frame.empty:
        raise EmptySelectionError(_empty_selection_message(min_docs_per_author, *largest))
    return _finalise(frame), log


class EmptySelectionError(InputError):
    """The catalog filters left no book (one line: the threshold and the largest author)."""


def largest_author(frame: pd.DataFrame) -> tuple[str | None, int]:
    """The author with the most books in ``frame`` and that count (ties: the smallest author
    key); ``(None, 0)`` for a table without an authored book."""
    keys = _author_keys(frame).dropna()
    if keys.empty:
        return None, 0
    counts = keys.value_counts()
    top = int(counts.max())
    return str(min(counts.index[counts == top])), top


def _empty_selection_message(min_docs: int | None, author: str | None, n_books: int) -> str:
    who = f"the largest author, {author}, has {n_books}" if author else "the largest author has 0: no authored book is left"
    return (
        f"no book selected: no author has min_docs_per_author={min_docs} books after the "
        f"catalog filters ({who}); lower selection.min_docs_per_author or use a larger catalog"
    )
