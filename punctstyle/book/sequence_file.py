"""The per-book sequence file (sequences/{id}.parquet) and words file: writers beside readers.

(Split from the former book.py.)"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from punctstyle.book.inclusion import STATUS_OK
from punctstyle.io import InputError, arrow_array, atomic_path, numpy_column
from punctstyle.text.extract import PunctuationSequence


def _read_json(path: str | os.PathLike[str]) -> dict:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: cannot read provenance JSON ({exc})") from exc
    if not isinstance(data, dict) or "status" not in data:
        raise InputError(f"{path}: provenance JSON has no 'status' key")
    return data


def write_sequence(
    path: str | os.PathLike[str],
    book_id: int,
    sequence: PunctuationSequence,
    *,
    status: str = STATUS_OK,
    reason: str = "",
    encoding: str = "",
    n_double_quotes: int = 0,
) -> tuple[PunctuationSequence, dict[str, str]]:
    """Write a book's marks and gaps (with status metadata) atomically; returns what
    :func:`read_sequence` reads back from the file (the sequence as stored, its metadata), so
    that a job that goes on to the features need not read the file again."""
    marks, gaps = sequence.marks.astype(np.uint8), sequence.gaps.astype(np.uint32)
    table = pa.Table.from_arrays([arrow_array(marks), arrow_array(gaps)], names=["mark", "gap"])
    metadata = {
        "book_id": str(book_id),
        "status": status,
        "reason": reason,
        "n_words": str(sequence.n_words),
        "encoding": encoding,
        "n_double_quotes": str(n_double_quotes),
    }
    table = table.replace_schema_metadata({k: v.encode("utf-8") for k, v in metadata.items()})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return PunctuationSequence(marks=marks, gaps=gaps, n_words=int(sequence.n_words)), metadata


def read_sequence(path: str | os.PathLike[str]) -> tuple[PunctuationSequence, dict[str, str]]:
    """Read a sequence file: the sequence and its metadata (book_id, status, reason, ...)."""
    try:  # ParquetFile: read_table imports pyarrow.dataset and pandas (0.2 CPU s a job)
        table = pq.ParquetFile(path).read()
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"{path}: not a readable sequence Parquet file ({exc})") from exc
    if table.column_names[:2] != ["mark", "gap"] or table.schema.metadata is None:
        raise InputError(f"{path}: not a punctstyle sequence file (needs columns mark, gap and metadata)")
    metadata = {k.decode(): v.decode() for k, v in table.schema.metadata.items() if not k.startswith(b"ARROW")}
    if table.schema.field("mark").type != pa.uint8() or table.schema.field("gap").type != pa.uint32():
        raise InputError(f"{path}: columns mark and gap must be uint8 and uint32")
    try:
        marks = numpy_column(table.column("mark"), np.uint8)
        gaps = numpy_column(table.column("gap"), np.uint32)
    except ValueError as exc:
        raise InputError(f"{path}: {exc}") from exc
    n_words = int(metadata.get("n_words", "0") or 0)
    return PunctuationSequence(marks=marks, gaps=gaps, n_words=n_words), metadata


def ranked_word_ids(vocabulary: Mapping[str, int], stream: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """A book's words ranked as the words file keeps them: ``(words, counts, ranked)``, the
    distinct words by decreasing count (ties by word), their counts (int64), and ``stream``
    (ids of ``vocabulary``, word -> id, as
    :meth:`punctstyle.text.chunk_cache.ChunkCachedExtractor.extract_with_word_ids` gives them)
    with each id replaced by its word's rank: ``words[ranked[j]]`` is word ``j`` of the book."""
    stream = np.asarray(stream, dtype=np.int64)
    by_id = list(vocabulary)  # dict order: the word of id i is the i-th key
    if any(vocabulary[w] != i for i, w in enumerate(by_id)):
        raise ValueError("the vocabulary's ids must be 0, 1, ... in insertion order")
    counts = np.bincount(stream, minlength=len(by_id)).astype(np.int64)
    order = sorted(range(len(by_id)), key=lambda i: (-counts[i], by_id[i]))
    rank = np.empty(len(by_id), np.int64)
    rank[order] = np.arange(len(by_id))
    keep = [i for i in order if counts[i] > 0]  # a word of an earlier book sharing the dict: none here
    return [by_id[i] for i in keep], counts[keep], rank[stream]


