"""The per-book feature rows (features/{id}.parquet), whole texts or excerpts: writer and rows.

(Split from the former book.py.)"""

from __future__ import annotations

import os
from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from punctstyle.book.inclusion import STATUS_EXCLUDED, STATUS_INCLUDED, STATUS_OK, InclusionRule
from punctstyle.book.sequence_file import read_sequence
from punctstyle.features import compute_features
from punctstyle.io import InputError, arrow_array, arrow_row, atomic_path
from punctstyle.marks import FEATURES, feature_column_names
from punctstyle.text.extract import PunctuationSequence


def feature_row(
    book_id: int, sequence: PunctuationSequence, metadata: dict[str, str], rule: InclusionRule
) -> dict[str, object]:
    """One book's feature row: status, stage and reason of an exclusion, then f1..f6."""
    if metadata.get("status", STATUS_OK) != STATUS_OK:
        status, stage, reason = STATUS_EXCLUDED, "download", metadata.get("reason", "")
    else:
        reason = rule.reason_to_exclude(sequence.marks, _double_quotes(metadata))
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


def _double_quotes(metadata: dict[str, str]) -> int | None:
    """The sequence file's count of double quotation marks; None in files written before it."""
    value = metadata.get("n_double_quotes")
    return int(value) if value not in (None, "") else None


def packed_feature_table(row: Mapping[str, object]) -> pa.Table:
    """A feature row (:func:`feature_row`: scalar columns, then every feature's entries as wide
    columns) as a one-row table: the scalar columns, then one fixed-size list column per feature
    of :data:`punctstyle.marks.FEATURES` (the inverse of :func:`punctstyle.corpus.tables.unpack_features`)."""
    wide = {column for name in FEATURES for column in feature_column_names(name)}
    scalars = arrow_row({key: value for key, value in row.items() if key not in wide})
    columns, names = list(scalars.columns), list(scalars.column_names)
    for name in FEATURES:
        values = np.array([row[column] for column in feature_column_names(name)], dtype=np.float64)
        columns.append(pa.FixedSizeListArray.from_arrays(arrow_array(values), values.size))
        names.append(name)
    return pa.Table.from_arrays(columns, names=names)


def write_feature_row(path: str | os.PathLike[str], row: dict[str, object]) -> None:
    """Write one book's feature row atomically in the packed layout (:func:`packed_feature_table`)."""
    table = packed_feature_table(row)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


EXCERPT_ROW_COLUMNS: tuple[str, ...] = ("excerpt", "first_mark", "stop_mark")
"""Columns of an excerpt's feature row after ``n_words`` (:func:`excerpt_feature_rows`): its
index in the text (0, 1, ...; ``-1`` on the row of a text excluded whole) and its marks
``[first_mark, stop_mark)`` in the text's sequence; ``book_id`` is the text's."""


