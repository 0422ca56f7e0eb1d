"""Is a part of a book representative of the whole? (the paper's open question, section 5)

The "book" cut into parts is a corpus document: a whole text, or with ``extraction.excerpt_marks``
an excerpt of a text (its ``source_id``, :func:`punctstyle.corpus.tables.text_groups`). A book's
sequence of ``n`` marks is cut into ``p`` consecutive parts of exactly
``m = floor(n / p)`` marks each: part ``q`` (0-based) holds marks ``[q m, (q + 1) m)``; the last
``n - p m < p`` marks belong to no part (they stay in the *rest* of the book). A book with
``m < min_part_marks`` is skipped for that ``p`` (and counted).

For every part and feature ``l`` in {f1, f3, f5} (the features recomputed on the part, as in
:mod:`punctstyle.features`) three KL divergences, each *reference first, part second* (the
order of the KL nearest-class rule, :mod:`punctstyle.classifiers.kl_nearest`), with the
common-support rule of :mod:`punctstyle.divergence`:

(a) ``kl_rest``: to the rest of its own book, i.e. the marks before and after the part taken
    as two segments: counts add over the segments and no transition joins them;
(b) ``kl_own_author``: to the mean feature vector of the author's documents from *other*
    texts (their features from the corpus tables, averaged over the documents as the class
    signature of section 2.4)::

        kl_own_author = d( 1/|R| sum_{b in R} f^b , f^part ),  R = {b : author(b) = a, t(b) != t(k)}

    for a part of document ``k`` of author ``a``, ``t`` the text of a document. With whole
    texts ``t(b) = b``, so ``R`` is the author's other books. With excerpts
    (``extraction.excerpt_marks``; ``t`` = the ``source_id``) every excerpt of ``k``'s own text
    is left out of ``R``, as the book itself is for whole texts. NaN when ``R`` is empty (the
    author has no other text): such documents are counted (``n_no_other_text``) and left out
    of the own-author medians and shares;
(c) ``kl_other_books``: the mean of the divergences to a seeded sample of other authors'
    books (``n_other_books`` drawn per book, the same for every ``p`` and feature);

and ``kl_nearest_other_author``: the smallest divergence to another author's mean feature
vector, so that ``closer_to_own_book`` (a < it) and ``closer_to_own_author`` (b < it) say
whether the KL nearest-class rule would put the part with its book or with its author.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.divergence import pairwise_kl, paired_kl
from punctstyle.marks import N_GAP_BINS, N_MARKS
from punctstyle.corpus.tables import text_groups
from punctstyle.corpus.sequences import document_sequences
from punctstyle.io import atomic_open, write_json_atomic
from punctstyle.featuresets import matrices_from_tables

PART_FEATURES: tuple[str, ...] = ("f1", "f3", "f5")
"""Features compared between a part and the references."""

SKIPPED_COLUMNS: list[str] = ["n_parts", "n_books", "n_skipped", "n_no_other_text"]
"""Per ``p``: documents cut, documents skipped (parts too short), documents cut whose author has
no other text (no own-author reference, ``kl_own_author`` NaN)."""

PART_COLUMNS: list[str] = [
    "book_id", "author", "n_parts", "part", "part_marks", "feature", "kl_rest", "kl_own_author",
    "kl_other_books", "kl_nearest_other_author", "closer_to_own_book", "closer_to_own_author",
]


def part_bounds(n_marks: int, n_parts: int) -> np.ndarray:
    """``(n_parts, 2)`` start/stop of ``n_parts`` consecutive parts of ``floor(n / p)`` marks each."""
    if n_parts < 1 or n_marks < 0:
        raise ValueError(f"need n_parts >= 1 and n_marks >= 0, got {n_parts} and {n_marks}")
    size = n_marks // n_parts
    starts = np.arange(n_parts) * size
    return np.column_stack([starts, starts + size])


def segment_counts(marks: np.ndarray, gaps: np.ndarray, labels: np.ndarray, n_segments: int) -> dict[str, np.ndarray]:
    """Counts of each labelled segment: marks ``(s, K)``, transitions ``(s, K, K)``, gaps ``(s, 40)``.

    ``labels[l]`` in ``0..s-1`` is the segment of mark ``l`` (``-1``: none). A transition
    ``l -> l+1`` counts for segment ``q`` only when both marks are in ``q``.
    """
    marks = np.asarray(marks, dtype=np.int64)
    gaps = np.minimum(np.asarray(gaps, dtype=np.int64), N_GAP_BINS - 1)
    labels = np.asarray(labels, dtype=np.int64)
    inside = labels >= 0
    mark_counts = np.bincount(labels[inside] * N_MARKS + marks[inside], minlength=n_segments * N_MARKS)
    gap_counts = np.bincount(labels[inside] * N_GAP_BINS + gaps[inside], minlength=n_segments * N_GAP_BINS)
    joined = inside[:-1] & (labels[:-1] == labels[1:])
    pair = (labels[:-1] * N_MARKS + marks[:-1]) * N_MARKS + marks[1:]
    transitions = np.bincount(pair[joined], minlength=n_segments * N_MARKS * N_MARKS)
    return {
        "marks": mark_counts.reshape(n_segments, N_MARKS).astype(np.float64),
        "transitions": transitions.reshape(n_segments, N_MARKS, N_MARKS).astype(np.float64),
        "gaps": gap_counts.reshape(n_segments, N_GAP_BINS).astype(np.float64),
    }


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    out = np.zeros(np.broadcast_shapes(numerator.shape, denominator.shape))
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def features_from_counts(counts: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """f1, f3, f5 of each row of :func:`segment_counts` (the definitions of :mod:`punctstyle.features`).

    ``f1_i = c_i / n``, ``f3_ij = f1_i T_ij / sum_j T_ij``, ``f5_g = #{gaps g} / n`` (n = marks of the row).
    """
    n = counts["marks"].sum(axis=1, keepdims=True)
    f1 = _ratio(counts["marks"], n)
    P = _ratio(counts["transitions"], counts["transitions"].sum(axis=2, keepdims=True))
    f3 = (f1[:, :, None] * P).reshape(f1.shape[0], -1)
    return {"f1": f1, "f3": f3, "f5": _ratio(counts["gaps"], n)}


def part_and_rest_features(marks: np.ndarray, gaps: np.ndarray, n_parts: int) -> tuple[dict, dict]:
    """Features (f1, f3, f5) of each part and of the rest of the book without it.

    Rest counts = book counts - part counts, less the (at most two) transitions that join the
    part to its neighbours: the rest is the two segments around the part.
    """
    marks = np.asarray(marks, dtype=np.int64)
    n = marks.size
    bounds = part_bounds(n, n_parts)
    labels = np.full(n, -1, dtype=np.int64)
    size = bounds[0, 1] - bounds[0, 0]
    labels[: n_parts * size] = np.repeat(np.arange(n_parts), size)
    parts = segment_counts(marks, gaps, labels, n_parts)
    book = segment_counts(marks, gaps, np.zeros(n, dtype=np.int64), 1)
    rest = {key: book[key] - parts[key] for key in parts}
    for index, (start, stop) in enumerate(bounds):
        for left in (start - 1, stop - 1):  # the transitions left -> left + 1 across the part's edges
            if 0 <= left < n - 1 and not start <= left < stop - 1:
                rest["transitions"][index, marks[left], marks[left + 1]] -= 1
    return features_from_counts(parts), features_from_counts(rest)


@dataclass(frozen=True)
class References:
    """Features of the corpus documents: one matrix per feature, the authors, the document ids
    and, when the documents are excerpts, the text of each (``texts``; None: whole texts)."""

    features: Mapping[str, np.ndarray]
    authors: np.ndarray
    book_ids: np.ndarray
    texts: np.ndarray | None = None

    @classmethod
    def from_tables(cls, tables: Mapping[str, pd.DataFrame]) -> References:
        """From the corpus tables of f1, f3, f5 (documents without an author are left out;
        ``texts`` from their ``source_id`` when the documents are excerpts)."""

        features, authors, book_ids = matrices_from_tables(tables, "author")
        texts = text_groups(next(iter(tables.values())), book_ids)
        return cls(features, authors, np.asarray(book_ids, dtype=np.int64), texts)

    @property
    def text_ids(self) -> np.ndarray:
        """The text ``t(b)`` of each document: its ``source_id``, or its own id for a whole text."""
        return self.book_ids if self.texts is None else np.asarray(self.texts, dtype=np.int64)

    def signature_without(self, feature: str, author: Any, text: int) -> np.ndarray:
        """Mean feature of ``author``'s documents of texts other than ``text`` (the set ``R`` of
        the module docstring; NaN row when there is none). For a whole text ``text`` is the
        book's id, so the book itself is left out."""
        others = (self.authors == author) & (self.text_ids != text)
        if not others.any():
            return np.full(self.features[feature].shape[1], np.nan)
        return self.features[feature][others].mean(axis=0)

    def other_author_signatures(self, feature: str, author: Any) -> np.ndarray:
        """Mean feature of every other author, ``(n_other_authors, size)``."""
        others = self.authors != author
        names, inverse = np.unique(self.authors[others], return_inverse=True)
        sums = np.zeros((names.size, self.features[feature].shape[1]))
        np.add.at(sums, inverse, self.features[feature][others])
        return sums / np.bincount(inverse, minlength=names.size)[:, None]

    def sample_other_books(self, author: Any, n_books: int, rng: np.random.Generator) -> np.ndarray:
        """Row indices of up to ``n_books`` other authors' books, drawn without replacement."""
        candidates = np.flatnonzero(self.authors != author)
        return np.sort(rng.choice(candidates, size=min(n_books, candidates.size), replace=False))