def write_words(
    path: str | os.PathLike[str],
    book_id: int,
    counts: Mapping[str, int],
    *,
    status: str = STATUS_OK,
    stream: np.ndarray | None = None,
) -> None:
    """Write a book's word counts atomically: rows by decreasing count, ties by word.

    ``stream``: the book's words in extraction order as row numbers of the file (ranks,
    :func:`ranked_word_ids`); kept as column ``positions``, each word's positions in the stream
    (a list of uint32, increasing), so that the length curve reads the stream back
    (:func:`read_word_stream`) instead of re-tokenizing the text. Row ``r`` must occur
    ``count[r]`` times in it."""
    words = sorted(counts, key=lambda w: (-counts[w], w))
    count = np.fromiter((counts[w] for w in words), np.uint32, len(words))
    columns = [arrow_array(words), arrow_array(count)]
    names = ["word", "count"]
    encodings = {"word": "DELTA_BYTE_ARRAY", "count": "PLAIN"}
    if stream is not None:
        stream = np.asarray(stream, dtype=np.int64)
        if not np.array_equal(np.bincount(stream, minlength=len(words)), count):
            raise ValueError(f"book {book_id}: the word stream does not match the word counts")
        offsets = np.concatenate(([0], np.cumsum(count, dtype=np.int64))).astype(np.int32)
        positions = np.argsort(stream, kind="stable").astype(np.uint32)
        columns.append(pa.ListArray.from_arrays(arrow_array(offsets), arrow_array(positions)))
        names.append("positions")
        # increasing within each word: delta encoding, 1.7 bytes a word against 2.5 without
        encodings["positions.list.element"] = "DELTA_BINARY_PACKED"
    table = pa.Table.from_arrays(columns, names=names)
    metadata = {"book_id": str(book_id), "status": status, "n_words": str(int(count.sum(dtype=np.int64)))}
    table = table.replace_schema_metadata({k: v.encode("utf-8") for k, v in metadata.items()})
    with atomic_path(path) as tmp:  # prefix (delta) encoding of the words: 40 % smaller than a dictionary
        pq.write_table(
            table,
            tmp,
            compression="zstd",
            use_dictionary=False,
            column_encoding=encodings,
        )


def _open_words(path: str | os.PathLike[str]) -> pq.ParquetFile:
    """The words file, its columns checked (``word``, ``count``, optionally ``positions``)."""
    try:
        handle = pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"{path}: not a readable words Parquet file ({exc})") from exc
    schema = handle.schema_arrow
    if schema.names not in (["word", "count"], ["word", "count", "positions"]) or schema.metadata is None:
        raise InputError(f"{path}: not a punctstyle words file (needs columns word, count and metadata)")
    if schema.field("count").type != pa.uint32() or not pa.types.is_string(schema.field("word").type):
        raise InputError(f"{path}: columns word and count must be string and uint32")
    return handle


def _read_word_columns(path: str | os.PathLike[str], columns: list[str]) -> tuple[pa.Table, dict[str, str]]:
    handle = _open_words(path)
    try:
        table = handle.read(columns=columns)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"{path}: not a readable words Parquet file ({exc})") from exc
    metadata = {
        k.decode(): v.decode() for k, v in handle.schema_arrow.metadata.items() if not k.startswith(b"ARROW")
    }
    return table, metadata


def _word_counts(path: str | os.PathLike[str], table: pa.Table) -> tuple[list[str], np.ndarray]:
    try:
        counts = numpy_column(table.column("count"), np.uint32).astype(np.int64)
    except ValueError as exc:
        raise InputError(f"{path}: {exc}") from exc
    words = table.column("word").to_pylist()
    if any(w is None for w in words):
        raise InputError(f"{path}: column word has null values")
    return words, counts


def read_words(path: str | os.PathLike[str]) -> tuple[list[str], np.ndarray, dict[str, str]]:
    """Read a words file (:func:`write_words`): (words, counts as int64, metadata); the word
    stream (column ``positions``) is not read."""
    table, metadata = _read_word_columns(path, ["word", "count"])
    words, counts = _word_counts(path, table)
    return words, counts, metadata


def words_file_has_stream(path: str | os.PathLike[str]) -> bool:
    """Whether a words file keeps the book's word stream (column ``positions``)."""
    return "positions" in _open_words(path).schema_arrow.names


def read_word_stream(path: str | os.PathLike[str]) -> np.ndarray:
    """The book's words in extraction order (an object array of ``str``, lower-cased: word ``j``
    of the gap stream), from a words file written with its stream (:func:`write_words`):
    ``ids[positions of row r] = r``, then ``words[ids]``. An :class:`InputError` naming the
    file when it has no stream (written by an older punctstyle) or a stream that is not a
    permutation of the counted words."""
    if "positions" not in _open_words(path).schema_arrow.names:
        raise InputError(
            f"{path}: no word stream (column positions; written by an older punctstyle): "
            "delete it to re-extract the book"
        )
    table, _ = _read_word_columns(path, ["word", "count", "positions"])
    words, counts = _word_counts(path, table)
    column = table.column("positions").combine_chunks()
    try:
        positions = numpy_column(column.flatten(), np.uint32).astype(np.int64)
    except ValueError as exc:
        raise InputError(f"{path}: {exc}") from exc
    n = int(counts.sum())
    lengths = np.diff(numpy_column(column.offsets, np.int32))
    ids = np.full(n, -1, np.int64)
    if positions.size != n or not np.array_equal(lengths, counts) or (positions.size and positions.max() >= n):
        raise InputError(f"{path}: column positions does not hold each counted word once")
    ids[positions] = np.repeat(np.arange(len(words)), counts)
    if (ids < 0).any():
        raise InputError(f"{path}: column positions does not hold each counted word once")
    return np.asarray(words, dtype=object)[ids]