def excerpt_bounds(n_marks: int, excerpt_marks: int) -> np.ndarray:
    """``(k, 2)`` int64 array of ``[first, stop)`` mark ranges: the consecutive excerpts of
    ``excerpt_marks`` marks of a text of ``n_marks``, ``k = n_marks // excerpt_marks``,
    excerpt ``i`` = marks ``[i N, (i + 1) N)``; the last ``n_marks mod N`` marks are dropped
    (every excerpt has exactly N marks, so their features are comparable)."""
    if excerpt_marks < 1:
        raise ValueError(f"excerpt_marks must be positive, got {excerpt_marks}")
    first = np.arange(n_marks // excerpt_marks, dtype=np.int64) * excerpt_marks
    return np.column_stack([first, first + excerpt_marks])


def excerpt_feature_rows(
    book_id: int,
    sequence: PunctuationSequence,
    metadata: dict[str, str],
    rule: InclusionRule,
    excerpt_marks: int,
) -> list[dict[str, object]]:
    """A text's feature rows as excerpts of ``excerpt_marks`` marks (``extraction.excerpt_marks``).

    The inclusion rule applies to the whole text (its marks and its double quotation marks,
    which only the text has); a text that passes it and has at least one excerpt gives one
    included row per excerpt of :func:`excerpt_bounds`: ``book_id`` the text's, ``n_marks`` =
    ``excerpt_marks``, ``n_words`` the sum of the excerpt's gaps (words before each of its
    marks), the features of ``marks[first:stop]``, ``gaps[first:stop]``, and the columns of
    :data:`EXCERPT_ROW_COLUMNS`. Otherwise one excluded row for the text (its
    :func:`feature_row`, excerpt ``-1``, marks ``[0, n)``), reason ``too few punctuation marks
    for one excerpt: n < excerpt_marks N`` when the text is shorter than an excerpt."""
    text = feature_row(book_id, sequence, metadata, rule)
    bounds = excerpt_bounds(len(sequence), excerpt_marks)
    if text["status"] == STATUS_INCLUDED and not len(bounds):
        text.update(
            status=STATUS_EXCLUDED,
            stage="features",
            reason=f"too few punctuation marks for one excerpt: {len(sequence)} < excerpt_marks {excerpt_marks}",
        )
    if text["status"] != STATUS_INCLUDED:
        return [_with_excerpt(text, -1, 0, len(sequence))]
    rows = []
    for index, (first, stop) in enumerate(bounds.tolist()):
        marks, gaps = sequence.marks[first:stop], sequence.gaps[first:stop]
        row: dict[str, object] = {
            "book_id": int(book_id),
            "status": STATUS_INCLUDED,
            "stage": "",
            "reason": "",
            "n_marks": int(stop - first),
            "n_words": int(gaps.sum(dtype=np.int64)),
        }
        features = compute_features(marks, gaps)
        for name in FEATURES:
            row.update(zip(feature_column_names(name), features[name].tolist()))
        rows.append(_with_excerpt(row, index, first, stop))
    return rows


def _with_excerpt(row: dict[str, object], index: int, first: int, stop: int) -> dict[str, object]:
    """``row`` with the excerpt columns inserted after ``n_words`` (before the features)."""
    keys = list(row)
    at = keys.index("n_words") + 1
    extra = dict(zip(EXCERPT_ROW_COLUMNS, (int(index), int(first), int(stop))))
    return {**{k: row[k] for k in keys[:at]}, **extra, **{k: row[k] for k in keys[at:]}}


def write_feature_rows(path: str | os.PathLike[str], rows: list[dict[str, object]]) -> None:
    """Write a text's feature rows (several with excerpts) atomically in the packed layout."""
    table = pa.concat_tables([packed_feature_table(row) for row in rows])
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def book_features(
    sequence_path: str | os.PathLike[str],
    features_path: str | os.PathLike[str],
    book_id: int,
    rule: InclusionRule,
    excerpt_marks: int | None = None,
) -> dict[str, object]:
    """Read a sequence file, compute its feature row(s), write them; return the row (the
    features of :func:`write_book_features`, from a sequence file). (Here, not in
    :mod:`punctstyle.book.steps`, so that a caller that only computes features does not import
    the extraction's cleaning and tokenizer: 0.035 CPU s a process.)"""
    sequence, metadata = read_sequence(sequence_path)
    if rule.require_quotation_marks == "double" and metadata.get("status") == STATUS_OK:
        if _double_quotes(metadata) is None:
            raise InputError(
                f"{sequence_path}: no n_double_quotes metadata (written by an older punctstyle): "
                "delete it to re-extract the book"
            )
    return write_book_features(sequence, metadata, features_path, book_id, rule, excerpt_marks)


def write_book_features(
    sequence: PunctuationSequence,
    metadata: dict[str, str],
    features_path: str | os.PathLike[str],
    book_id: int,
    rule: InclusionRule,
    excerpt_marks: int | None = None,
) -> dict[str, object]:
    """A book's feature row from its sequence and the sequence file's metadata, written to
    ``features_path``; returns the row.

    With ``excerpt_marks`` (:func:`excerpt_feature_rows`), write the text's rows and return a
    record of the text: ``book_id``, ``status``, ``stage``, ``reason``, ``n_marks`` (the text's)
    and ``n_excerpts``."""
    if excerpt_marks is None:
        row = feature_row(book_id, sequence, metadata, rule)
        write_feature_row(features_path, row)
        return row
    rows = excerpt_feature_rows(book_id, sequence, metadata, rule, int(excerpt_marks))
    write_feature_rows(features_path, rows)
    first = rows[0]
    included = first["status"] == STATUS_INCLUDED
    return {
        "book_id": int(book_id),
        "status": first["status"],
        "stage": first["stage"],
        "reason": first["reason"],
        "n_marks": len(sequence),
        "n_excerpts": len(rows) if included else 0,
    }
