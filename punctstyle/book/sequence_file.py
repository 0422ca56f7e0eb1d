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
) -> None:
    """Write a book's marks and gaps (with status metadata) atomically."""
    table = pa.Table.from_arrays(
        [arrow_array(sequence.marks.astype(np.uint8)), arrow_array(sequence.gaps.astype(np.uint32))],
        names=["mark", "gap"],
    )
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


def write_words(
    path: str | os.PathLike[str], book_id: int, counts: Mapping[str, int], *, status: str = STATUS_OK
) -> None:
    """Write a book's word counts atomically: rows by decreasing count, ties by word."""
    words = sorted(counts, key=lambda w: (-counts[w], w))
    count = np.fromiter((counts[w] for w in words), np.uint32, len(words))
    table = pa.Table.from_arrays([arrow_array(words), arrow_array(count)], names=["word", "count"])
    metadata = {"book_id": str(book_id), "status": status, "n_words": str(int(count.sum(dtype=np.int64)))}
    table = table.replace_schema_metadata({k: v.encode("utf-8") for k, v in metadata.items()})
    with atomic_path(path) as tmp:  # prefix (delta) encoding of the words: 40 % smaller than a dictionary
        pq.write_table(
            table,
            tmp,
            compression="zstd",
            use_dictionary=False,
            column_encoding={"word": "DELTA_BYTE_ARRAY", "count": "PLAIN"},
        )


def read_words(path: str | os.PathLike[str]) -> tuple[list[str], np.ndarray, dict[str, str]]:
    """Read a words file (:func:`write_words`): (words, counts as int64, metadata)."""
    try:
        table = pq.ParquetFile(path).read()
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"{path}: not a readable words Parquet file ({exc})") from exc
    if table.column_names != ["word", "count"] or table.schema.metadata is None:
        raise InputError(f"{path}: not a punctstyle words file (needs columns word, count and metadata)")
    if table.schema.field("count").type != pa.uint32() or not pa.types.is_string(table.schema.field("word").type):
        raise InputError(f"{path}: columns word and count must be string and uint32")
    metadata = {k.decode(): v.decode() for k, v in table.schema.metadata.items() if not k.startswith(b"ARROW")}
    try:
        counts = numpy_column(table.column("count"), np.uint32).astype(np.int64)
    except ValueError as exc:
        raise InputError(f"{path}: {exc}") from exc
    words = table.column("word").to_pylist()
    if any(w is None for w in words):
        raise InputError(f"{path}: column word has null values")
    return words, counts, metadata
