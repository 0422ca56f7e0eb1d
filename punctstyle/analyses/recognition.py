"""Author and genre recognition: the experiment grid (sections 2.4-2.5 of the paper).

Every experiment *row* (task, number of classes, seed) draws a uniform sample of
``n_classes`` classes and splits their documents, stratified by class, so that every class of
the testing set is also in the training set (closed-set attribution; see
:mod:`punctstyle.experiments.splits`). The sample and split of a row are computed once and shared by
every configured classifier (:mod:`punctstyle.classifiers`) and feature set
(:mod:`punctstyle.featuresets`); accuracy and baseline are :mod:`punctstyle.experiments.metrics`.

The word baselines (:func:`word_experiments`) run on the same rows: same sample, same split
(:func:`punctstyle.experiments.splits.row_split` of the same labels, seed and task), with the vocabulary
chosen on each row's training documents only (:func:`punctstyle.corpus.words.select_vocabulary`).

Documents cut from longer texts (``extraction.excerpt_marks``) come with ``groups``, their
texts: a text's excerpts are then all in the training set or all in the testing set.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.classifiers import Classifier, build_classifier, classifier_spec
from punctstyle.experiments.driver import (
    Documents,
    Estimator,
    Record,
    Split,
    View,
    grid_splits,
    matrix_views,
    run_experiments,
)
from punctstyle.featuresets import (
    is_distribution_set,
    matrices_from_tables,
    resolve_feature_set,
    stack_features,
    word_set_parts,
)
from punctstyle.experiments.metrics import accuracy, confusion_matrix, per_class_accuracy
from punctstyle.corpus.words import select_vocabulary

RESULT_COLUMNS: list[str] = [
    "task",
    "n_classes",
    "seed",
    "method",
    "feature_set",
    "n_train",
    "n_test",
    "accuracy",
    "baseline",
    "n_fallback",
    "epochs",
]
"""Columns of the results table, one row per experiment."""

WORD_RESULT_COLUMNS: list[str] = RESULT_COLUMNS + ["top_k", "n_vocabulary", "vocabulary_proven"]
"""Columns of the word baselines' results table: ``top_k`` (the ``k`` of the set),
``n_vocabulary`` (words chosen: fewer than ``k`` when the training documents have fewer
words), ``vocabulary_proven`` (1 when the pool bound proves the choice equals the choice over
the full vocabulary, :func:`punctstyle.corpus.words.select_vocabulary`)."""


@dataclass
class Experiment:
    """One (task, n_classes, seed, method, feature set) experiment and its predictions."""

    task: str
    n_classes: int
    seed: int
    method: str
    feature_set: str
    train_index: np.ndarray
    test_index: np.ndarray
    y_true: np.ndarray
    y_pred: np.ndarray
    baseline: float
    classes: np.ndarray
    diagnostics: dict[str, int] = field(default_factory=dict)
    model: Classifier | None = None
    vocabulary: tuple[str, ...] = ()
    """Word sets: the words of the word block, best first (when the caller names the word
    matrix's columns and keeps the model, :func:`word_experiments`)."""

    def confusion(self) -> pd.DataFrame:
        """Confusion matrix over the row's sampled classes (see :func:`confusion_matrix`)."""
        return confusion_matrix(self.y_true, self.y_pred, labels=self.classes)

    def per_class(self) -> pd.DataFrame:
        """Per-class test accuracy (see :func:`per_class_accuracy`)."""
        return per_class_accuracy(self.y_true, self.y_pred)

    def row(self) -> dict[str, Any]:
        """The summary row of the results table (diagnostics a classifier lacks are 0)."""
        return {
            "task": self.task,
            "n_classes": self.n_classes,
            "seed": self.seed,
            "method": self.method,
            "feature_set": self.feature_set,
            "n_train": int(self.train_index.size),
            "n_test": int(self.test_index.size),
            "accuracy": accuracy(self.y_true, self.y_pred),
            "baseline": self.baseline,
            "n_fallback": int(self.diagnostics.get("n_fallback", 0)),
            "epochs": int(self.diagnostics.get("epochs", 0)),
        }


def _check_inputs(features: Mapping[str, np.ndarray], labels: Sequence[Any]) -> np.ndarray:
    y = np.asarray(labels, dtype=object)
    if pd.isna(y).any():
        raise ValueError("labels contain null values; drop those documents first")
    for name, X in features.items():
        if np.asarray(X).shape[0] != y.size:
            raise ValueError(f"feature {name} has {np.asarray(X).shape[0]} rows for {y.size} labels")
    return y


def _check_groups(groups: Sequence[Any] | None, y: np.ndarray) -> np.ndarray | None:
    if groups is None:
        return None
    g = np.asarray(groups, dtype=object)
    if g.shape != y.shape:
        raise ValueError(f"{g.size} groups for {y.size} labels")
    return g


def check_methods(methods: Mapping[str, Sequence[str]]) -> None:
    """Every method is registered and every feature set valid; KL-like methods take distribution features."""
    for method, feature_sets in methods.items():
        spec = classifier_spec(method)
        for name in feature_sets:
            resolve_feature_set(name)
            if spec.distribution_features_only and not is_distribution_set(name):
                raise ValueError(
                    f"classifier {method!r} needs one distribution feature (f1, f3, f4 or f5), got {name!r}"
                )


def recognition_experiments(
    features: Mapping[str, np.ndarray],
    labels: Sequence[Any],
    *,
    task: str,
    class_sizes: Iterable[int | str],
    seeds: Iterable[int],
    methods: Mapping[str, Sequence[str]],
    test_fraction: float,
    classifier_options: Mapping[str, Mapping[str, Any]] | None = None,
    keep_models: bool = False,
    groups: Sequence[Any] | None = None,
) -> Iterator[Experiment]:
    """Run the grid lazily: one :class:`Experiment` per (n_classes, seed, method, feature set).

    ``features`` maps f1..f6 to (n_docs, size) arrays aligned with ``labels``; ``methods``
    maps a registered classifier name to its feature sets; ``classifier_options[name]`` are
    extra keyword arguments of that classifier's factory (e.g. the MLP's ``params``). The
    sample and split of a (n_classes, seed) row are shared by all of its methods and feature
    sets. ``keep_models`` keeps each fitted classifier on its experiment. ``groups`` (one per
    document: its text, :func:`punctstyle.corpus.tables.text_groups`) keeps the excerpts of a text on
    one side of every split (:func:`punctstyle.experiments.splits.row_split`); None: documents are texts.
    """
    y = _check_inputs(features, labels)
    documents = Documents(y, _check_groups(groups, y))
    check_methods(methods)
    options = classifier_options or {}
    matrices = {name: stack_features(features, name) for sets in methods.values() for name in sets}
    splits = grid_splits(documents, task=task, class_sizes=class_sizes, seeds=seeds, test_fraction=test_fraction)
    for record in run_experiments(documents, splits, matrix_views(matrices), estimators(methods, options)):
        yield _experiment(record, y, keep_model=keep_models)


def estimators(
    methods: Mapping[str, Sequence[str]],
    options: Mapping[str, Mapping[str, Any]],
    feature_set: Callable[[str], tuple[str, ...]] = resolve_feature_set,
) -> list[Estimator]:
    """The driver's classifiers (:class:`punctstyle.experiments.driver.Estimator`): each registered
    classifier of ``methods`` (name -> its views) built by :func:`punctstyle.classifiers.build_classifier`
    with the row's seed, the view's feature names (``feature_set(view)``) and ``options[name]``."""
    return [
        Estimator(method, _factory(method, feature_set, options.get(method, {})), tuple(views))
        for method, views in methods.items()
    ]


def _factory(method: str, feature_set: Callable[[str], tuple[str, ...]], options: Mapping[str, Any]):
    """``make(seed, view)``: a fresh registered classifier ``method`` for one experiment."""
    return lambda seed, view: build_classifier(method, seed=seed, feature_set=feature_set(view), **options)


def _experiment(record: Record, y: np.ndarray, *, keep_model: bool, vocabulary: tuple[str, ...] = ()) -> Experiment:
    """The :class:`Experiment` of a driver record (the model kept when ``keep_model``)."""
    split, scored = record.split, record.scored
    return Experiment(
        task=split.task,
        n_classes=split.n_classes,
        seed=split.seed,
        method=record.method,
        feature_set=record.feature_set,
        train_index=split.train_index,
        test_index=split.test_index,
        y_true=y[split.test_index],
        y_pred=scored.y_pred,
        baseline=scored.baseline,
        classes=split.classes,
        diagnostics={**scored.diagnostics, **record.info},
        model=scored.model if keep_model else None,
        vocabulary=vocabulary,
    )


def word_experiments(
    features: Mapping[str, np.ndarray],
    labels: Sequence[Any],
    word_frequencies: Any,
    *,
    task: str,
    class_sizes: Iterable[int | str],
    seeds: Iterable[int],
    methods: Mapping[str, Sequence[str]],
    test_fraction: float,
    word_cutoff: np.ndarray | None = None,
    classifier_options: Mapping[str, Mapping[str, Any]] | None = None,
    groups: Sequence[Any] | None = None,
    keep: Collection[tuple[str, str]] = (),
    pool_words: Sequence[str] | None = None,
) -> Iterator[Experiment]:
    """The word baselines of the grid: one :class:`Experiment` per (n_classes, seed, method, word set).

    ``word_frequencies``: (n_docs, n_pool) relative frequencies (a scipy sparse matrix or an
    array; columns in alphabetical word order) aligned with ``labels``; ``word_cutoff``: the
    documents' pool cutoffs (:class:`punctstyle.corpus.words.WordMatrix`; None: the pool is the whole
    vocabulary). ``methods`` maps a classifier to word sets (``words100``, ``all+words100``,
    :func:`punctstyle.featuresets.word_set_parts`). Per row, the split is the one of
    :func:`recognition_experiments`; the vocabulary is the ``k`` most frequent words of the
    training documents (:func:`punctstyle.corpus.words.select_vocabulary` with the largest ``k``,
    whose first ``k`` columns are the top ``k`` of every smaller ``k``); the word block of a
    set is the documents' relative frequencies of those words, best first. Each experiment's
    ``diagnostics`` adds ``top_k``, ``n_vocabulary`` and ``vocabulary_proven``. ``groups``: as
    for :func:`recognition_experiments`. ``keep``: (method, word set) pairs whose fitted
    classifier stays on the experiment, with its ``vocabulary`` (the block's words, best first,
    read from ``pool_words``: the word of each column of ``word_frequencies``), for the store of
    fits later analyses read (:mod:`punctstyle.experiments.fit_store`).
    """
    import scipy.sparse as sp


    y = _check_inputs(features, labels)
    documents = Documents(y, _check_groups(groups, y))
    freqs = sp.csr_matrix(word_frequencies, dtype=np.float64)
    if freqs.shape[0] != y.size:
        raise ValueError(f"word frequencies have {freqs.shape[0]} rows for {y.size} labels")
    options = classifier_options or {}
    parsed = {name: word_set_parts(name) for sets in methods.values() for name in sets}
    bad = [name for name, parts in parsed.items() if parts is None]
    if bad:
        raise ValueError(f"not a word feature set: {bad[0]!r} (expected words<k> or <feature set>+words<k>)")
    for method in methods:
        classifier_spec(method)
    if not parsed:
        return
    punctuation = {p: stack_features(features, p) for p, _ in parsed.values() if p is not None}
    cutoff = None if word_cutoff is None else np.asarray(word_cutoff, dtype=np.float64)
    named = {name for _, name in keep} if pool_words is not None else set()
    views = _word_views(freqs, cutoff, punctuation, parsed, pool_words, named)
    splits = grid_splits(documents, task=task, class_sizes=class_sizes, seeds=seeds, test_fraction=test_fraction)
    for record in run_experiments(documents, splits, views, estimators(methods, options, _word_feature_names)):
        kept = (record.method, record.feature_set) in keep
        words = tuple(record.context.get("words", ())) if kept else ()
        yield _experiment(record, y, keep_model=kept, vocabulary=words)


def _word_feature_names(name: str) -> tuple[str, ...]:
    """The feature names a word set's classifier is built for: ``(words<k>,)``, or the punctuation
    set's names then ``words<k>``."""
    punctuation_set, k = word_set_parts(name)
    return (*resolve_feature_set(punctuation_set), f"words{k}") if punctuation_set else (f"words{k}",)


def _word_views(
    freqs: Any,
    cutoff: np.ndarray | None,
    punctuation: Mapping[str, np.ndarray],
    parsed: Mapping[str, tuple[str | None, int]],
    pool_words: Sequence[str] | None,
    named: Collection[str],
) -> Callable[[Split], dict[str, View]]:
    """The word sets' views of a split: the vocabulary is chosen once per split on its training
    documents (:func:`punctstyle.corpus.words.select_vocabulary` with the largest ``k``); set
    ``name`` = (punctuation set, ``k``) is the punctuation block then the first
    ``n_vocabulary = min(k, |vocabulary|)`` word columns. ``info``: ``top_k``, ``n_vocabulary``
    and ``vocabulary_proven`` (``k`` words: the ``k``-th beats any word outside the pool; fewer:
    none lies outside); ``context["words"]``: the block's words, best first, for the sets ``named``."""
    k_max = max(k for _, k in parsed.values())

    def views(split: Split) -> dict[str, View]:
        train, test = split.train_index, split.test_index
        vocabulary = select_vocabulary(freqs[train], k_max, None if cutoff is None else cutoff[train])
        words = freqs[:, vocabulary.columns]
        W_train, W_test = words[train].toarray(), words[test].toarray()
        out = {}
        for name, (punctuation_set, k) in parsed.items():
            n_vocabulary = min(k, vocabulary.columns.size)
            blocks_train, blocks_test = [W_train[:, :n_vocabulary]], [W_test[:, :n_vocabulary]]
            if punctuation_set is not None:
                X = punctuation[punctuation_set]
                blocks_train.insert(0, X[train])
                blocks_test.insert(0, X[test])
            if n_vocabulary == k:
                proven = bool(vocabulary.scores[k - 1] > vocabulary.bound)
            else:
                proven = vocabulary.bound == 0.0
            info = {"top_k": k, "n_vocabulary": n_vocabulary, "vocabulary_proven": int(proven)}
            context = {}
            if name in named:
                context["words"] = tuple(str(pool_words[c]) for c in vocabulary.columns[:n_vocabulary].tolist())
            out[name] = View(np.concatenate(blocks_train, axis=1), np.concatenate(blocks_test, axis=1), info, context)
        return out

    return views


def word_results_frame(experiments: Iterable[Experiment]) -> pd.DataFrame:
    """The word baselines' results table (:data:`WORD_RESULT_COLUMNS`)."""
    rows = [
        {**e.row(), **{c: int(e.diagnostics.get(c, 0)) for c in ("top_k", "n_vocabulary", "vocabulary_proven")}}
        for e in experiments
    ]
    return pd.DataFrame(rows, columns=WORD_RESULT_COLUMNS)


def results_frame(experiments: Iterable[Experiment]) -> pd.DataFrame:
    """The results table: one row per experiment (see :meth:`Experiment.row`)."""
    return pd.DataFrame([e.row() for e in experiments], columns=RESULT_COLUMNS)


def run_recognition_grid(
    features: Mapping[str, np.ndarray] | Mapping[str, pd.DataFrame],
    labels: Sequence[Any] | str,
    **options: Any,
) -> pd.DataFrame:
    """Results table of the recognition grid (options: see :func:`recognition_experiments`).

    ``features`` is either a dict of feature matrices with ``labels`` aligned to its rows,
    or the corpus tables (``f1`` .. ``f6`` DataFrames) with ``labels`` the name of the
    label column (``"author"`` or ``"genre"``; null labels are dropped).
    """
    if isinstance(labels, str):
        features, labels, _ = matrices_from_tables(features, labels)  # type: ignore[arg-type]
    options.pop("keep_models", None)
    return results_frame(recognition_experiments(features, labels, **options))  # type: ignore[arg-type]


def predictions_frame(experiments: Iterable[Experiment], doc_ids: Sequence[Any] | None = None) -> pd.DataFrame:
    """Long table of test predictions: experiment keys, ``doc`` (index or id), true, predicted."""
    columns = ["task", "n_classes", "seed", "method", "feature_set", "doc", "true", "predicted"]
    ids = None if doc_ids is None else np.asarray(doc_ids)
    frames = [
        pd.DataFrame(
            {
                "task": e.task,
                "n_classes": e.n_classes,
                "seed": e.seed,
                "method": e.method,
                "feature_set": e.feature_set,
                "doc": e.test_index if ids is None else ids[e.test_index],
                "true": e.y_true,
                "predicted": e.y_pred,
            }
        )
        for e in experiments
    ]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)
