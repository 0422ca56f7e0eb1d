"""Job bodies of the per-row analyses: one function per workflow rule, called by the rule's
script (an adapter that maps ``snakemake.input/output/params`` to the arguments) and by the
benchmark drivers (benchmarks/beyond_rows.py), so both run the same code.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.analyses.paper import (
    RecognitionRun,
    duplicates_full_corpus_row,
    labelled_rows,
    recognition_run,
    task_column,
    word_baseline_run,
)
from punctstyle.classifiers import build_classifier, build_sequence_classifier
from punctstyle.corpus.tables import feature_matrix, text_groups
from punctstyle.beyond.importance import ImportanceRow, importance_row, write_importance_row
from punctstyle.featuresets import matrices_from_tables
from punctstyle.io import atomic_open
from punctstyle.experiments.model_store import (
    STORED_METHOD,
    FittedEntry,
    StoreKey,
    stored_fit_reader,
    stores_row,
    write_fitted,
)
from punctstyle.beyond.length_curve import (
    EXCERPT_COLUMNS,
    RESULT_COLUMNS,
    length_curve_row,
)
from punctstyle.beyond.length_features import (
    WORD_STREAM,
    uses_word_features,
)
from punctstyle.book.excerpts import Document
from punctstyle.analyses.recognition_files import write_row_files, write_word_results
from punctstyle.corpus.sequences import document_sequences
from punctstyle.beyond.sequence_recognition import (
    excerpt_accuracies,
    fit_and_score,
    sequence_row_split,
    write_length_rows,
    write_sequence_row,
)
from punctstyle.corpus.words import read_word_matrix
from punctstyle.text.tokenizer import TokenizerRules
from punctstyle.corpus.words import CorpusWordFiles


@dataclass(frozen=True)
class LengthJob:
    """What :func:`length_curve_job` wrote: the results and excerpts frames, the number of
    classes used (None: skipped), the row's words, and the CPU seconds spent re-tokenizing."""

    results: pd.DataFrame
    excerpts: pd.DataFrame
    n_classes: int | None
    vocabulary: tuple[str, ...]
    tokenizing_cpu_s: float


def length_curve_job(
    table: pd.DataFrame,
    sequences: Sequence[Any],
    outputs: Mapping[str, Any],
    *,
    n_classes: int,
    seed: int,
    test_fraction: float,
    lengths: Sequence[int],
    methods: Mapping[str, Sequence[str]],
    training: Sequence[str],
    short_documents: str,
    classifier_options: Mapping[str, Mapping[str, Any]],
    texts: Sequence[Any] = (),
    words: Sequence[Any] = (),
    rules: Any = None,
    fitted: Sequence[Any] = (),
    log: Any = None,
) -> LengthJob:
    """Rule ``length_curve_row``: one (class size, seed) row of the author task's accuracy against
    the excerpt length (:func:`punctstyle.beyond.length_curve.length_curve_row` on the corpus table
    ``table``, its documents read from ``sequences``), written to ``outputs["results"]`` and
    ``outputs["excerpts"]``. The labels and ids are those of the corpus tables' order, exactly as the
    recognition rule reads them, and the excerpts of one text stay on one side of the split.
    ``n_classes`` is capped to the authors available; fewer than 2 authors: empty files. Word methods
    (words<k>) also read the books' ``texts`` (re-tokenized on the ``rules`` file) and ``words``
    files (whole-book counts, for the row's training vocabulary). ``fitted``: the recognition
    rows' store files (:mod:`punctstyle.experiments.model_store`); training mode ``"whole"`` reads
    the row's MLP from them instead of training it again."""
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
        if uses_word_features(methods):

            word_files = CorpusWordFiles(book_ids.tolist(), texts, words, TokenizerRules.load(rules))

        def document(i: int) -> Document:
            marks, gaps = files[i]
            streams = {}
            if word_files is not None:
                before = time.process_time()
                streams[WORD_STREAM] = word_files.stream(i, marks, gaps)
                tokenizing[0] += time.process_time() - before
            return Document(int(book_ids[i]), marks, gaps, streams)

        used = min(n_classes, n_available)
        stored_fit = stored_fit_reader(fitted, "author", used, seed, classifier_options.get(STORED_METHOD, {}))

        def stored(method: str, name: str, names: Any, classes: Any, train_index: Any, words: Any = None) -> Any:
            if method != STORED_METHOD or not fitted:
                return None
            model = stored_fit(name, names, classes, book_ids[train_index], words)
            if model is not None and log is not None:
                log.info("%s %s: the recognition grid's fit, read from the store (not trained again)", method, name)
            return model

        start = time.process_time()
        row = length_curve_row(
            document,
            labels,
            task="author",
            n_classes=used,
            seed=seed,
            test_fraction=test_fraction,
            lengths=lengths,
            methods=methods,
            training=training,
            short_documents=short_documents,
            classifier_options=classifier_options,
            word_counts=None if word_files is None else word_files.counts,
            groups=text_groups(table, book_ids),  # None: whole texts
            stored=stored,
        )
        results, excerpts, vocabulary = row.results, row.excerpts, row.vocabulary
        if log is not None:
            if vocabulary:
                log.info("the row's %d words (training books only), first 20: %s", len(vocabulary), vocabulary[:20])
            log.info(
                "length curve, %d authors, seed %d (%.1f CPU s):\n%s",
                used,
                seed,
                time.process_time() - start,
                results.to_string(),
            )
    for frame, key in ((results, "results"), (excerpts, "excerpts")):
        with atomic_open(outputs[key], "w", newline="") as handle:
            frame.to_csv(handle, index=False)
    return LengthJob(results, excerpts, used, vocabulary, tokenizing[0])


