"""Per-book steps of the workflow: raw text -> sequence file -> feature row.

Each step reads what the previous one wrote and writes one file atomically. A book that
cannot go further (not downloadable, too few marks, no quotation mark) is not an error: its
files carry a ``status`` and a ``reason``, and the corpus step turns them into
``exclusions.csv``.

File formats:

* ``sequences/{id}.parquet``: columns ``mark`` (uint8 codes, :mod:`punctstyle.marks` order)
  and ``gap`` (uint32 words before the mark); schema metadata ``book_id``, ``status``,
  ``reason``, ``n_words``, ``encoding``.
* ``features/{id}.parquet``: one row: ``book_id``, ``status`` (``included`` or
  ``excluded``), ``stage``, ``reason``, ``n_marks``, ``n_words``, then the 750 feature
  columns named by :func:`punctstyle.marks.feature_column_names`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from punctstyle.extract import ChunkCachedExtractor, PunctuationSequence
from punctstyle.features import compute_features
from punctstyle.io import InputError, atomic_path, read_gzip_text
from punctstyle.marks import FEATURES, QUOTE, feature_column_names

STATUS_OK = "ok"
STATUS_INCLUDED = "included"
STATUS_EXCLUDED = "excluded"


@dataclass(frozen=True)
class InclusionRule:
    """The per-book inclusion rule: at least ``min_marks`` marks and, when
    ``require_quotation_marks`` (the paper's rule), at least one quotation mark."""

    min_marks: int = 100
    require_quotation_marks: bool = True

    def reason_to_exclude(self, marks: np.ndarray) -> str | None:
        """None when the book is kept, else a one-line reason."""
        if marks.size < self.min_marks:
            return f"too few punctuation marks: {marks.size} < min_marks {self.min_marks}"
        if self.require_quotation_marks and not np.any(marks == QUOTE):
            return "no quotation mark (the paper's rule)"
        return None


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
) -> None:
    """Write a book's marks and gaps (with status metadata) atomically."""
    table = pa.table(
        {"mark": pa.array(sequence.marks, pa.uint8()), "gap": pa.array(sequence.gaps, pa.uint32())}
    )
    metadata = {
        "book_id": str(book_id),
        "status": status,
        "reason": reason,
        "n_words": str(sequence.n_words),
        "encoding": encoding,
    }
    table = table.replace_schema_metadata({k: v.encode("utf-8") for k, v in metadata.items()})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def read_sequence(path: str | os.PathLike[str]) -> tuple[PunctuationSequence, dict[str, str]]:
    """Read a sequence file: the sequence and its metadata (book_id, status, reason, ...)."""
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"{path}: not a readable sequence Parquet file ({exc})") from exc
    if table.column_names[:2] != ["mark", "gap"] or table.schema.metadata is None:
        raise InputError(f"{path}: not a punctstyle sequence file (needs columns mark, gap and metadata)")
    metadata = {k.decode(): v.decode() for k, v in table.schema.metadata.items() if not k.startswith(b"ARROW")}
    marks = table.column("mark").to_numpy().astype(np.uint8)
    gaps = table.column("gap").to_numpy().astype(np.uint32)
    n_words = int(metadata.get("n_words", "0") or 0)
    return PunctuationSequence(marks=marks, gaps=gaps, n_words=n_words), metadata


def extract_book(
    text_path: str | os.PathLike[str],
    provenance_path: str | os.PathLike[str],
    sequence_path: str | os.PathLike[str],
    book_id: int,
    extractor: ChunkCachedExtractor | None = None,
) -> PunctuationSequence:
    """Clean and extract one downloaded book; a book not downloaded gets an empty sequence."""
    from punctstyle.clean import clean_text

    provenance = _read_json(provenance_path)
    empty = PunctuationSequence(np.zeros(0, np.uint8), np.zeros(0, np.uint32))
    if provenance["status"] != STATUS_OK:
        reason = f"download {provenance['status']}: {provenance.get('reason') or 'no reason given'}"
        write_sequence(sequence_path, book_id, empty, status=str(provenance["status"]), reason=reason)
        return empty
    text = clean_text(read_gzip_text(text_path))
    sequence = (extractor or ChunkCachedExtractor())(text)
    write_sequence(
        sequence_path, book_id, sequence, status=STATUS_OK, encoding=str(provenance.get("encoding", ""))
    )
    return sequence


def feature_row(
    book_id: int, sequence: PunctuationSequence, metadata: dict[str, str], rule: InclusionRule
) -> dict[str, object]:
    """One book's feature row: status, stage and reason of an exclusion, then f1..f6."""
    if metadata.get("status", STATUS_OK) != STATUS_OK:
        status, stage, reason = STATUS_EXCLUDED, "download", metadata.get("reason", "")
    else:
        reason = rule.reason_to_exclude(sequence.marks)
        status, stage = (STATUS_INCLUDED, "") if reason is None else (STATUS_EXCLUDED, "features")
        reason = reason or ""
    row: dict[str, object] = {
        "book_id": int(book_id),
        "status": status,
        "stage": stage,
        "reason": reason,
        "n_marks": len(sequence),
        "n_words": int(sequence.n_words),
    }
    features = compute_features(sequence.marks, sequence.gaps)
    for name in FEATURES:
        row.update(zip(feature_column_names(name), features[name].tolist()))
    return row


def write_feature_row(path: str | os.PathLike[str], row: dict[str, object]) -> None:
    table = pa.Table.from_pylist([row])
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def book_features(
    sequence_path: str | os.PathLike[str],
    features_path: str | os.PathLike[str],
    book_id: int,
    rule: InclusionRule,
) -> dict[str, object]:
    """Read a sequence file, compute its feature row, write it."""
    sequence, metadata = read_sequence(sequence_path)
    row = feature_row(book_id, sequence, metadata, rule)
    write_feature_row(features_path, row)
    return row
