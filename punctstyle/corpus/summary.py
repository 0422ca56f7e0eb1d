"""The corpus summary: documents, authors and excerpts, written and read here.

(Split from the former corpus.py.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from punctstyle.corpus.exclusions import exclusion_reason_groups
from punctstyle.corpus.tables import LABEL_COLUMNS, is_excerpt_table
from punctstyle.io import write_json_atomic
from punctstyle.io import read_json_object


def corpus_summary(selection: pd.DataFrame, corpus: pd.DataFrame, exclusions: pd.DataFrame) -> dict:
    """Counts for the README and the report: selected, included, excluded per stage/reason
    group (:func:`exclusion_reason_groups`)."""
    groups = exclusion_reason_groups(exclusions)
    by_reason: dict[str, int] = {}
    examples: dict[str, str] = {}
    for row in groups.itertuples(index=False):
        by_reason[row.reason] = by_reason.get(row.reason, 0) + int(row.books)
        examples.setdefault(row.reason, row.example)
    return {
        "books_selected": int(len(selection)),
        "authors_selected": int(selection["author"].nunique()),
        "books_in_corpus": int(len(corpus)),
        "authors_in_corpus": int(corpus["author"].nunique()),
        "genres_in_corpus": int(corpus["genre"].dropna().nunique()) if "genre" in corpus else 0,
        "books_with_genre": int(corpus["genre"].notna().sum()) if "genre" in corpus else 0,
        "texts_per_author": texts_per_author(corpus),
        "excluded_by_stage": {str(k): int(v) for k, v in exclusions["stage"].value_counts().items()},
        "excluded_by_reason": by_reason,
        "excluded_reason_examples": examples,
        **excerpt_summary(corpus),
        **label_counts(corpus),
    }


LABEL_COUNT_KEYS: dict[str, str] = {"time_slot": "time_slots_in_corpus", "gender": "genders_in_corpus"}
"""The summary key of each label column's class count (:func:`label_counts`)."""


def label_counts(corpus: pd.DataFrame) -> dict[str, int]:
    """Classes of each label column the corpus has (:data:`LABEL_COUNT_KEYS`, e.g.
    ``time_slots_in_corpus``: distinct non-null values); no key for a column it lacks (a Gutenberg
    corpus: the summary is as before)."""
    return {LABEL_COUNT_KEYS[c]: int(corpus[c].dropna().nunique()) for c in LABEL_COLUMNS if c in corpus}


def texts_per_author(corpus: pd.DataFrame) -> dict[str, int]:
    """Author -> how many texts of the corpus tables are theirs (an excerpt's text is its
    ``source_id``; whole texts: one per row), authors sorted: what the plan reads to decide which
    analyses the corpus' shape can feed (:mod:`punctstyle.plan.shapes`)."""
    if corpus.empty:
        return {}
    key = "source_id" if is_excerpt_table(corpus) else "book_id"
    texts = corpus[key] if key in corpus else pd.Series(range(len(corpus)), index=corpus.index)
    counts = texts.groupby(corpus["author"]).nunique()
    return {str(author): int(n) for author, n in sorted(counts.items())}


def excerpt_summary(corpus: pd.DataFrame) -> dict[str, Any]:
    """The summary's excerpt counts (``{}`` for whole texts): ``excerpt_marks``,
    ``texts_in_corpus``, and ``excerpts_per_text``, one record per text (``book_id``, ``title``,
    ``author``, ``excerpts``) in ``book_id`` order; ``books_in_corpus`` counts the excerpts."""
    if not is_excerpt_table(corpus):
        return {}
    texts = corpus.groupby("source_id", sort=True).agg(
        title=("title", "first"), author=("author", "first"), excerpts=("book_id", "size")
    )
    lengths = (corpus["stop_mark"] - corpus["first_mark"]).unique()
    return {
        "excerpt_marks": int(lengths[0]) if len(lengths) == 1 else None,
        "texts_in_corpus": int(len(texts)),
        "excerpts_per_text": [
            {"book_id": int(i), "title": str(r.title), "author": str(r.author), "excerpts": int(r.excerpts)}
            for i, r in zip(texts.index, texts.itertuples(index=False))
        ],
    }


# --------------------------------------------------------------------------- files


def write_corpus_summary(path: Any, summary: Mapping[str, Any]) -> None:
    """``corpus/summary.json`` (:func:`corpus_summary`)."""

    write_json_atomic(path, dict(summary))


def read_corpus_summary(path: Any) -> dict[str, Any]:
    """The summary of :func:`write_corpus_summary`."""

    return read_json_object(path)
