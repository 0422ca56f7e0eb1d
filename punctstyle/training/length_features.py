"""The features of the length curve's excerpts: punctuation features and word frequencies.

(Split from the former length_curve.py.)"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.book.excerpts import Document, Excerpt, cut_excerpt
from punctstyle.features import FEATURE_FUNCTIONS
from punctstyle.marks import PAPER_FEATURES

WHOLE = "whole"
"""The length label of whole documents (and the training mode on whole documents)."""


# ------------------------------------------------------------- features (the extension point)

ExcerptFeature = Callable[[Excerpt, Document], np.ndarray]
"""``function(excerpt, document) -> 1-d float vector``: one feature of an excerpt."""


def _punctuation_feature(name: str) -> ExcerptFeature:
    function = FEATURE_FUNCTIONS[name]
    return lambda excerpt, document: np.asarray(function(excerpt.marks, excerpt.gaps), dtype=np.float64)


EXCERPT_FEATURES: dict[str, ExcerptFeature] = {name: _punctuation_feature(name) for name in FEATURE_FUNCTIONS}
"""Every feature the length curve can compute on an excerpt, by name: the punctuation features
of :data:`punctstyle.features.FEATURE_FUNCTIONS` (f1..f7, recomputed on the excerpt's marks and
gaps). Add an entry to give the curve a new kind of input (e.g. word counts of the excerpt)."""


WORD_FEATURE = re.compile(r"words([1-9][0-9]*)")
"""A word feature's name: ``words<k>`` (module docstring, :func:`word_frequencies`)."""
WORD_STREAM = "words"
"""``Document.streams`` key of the document's words: the tokens the gaps count, lower-cased
(:func:`punctstyle.text.extract.word_key`), in extraction order (an array of ``str``)."""
WORD_RANKS = "word_ranks"
"""``Document.streams`` key the row adds: each word's rank in the row's words (0 = most
frequent), -1 for a word outside them (:func:`with_word_ranks`)."""


def word_feature_k(name: str) -> int | None:
    """``k`` of a word feature ``words<k>``; None for any other name."""
    match = WORD_FEATURE.fullmatch(name)
    return int(match.group(1)) if match else None


def resolve_excerpt_features(feature_set: str) -> tuple[str, ...]:
    """Names of a feature set: ``"all"`` -> the paper's f1..f6; ``"a+b"`` -> (a, b), each ``all``,
    a name of :data:`EXCERPT_FEATURES` or a word feature ``words<k>`` (at most one, and last)."""
    names: list[str] = []
    for part in feature_set.split("+"):
        names.extend(PAPER_FEATURES if part == "all" else (part,))
    unknown = [name for name in names if name not in EXCERPT_FEATURES and word_feature_k(name) is None]
    words = [i for i, name in enumerate(names) if word_feature_k(name) is not None]
    if unknown or len(set(names)) != len(names) or len(words) > 1 or (words and words[0] != len(names) - 1):
        raise ValueError(
            f"bad feature set {feature_set!r}: expected 'all' or '+'-joined names of {', '.join(EXCERPT_FEATURES)}, "
            "then at most one words<k>"
        )
    return tuple(names)


def excerpt_vectors(
    excerpt: Excerpt,
    document: Document,
    features: Iterable[str],
    functions: Mapping[str, ExcerptFeature] | None = None,
) -> dict[str, np.ndarray]:
    """``{name: functions[name](excerpt, document)}`` for the requested names (``functions``:
    :data:`EXCERPT_FEATURES` by default; a row adds its word features, :func:`row_word_features`)."""
    functions = EXCERPT_FEATURES if functions is None else functions
    return {name: functions[name](excerpt, document) for name in features}


# ----------------------------------------------------------------------------- word features


def word_span(excerpt: Excerpt, document: Document, stream: np.ndarray) -> np.ndarray:
    """The per-word values of ``stream`` the excerpt spans: ``stream[word_start:word_stop]``, or
    the whole stream when the excerpt holds every mark of the document (the whole text: the
    words after the last mark too)."""
    if excerpt.start == 0 and excerpt.n_marks == np.asarray(document.marks).size:
        return stream
    return stream[excerpt.word_start : excerpt.word_stop]


