"""Corpus-level analyses on the feature tables: consistency (sections 3.1, 4.1) and the
recognition experiments (sections 3.2, 4.2), shaped into the files the workflow writes.

This module glues the science modules (:mod:`punctstyle.analyses.consistency`,
:mod:`punctstyle.analyses.recognition`) to the corpus tables; it does no file I/O itself.

Classes: ``task="author"`` uses the ``author`` column; ``task="genre"`` the ``genre``
column (books without a genre are left out; see :func:`punctstyle.sources.genres.assign_genres`);
``task="time_slot"`` and ``task="gender"`` the columns of those names (a TEI corpus' ELTeC
metadata, :data:`punctstyle.corpus.tables.LABEL_COLUMNS`; books without one are left out).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.analyses.consistency_report import ConsistencyReport, consistency_run
from punctstyle.corpus.tables import feature_matrix, text_groups
from punctstyle.featuresets import matrices_from_tables
from punctstyle.analyses.recognition import (
    Experiment,
    recognition_experiments,
    results_frame,
    word_experiments,
    word_results_frame,
)

TASK_COLUMNS: dict[str, str] = {"author": "author", "genre": "genre", "time_slot": "time_slot", "gender": "gender"}


def task_column(task: str) -> str:
    """The label column of a task (``author``, ``genre``, ``time_slot`` or ``gender``)."""
    try:
        return TASK_COLUMNS[task]
    except KeyError:
        raise ValueError(f"unknown task {task!r}: expected one of {sorted(TASK_COLUMNS)}") from None


def labelled_rows(table: pd.DataFrame, task: str) -> pd.DataFrame:
    """Rows of ``table`` that have a label for ``task``."""
    return table[table[task_column(task)].notna()].reset_index(drop=True)


@dataclass(frozen=True)
class ConsistencyResult:
    """Consistency of one (task, feature), plus the heat-map matrices of the top classes."""

    task: str
    feature: str
    report: ConsistencyReport
    n_baseline_pairs: int
    heatmaps: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]

    def summary(self) -> dict[str, object]:
        return {"task": self.task, "feature": self.feature, **self.report.summary()}


def consistency_analysis(
    table: pd.DataFrame,
    task: str,
    feature: str,
    *,
    baseline_pairs: int = 1000,
    seed: int = 0,
    top_k: Sequence[int] = (),
) -> ConsistencyResult:
    """Consistency table, baseline, KS test and top-k KL matrices of one feature
    (:func:`punctstyle.analyses.consistency_report.consistency_run` on the task's labelled rows; with excerpts,
    ``source_id``, pairs of excerpts of one text are left out).

    ``baseline_pairs`` is capped by the number of cross-class pairs that exist (small
    corpora); ``top_k`` values larger than the number of classes are capped too.
    """
    rows = labelled_rows(table, task)
    labels = rows[task_column(task)].to_numpy(dtype=object)
    if np.unique(labels).size < 2:
        raise ValueError(f"{task} consistency needs at least 2 classes, the corpus has {np.unique(labels).size}")
    report, n_pairs, heatmaps = consistency_run(
        feature_matrix(rows, feature),
        labels,
        groups=text_groups(rows),
        baseline_pairs=baseline_pairs,
        seed=seed,
        top_k=top_k,
    )
    return ConsistencyResult(task, feature, report, n_pairs, heatmaps)


@dataclass(frozen=True)
class RecognitionRun:
    """The experiments of one (task, class size, seed): results, confusion counts, per-class accuracy."""

    results: pd.DataFrame
    confusion: pd.DataFrame
    per_class: pd.DataFrame
    experiments: list[Experiment]


def _long_confusion(experiment: Experiment) -> pd.DataFrame:
    counts = experiment.confusion().stack()
    counts = counts[counts > 0]
    frame = counts.rename("count").reset_index()
    frame.columns = ["true", "predicted", "count"]
    return frame


def _keyed(frame: pd.DataFrame, experiment: Experiment) -> pd.DataFrame:
    keys = {
        "task": experiment.task,
        "n_classes": experiment.n_classes,
        "seed": experiment.seed,
        "method": experiment.method,
        "feature_set": experiment.feature_set,
    }
    return frame.assign(**keys)[list(keys) + list(frame.columns)]


def duplicates_full_corpus_row(class_size: int | str, n_available: int, all_configured: bool) -> bool:
    """Whether a requested class size is capped to the full corpus that the ``"all"`` row computes.

    ``class_size >= n_available`` samples every class, i.e. the same experiment (same
    :func:`punctstyle.experiments.splits.row_rng`) as ``"all"``: computed once, by the ``"all"`` row.
    """
    return class_size != "all" and all_configured and int(class_size) >= n_available


def recognition_run(
    tables: Mapping[str, pd.DataFrame],
    task: str,
    class_size: int | str,
    seed: int,
    *,
    methods: Mapping[str, Sequence[str]],
    test_fraction: float,
    classifier_options: Mapping[str, Mapping[str, Any]],
    keep: Collection[tuple[str, str]] = (),
) -> RecognitionRun:
    """One row of Tables 2-4 (a class size and a seed of one task), for every configured classifier.

    ``methods`` maps a registered classifier to its feature sets (``recognition.methods``).
    The class sample and split are shared by every classifier and feature set; the excerpts
    of one text (tables with ``source_id``, :func:`punctstyle.corpus.tables.text_groups`) stay on one
    side of it. Classifiers of the row that uses every class are kept on their experiments (to
    be saved), and those of the (method, feature set) pairs in ``keep`` on every row (the fits
    that later analyses read, :mod:`punctstyle.experiments.fit_store`).
    """
    features, labels, book_ids = matrices_from_tables(tables, task_column(task))
    n_available = np.unique(labels).size
    experiments = list(
        recognition_experiments(
            features,
            labels,
            task=task,
            class_sizes=[class_size],
            seeds=[seed],
            methods=methods,
            test_fraction=test_fraction,
            classifier_options=classifier_options,
            keep_models=True,
            groups=text_groups(next(iter(tables.values())), book_ids),
        )
    )
    for experiment in experiments:
        if experiment.n_classes != n_available and (experiment.method, experiment.feature_set) not in keep:
            experiment.model = None
    if not experiments:
        raise ValueError("recognition.methods lists no feature set: nothing to run")
    results = results_frame(experiments)
    confusion = pd.concat([_keyed(_long_confusion(e), e) for e in experiments], ignore_index=True)
    per_class = pd.concat([_keyed(e.per_class(), e) for e in experiments], ignore_index=True)
    return RecognitionRun(results, confusion, per_class, experiments)


@dataclass(frozen=True)
class WordBaselineRun:
    """The word baselines of one row: the results frame
    (:func:`punctstyle.analyses.recognition.word_results_frame`) and the experiments whose fitted
    classifiers were kept (``keep``), each with its words."""

    results: pd.DataFrame
    kept: list[Experiment]


def word_baseline_run(
    tables: Mapping[str, pd.DataFrame],
    task: str,
    class_size: int | str,
    seed: int,
    *,
    matrix: Any,
    methods: Mapping[str, Sequence[str]],
    test_fraction: float,
    classifier_options: Mapping[str, Mapping[str, Any]],
    keep: Collection[tuple[str, str]] = (),
) -> WordBaselineRun:
    """The word baselines of one row of Tables 2-3 (:func:`punctstyle.analyses.recognition.word_experiments`
    on the row's split): the books' relative word frequencies and pool cutoffs from ``matrix``
    (a :class:`punctstyle.corpus.words.WordMatrix`), in the corpus tables' order. The fits of the
    (method, word set) pairs in ``keep`` are kept with their words (the store of fits later
    analyses read, :mod:`punctstyle.experiments.fit_store`)."""
    features, labels, book_ids = matrices_from_tables(tables, task_column(task))
    experiments = list(
        word_experiments(
            features,
            labels,
            matrix.relative_frequencies(book_ids),
            task=task,
            class_sizes=[class_size],
            seeds=[seed],
            methods=methods,
            test_fraction=test_fraction,
            word_cutoff=matrix.cutoff[matrix.rows_of(book_ids)],
            classifier_options=classifier_options,
            groups=text_groups(next(iter(tables.values())), book_ids),
            keep=keep,
            pool_words=matrix.vocabulary,
        )
    )
    return WordBaselineRun(word_results_frame(experiments), [e for e in experiments if e.model is not None])
