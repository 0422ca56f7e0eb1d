"""Small helpers behind the report: what the figures draw, the corpus and temporal tables.

Everything here is pure (tables in, tables or strings out), except the one file it owns:
the books the per-book figures drew (:func:`write_document_choice`,
:func:`read_document_choice`, read back when the report is built).

* Choosing what to draw: :func:`choose_sequence_books` (two books each of the three authors
  with the most books, as in the paper's figures ``fig:raw_sequence``, ``feature_freq`` and
  ``scatter_plot_freq_pun``), :func:`scatter_pairs` (the paper's pairs: same author, then
  different authors, in turn), :func:`default_over_time_authors`.

The recognition tables (Tables 2-4, the appendix tables) are :mod:`punctstyle.report.recognition_tables`.

Rendering (markdown and HTML tables, pages) is :mod:`punctstyle.report.render`; the figure that
says why there is nothing to draw is :func:`punctstyle.report.plots.base.placeholder_figure`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from punctstyle.io import write_json_atomic
from punctstyle.io import InputError
from punctstyle.analyses.temporal_tables import author_date_counts, default_over_time_authors  # noqa: F401 (re-exported)
from punctstyle.corpus.exclusions import exclusion_reason_groups
from punctstyle.marks import MARKS


# ------------------------------------------------------------------ choosing what to draw


def choose_sequence_books(frame: pd.DataFrame, n_authors: int = 3, per_author: int = 2) -> list[int]:
    """Book ids to draw: ``per_author`` books of each of the ``n_authors`` authors with most books.

    Authors are ranked by number of books (ties: author name); an author's books by number of
    marks, most first (ties: book id), so the midpoint window of the sequence images is full.
    Authors with fewer than ``per_author`` books are passed over; the result has
    ``n_authors * per_author`` ids, or fewer when the corpus has too few such authors.
    ``frame``: a corpus table (columns ``book_id``, ``author``, ``n_marks``).
    """
    rows = frame.loc[frame["author"].notna(), ["book_id", "author", "n_marks"]]
    counts = rows.groupby("author").size()
    ranked = counts[counts >= per_author].reset_index(name="n")
    ranked = ranked.sort_values(["n", "author"], ascending=[False, True], kind="mergesort")
    chosen: list[int] = []
    for author in ranked["author"].iloc[:n_authors]:
        books = rows.loc[rows["author"] == author].sort_values(
            ["n_marks", "book_id"], ascending=[False, True], kind="mergesort"
        )
        chosen += [int(b) for b in books["book_id"].iloc[:per_author]]
    return chosen


def scatter_pairs(n_books: int) -> list[tuple[int, int]]:
    """Index pairs of the f1-versus-f1 scatter plots: ``(i, i + 1 mod n)`` for each book ``i``.

    With the books listed two per author (``a1 a1' a2 a2' a3 a3'``) this gives the paper's six
    panels in order: same author ``(a1, a1')``, different authors ``(a1', a2)``, same author
    ``(a2, a2')``, ... and finally ``(a3', a1)``. Two books give one pair, fewer none.
    """
    if n_books < 2:
        return []
    if n_books == 2:
        return [(0, 1)]
    return [(i, (i + 1) % n_books) for i in range(n_books)]


def sequence_grid_shape(length: int) -> tuple[int, int]:
    """``(rows, cols)`` of a sequence image of ``length`` marks, about 5:6 like the paper's.

    ``cols = round(sqrt(1.2 * length))``, ``rows = ceil(length / cols)``: 3000 marks give the
    paper's 50 x 60 grid; cells beyond ``length`` stay empty.
    """
    if length < 1:
        raise ValueError(f"sequence length must be positive, got {length}")
    cols = max(1, int(round(math.sqrt(1.2 * length))))
    return int(math.ceil(length / cols)), cols


def _shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a word boundary, with an ellipsis."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:")
    return cut + "…"


def book_label(row: Mapping[str, Any], limit: int = 40) -> str:
    """``Title (Author, #id)`` of a corpus row; title and author shortened to fit a figure."""
    author = row.get("author")
    missing = author is None or (isinstance(author, float) and math.isnan(author))
    who = "" if missing else f"{_shorten(author, limit // 2)}, "
    return f"{_shorten(row.get('title'), limit)} ({who}#{int(row['book_id'])})"


def document_choice(frame: pd.DataFrame, book_ids: Sequence[int]) -> dict[str, list[dict[str, Any]]]:
    """What the per-book figures draw: the books (in order) and the scatter pairs.

    ``{"books": [{book_id, title, author, n_marks, label}], "pairs": [{first, second, books,
    relation}]}`` where ``first``/``second`` index ``books``, ``books`` reads ``label vs
    label`` and ``relation`` is ``same author`` or ``different authors``. Raises ``KeyError``
    naming the first id that is not in ``frame``.
    """
    by_id = frame.set_index(frame["book_id"].astype(np.int64), drop=False)
    books = []
    for book_id in book_ids:
        if int(book_id) not in by_id.index:
            raise KeyError(int(book_id))
        row = by_id.loc[int(book_id)]
        author = row["author"]
        books.append(
            {
                "book_id": int(book_id),
                "title": str(row["title"]),
                "author": None if pd.isna(author) else str(author),
                "n_marks": int(row["n_marks"]),
                "label": book_label(row),
            }
        )
    pairs = []
    for first, second in scatter_pairs(len(books)):
        a, b = books[first], books[second]
        same = a["author"] is not None and a["author"] == b["author"]
        pairs.append(
            {
                "first": first,
                "second": second,
                "books": f"{a['label']} vs {b['label']}",
                "relation": "same author" if same else "different authors",
            }
        )
    return {"books": books, "pairs": pairs}


def write_document_choice(path: Any, choice: Mapping[str, Any]) -> None:
    """``figures/documents/books.json``: the :func:`document_choice` the per-book figures drew."""

    write_json_atomic(path, dict(choice))


def read_document_choice(path: Any) -> dict[str, list[dict[str, Any]]]:
    """The choice of :func:`write_document_choice` (read back when the report is built)."""
    import json


    try:
        with open(path, encoding="utf-8") as handle:
            choice = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a readable JSON file ({exc})") from exc
    if not isinstance(choice, dict) or not {"books", "pairs"} <= set(choice):
        raise InputError(f"{path}: expected a JSON object with 'books' and 'pairs'")
    return choice


SUMMARY_LABELS: dict[str, str] = {
    "books_selected": "books selected from the catalog",
    "authors_selected": "authors selected from the catalog",
    "books_in_corpus": "documents in the corpus",
    "authors_in_corpus": "authors in the corpus",
    "genres_in_corpus": "genres in the corpus",
    "books_with_genre": "documents with a genre",
}


def _whole(value: float) -> int | float:
    """``27.0`` -> ``27``; other values unchanged."""
    return int(value) if float(value).is_integer() else value


def corpus_tables(summary: Mapping[str, Any], exclusions: pd.DataFrame,
                  corpus: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Tables of the data set (section 2.1): counts, exclusions, genres.

    ``summary``: ``corpus/summary.json``; ``exclusions``: ``corpus/exclusions.csv``
    (``book_id``, ``stage``, ``reason``); ``corpus``: a corpus table. Returns
    ``(counts, reasons, genres)``: ``quantity``/``value`` rows (the summary's counts in
    :data:`SUMMARY_LABELS` order, then documents per author; whole numbers as integers);
    excluded books per ``stage`` and reason group
    (:func:`punctstyle.corpus.exclusions.exclusion_reason_groups`, most frequent first); documents per
    ``genre`` (most first, ties by name).
    """

    rows = [(label, summary[key]) for key, label in SUMMARY_LABELS.items() if key in summary]
    per_author = corpus.groupby("author").size() if len(corpus) else pd.Series(dtype=np.int64)
    if len(per_author):
        rows += [
            ("documents per author: minimum", int(per_author.min())),
            ("documents per author: median", _whole(float(per_author.median()))),
            ("documents per author: maximum", int(per_author.max())),
        ]
    counts = pd.DataFrame({"quantity": [r[0] for r in rows], "value": pd.Series([r[1] for r in rows], dtype=object)})
    reasons = exclusion_reason_groups(exclusions)
    genres = corpus["genre"].dropna().value_counts().rename_axis("genre").reset_index(name="documents")
    genres = genres.sort_values(["documents", "genre"], ascending=[False, True], kind="mergesort")
    genres = genres.reset_index(drop=True)
    return counts, reasons, genres


TEMPORAL_LABELS: dict[str, str] = {
    "authors": "authors in the corpus",
    "authors_with_birth": "authors with a birth year",
    "authors_with_death": "authors with a death year",
    "authors_with_both": "authors with both years",
    "authors_with_a_year": "authors with a birth or a death year",
    "authors_in_window": "authors with a middle year in the window",
    "documents": "documents in the corpus",
    "documents_with_a_year": "documents whose author has a birth or a death year",
    "documents_in_window": "documents whose author has a middle year in the window",
}


def temporal_tables(summary: Mapping[str, Any], rate: pd.DataFrame,
                    f1_by_decade: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Tables of section 5 for the report: counts, punctuation rate, mean f1 by decade.

    ``summary``: ``analysis/temporal/summary.json``; ``rate`` and ``f1_by_decade``: the
    tables of :func:`punctstyle.analyses.temporal_tables.rate_by_decade` and
    :func:`punctstyle.analyses.temporal_tables.f1_by_decade`. Returns ``(counts, rate, f1)``: counts as
    ``quantity``/``value`` rows (the window first); the rate as ``decade``, ``n``,
    ``mean``, ``ci_low``, ``ci_high``; and one row per decade with ``n`` and the mean f1 of
    each mark (columns named by the marks, in ``marks.MARKS`` order).
    """

    window = summary.get("window", [None, None])
    rows = [("middle-year window", f"{window[0]}-{window[1]}")]
    rows += [(label, summary[key]) for key, label in TEMPORAL_LABELS.items() if key in summary]
    counts = pd.DataFrame({"quantity": [r[0] for r in rows], "value": pd.Series([r[1] for r in rows], dtype=object)})
    rate_table = rate.loc[:, ["decade", "n", "mean", "ci_low", "ci_high"]].reset_index(drop=True)
    if f1_by_decade.empty:
        f1 = pd.DataFrame(columns=["decade", "n", *MARKS])
    else:
        means = f1_by_decade.pivot(index="decade", columns="code", values="mean").sort_index()
        means = means.reindex(columns=range(len(MARKS)))
        means.columns = list(MARKS)
        n = f1_by_decade.groupby("decade")["n"].max()
        f1 = pd.concat([n.rename("n"), means], axis=1).rename_axis("decade").reset_index()
    return counts, rate_table, f1
