"""Accuracy as a function of the length of the punctuation sequence (the paper's section 5,
first open question).

For one row of the author task (a class size and a seed: the class sample and 80/20 split of
Tables 2-3, :func:`punctstyle.experiments.splits.row_split` on the labels in the corpus tables' order, so
the row's split *is* the recognition grid's), every test document is cut to ``n`` consecutive
marks for each ``n`` of a grid, plus the whole document:

* offset: ``start ~ Uniform{0, ..., N - n}`` for a document of ``N >= n`` marks, drawn by
  :func:`excerpt_rng` ``= default_rng(SeedSequence([seed, doc_id, n]))``, so an excerpt depends
  on (seed, document, n) only, never on the order of the documents or on the other lengths;
* excerpt: marks ``theta_start .. theta_{start+n-1}`` with their word gaps ``w_start ..
  w_{start+n-1}`` (``w_l``: the words before mark ``l``), so it spans ``sum(w_start ..
  w_{start+n-1})`` words; features are recomputed on it (a sentence cut by the excerpt's start
  counts from the excerpt's first word);
* a document shorter than ``n`` (``N < n``): ``short_documents="whole"`` uses the whole
  document and counts it (``n_short_test``, ``n_short_train``); ``"exclude"`` leaves it out of
  that length's test (and excerpt-training) set and the counts say how many.

Each configured method (a registered classifier of :mod:`punctstyle.classifiers`) and feature
set is trained in one or both modes:

* ``"whole"``: on the whole training documents (one fit per row), applied to every length;
* ``"excerpt"``: on one excerpt of the same length per training document (same seeded rule),
  one fit per length.

At ``n = "whole"`` both modes are the same experiment: it is reported once, as ``"whole"``.

Word features (the word baselines of Tables 2-3 on the same excerpts): ``words<k>`` is the
vector of relative frequencies, in the excerpt, of the row's ``k`` words (:func:`word_frequencies`):

* the row's words: the ``k`` largest mean relative frequencies over the whole *training*
  documents (:func:`punctstyle.corpus.words.training_vocabulary` of their word counts, ties by word),
  chosen once per row with the largest ``k``; test documents are never read for it;
* an excerpt spans the words ``word_start .. word_stop - 1`` of its document's word stream
  (``document.streams["words"]``: the tokens the gaps count, lower-cased, in extraction order),
  so ``x_j = c_j / m`` with ``c_j`` the occurrences of the ``j``-th word of the row among its
  ``m`` words; an excerpt holding every mark of the document is the whole text, trailing words
  after the last mark included, as in the per-book word counts (so that at ``n = "whole"`` the
  vectors are the word baselines');
* z-scores and standardisation are the classifiers' own, on their training rows: whole training
  documents, or the training excerpts of the same length.

A feature set may join punctuation features and one word feature (``all+words1000``, the word
columns last, as the word baselines' ``all+words<k>``).

Extension point (see docs/CONVENTIONS.md, "Adding a method to the length curve"): the per-excerpt
vectors come from :data:`EXCERPT_FEATURES`, a name -> ``function(excerpt, document) -> vector``
registry holding every punctuation feature of :data:`punctstyle.features.FEATURE_FUNCTIONS`,
and from the ``words<k>`` family above; a method is a registered classifier and the feature
names it takes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.training.length_features import (
    EXCERPT_FEATURES,
    WHOLE,
    ExcerptMatrices,
    excerpt_matrices,
    resolve_excerpt_features,
    row_word_features,
    uses_word_features,
    with_word_ranks,
    word_feature_k,
)
from punctstyle.book.excerpts import SHORT_RULES, Document
from punctstyle.classifiers import build_classifier, classifier_spec
from punctstyle.experiments.metrics import baseline_accuracy
from punctstyle.experiments.driver import Documents, Estimator, FitCache, Split, View, row_split, run_points
from punctstyle.featuresets import stack_features
from punctstyle.marks import DISTRIBUTION_FEATURES
from punctstyle.corpus.words import training_vocabulary

TRAINING_MODES: tuple[str, ...] = ("whole", "excerpt")

RESULT_COLUMNS: list[str] = [
    "task",
    "n_classes",
    "seed",
    "method",
    "feature_set",
    "training",
    "length",
    "n_train",
    "n_test",
    "n_short_train",
    "n_short_test",
    "accuracy",
    "baseline",
    "n_fallback",
    "epochs",
]
"""Columns of a row's results table: one line per (method, feature set, training mode, length)."""
EXCERPT_COLUMNS: list[str] = [
    "n_classes",
    "seed",
    "length",
    "book_id",
    "role",
    "start",
    "n_marks",
    "n_words",
    "complete",
]
"""Columns of a row's excerpt table: where each excerpt starts, its marks and words."""


