"""Excerpts of a document: where an excerpt starts and how it is cut from the sequence.

(Split from the former length_curve.py.)"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

SHORT_RULES: tuple[str, ...] = ("whole", "exclude")


# ----------------------------------------------------------------------------- excerpts


@dataclass(frozen=True)
class Excerpt:
    """``n`` consecutive marks of a document: ``marks[start:stop]``, ``gaps[start:stop]``.

    ``word_start = sum(gaps[:start])`` and ``word_stop = word_start + sum(gaps[start:stop])``
    are the positions of the words it spans in the document's word stream; ``complete`` is
    False when the document was shorter than the requested length (the excerpt is then the
    whole document).
    """

    marks: np.ndarray
    gaps: np.ndarray
    start: int
    word_start: int
    word_stop: int
    complete: bool

    @property
    def n_marks(self) -> int:
        return int(self.marks.size)

    @property
    def n_words(self) -> int:
        """Words of the excerpt: ``sum(gaps[start:stop])``."""
        return self.word_stop - self.word_start


@dataclass(frozen=True)
class Document:
    """One document: id, marks, word gaps, and optional per-word streams (for extensions)."""

    doc_id: int
    marks: np.ndarray
    gaps: np.ndarray
    streams: Mapping[str, np.ndarray] = field(default_factory=dict)


def excerpt_rng(seed: int, doc_id: int, n: int) -> np.random.Generator:
    """The generator of one excerpt: ``default_rng(SeedSequence([seed, doc_id, n]))``."""
    if seed < 0 or doc_id < 0 or n < 1:
        raise ValueError(
            f"excerpt seed, document id and length must be non-negative (n >= 1), got {seed}, {doc_id}, {n}"
        )
    return np.random.default_rng(np.random.SeedSequence([int(seed), int(doc_id), int(n)]))


def excerpt_start(n_total: int, n: int, rng: np.random.Generator) -> int:
    """``start ~ Uniform{0, ..., n_total - n}`` (0 without a draw when ``n_total <= n``)."""
    return int(rng.integers(0, n_total - n + 1)) if n_total > n else 0


def cut_excerpt(marks: np.ndarray, gaps: np.ndarray, n: int | None, *, seed: int, doc_id: int) -> Excerpt:
    """The excerpt of ``n`` marks of a document (``n=None``: the whole document).

    ``start = excerpt_start(N, n, excerpt_rng(seed, doc_id, n))``; a document of ``N < n``
    marks gives the whole document with ``complete=False`` (``N == n``: the whole document,
    complete).
    """
    marks, gaps = np.asarray(marks), np.asarray(gaps)
    if marks.shape != gaps.shape or marks.ndim != 1:
        raise ValueError(f"marks and gaps must be 1-d of equal length, got {marks.shape} and {gaps.shape}")
    total = int(marks.size)
    if n is None:
        start, stop = 0, total
    else:
        start = excerpt_start(total, n, excerpt_rng(seed, doc_id, n))
        stop = min(start + n, total)
    word_start = int(gaps[:start].sum(dtype=np.int64))
    word_stop = word_start + int(gaps[start:stop].sum(dtype=np.int64))
    complete = n is None or total >= n
    return Excerpt(marks[start:stop], gaps[start:stop], start, word_start, word_stop, complete)
