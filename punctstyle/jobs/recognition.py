"""Rule ``recognition``'s job (one row of Tables 2-3 and its word baselines), and the rule
that a row with fewer than 2 classes is skipped (:func:`enough_classes`), used by every per-row
job. Called by the rule's script (an adapter that maps ``snakemake.input/output/params`` to the
arguments) and by the benchmark drivers (benchmarks/recognition_rows.py), so both run the same
code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from punctstyle.analyses.paper import (
    RecognitionRun,
    duplicates_full_corpus_row,
    labelled_rows,
    recognition_run,
    task_column,
    word_baseline_run,
)
from punctstyle.analyses.recognition_files import write_row_files, write_word_results
from punctstyle.corpus.words import read_word_matrix
from punctstyle.featuresets import matrices_from_tables
from punctstyle.experiments.fit_store import STORED_METHOD, FitKey, StoredFit, stores_row, write_fits


@dataclass(frozen=True)
class RecognitionSettings:
    """The settings every row of the recognition grid shares (the rule's ``params``): the
    ``methods`` (classifier -> feature sets) and their ``classifier_options``
    (:func:`punctstyle.classifiers.options.options_by_classifier`), the grid's ``test_fraction``,
    whether class size ``"all"`` is configured (``all_configured``: a size that caps to every class
    is then skipped), the word baselines' ``word_methods`` and ``word_options``, and the fits later
    analyses read (``store_views``: feature sets, at ``store_class_sizes``)."""

    methods: Mapping[str, Sequence[str]]
    test_fraction: float
    classifier_options: Mapping[str, Mapping[str, Any]]
    all_configured: bool
    word_methods: Mapping[str, Sequence[str]] | None = None
    word_options: Mapping[str, Mapping[str, Any]] | None = None
    store_views: Sequence[str] = ()
    store_class_sizes: Sequence[int] = ()


def classifiers_run(
    class_size: int | str, n_available: int, task: str, all_configured: bool, words_only: bool, log: Any = None
) -> bool:
    """Whether a recognition row runs its classifiers: not for the word baselines alone
    (``words_only``), not with fewer than 2 classes (:func:`enough_classes`), not when the class
    size caps to every class and the ``"all"`` row computes it
    (:func:`punctstyle.analyses.paper.duplicates_full_corpus_row`; logged)."""
    if words_only or not enough_classes(n_available, task, log):
        return False
    if duplicates_full_corpus_row(class_size, n_available, all_configured):
        if log is not None:
            log.info(
                "skipped: %s classes cap to all %d %ss, the row computed by class size 'all'",
                class_size,
                n_available,
                task,
            )
        return False
    return True


def recognition_job(
    tables: Mapping[str, pd.DataFrame],
    task: str,
    class_size: int | str,
    seed: int,
    outputs: Mapping[str, Any],
    settings: RecognitionSettings,
    *,
    word_matrix: Any = None,
    words_only: bool = False,
    log: Any = None,
) -> RecognitionRun | None:
    """Rule ``recognition``: one row of Tables 2-4 (a task, a class size, a seed), every configured
    classifier (:func:`punctstyle.analyses.paper.recognition_run`), and the word baselines of the row on
    the same split (:func:`punctstyle.analyses.paper.word_baseline_run`, when ``settings.word_methods`` and the
    ``word_matrix`` file are given). Writes ``outputs["results"]``, ``["per_class"]``,
    ``["confusion"]`` and ``["words"]`` (each when present) and, under ``outputs["models"]``, the
    full-corpus row's models. Skipped (empty files) with fewer than 2 classes or when the class
    size caps to every class and the ``"all"`` row computes it (``settings.all_configured``).
    ``words_only``: the word baselines alone (benchmarks/recognition_rows.py --words-only).
    ``outputs["fitted"]``: the MLPs of ``settings.store_views`` (feature sets), with their test
    predictions, when a later analysis runs at this class size (``settings.store_class_sizes``,
    :func:`punctstyle.experiments.fit_store.stores_row`); the file holds no view otherwise."""
    methods, test_fraction, word_methods = settings.methods, settings.test_fraction, settings.word_methods
    store_views, store_class_sizes = settings.store_views, settings.store_class_sizes
    n_available = labelled_rows(tables["f1"], task)[task_column(task)].nunique()
    run = None
    keep = [(STORED_METHOD, view) for view in store_views] if stores_row(class_size, n_available, store_class_sizes) else []
    if classifiers_run(class_size, n_available, task, settings.all_configured, words_only, log):
        run = recognition_run(
            tables,
            task,
            class_size,
            seed,
            methods=methods,
            test_fraction=test_fraction,
            classifier_options=settings.classifier_options,
            keep=keep,
        )
    word_run = None
    if (run or words_only) and word_methods and word_matrix is not None:
        word_run = word_baseline_run(
            tables,
            task,
            class_size,
            seed,
            matrix=read_word_matrix(word_matrix),
            methods=word_methods,
            test_fraction=test_fraction,
            classifier_options=settings.word_options or {},
            keep=keep,
        )
        if log is not None:
            log.info("word baselines:\n%s", word_run.results.to_string())
    write_recognition_outputs(outputs, run, word_run, tables, task, keep, n_available)
    if run and log is not None:
        log.info("\n%s", run.results.to_string())
    return run


def write_recognition_outputs(
    outputs: Mapping[str, Any],
    run: RecognitionRun | None,
    word_run: Any,
    tables: Mapping[str, pd.DataFrame],
    task: str,
    keep: Sequence[tuple[str, str]],
    n_available: int,
) -> None:
    """The files of a recognition row (each output named in ``outputs``; a row that did not run,
    ``run`` or ``word_run`` None, writes its empty files): ``words`` (the word baselines),
    ``results``, ``per_class`` and ``confusion`` (the row's tables), ``fitted`` (the fits of
    ``keep``, :func:`_stored_fits`), ``models`` (:func:`save_full_corpus_models`)."""
    if "words" in outputs:
        write_word_results(outputs["words"], word_run.results if word_run else None)
    if "results" in outputs:
        write_row_files(
            outputs["results"],
            outputs["per_class"],
            outputs["confusion"],
            run.results if run else None,
            run.per_class if run else None,
            run.confusion if run else None,
        )
    if "fitted" in outputs:
        kept = [*(run.experiments if run else []), *(word_run.kept if word_run else [])]
        write_fits(outputs["fitted"], _stored_fits(kept, tables, task, keep))
    if "models" in outputs:
        save_full_corpus_models(outputs["models"], run, n_available)


def save_full_corpus_models(folder: Any, run: RecognitionRun | None, n_available: int) -> None:
    """Save, under ``folder`` (made if missing), each model of the full-corpus row (class count
    ``n_available``) that can save itself, as ``{method}_{feature_set}_{n_classes}classes.pt``."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    for experiment in run.experiments if run else []:
        full = experiment.n_classes == n_available
        if full and experiment.model is not None and hasattr(experiment.model, "save"):
            name = f"{experiment.method}_{experiment.feature_set}_{experiment.n_classes}classes.pt"
            experiment.model.save(Path(folder) / name)


def enough_classes(n_available: int, task: str, log: Any = None) -> bool:
    """The one rule of every per-row job: a row needs at least 2 classes in the corpus; with fewer
    it is skipped (its files written empty) and the log says why."""
    if n_available >= 2:
        return True
    if log is not None:
        log.warning("skipped: the corpus has %d %s class(es), at least 2 are needed", n_available, task)
    return False


def _stored_fits(
    experiments: Sequence[Any], tables: Mapping[str, pd.DataFrame], task: str, keep: Sequence[tuple[str, str]]
) -> list[StoredFit]:
    """The kept fits of a recognition row (its punctuation experiments and word baselines) as
    store entries, keyed by (row, classifier, view) (book ids in the corpus tables' order; a word
    set's entry holds its words); a classifier that cannot save its fit (no ``fitted_state``) is
    not kept."""
    _, _, book_ids = matrices_from_tables({"f1": tables["f1"]}, task_column(task))
    entries = []
    for e in experiments:
        if (e.method, e.feature_set) in keep and hasattr(e.model, "fitted_state"):
            key = FitKey(task, e.n_classes, e.seed, e.method, e.feature_set)
            entries.append(StoredFit(key, e.model, book_ids[e.train_index], book_ids[e.test_index], e.y_pred,
                                     vocabulary=tuple(e.vocabulary)))
    return entries
