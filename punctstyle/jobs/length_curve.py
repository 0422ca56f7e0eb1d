"""Rule ``length_curve_row``'s job: the accuracy of the paper's methods by excerpt length for one
(class size, seed) row (:func:`punctstyle.training.length_curve.length_curve_row`). Called by
``scripts/length_curve_row.py`` and ``benchmarks/beyond_rows.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.training.length_curve import (
    EXCERPT_COLUMNS,
    RESULT_COLUMNS,
    length_curve_row,
)
from punctstyle.training.length_features import (
    WORD_STREAM,
    uses_word_features,
)
from punctstyle.book.excerpts import Document
from punctstyle.corpus.sequences import document_sequences
from punctstyle.corpus.tables import text_groups
from punctstyle.corpus.words import CorpusWordFiles, document_word_files
from punctstyle.featuresets import matrices_from_tables
from punctstyle.io import atomic_open
from punctstyle.experiments.driver import FitCache
from punctstyle.experiments.fit_store import FitStore
from punctstyle.jobs.recognition import enough_classes
from punctstyle.text.tokenizer import TokenizerRules


@dataclass(frozen=True)
class LengthJob:
    """What :func:`length_curve_job` wrote: the results and excerpts frames, the number of
    classes used (None: skipped), the row's words, and the CPU seconds spent re-tokenizing."""

    results: pd.DataFrame
    excerpts: pd.DataFrame
    n_classes: int | None
    vocabulary: tuple[str, ...]
    tokenizing_cpu_s: float


@dataclass(frozen=True)
class LengthCurveSettings:
    """The settings every row of the length curve shares (the rule's ``params``): the grid's
    ``test_fraction`` (recognition.test_fraction), the excerpt ``lengths``, the ``methods``
    (classifier -> feature sets), the ``training`` modes, the ``short_documents`` rule and each
    classifier's options (:func:`punctstyle.classifiers.options.options_by_classifier`)."""

    test_fraction: float
    lengths: Sequence[int]
    methods: Mapping[str, Sequence[str]]
    training: Sequence[str]
    short_documents: str
    classifier_options: Mapping[str, Mapping[str, Any]]

    def row_options(self) -> dict[str, Any]:
        """The keyword arguments of :func:`punctstyle.training.length_curve.length_curve_row` they set."""
        return {
            "test_fraction": float(self.test_fraction),
            "lengths": self.lengths,
            "methods": self.methods,
            "training": self.training,
            "short_documents": self.short_documents,
            "classifier_options": self.classifier_options,
        }


def document_reader(
    files: Any, book_ids: Any, word_files: CorpusWordFiles | None, tokenizing: list[float]
) -> Callable[[int], Document]:
    """``document(i)``: book ``i``'s marks and gaps (``files[i]``) as a
    :class:`punctstyle.book.excerpts.Document`, with its word stream (``WORD_STREAM``, re-tokenized
    by ``word_files``) when word features run; the CPU seconds of re-tokenizing are added to
    ``tokenizing[0]``."""

    def document(i: int) -> Document:
        marks, gaps = files[i]
        streams = {}
        if word_files is not None:
            before = time.process_time()
            streams[WORD_STREAM] = word_files.stream(i, marks, gaps)
            tokenizing[0] += time.process_time() - before
        return Document(int(book_ids[i]), marks, gaps, streams)

    return document


def length_curve_job(
    table: pd.DataFrame,
    sequences: Sequence[Any],
    outputs: Mapping[str, Any],
    settings: LengthCurveSettings,
    *,
    n_classes: int,
    seed: int,
    texts: Sequence[Any] = (),
    words: Sequence[Any] = (),
    rules: Any = None,
    fitted: Sequence[Any] = (),
    log: Any = None,
) -> LengthJob:
    """Rule ``length_curve_row``: one (class size, seed) row of the author task's accuracy against
    the excerpt length (:func:`punctstyle.training.length_curve.length_curve_row` with the rows'
    shared ``settings`` on the corpus table ``table``, its documents read from ``sequences``), written to ``outputs["results"]`` and
    ``outputs["excerpts"]``. The labels and ids are those of the corpus tables' order, exactly as the
    recognition rule reads them, and the excerpts of one text stay on one side of the split.
    ``n_classes`` is capped to the authors available; fewer than 2 authors: empty files. Word methods
    (words<k>) also read the books' ``texts`` (re-tokenized on the ``rules`` file) and ``words``
    files (whole-book counts, for the row's training vocabulary). ``fitted``: the recognition
    rows' store files (:mod:`punctstyle.experiments.fit_store`); training mode ``"whole"`` reads
    the row's fits from them (the cache of the driver, keyed by row, classifier and feature set)
    instead of training them again."""
    _, labels, book_ids = matrices_from_tables({"f1": table}, "author")
    n_available = int(np.unique(labels).size)
    results = pd.DataFrame(columns=RESULT_COLUMNS)
    excerpts = pd.DataFrame(columns=EXCERPT_COLUMNS)
    vocabulary: tuple[str, ...] = ()
    tokenizing = [0.0]
    used = None
    if enough_classes(n_available, "author", log):
        files = document_sequences(sequences, table, book_ids)
        word_files = None
        if uses_word_features(settings.methods):

            word_files = document_word_files(files, table, book_ids, texts, words, TokenizerRules.load(rules))
        document = document_reader(files, book_ids, word_files, tokenizing)
        used = min(n_classes, n_available)
        fits = FitCache(FitStore(fitted))
        start = time.process_time()
        row = length_curve_row(
            document,
            labels,
            task="author",
            n_classes=used,
            seed=seed,
            **settings.row_options(),
            word_counts=None if word_files is None else word_files.counts,
            groups=text_groups(table, book_ids),  # None: whole texts
            ids=book_ids,
            fits=fits,
        )
        results, excerpts, vocabulary = row.results, row.excerpts, row.vocabulary
        if log is not None:
            log_length_row(log, fits, vocabulary, used, seed, time.process_time() - start, results)
    write_length_files(outputs, results, excerpts)
    return LengthJob(results, excerpts, used, vocabulary, tokenizing[0])


def log_length_row(
    log: Any, fits: FitCache, vocabulary: Sequence[str], used: int, seed: int, cpu_s: float, results: pd.DataFrame
) -> None:
    """Log a computed row: the fits read from the store, the row's first 20 words (word
    features only) and the results table with its CPU seconds ``cpu_s``."""
    for key in fits.loaded:
        log.info("%s %s: the recognition grid's fit, read from the store (not trained again)",
                 key.method, key.feature_set)  # fmt: skip
    if vocabulary:
        log.info("the row's %d words (training books only), first 20: %s", len(vocabulary), vocabulary[:20])
    log.info(
        "length curve, %d authors, seed %d (%.1f CPU s):\n%s",
        used,
        seed,
        cpu_s,
        results.to_string(),
    )


def write_length_files(outputs: Mapping[str, Any], results: pd.DataFrame, excerpts: pd.DataFrame) -> None:
    """Write ``results`` and ``excerpts`` (CSV, atomically) to ``outputs["results"]`` and ``outputs["excerpts"]``."""
    for frame, key in ((results, "results"), (excerpts, "excerpts")):
        with atomic_open(outputs[key], "w", newline="") as handle:
            frame.to_csv(handle, index=False)