def doubling_lengths(first: int, last: int) -> list[int]:
    """``first, 2 first, 4 first, ...`` up to ``last`` inclusive (50, 100, ..., 12,800)."""
    if first < 1 or last < first:
        raise ValueError(f"bad length range {first}..{last}")
    lengths = [int(first)]
    while lengths[-1] * 2 <= last:
        lengths.append(lengths[-1] * 2)
    return lengths


def length_labels(lengths: Iterable[int]) -> list[str]:
    """The length column's values: the grid as strings, then ``"whole"``."""
    return [str(int(n)) for n in sorted(set(lengths))] + [WHOLE]


def length_sort_key(label: Any) -> float:
    """Sort key of a length label: its number; ``"whole"`` last."""
    return np.inf if str(label) == WHOLE else float(label)


def check_methods(methods: Mapping[str, Sequence[str]]) -> None:
    """Every method is a registered classifier with valid feature sets; KL-like methods get one distribution feature."""
    for method, feature_sets in methods.items():
        spec = classifier_spec(method)
        for name in feature_sets:
            names = resolve_excerpt_features(name)
            if spec.distribution_features_only and (len(names) != 1 or names[0] not in DISTRIBUTION_FEATURES):
                raise ValueError(
                    f"classifier {method!r} needs one distribution feature (f1, f3, f4, f5 or f7), got {name!r}"
                )


# ----------------------------------------------------------------------------- one row


@dataclass(frozen=True)
class LengthRow:
    """One (class size, seed) row: its split, results (:data:`RESULT_COLUMNS`) and excerpts (:data:`EXCERPT_COLUMNS`)."""

    split: Split
    results: pd.DataFrame
    excerpts: pd.DataFrame
    vocabulary: tuple[str, ...] = ()
    """The row's words, best first (word features only; chosen on the training documents)."""


def block_words(names: Sequence[str], vocabulary: Sequence[str]) -> tuple[str, ...] | None:
    """The words of a feature set's word block (its last name ``words<k>``: the first
    ``min(k, |vocabulary|)`` of the row's words, best first); None without a word feature."""
    k = word_feature_k(names[-1]) if names else None
    return None if k is None else tuple(vocabulary[: min(k, len(vocabulary))])


def _factory(method: str, names: tuple[str, ...], options: Mapping[str, Any]) -> Callable[[int, str], Any]:
    """``make(seed, view)``: a fresh registered classifier built for (seed, the view's feature names)."""
    return lambda seed, view: build_classifier(method, seed=seed, feature_set=names, **options)


def check_row_options(
    methods: Mapping[str, Sequence[str]], training: Sequence[str], short_documents: str, grouped: bool
) -> None:
    """Refuse what a row cannot run: unknown classifiers or feature sets, word features on
    excerpts of texts (``grouped``: the word counts are those of whole texts), training modes
    outside :data:`TRAINING_MODES`, a ``short_documents`` rule outside ``SHORT_RULES``."""
    check_methods(methods)
    if grouped and uses_word_features(methods):
        raise ValueError("word features need whole documents: the documents are excerpts of texts")
    if not training or any(mode not in TRAINING_MODES for mode in training):
        raise ValueError(f"bad training modes {list(training)}: expected some of {TRAINING_MODES}")
    if short_documents not in SHORT_RULES:
        raise ValueError(f"bad short_documents {short_documents!r}: expected one of {SHORT_RULES}")


def row_reader(
    documents: Callable[[int], Document],
    features: Sequence[str],
    train_index: np.ndarray,
    word_counts: Callable[[int], tuple[Sequence[str], np.ndarray]] | None,
) -> tuple[Callable[[int], Document], dict[str, Any], tuple[str, ...]]:
    """The row's document reader, feature functions and words, best first.

    Without a word feature: ``documents``, :data:`EXCERPT_FEATURES` and no words. With one
    (``words<k>``): the words are chosen on the training documents only
    (:func:`punctstyle.corpus.words.training_vocabulary` of ``word_counts(i)``, ``i`` in
    ``train_index``, the largest ``k``), the reader ranks each document's word stream by them
    (:func:`with_word_ranks`) and the word features count them (:func:`row_word_features`)."""
    reader, functions, vocabulary = documents, dict(EXCERPT_FEATURES), ()
    ks = [k for k in map(word_feature_k, features) if k is not None]
    if ks:
        if word_counts is None:
            raise ValueError("word features (words<k>) need the documents' word counts (word_counts)")

        vocabulary = tuple(training_vocabulary((word_counts(int(i)) for i in train_index), max(ks)))
        if not vocabulary:
            raise ValueError("the row's training documents have no words")
        reader = with_word_ranks(documents, vocabulary)
        functions.update(row_word_features(features, len(vocabulary)))
    return reader, functions, vocabulary