SEQUENCE_METHOD = "sequence_cnn"


def sequence_row_job(
    table: pd.DataFrame,
    sequences: Sequence[Any],
    outputs: Mapping[str, Any],
    *,
    class_size: int | str,
    seed: int,
    test_fraction: float,
    options: Mapping[str, Any],
    lengths: Sequence[int],
    short_documents: str,
    log: Any = None,
) -> pd.DataFrame | None:
    """Rule ``sequence_row``: the network on raw punctuation sequences for one (class size, seed)
    row of the author task, on the class sample and split of Tables 2-3
    (:func:`punctstyle.beyond.sequence_recognition.sequence_row_split`), trained with ``options``
    (:func:`punctstyle.classifiers.options.classifier_options` of ``sequence_cnn``) and scored on
    its test books whole (``outputs["row"]``) and cut to the length curve's excerpts
    (``outputs["lengths"]``; none when ``lengths`` is empty). Fewer than 2 authors: empty files.
    Returns the row (None when skipped)."""
    task = "author"
    if not enough_classes(labelled_rows(table, task)[task_column(task)].nunique(), task, log):
        write_sequence_row(outputs["row"], None)
        write_length_rows(outputs["lengths"], None)
        return None
    data = sequence_row_split(table, task, class_size, seed, test_fraction)
    documents = document_sequences(sequences, table, data.book_ids)

    def make() -> Any:
        return build_sequence_classifier(SEQUENCE_METHOD, seed=seed, **options)

    device = options["device"]
    model, row = fit_and_score(data, documents, task=task, seed=seed, method=SEQUENCE_METHOD, make=make, device=device)
    excerpts = excerpt_accuracies(
        model,
        data,
        documents,
        task=task,
        seed=seed,
        method=SEQUENCE_METHOD,
        lengths=lengths,
        short_documents=short_documents,
    )
    write_sequence_row(outputs["row"], row)
    write_length_rows(outputs["lengths"], excerpts)
    if log is not None:
        log.info("\n%s\n%s", row.T.to_string(), excerpts.to_string())
    return row


def recognition_job(
    tables: Mapping[str, pd.DataFrame],
    task: str,
    class_size: int | str,
    seed: int,
    outputs: Mapping[str, Any],
    *,
    methods: Mapping[str, Sequence[str]],
    test_fraction: float,
    classifier_options: Mapping[str, Mapping[str, Any]],
    all_configured: bool,
    word_methods: Mapping[str, Sequence[str]] | None = None,
    word_matrix: Any = None,
    word_options: Mapping[str, Mapping[str, Any]] | None = None,
    words_only: bool = False,
    store_views: Sequence[str] = (),
    store_class_sizes: Sequence[int] = (),
    log: Any = None,
) -> RecognitionRun | None:
    """Rule ``recognition``: one row of Tables 2-4 (a task, a class size, a seed), every configured
    classifier (:func:`punctstyle.analyses.paper.recognition_run`), and the word baselines of the row on
    the same split (:func:`punctstyle.analyses.paper.word_baseline_run`, when ``word_methods`` and the
    ``word_matrix`` file are given). Writes ``outputs["results"]``, ``["per_class"]``,
    ``["confusion"]`` and ``["words"]`` (each when present) and, under ``outputs["models"]``, the
    full-corpus row's models. Skipped (empty files) with fewer than 2 classes or when the class
    size caps to every class and the ``"all"`` row computes it (``all_configured``).
    ``words_only``: the word baselines alone (benchmarks/recognition_rows.py --words-only).
    ``outputs["fitted"]``: the MLPs of ``store_views`` (feature sets), with their test predictions,
    when a later analysis runs at this class size (``store_class_sizes``,
    :func:`punctstyle.experiments.model_store.stores_row`); the file holds no view otherwise."""
    n_available = labelled_rows(tables["f1"], task)[task_column(task)].nunique()
    run = None
    keep = [(STORED_METHOD, view) for view in store_views] if stores_row(class_size, n_available, store_class_sizes) else []
    if words_only:
        pass
    elif not enough_classes(n_available, task, log):
        pass
    elif duplicates_full_corpus_row(class_size, n_available, all_configured):
        if log is not None:
            log.info(
                "skipped: %s classes cap to all %d %ss, the row computed by class size 'all'",
                class_size,
                n_available,
                task,
            )
    else:
        run = recognition_run(
            tables,
            task,
            class_size,
            seed,
            methods=methods,
            test_fraction=test_fraction,
            classifier_options=classifier_options,
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
            classifier_options=word_options or {},
            keep=keep,
        )
        if log is not None:
            log.info("word baselines:\n%s", word_run.results.to_string())
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
        write_fitted(outputs["fitted"], _fitted_entries(kept, tables, task, keep))
    if "models" in outputs:
        Path(outputs["models"]).mkdir(parents=True, exist_ok=True)
        for experiment in run.experiments if run else []:
            full = experiment.n_classes == n_available
            if full and experiment.model is not None and hasattr(experiment.model, "save"):
                name = f"{experiment.method}_{experiment.feature_set}_{experiment.n_classes}classes.pt"
                experiment.model.save(Path(outputs["models"]) / name)
    if run and log is not None:
        log.info("\n%s", run.results.to_string())
    return run


