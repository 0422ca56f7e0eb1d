"""Per-book steps of the workflow: raw text -> sequence file -> feature row.

Each step reads what the previous one wrote and writes one file atomically. A book that
cannot go further (not downloadable, too few marks, no quotation mark) is not an error: its
files carry a ``status`` and a ``reason``, and the corpus step turns them into
``exclusions.csv``.

File formats:

* ``sequences/{id}.parquet``: columns ``mark`` (uint8 codes, :mod:`punctstyle.marks` order)
  and ``gap`` (uint32 words before the mark); schema metadata ``book_id``, ``status``,
  ``reason``, ``n_words``, ``encoding``, ``n_double_quotes`` (the ``"`` characters of the
  cleaned text: every double quotation mark, straight, curly, low, guillemet or LaTeX-style,
  since cleaning turns them all into ``"``; the sequence amalgamates them with the single
  ones, so the paper's rule needs this count).
* ``words/{id}.parquet``: the book's word counts (:func:`write_words`): columns ``word``
  (string: a token of class WORD, lower-cased, :func:`punctstyle.extract.word_key`) and
  ``count`` (uint32), most frequent first (ties by word); schema metadata ``book_id``,
  ``status``, ``n_words`` (the sum of the counts, the sequence's ``n_words``).
* ``features/{id}.parquet``: one row: ``book_id``, ``status`` (``included`` or
  ``excluded``), ``stage``, ``reason``, ``n_marks``, ``n_words``, then one column per feature
  (``f1`` ... ``f7``), each a fixed-size list of float64 in the order of
  :func:`punctstyle.marks.feature_column_names` (:func:`write_feature_row`). One Parquet column
  per feature entry (1,550 with f7) made every file about 480 kB, two thirds of it column
  metadata, and cost about 0.09 CPU s to read; packed, a file is a few kB.
  With ``extraction.excerpt_marks`` N (:func:`excerpt_feature_rows`), the file of an included
  text holds one row per excerpt (:func:`excerpt_bounds`), with the extra columns of
  :data:`EXCERPT_ROW_COLUMNS` after ``n_words``; an excluded text one row, excerpt ``-1``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from collections import Counter
from collections.abc import Mapping

from punctstyle.extract import ChunkCachedExtractor, PunctuationSequence, concatenate_sequences
from punctstyle.features import compute_features
from punctstyle.io import InputError, arrow_array, arrow_row, atomic_path, numpy_column, read_gzip_text
from punctstyle.marks import FEATURES, QUOTE, feature_column_names

STATUS_OK = "ok"
STATUS_INCLUDED = "included"
STATUS_EXCLUDED = "excluded"


QUOTATION_RULES = ("double", "any", "none")
"""Values of ``extraction.require_quotation_marks``: a double quotation mark (the paper's
rule, section 2.1: "we remove any documents in which double quotations do not appear"), a
quotation mark of any kind (single ones included), or no requirement."""


@dataclass(frozen=True)
class InclusionRule:
    """The per-book inclusion rule: at least ``min_marks`` marks and the quotation marks
    that ``require_quotation_marks`` asks for (:data:`QUOTATION_RULES`)."""

    min_marks: int
    require_quotation_marks: str

    def __post_init__(self) -> None:
        if self.require_quotation_marks not in QUOTATION_RULES:
            raise ValueError(
                f"require_quotation_marks must be one of {', '.join(QUOTATION_RULES)}, "
                f"not {self.require_quotation_marks!r}"
            )

    def reason_to_exclude(self, marks: np.ndarray, n_double_quotes: int | None) -> str | None:
        """None when the book is kept, else a one-line reason. ``n_double_quotes``: the
        book's double quotation marks (needed by the ``double`` rule only)."""
        if marks.size < self.min_marks:
            return f"too few punctuation marks: {marks.size} < min_marks {self.min_marks}"
        if self.require_quotation_marks == "double":
            if n_double_quotes is None:
                raise ValueError("the 'double' quotation rule needs the count of double quotation marks")
            if n_double_quotes == 0:
                return "no double quotation mark (the paper's rule)"
        if self.require_quotation_marks == "any" and not np.any(marks == QUOTE):
            return "no quotation mark of any kind (require_quotation_marks: any)"
        return None


def count_double_quotes(cleaned_text: str) -> int:
    """Double quotation marks of a cleaned text: its ``"`` characters (cleaning turns every
    double quotation variant into ``"``, see :mod:`punctstyle.clean`)."""
    return cleaned_text.count('"')


EXTRACTION_BASE_MB = 300
"""Memory of an extraction job besides its text: Python, numpy, pyarrow, the tokenizer rules
and the chunk cache of one piece (``benchmarks/bench_extract_memory.py``)."""
EXTRACTION_TEXT_FACTOR = 5
"""Peak memory of an extraction per byte of text: the decompressed bytes and the decoded text
(up to 2 bytes a character), the chunk cache; cleaning and the chunk lists are bounded by the
pieces (:func:`clean_and_extract`): 4.9 x on 50 and 200 MB texts without Gutenberg markers
(a text with markers is stripped whole by gutenbergpy, which copies it a few times)."""