def kept_documents(matrices: ExcerptMatrices, label: str, short_documents: str) -> np.ndarray:
    """Documents used at a length: all, or the complete excerpts with ``"exclude"``."""
    complete = matrices.complete[label]
    return complete if short_documents == "exclude" else np.ones(complete.size, dtype=bool)


@dataclass(frozen=True)
class RowExcerpts:
    """One row's excerpts on both sides of its split: what every (classifier, feature set,
    training mode) of the row reads. ``grid``: the length labels; ``train`` holds
    :data:`WHOLE` only unless training mode ``"excerpt"`` runs."""

    split: Split
    train: ExcerptMatrices
    test: ExcerptMatrices
    y_train: np.ndarray
    y_test: np.ndarray
    grid: Sequence[str]
    short_documents: str


Point = tuple[dict[str, Any], Split, View]
"""A (length, training mode) that is fitted: its result row, its split and its view."""


def mode_points(
    row: RowExcerpts, keys: Mapping[str, Any], names: tuple[str, ...], context: dict[str, Any], mode: str
) -> tuple[list[dict[str, Any]], list[Point]]:
    """The result rows of one (classifier, feature set, training mode) at every length
    (:data:`RESULT_COLUMNS`; accuracy NaN until scored) and the points that are fitted: those
    with a training and a test document left. Training ``"whole"`` trains on the whole
    documents at every length, ``"excerpt"`` on excerpts of the length (skipping length
    ``"whole"``, the same experiment as training ``"whole"``). A view on the row's training
    documents, all kept, carries ``train_key`` :data:`WHOLE` (one fit, shared by the lengths)."""
    rows: list[dict[str, Any]] = []
    points: list[Point] = []
    train_inputs: dict[str, np.ndarray] = {}
    split = row.split
    for label in row.grid:
        if mode == "excerpt" and label == WHOLE:
            continue  # the same experiment as training "whole" at length "whole"
        train_label = WHOLE if mode == "whole" else label
        keep_train = kept_documents(row.train, train_label, row.short_documents)
        keep_test = kept_documents(row.test, label, row.short_documents)
        y_train, y_test = row.y_train[keep_train], row.y_test[keep_test]
        result = {
            **keys,
            "training": mode,
            "length": label,
            "n_train": int(y_train.size),
            "n_test": int(y_test.size),
            "n_short_train": int((~row.train.complete[train_label]).sum()),
            "n_short_test": int((~row.test.complete[label]).sum()),
            "accuracy": np.nan,
            "baseline": baseline_accuracy(y_train, y_test),
            "n_fallback": 0,
            "epochs": 0,
        }
        rows.append(result)
        if y_train.size and y_test.size:
            if train_label not in train_inputs:
                train_inputs[train_label] = stack_features(row.train.features[train_label], names)[keep_train]
            part = Split(split.task, split.n_classes, split.seed, split.classes,
                         split.train_index[keep_train], split.test_index[keep_test])  # fmt: skip
            X_test = stack_features(row.test.features[label], names)[keep_test]
            whole = mode == "whole" and bool(keep_train.all())  # the row's training documents
            view = View(train_inputs[train_label], X_test, context=context,
                        train_key=WHOLE if whole else None)  # fmt: skip
            points.append((result, part, view))
    return rows, points


def score_points(
    documents: Documents, points: Sequence[Point], name: str, estimator: Estimator, cache: FitCache
) -> None:
    """Fit and score every point through :func:`punctstyle.experiments.driver.run_points`
    (view ``name``) and write its accuracy, fallbacks and epochs into the point's result row."""
    records = run_points(documents, [(part, {name: view}) for _, part, view in points], [estimator], cache=cache)
    for (result, _, _), record in zip(points, records, strict=True):
        scored = record.scored
        result.update(accuracy=scored.accuracy, n_fallback=scored.n_fallback, epochs=scored.epochs)