def word_frequencies(k: int) -> ExcerptFeature:
    """The word feature of ``k`` words: ``x_j = c_j * (1 / m)`` for ``j < k``, with ``c_j`` the
    words of the excerpt (:func:`word_span`) of rank ``j`` in the row's words
    (``document.streams[WORD_RANKS]``) and ``m`` all its words (0 for an excerpt without words);
    the arithmetic of :func:`punctstyle.corpus.words.relative_frequencies`."""
    if k < 1:
        raise ValueError(f"a word feature needs k >= 1, got {k}")

    def feature(excerpt: Excerpt, document: Document) -> np.ndarray:
        ranks = word_span(excerpt, document, np.asarray(document.streams[WORD_RANKS]))
        counts = np.bincount(ranks[(ranks >= 0) & (ranks < k)], minlength=k).astype(np.float64)
        return counts * (1.0 / ranks.size) if ranks.size else counts

    return feature


def with_word_ranks(documents: Callable[[int], Document], vocabulary: Sequence[str]) -> Callable[[int], Document]:
    """A reader that adds ``streams[WORD_RANKS]`` (the rank of each word of
    ``streams[WORD_STREAM]`` in ``vocabulary``, -1 outside) to each document it reads."""
    index = pd.Index(list(vocabulary), dtype=object)
    if not index.is_unique:
        raise ValueError("the row's words must be distinct")

    def read(i: int) -> Document:
        document = documents(i)
        if WORD_STREAM not in document.streams:
            raise ValueError(f"document {document.doc_id} has no word stream (streams[{WORD_STREAM!r}])")
        words = np.asarray(document.streams[WORD_STREAM], dtype=object)
        ranks = index.get_indexer(words).astype(np.int64) if words.size else np.zeros(0, np.int64)
        return replace(document, streams={**document.streams, WORD_RANKS: ranks})

    return read


def uses_word_features(methods: Mapping[str, Sequence[str]]) -> bool:
    """Whether a method runs on a word feature (then the row needs word streams and counts)."""
    return any(
        word_feature_k(f) is not None
        for sets in methods.values()
        for name in sets
        for f in resolve_excerpt_features(name)
    )


def row_word_features(features: Iterable[str], n_vocabulary: int) -> dict[str, ExcerptFeature]:
    """The row's word features among ``features``: ``words<k>`` -> :func:`word_frequencies` of
    ``min(k, n_vocabulary)`` words (the word baselines' ``n_vocabulary``)."""
    ks = {name: word_feature_k(name) for name in features}
    return {name: word_frequencies(min(k, n_vocabulary)) for name, k in ks.items() if k is not None}


@dataclass
class ExcerptMatrices:
    """Features of the excerpts of some documents at every length: ``features[length][name]``
    is an (n_docs, size) matrix, ``complete[length]`` a boolean vector, ``records`` one dict per
    excerpt (:data:`EXCERPT_COLUMNS` without the row keys)."""

    features: dict[str, dict[str, np.ndarray]]
    complete: dict[str, np.ndarray]
    records: list[dict[str, Any]]


def excerpt_matrices(
    documents: Callable[[int], Document],
    index: Sequence[int],
    lengths: Sequence[str],
    features: Sequence[str],
    *,
    seed: int,
    role: str,
    functions: Mapping[str, ExcerptFeature] | None = None,
) -> ExcerptMatrices:
    """Cut each document ``documents(i)`` (``i`` in ``index``) at every length label and compute
    its features (``functions``: see :func:`excerpt_vectors`); each document is read once."""
    rows: dict[str, dict[str, list[np.ndarray]]] = {label: {f: [] for f in features} for label in lengths}
    complete: dict[str, list[bool]] = {label: [] for label in lengths}
    records: list[dict[str, Any]] = []
    for i in index:
        document = documents(int(i))
        for label in lengths:
            n = None if label == WHOLE else int(label)
            excerpt = cut_excerpt(document.marks, document.gaps, n, seed=seed, doc_id=document.doc_id)
            for name, vector in excerpt_vectors(excerpt, document, features, functions).items():
                rows[label][name].append(vector)
            complete[label].append(excerpt.complete)
            records.append(
                {
                    "length": label,
                    "book_id": document.doc_id,
                    "role": role,
                    "start": excerpt.start,
                    "n_marks": excerpt.n_marks,
                    "n_words": excerpt.n_words,
                    "complete": excerpt.complete,
                }
            )
    return ExcerptMatrices(
        features={label: {f: _stack(rows[label][f]) for f in features} for label in lengths},
        complete={label: np.asarray(complete[label], dtype=bool) for label in lengths},
        records=records,
    )


def _stack(vectors: list[np.ndarray]) -> np.ndarray:
    return np.vstack(vectors) if vectors else np.zeros((0, 0))