def extraction_mem_mb(text_gz_path: str | os.PathLike[str], max_text_mb: float) -> int:
    """The memory an ``extract_book`` job needs: ``EXTRACTION_BASE_MB + EXTRACTION_TEXT_FACTOR
    * text MB``, with the decompressed size from the gzip trailer (ISIZE: the size mod 4 GiB,
    texts are capped far below); ``max_text_mb`` stands for the text while the file does not
    exist yet (planning) or is not a gzip file."""
    text_mb = float(max_text_mb)
    try:
        with open(text_gz_path, "rb") as handle:
            if handle.read(2) == b"\x1f\x8b":
                handle.seek(-4, os.SEEK_END)
                text_mb = int.from_bytes(handle.read(4), "little") / 2**20
    except OSError:
        pass
    return int(EXTRACTION_BASE_MB + EXTRACTION_TEXT_FACTOR * text_mb) + 1


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


def clean_and_extract_with_words(
    text: str, extractor: ChunkCachedExtractor
) -> tuple[PunctuationSequence, int, Counter[str]]:
    """:func:`clean_and_extract` plus the word counts of the cleaned text
    (:meth:`punctstyle.extract.ChunkCachedExtractor.extract_with_words`)."""
    from punctstyle.clean import clean_pieces

    parts, n_double_quotes, counts = [], 0, Counter()
    for piece in clean_pieces(text, extractor.piece_chars):
        sequence, piece_counts = extractor.extract_with_words(piece)
        parts.append(sequence)
        counts.update(piece_counts)
        n_double_quotes += count_double_quotes(piece)
    return concatenate_sequences(parts), n_double_quotes, counts


def clean_and_extract(text: str, extractor: ChunkCachedExtractor) -> tuple[PunctuationSequence, int]:
    """(sequence, double quotation marks) of a raw text: ``extractor(clean_text(text))`` and
    :func:`count_double_quotes` of the cleaned text, computed piece by piece
    (:func:`punctstyle.clean.clean_pieces` of ``extractor.piece_chars``, cut where extraction
    may cut too) so that memory holds the raw text and one cleaned piece, not whole cleaned
    copies."""
    from punctstyle.clean import clean_pieces

    parts, n_double_quotes = [], 0
    for piece in clean_pieces(text, extractor.piece_chars):
        parts.append(extractor(piece))
        n_double_quotes += count_double_quotes(piece)
    return concatenate_sequences(parts), n_double_quotes


def extract_book(
    text_path: str | os.PathLike[str],
    provenance_path: str | os.PathLike[str],
    sequence_path: str | os.PathLike[str],
    book_id: int,
    extractor: ChunkCachedExtractor | None = None,
    words_path: str | os.PathLike[str] | None = None,
) -> PunctuationSequence:
    """Clean and extract one downloaded book; a book not downloaded gets an empty sequence.

    ``extractor``: e.g. one built on the workflow's tokenizer rules file (no spaCy import);
    by default one on rules exported from spaCy in this process. ``words_path``: where to
    write the book's word counts (:func:`write_words`; empty for a book not downloaded)."""
    provenance = _read_json(provenance_path)
    empty = PunctuationSequence(np.zeros(0, np.uint8), np.zeros(0, np.uint32))
    if provenance["status"] != STATUS_OK:
        reason = f"download {provenance['status']}: {provenance.get('reason') or 'no reason given'}"
        write_sequence(sequence_path, book_id, empty, status=str(provenance["status"]), reason=reason)
        if words_path is not None:
            write_words(words_path, book_id, {}, status=str(provenance["status"]))
        return empty
    text = read_gzip_text(text_path)
    if words_path is None:
        sequence, n_double_quotes = clean_and_extract(text, extractor or ChunkCachedExtractor())
    else:
        sequence, n_double_quotes, counts = clean_and_extract_with_words(text, extractor or ChunkCachedExtractor())
        write_words(words_path, book_id, counts)
    write_sequence(
        sequence_path,
        book_id,
        sequence,
        status=STATUS_OK,
        encoding=str(provenance.get("encoding", "")),
        n_double_quotes=n_double_quotes,
    )
    return sequence


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
    of :data:`punctstyle.marks.FEATURES` (the inverse of :func:`punctstyle.corpus.unpack_features`)."""
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
    """Read a sequence file, compute its feature row, write it; return the row.

    With ``excerpt_marks`` (:func:`excerpt_feature_rows`), write the text's rows and return a
    record of the text: ``book_id``, ``status``, ``stage``, ``reason``, ``n_marks`` (the text's)
    and ``n_excerpts``."""
    sequence, metadata = read_sequence(sequence_path)
    if rule.require_quotation_marks == "double" and metadata.get("status") == STATUS_OK:
        if _double_quotes(metadata) is None:
            raise InputError(
                f"{sequence_path}: no n_double_quotes metadata (written by an older punctstyle): "
                "delete it to re-extract the book"
            )
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