def _kl_to_rows(reference: np.ndarray, parts: np.ndarray) -> np.ndarray:
    """``d(reference, part)`` for each part; NaN for a NaN reference (no such reference)."""
    if np.isnan(reference).any():
        return np.full(parts.shape[0], np.nan)
    return pairwise_kl(reference[None, :], parts)[0]


def book_part_divergences(
    marks: np.ndarray, gaps: np.ndarray, *, book_id: int, author: Any, n_parts: int,
    references: References, sample: np.ndarray, text: int | None = None,
) -> pd.DataFrame:
    """The rows of :data:`PART_COLUMNS` for one document cut into ``n_parts`` parts (module
    docstring); ``text``: the document's text (its ``source_id``; None: a whole text, ``book_id``),
    left out of the own-author reference."""
    parts, rest = part_and_rest_features(marks, gaps, n_parts)
    own_text = book_id if text is None else text
    frames = []
    for feature in PART_FEATURES:
        P = parts[feature]
        kl_rest = paired_kl(rest[feature], P)
        kl_author = _kl_to_rows(references.signature_without(feature, author, own_text), P)
        books = references.features[feature][sample]
        kl_books = pairwise_kl(books, P) if sample.size else np.full((1, n_parts), np.nan)
        signatures = references.other_author_signatures(feature, author)
        kl_signatures = pairwise_kl(signatures, P) if signatures.size else np.full((1, n_parts), np.nan)
        with np.errstate(all="ignore"):
            nearest = _nan_min(kl_signatures)
            frames.append(
                pd.DataFrame(
                    {
                        "book_id": book_id, "author": author, "n_parts": n_parts, "part": np.arange(n_parts),
                        "part_marks": len(marks) // n_parts, "feature": feature, "kl_rest": kl_rest,
                        "kl_own_author": kl_author, "kl_other_books": _nan_mean(kl_books),
                        "kl_nearest_other_author": nearest, "closer_to_own_book": kl_rest < nearest,
                        "closer_to_own_author": kl_author < nearest,
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)[PART_COLUMNS]


def _nan_mean(values: np.ndarray) -> np.ndarray:
    """Column means over the non-NaN values (NaN for an all-NaN column)."""
    finite = ~np.isnan(values)
    return np.divide(np.where(finite, values, 0.0).sum(axis=0), finite.sum(axis=0),
                     out=np.full(values.shape[1], np.nan), where=finite.any(axis=0))


def _nan_min(values: np.ndarray) -> np.ndarray:
    """Column minima over the non-NaN values (NaN for an all-NaN column)."""
    filled = np.where(np.isnan(values), np.inf, values).min(axis=0)
    return np.where(np.isinf(filled), np.nan, filled)


def authors_without_other_text(authors: np.ndarray, texts: np.ndarray) -> np.ndarray:
    """Authors (sorted) whose documents all come from one text: ``#{t(b) : author(b) = a} = 1``,
    so no document of theirs has an own-author reference."""
    pairs = pd.DataFrame({"author": pd.Series(authors, dtype=object), "text": np.asarray(texts)})
    n_texts = pairs.drop_duplicates().groupby("author", sort=True)["text"].size()
    return n_texts.index[n_texts.to_numpy() == 1].to_numpy(dtype=object)


def book_rng(seed: int, book_id: int) -> np.random.Generator:
    """The generator of one book's sample of other authors' books: ``SeedSequence([seed, book_id])``."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), int(book_id)]))


def parts_analysis(
    sequences: Sequence[tuple[np.ndarray, np.ndarray]],
    references: References,
    *,
    part_counts: Sequence[int],
    min_part_marks: int,
    n_other_books: int,
    seed: int,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every part of every document for every ``p``: (rows of :data:`PART_COLUMNS`, skipped counts).

    ``sequences[i]`` is ``(marks, gaps)`` of the document in row ``i`` of ``references``. The
    skipped table (:data:`SKIPPED_COLUMNS`) has one line per ``p``: ``n_books`` cut,
    ``n_skipped`` (parts shorter than ``min_part_marks``), ``n_no_other_text`` (documents cut
    whose author has no other text: :func:`authors_without_other_text`, ``kl_own_author`` NaN).
    """
    frames = []
    n_cut, n_short, n_alone = (dict.fromkeys(part_counts, 0) for _ in range(3))
    texts = references.text_ids
    alone = set(authors_without_other_text(references.authors, texts).tolist())
    for index, (marks, gaps) in enumerate(sequences):  # each book read once
        book_id, author = int(references.book_ids[index]), references.authors[index]
        sample = references.sample_other_books(author, n_other_books, book_rng(seed, book_id))
        for n_parts in part_counts:
            if len(marks) // n_parts < min_part_marks:
                n_short[n_parts] += 1
                continue
            frames.append(book_part_divergences(marks, gaps, book_id=book_id, author=author, n_parts=n_parts,
                                                references=references, sample=sample, text=int(texts[index])))
            n_cut[n_parts] += 1
            n_alone[n_parts] += author in alone
    skipped = [{"n_parts": p, "n_books": n_cut[p], "n_skipped": n_short[p], "n_no_other_text": n_alone[p]}
               for p in part_counts]
    rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=PART_COLUMNS)
    return rows, pd.DataFrame(skipped, columns=SKIPPED_COLUMNS)


SUMMARY_COLUMNS: list[str] = [
    "feature", "n_parts", "n_books", "n_skipped", "n_parts_total", "median_part_marks", "median_kl_rest",
    "median_kl_own_author", "median_kl_other_books", "share_closer_to_own_book", "share_closer_to_own_author",
]


def parts_summary(rows: pd.DataFrame, skipped: pd.DataFrame) -> pd.DataFrame:
    """Per (feature, p): medians of the three divergences, part size, and the shares of parts
    closer to their own book (resp. author) than to any other author's mean feature vector.

    Shares are over the parts where both divergences are defined; medians ignore NaN.
    """
    if rows.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    defined_book = rows["kl_rest"].notna() & rows["kl_nearest_other_author"].notna()
    defined_author = rows["kl_own_author"].notna() & rows["kl_nearest_other_author"].notna()
    frame = rows.assign(
        own_book=rows["closer_to_own_book"].where(defined_book).astype(float),
        own_author=rows["closer_to_own_author"].where(defined_author).astype(float),
    )
    summary = frame.groupby(["feature", "n_parts"]).agg(
        n_parts_total=("part", "size"),
        median_part_marks=("part_marks", "median"),
        median_kl_rest=("kl_rest", "median"),
        median_kl_own_author=("kl_own_author", "median"),
        median_kl_other_books=("kl_other_books", "median"),
        share_closer_to_own_book=("own_book", "mean"),
        share_closer_to_own_author=("own_author", "mean"),
    )
    summary = summary.reset_index().merge(skipped, on="n_parts", how="left")
    return summary[SUMMARY_COLUMNS]


def book_parts_job(params: Any, inputs: Any, output: Any, log: Any) -> None:
    """Rule book_parts: the parts of every corpus book (``inputs.tables`` of :data:`PART_FEATURES`,
    ``inputs.sequences``) against three references (:func:`parts_analysis`), their summary and a
    record of the settings (``output.parts``, ``output.summary``, ``output.info``); ``params``:
    ``part_counts``, ``min_part_marks``, ``other_books``, ``seed``. Fewer than 2 authors: empty
    tables and a record naming the reason."""
    tables = {name: pd.read_parquet(path) for name, path in zip(PART_FEATURES, inputs.tables, strict=True)}
    references = References.from_tables(tables)
    n_authors = int(np.unique(references.authors).size)
    alone = authors_without_other_text(references.authors, references.text_ids)
    excerpts = references.texts is not None
    record = {"n_books": int(references.book_ids.size), "n_authors": n_authors, "part_counts": list(params.part_counts),
              "min_part_marks": params.min_part_marks, "other_books": params.other_books, "seed": params.seed,
              "own_author_reference": "mean feature vector of the author's documents from other texts (every excerpt "
                                      "of the document's own text left out)" if excerpts else
                                      "mean feature vector of the author's other books",
              "n_texts": int(np.unique(references.text_ids).size),
              "n_authors_without_other_text": int(alone.size), "authors_without_other_text": [str(a) for a in alone],
              "other_books_reference": "mean KL to a seeded sample of other authors' books",
              "direction": "d(reference, part)"}
    if n_authors < 2:
        record.update(status="skipped", reason=f"the corpus has {n_authors} author(s), at least 2 are needed")
        log.warning("book parts skipped: %s", record["reason"])
        rows, summary = pd.DataFrame(columns=PART_COLUMNS), pd.DataFrame(columns=SUMMARY_COLUMNS)
        skipped = pd.DataFrame(columns=SKIPPED_COLUMNS)
    else:
        sequences = document_sequences(inputs.sequences, tables[PART_FEATURES[0]], references.book_ids)
        rows, skipped = parts_analysis(sequences, references, part_counts=params.part_counts,
                                       min_part_marks=params.min_part_marks, n_other_books=params.other_books,
                                       seed=params.seed)
        summary = parts_summary(rows, skipped)
        record.update(status="done", reason="")
    record["books_per_p"] = skipped.to_dict("records")
    for frame, path in ((rows, output.parts), (summary, output.summary)):
        with atomic_open(path, "w", newline="") as handle:
            frame.to_csv(handle, index=False)
    write_json_atomic(output.info, record)
    if alone.size:
        log.warning("book parts: %d author(s) with no other text, no own-author reference: %s", alone.size,
                    ", ".join(record["authors_without_other_text"]))
    log.info("book parts: %s\n%s", record["status"], summary.to_string())