def enough_classes(n_available: int, task: str, log: Any = None) -> bool:
    """The one rule of every per-row job: a row needs at least 2 classes in the corpus; with fewer
    it is skipped (its files written empty) and the log says why."""
    if n_available >= 2:
        return True
    if log is not None:
        log.warning("skipped: the corpus has %d %s class(es), at least 2 are needed", n_available, task)
    return False


def _fitted_entries(
    experiments: Sequence[Any], tables: Mapping[str, pd.DataFrame], task: str, keep: Sequence[tuple[str, str]]
) -> list[FittedEntry]:
    """The kept fits of a recognition row (its punctuation experiments and word baselines) as
    store entries (book ids in the corpus tables' order; a word set's entry holds its words)."""
    _, _, book_ids = matrices_from_tables({"f1": tables["f1"]}, task_column(task))
    entries = []
    for e in experiments:
        if (e.method, e.feature_set) in keep and e.model is not None and getattr(e.model, "model", None) is not None:
            key = StoreKey(task, e.n_classes, e.seed, e.method, e.feature_set)
            entries.append(FittedEntry(key, e.model.model, book_ids[e.train_index], book_ids[e.test_index], e.y_pred,
                                       vocabulary=tuple(e.vocabulary)))
    return entries


def importance_job(
    table: pd.DataFrame,
    output: Any,
    *,
    class_size: int,
    seed: int,
    test_fraction: float,
    top_k: Sequence[int],
    repeats: int,
    holdout_fraction: float,
    classifier_options: Mapping[str, Mapping[str, Any]],
    fitted: Sequence[Any] = (),
    log: Any = None,
) -> ImportanceRow | None:
    """Rule ``f3_importance_row``: permutation importance of the f3 entries and top-k accuracies
    of one (class size, seed) row of the author task (:func:`punctstyle.beyond.importance.importance_row`
    on the f3 corpus table, the sample and split of Tables 2-3), written to ``output``. Fewer than
    2 authors: a file naming the reason. Returns the row (None when skipped). ``fitted``: the
    recognition rows' store files; the test-split f3 MLP is read from them when stored."""
    rows = labelled_rows(table, "author")
    labels = rows["author"].to_numpy(dtype=object)
    n_available = len(set(labels))
    if not enough_classes(n_available, "author", log):
        reason = f"the corpus has {n_available} author(s) with f3 rows, at least 2 are needed"
        write_importance_row(output, None, reason)
        return None
    n_classes = min(int(class_size), n_available)
    book_ids = rows["book_id"].to_numpy()
    stored_fit = stored_fit_reader(fitted, "author", n_classes, seed, classifier_options.get(STORED_METHOD, {}))

    def stored_mlp(classes: Any, train_index: Any) -> Any:
        model = stored_fit("f3", ("f3",), classes, book_ids[train_index]) if fitted else None
        if model is not None and log is not None:
            log.info("mlp f3: the recognition grid's fit, read from the store (not trained again)")
        return model

    def make(method: str) -> Any:
        return build_classifier(method, seed=seed, feature_set=("f3",), **classifier_options.get(method, {}))

    row = importance_row(
        feature_matrix(rows, "f3"),
        labels,
        n_classes=n_classes,
        seed=seed,
        task="author",
        test_fraction=test_fraction,
        top_k=top_k,
        repeats=repeats,
        holdout_fraction=holdout_fraction,
        make=make,
        groups=text_groups(rows),
        stored_mlp=stored_mlp,
    )
    if row is None:
        reason = (f"the {n_classes}-author sample of seed {seed} has no test text (an author needs enough "
                  f"texts for one to be tested at recognition.test_fraction={test_fraction})")
        if log is not None:
            log.warning("skipped: %s", reason)
        write_importance_row(output, None, reason)
        return None
    if row.ranking is None and log is not None:
        log.info("%d classes, seed %d: no training book could be held out, no top-k rows", n_classes, seed)
    write_importance_row(output, row)
    if log is not None:
        log.info("f3 importance: %d classes (requested %s), seed %d", n_classes, class_size, seed)
    return row
