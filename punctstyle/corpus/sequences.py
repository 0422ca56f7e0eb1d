"""Reading corpus documents' punctuation sequences by ``book_id``: whole texts are their
``sequences/{id}.parquet`` files, excerpts (``extraction.excerpt_marks``) a slice of their text's
file. Light on purpose (numpy, pandas, the sequence reader): figures and analyses read sequences
without importing the attribution bundle's torch-backed code."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.io import InputError
from punctstyle.book.sequence_file import read_sequence


def book_paths(paths: Iterable[Any], book_ids: Sequence[int], kind: str) -> list[str]:
    """The files of ``book_ids``, in that order, from files named ``{id}.<ext>`` (other books'
    files ignored); an :class:`InputError` naming ``kind`` when a book has none."""
    by_id: dict[int, str] = {}
    for path in paths:
        stem = os.path.basename(os.fspath(path)).split(".", 1)[0]
        if stem.isdigit():
            by_id[int(stem)] = os.fspath(path)
    missing = [int(b) for b in book_ids if int(b) not in by_id]
    if missing:
        raise InputError(f"no {kind} file for {len(missing)} corpus books, e.g. book {missing[0]}")
    return [by_id[int(b)] for b in book_ids]


def sequence_paths_for_books(paths: Sequence[Any], book_ids: Sequence[int]) -> list[str]:
    """The sequence files of ``book_ids``, in that order (:func:`book_paths`)."""
    return book_paths(paths, book_ids, "sequence")


class SequenceFiles(Sequence):
    """``(marks, gaps)`` of sequence files (``sequences/{id}.parquet``), read on access, so that
    the length curves run on a whole corpus without holding every sequence in memory.

    ``ranges``: one ``(first, stop)`` per path, or None for the whole file: item ``i`` is then
    ``marks[first:stop]``, ``gaps[first:stop]`` of file ``i`` (an excerpt; build it with
    :func:`document_sequences`). The last file read is kept, so consecutive excerpts of one
    text read it once."""

    def __init__(self, paths: Sequence[Any], ranges: Sequence[tuple[int, int] | None] | None = None) -> None:
        self.paths = list(paths)
        self.ranges = [None] * len(self.paths) if ranges is None else list(ranges)
        if len(self.ranges) != len(self.paths):
            raise ValueError(f"{len(self.ranges)} mark ranges for {len(self.paths)} sequence files")
        self._last: tuple[Any, np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.paths)

    def _read(self, path: Any) -> tuple[np.ndarray, np.ndarray]:

        if self._last is None or self._last[0] != path:
            sequence, _ = read_sequence(path)
            self._last = (path, sequence.marks, sequence.gaps)
        return self._last[1], self._last[2]

    def __getitem__(self, index: int) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[override]
        marks, gaps = self._read(self.paths[index])
        bounds = self.ranges[index]
        if bounds is None:
            return marks, gaps
        first, stop = bounds
        if stop > marks.size:
            raise InputError(f"{self.paths[index]}: {marks.size} marks, the excerpt needs marks [{first}, {stop})")
        return marks[first:stop], gaps[first:stop]

    def word_span(self, index: int) -> tuple[int, int] | None:
        """Item ``index``'s words in its file's word stream, ``[sum(gaps[:first]),
        sum(gaps[:stop]))`` (the words before each of its marks); None for a whole file."""
        bounds = self.ranges[index]
        if bounds is None:
            return None
        _, gaps = self._read(self.paths[index])
        start, stop = excerpt_word_spans(gaps, np.asarray([bounds]))[0].tolist()
        return start, stop


def excerpt_word_spans(gaps: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """``(k, 2)`` int64 ``[start, stop)`` word ranges of the excerpts ``bounds`` (``(k, 2)``
    ``[first, stop)`` mark ranges, :func:`punctstyle.book.feature_rows.excerpt_bounds`) in their
    text's word stream: with ``W_i = sum_{j < i} g_j`` (``g_j`` the words before mark ``j``),
    excerpt ``[f, s)`` holds words ``[W_f, W_s)``, the words before each of its marks: from the
    word after mark ``f - 1`` (the text's first word when ``f = 0``) to the word before its
    last mark ``s - 1``; ``W_s - W_f = sum_{f <= j < s} g_j`` is its feature row's ``n_words``.
    Words after mark ``s - 1`` are the next excerpt's (words after the text's last excerpt are
    in none), as :meth:`SequenceFiles.word_span` (which calls this) and the rolling slices
    count them."""
    cumulative = np.concatenate(([0], np.cumsum(np.asarray(gaps, dtype=np.int64))))
    bounds = np.asarray(bounds, dtype=np.int64).reshape(-1, 2)
    if bounds.size and (bounds.min() < 0 or bounds.max() >= cumulative.size or (bounds[:, 1] < bounds[:, 0]).any()):
        raise ValueError(f"mark ranges outside the text's {cumulative.size - 1} marks")
    return cumulative[bounds]


def document_sequences(paths: Sequence[Any], table: pd.DataFrame, book_ids: Sequence[int] | None = None) -> SequenceFiles:
    """The ``(marks, gaps)`` of corpus documents, read on access: the one way to read a
    document's sequence by its ``book_id``.

    ``paths``: ``sequences/{id}.parquet`` files (of the texts; others are ignored); ``table``:
    a corpus table (``book_id``, and :data:`punctstyle.corpus.tables.EXCERPT_COLUMNS` when its
    documents are excerpts); ``book_ids``: the documents, in order (default: the table's rows).
    A whole text is its file; an excerpt is marks ``[first_mark, stop_mark)`` of its text's
    file (``source_id``), exactly what its feature row was computed on. A document not in the
    table, or without a file, raises :class:`InputError`."""
    ids = table["book_id"].to_numpy(dtype=np.int64) if book_ids is None else np.asarray(book_ids, dtype=np.int64)
    if "source_id" not in table.columns:
        return SequenceFiles(sequence_paths_for_books(paths, ids.tolist()))
    rows = table.set_index(table["book_id"].astype(np.int64))
    absent = [int(b) for b in ids if int(b) not in rows.index]
    if absent:
        raise InputError(f"no corpus row for {len(absent)} documents, e.g. document {absent[0]}")
    chosen = rows.loc[ids]
    sources = chosen["source_id"].astype(np.int64).tolist()
    ranges = list(zip(chosen["first_mark"].astype(int).tolist(), chosen["stop_mark"].astype(int).tolist()))
    return SequenceFiles(sequence_paths_for_books(paths, sources), ranges)