def length_curve_row(
    documents: Callable[[int], Document],
    labels: Sequence[Any],
    *,
    task: str,
    n_classes: int,
    seed: int,
    test_fraction: float,
    lengths: Sequence[int],
    methods: Mapping[str, Sequence[str]],
    training: Sequence[str],
    short_documents: str = "whole",
    classifier_options: Mapping[str, Mapping[str, Any]] | None = None,
    word_counts: Callable[[int], tuple[Sequence[str], np.ndarray]] | None = None,
    groups: Sequence[Any] | None = None,
    ids: Sequence[Any] | None = None,
    fits: FitCache | None = None,
) -> LengthRow:
    """Accuracy at every length for one row (see the module docstring).

    ``documents(i)`` returns document ``i`` (aligned with ``labels``, the corpus order of the
    recognition grid); ``methods`` maps a registered classifier to its feature sets;
    ``training`` is a subset of :data:`TRAINING_MODES`. Training mode ``"whole"`` fits once per
    (method, feature set) and is applied at every length; ``"excerpt"`` fits once per length.
    A (length, mode) with no test or no training document left (``"exclude"``) has accuracy NaN
    and is not fitted.

    Word features (``words<k>``) need ``word_counts(i)``, the ``(words, counts)`` of whole
    document ``i``: it is called for the training documents only, to choose the row's words
    (:func:`punctstyle.corpus.words.training_vocabulary`, the largest ``k``), and ``documents(i)`` must
    carry the word stream (``streams[WORD_STREAM]``). ``groups``: the text of each document when
    the documents are excerpts of texts (:func:`punctstyle.corpus.tables.text_groups`), so that a
    text's excerpts stay on one side of the split; word features are refused then (the word
    counts are those of whole texts).

    ``fits``: the cache of training mode ``"whole"`` (one fit per classifier and feature set, made
    once; default: an empty :class:`punctstyle.experiments.driver.FitCache`); with a store behind
    it (the recognition grid's, :mod:`punctstyle.experiments.fit_store`) the row's fit is read from
    it, keyed by (row, classifier, feature set) and checked against the row's classes and training
    documents (``ids``: the documents' book ids) and, for a word set, its block's words (the
    view's ``context["words"]``), instead of fitting the same network again.
    """
    check_row_options(methods, training, short_documents, grouped=groups is not None)
    y = np.asarray(labels, dtype=object)
    rows_of = Documents(y, None if groups is None else np.asarray(groups, dtype=object), ids)
    split = row_split(rows_of, task=task, n_classes=n_classes, seed=seed, test_fraction=test_fraction)
    excerpts, vocabulary = row_excerpts(documents, rows_of, split, length_labels(lengths), methods, training,
                                        short_documents, word_counts)
    cache = FitCache() if fits is None else fits  # training mode "whole": one fit per (method, feature set)
    keys = {"task": task, "n_classes": n_classes, "seed": seed}
    rows = score_methods(rows_of, excerpts, keys, methods, training, classifier_options or {}, vocabulary, cache)
    records = pd.DataFrame(excerpts.test.records + excerpts.train.records)
    records.insert(0, "seed", seed)
    records.insert(0, "n_classes", n_classes)
    return LengthRow(
        split, pd.DataFrame(rows, columns=RESULT_COLUMNS), records.reindex(columns=EXCERPT_COLUMNS), vocabulary
    )


def row_excerpts(
    documents: Callable[[int], Document],
    rows_of: Documents,
    split: Split,
    grid: Sequence[str],
    methods: Mapping[str, Sequence[str]],
    training: Sequence[str],
    short_documents: str,
    word_counts: Callable[[int], tuple[Sequence[str], np.ndarray]] | None,
) -> tuple[RowExcerpts, tuple[str, ...]]:
    """The row's excerpts on both sides of ``split`` at the length labels ``grid`` (the training
    side at :data:`WHOLE` only unless training mode ``"excerpt"`` runs), with the features of every
    feature set of ``methods``, and the row's words (:func:`row_reader`)."""
    y, seed = rows_of.labels, split.seed
    features = sorted({f for sets in methods.values() for name in sets for f in resolve_excerpt_features(name)})
    reader, functions, vocabulary = row_reader(documents, features, split.train_index, word_counts)
    test = excerpt_matrices(reader, split.test_index, grid, features, seed=seed, role="test", functions=functions)
    train_lengths = grid if "excerpt" in training else [WHOLE]
    train = excerpt_matrices(
        reader, split.train_index, train_lengths, features, seed=seed, role="train", functions=functions
    )
    excerpts = RowExcerpts(split, train, test, y[split.train_index], y[split.test_index], grid, short_documents)
    return excerpts, vocabulary


def score_methods(
    rows_of: Documents,
    excerpts: RowExcerpts,
    keys: Mapping[str, Any],
    methods: Mapping[str, Sequence[str]],
    training: Sequence[str],
    options: Mapping[str, Mapping[str, Any]],
    vocabulary: Sequence[str],
    cache: FitCache,
) -> list[dict[str, Any]]:
    """The result rows (:data:`RESULT_COLUMNS`) of every (classifier, feature set, training mode)
    of the row, scored through the driver (:func:`mode_points`, :func:`score_points`); ``keys``:
    the row's task, class count and seed."""
    rows: list[dict[str, Any]] = []
    for method, feature_sets in methods.items():
        for name in feature_sets:
            names = resolve_excerpt_features(name)
            words = block_words(names, vocabulary)
            context = {} if words is None else {"words": words}
            estimator = Estimator(method, _factory(method, names, options.get(method, {})), (name,))
            for mode in training:
                mode_rows, points = mode_points(excerpts, {**keys, "method": method, "feature_set": name}, names,
                                                context, mode)
                rows += mode_rows
                score_points(rows_of, points, name, estimator, cache)
    return rows
