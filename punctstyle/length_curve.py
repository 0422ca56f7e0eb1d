"""Accuracy as a function of the length of the punctuation sequence (the paper's section 5,
first open question).

For one row of the author task (a class size and a seed: the class sample and 80/20 split of
Tables 2-3, :func:`punctstyle.splits.row_split` on the labels in the corpus tables' order, so
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
  documents (:func:`punctstyle.words.training_vocabulary` of their word counts, ties by word),
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

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.classifiers import build_classifier, classifier_spec
from punctstyle.experiments.row import Row
from punctstyle.experiments.runner import fit, score_fitted
from punctstyle.features import FEATURE_FUNCTIONS
from punctstyle.featuresets import feature_set_label, stack_features
from punctstyle.marks import DISTRIBUTION_FEATURES, PAPER_FEATURES
from punctstyle.metrics import baseline_accuracy
from punctstyle.splits import RowSplit

WHOLE = "whole"
"""The length label of whole documents (and the training mode on whole documents)."""
TRAINING_MODES: tuple[str, ...] = ("whole", "excerpt")
SHORT_RULES: tuple[str, ...] = ("whole", "exclude")

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


# ----------------------------------------------------------------------------- excerpts


@dataclass(frozen=True)
class Excerpt:
    """``n`` consecutive marks of a document: ``marks[start:stop]``, ``gaps[start:stop]``.

    ``word_start = sum(gaps[:start])`` and ``word_stop = word_start + sum(gaps[start:stop])``
    are the positions of the words it spans in the document's word stream; ``complete`` is
    False when the document was shorter than the requested length (the excerpt is then the
    whole document).
    """

    marks: np.ndarray
    gaps: np.ndarray
    start: int
    word_start: int
    word_stop: int
    complete: bool

    @property
    def n_marks(self) -> int:
        return int(self.marks.size)

    @property
    def n_words(self) -> int:
        """Words of the excerpt: ``sum(gaps[start:stop])``."""
        return self.word_stop - self.word_start


@dataclass(frozen=True)
class Document:
    """One document: id, marks, word gaps, and optional per-word streams (for extensions)."""

    doc_id: int
    marks: np.ndarray
    gaps: np.ndarray
    streams: Mapping[str, np.ndarray] = field(default_factory=dict)


def excerpt_rng(seed: int, doc_id: int, n: int) -> np.random.Generator:
    """The generator of one excerpt: ``default_rng(SeedSequence([seed, doc_id, n]))``."""
    if seed < 0 or doc_id < 0 or n < 1:
        raise ValueError(
            f"excerpt seed, document id and length must be non-negative (n >= 1), got {seed}, {doc_id}, {n}"
        )
    return np.random.default_rng(np.random.SeedSequence([int(seed), int(doc_id), int(n)]))


def excerpt_start(n_total: int, n: int, rng: np.random.Generator) -> int:
    """``start ~ Uniform{0, ..., n_total - n}`` (0 without a draw when ``n_total <= n``)."""
    return int(rng.integers(0, n_total - n + 1)) if n_total > n else 0


def cut_excerpt(marks: np.ndarray, gaps: np.ndarray, n: int | None, *, seed: int, doc_id: int) -> Excerpt:
    """The excerpt of ``n`` marks of a document (``n=None``: the whole document).

    ``start = excerpt_start(N, n, excerpt_rng(seed, doc_id, n))``; a document of ``N < n``
    marks gives the whole document with ``complete=False`` (``N == n``: the whole document,
    complete).
    """
    marks, gaps = np.asarray(marks), np.asarray(gaps)
    if marks.shape != gaps.shape or marks.ndim != 1:
        raise ValueError(f"marks and gaps must be 1-d of equal length, got {marks.shape} and {gaps.shape}")
    total = int(marks.size)
    if n is None:
        start, stop = 0, total
    else:
        start = excerpt_start(total, n, excerpt_rng(seed, doc_id, n))
        stop = min(start + n, total)
    word_start = int(gaps[:start].sum(dtype=np.int64))
    word_stop = word_start + int(gaps[start:stop].sum(dtype=np.int64))
    complete = n is None or total >= n
    return Excerpt(marks[start:stop], gaps[start:stop], start, word_start, word_stop, complete)


# ------------------------------------------------------------- features (the extension point)

ExcerptFeature = Callable[[Excerpt, Document], np.ndarray]
"""``function(excerpt, document) -> 1-d float vector``: one feature of an excerpt."""


def _punctuation_feature(name: str) -> ExcerptFeature:
    function = FEATURE_FUNCTIONS[name]
    return lambda excerpt, document: np.asarray(function(excerpt.marks, excerpt.gaps), dtype=np.float64)


EXCERPT_FEATURES: dict[str, ExcerptFeature] = {name: _punctuation_feature(name) for name in FEATURE_FUNCTIONS}
"""Every feature the length curve can compute on an excerpt, by name: the punctuation features
of :data:`punctstyle.features.FEATURE_FUNCTIONS` (f1..f7, recomputed on the excerpt's marks and
gaps). Add an entry to give the curve a new kind of input (e.g. word counts of the excerpt)."""


WORD_FEATURE = re.compile(r"words([1-9][0-9]*)")
"""A word feature's name: ``words<k>`` (module docstring, :func:`word_frequencies`)."""
WORD_STREAM = "words"
"""``Document.streams`` key of the document's words: the tokens the gaps count, lower-cased
(:func:`punctstyle.extract.word_key`), in extraction order (an array of ``str``)."""
WORD_RANKS = "word_ranks"
"""``Document.streams`` key the row adds: each word's rank in the row's words (0 = most
frequent), -1 for a word outside them (:func:`with_word_ranks`)."""


def word_feature_k(name: str) -> int | None:
    """``k`` of a word feature ``words<k>``; None for any other name."""
    match = WORD_FEATURE.fullmatch(name)
    return int(match.group(1)) if match else None


def resolve_excerpt_features(feature_set: str) -> tuple[str, ...]:
    """Names of a feature set: ``"all"`` -> the paper's f1..f6; ``"a+b"`` -> (a, b), each ``all``,
    a name of :data:`EXCERPT_FEATURES` or a word feature ``words<k>`` (at most one, and last)."""
    names: list[str] = []
    for part in feature_set.split("+"):
        names.extend(PAPER_FEATURES if part == "all" else (part,))
    unknown = [name for name in names if name not in EXCERPT_FEATURES and word_feature_k(name) is None]
    words = [i for i, name in enumerate(names) if word_feature_k(name) is not None]
    if unknown or len(set(names)) != len(names) or len(words) > 1 or (words and words[0] != len(names) - 1):
        raise ValueError(
            f"bad feature set {feature_set!r}: expected 'all' or '+'-joined names of {', '.join(EXCERPT_FEATURES)}, "
            "then at most one words<k>"
        )
    return tuple(names)


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


def excerpt_vectors(
    excerpt: Excerpt,
    document: Document,
    features: Iterable[str],
    functions: Mapping[str, ExcerptFeature] | None = None,
) -> dict[str, np.ndarray]:
    """``{name: functions[name](excerpt, document)}`` for the requested names (``functions``:
    :data:`EXCERPT_FEATURES` by default; a row adds its word features, :func:`row_word_features`)."""
    functions = EXCERPT_FEATURES if functions is None else functions
    return {name: functions[name](excerpt, document) for name in features}


# ----------------------------------------------------------------------------- word features


def word_span(excerpt: Excerpt, document: Document, stream: np.ndarray) -> np.ndarray:
    """The per-word values of ``stream`` the excerpt spans: ``stream[word_start:word_stop]``, or
    the whole stream when the excerpt holds every mark of the document (the whole text: the
    words after the last mark too)."""
    if excerpt.start == 0 and excerpt.n_marks == np.asarray(document.marks).size:
        return stream
    return stream[excerpt.word_start : excerpt.word_stop]


def word_frequencies(k: int) -> ExcerptFeature:
    """The word feature of ``k`` words: ``x_j = c_j * (1 / m)`` for ``j < k``, with ``c_j`` the
    words of the excerpt (:func:`word_span`) of rank ``j`` in the row's words
    (``document.streams[WORD_RANKS]``) and ``m`` all its words (0 for an excerpt without words);
    the arithmetic of :func:`punctstyle.words.relative_frequencies`."""
    if k < 1:
        raise ValueError(f"a word feature needs k >= 1, got {k}")

    def feature(excerpt: Excerpt, document: Document) -> np.ndarray:
        ranks = word_span(excerpt, document, np.asarray(document.streams[WORD_RANKS]))
        counts = np.bincount(ranks[(ranks >= 0) & (ranks < k)], minlength=k).astype(np.float64)
        return counts * (1.0 / ranks.size) if ranks.size else counts

    return feature


def with_word_ranks(documents: Callable[[int], Document], vocabulary: Sequence[str]) -> Callable[[int], Document]:
    """A reader that adds ``streams[WORD_RANKS]`` (the rank of each word of
    ``streams[WORD_STREAM]`` in ``vocabulary``, -1 outside) to each document it reads."""
    index = pd.Index(list(vocabulary), dtype=object)
    if not index.is_unique:
        raise ValueError("the row's words must be distinct")

    def read(i: int) -> Document:
        document = documents(i)
        if WORD_STREAM not in document.streams:
            raise ValueError(f"document {document.doc_id} has no word stream (streams[{WORD_STREAM!r}])")
        words = np.asarray(document.streams[WORD_STREAM], dtype=object)
        ranks = index.get_indexer(words).astype(np.int64) if words.size else np.zeros(0, np.int64)
        return replace(document, streams={**document.streams, WORD_RANKS: ranks})

    return read


def uses_word_features(methods: Mapping[str, Sequence[str]]) -> bool:
    """Whether a method runs on a word feature (then the row needs word streams and counts)."""
    return any(
        word_feature_k(f) is not None
        for sets in methods.values()
        for name in sets
        for f in resolve_excerpt_features(name)
    )


def row_word_features(features: Iterable[str], n_vocabulary: int) -> dict[str, ExcerptFeature]:
    """The row's word features among ``features``: ``words<k>`` -> :func:`word_frequencies` of
    ``min(k, n_vocabulary)`` words (the word baselines' ``n_vocabulary``)."""
    ks = {name: word_feature_k(name) for name in features}
    return {name: word_frequencies(min(k, n_vocabulary)) for name, k in ks.items() if k is not None}


@dataclass
class ExcerptMatrices:
    """Features of the excerpts of some documents at every length: ``features[length][name]``
    is an (n_docs, size) matrix, ``complete[length]`` a boolean vector, ``records`` one dict per
    excerpt (:data:`EXCERPT_COLUMNS` without the row keys)."""

    features: dict[str, dict[str, np.ndarray]]
    complete: dict[str, np.ndarray]
    records: list[dict[str, Any]]


def excerpt_matrices(
    documents: Callable[[int], Document],
    index: Sequence[int],
    lengths: Sequence[str],
    features: Sequence[str],
    *,
    seed: int,
    role: str,
    functions: Mapping[str, ExcerptFeature] | None = None,
) -> ExcerptMatrices:
    """Cut each document ``documents(i)`` (``i`` in ``index``) at every length label and compute
    its features (``functions``: see :func:`excerpt_vectors`); each document is read once."""
    rows: dict[str, dict[str, list[np.ndarray]]] = {label: {f: [] for f in features} for label in lengths}
    complete: dict[str, list[bool]] = {label: [] for label in lengths}
    records: list[dict[str, Any]] = []
    for i in index:
        document = documents(int(i))
        for label in lengths:
            n = None if label == WHOLE else int(label)
            excerpt = cut_excerpt(document.marks, document.gaps, n, seed=seed, doc_id=document.doc_id)
            for name, vector in excerpt_vectors(excerpt, document, features, functions).items():
                rows[label][name].append(vector)
            complete[label].append(excerpt.complete)
            records.append(
                {
                    "length": label,
                    "book_id": document.doc_id,
                    "role": role,
                    "start": excerpt.start,
                    "n_marks": excerpt.n_marks,
                    "n_words": excerpt.n_words,
                    "complete": excerpt.complete,
                }
            )
    return ExcerptMatrices(
        features={label: {f: _stack(rows[label][f]) for f in features} for label in lengths},
        complete={label: np.asarray(complete[label], dtype=bool) for label in lengths},
        records=records,
    )


def _stack(vectors: list[np.ndarray]) -> np.ndarray:
    return np.vstack(vectors) if vectors else np.zeros((0, 0))


# ----------------------------------------------------------------------------- one row


@dataclass(frozen=True)
class LengthRow:
    """One (class size, seed) row: its split, results (:data:`RESULT_COLUMNS`) and excerpts (:data:`EXCERPT_COLUMNS`)."""

    split: RowSplit
    results: pd.DataFrame
    excerpts: pd.DataFrame
    vocabulary: tuple[str, ...] = ()
    """The row's words, best first (word features only; chosen on the training documents)."""


def _maker(method: str, names: tuple[str, ...], seed: int, options: Mapping[str, Any]) -> Callable[[], Any]:
    """A factory of a fresh registered classifier built for (seed, feature names)."""
    return lambda: build_classifier(method, seed=seed, feature_set=names, **options)


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
    (:func:`punctstyle.words.training_vocabulary`, the largest ``k``), and ``documents(i)`` must
    carry the word stream (``streams[WORD_STREAM]``). ``groups``: the text of each document when
    the documents are excerpts of texts (:func:`punctstyle.corpus.text_groups`), so that a
    text's excerpts stay on one side of the split; word features are refused then (the word
    counts are those of whole texts).
    """
    check_methods(methods)
    if groups is not None and uses_word_features(methods):
        raise ValueError("word features need whole documents: the documents are excerpts of texts")
    if not training or any(mode not in TRAINING_MODES for mode in training):
        raise ValueError(f"bad training modes {list(training)}: expected some of {TRAINING_MODES}")
    if short_documents not in SHORT_RULES:
        raise ValueError(f"bad short_documents {short_documents!r}: expected one of {SHORT_RULES}")
    y = np.asarray(labels, dtype=object)
    options = classifier_options or {}
    split = Row(task, n_classes, seed, y, groups=None if groups is None else np.asarray(groups, dtype=object)).split(test_fraction)
    grid = length_labels(lengths)
    features = sorted({f for sets in methods.values() for name in sets for f in resolve_excerpt_features(name)})
    reader, functions, vocabulary = documents, dict(EXCERPT_FEATURES), ()
    ks = [k for k in map(word_feature_k, features) if k is not None]
    if ks:
        if word_counts is None:
            raise ValueError("word features (words<k>) need the documents' word counts (word_counts)")
        from punctstyle.words import training_vocabulary

        vocabulary = tuple(training_vocabulary((word_counts(int(i)) for i in split.train_index), max(ks)))
        if not vocabulary:
            raise ValueError("the row's training documents have no words")
        reader = with_word_ranks(documents, vocabulary)
        functions.update(row_word_features(features, len(vocabulary)))
    test = excerpt_matrices(reader, split.test_index, grid, features, seed=seed, role="test", functions=functions)
    train_lengths = grid if "excerpt" in training else [WHOLE]
    train = excerpt_matrices(
        reader, split.train_index, train_lengths, features, seed=seed, role="train", functions=functions
    )
    y_train_all, y_test_all = y[split.train_index], y[split.test_index]

    def kept(matrices: ExcerptMatrices, label: str) -> np.ndarray:
        """Documents used at a length: all, or the complete excerpts with ``"exclude"``."""
        complete = matrices.complete[label]
        return complete if short_documents == "exclude" else np.ones(complete.size, dtype=bool)

    rows: list[dict[str, Any]] = []
    for method, feature_sets in methods.items():
        for name in feature_sets:
            names = resolve_excerpt_features(name)
            for mode in training:
                model = None  # the whole-document fit, shared by every length
                for label in grid:
                    if mode == "excerpt" and label == WHOLE:
                        continue  # the same experiment as training "whole" at length "whole"
                    train_label = WHOLE if mode == "whole" else label
                    keep_train, keep_test = kept(train, train_label), kept(test, label)
                    y_train, y_test = y_train_all[keep_train], y_test_all[keep_test]
                    row = {
                        "task": task,
                        "n_classes": n_classes,
                        "seed": seed,
                        "method": method,
                        "feature_set": name,
                        "training": mode,
                        "length": label,
                        "n_train": int(y_train.size),
                        "n_test": int(y_test.size),
                        "n_short_train": int((~train.complete[train_label]).sum()),
                        "n_short_test": int((~test.complete[label]).sum()),
                        "accuracy": np.nan,
                        "baseline": baseline_accuracy(y_train, y_test),
                        "n_fallback": 0,
                        "epochs": 0,
                    }
                    if y_train.size and y_test.size:
                        if model is None or mode == "excerpt":
                            X_train = stack_features(train.features[train_label], names)[keep_train]
                            make = _maker(method, names, seed, options.get(method, {}))
                            model, _ = fit(make, X_train, y_train)
                        X_test = stack_features(test.features[label], names)[keep_test]
                        scored = score_fitted(model, X_test, y_train, y_test)
                        row.update(accuracy=scored.accuracy, n_fallback=scored.n_fallback, epochs=scored.epochs)
                    rows.append(row)
    records = pd.DataFrame(test.records + train.records)
    records.insert(0, "seed", seed)
    records.insert(0, "n_classes", n_classes)
    return LengthRow(
        split, pd.DataFrame(rows, columns=RESULT_COLUMNS), records.reindex(columns=EXCERPT_COLUMNS), vocabulary
    )


# ----------------------------------------------------------------------------- summary

SUMMARY_COLUMNS: list[str] = [
    "n_classes",
    "method",
    "feature_set",
    "training",
    "length",
    "accuracy_mean",
    "accuracy_sd",
    "n_seeds",
    "baseline",
    "n_short_test",
    "median_words",
]


def median_words(excerpts: pd.DataFrame) -> pd.Series:
    """Median words of ``n`` marks, per length label: the median of ``n_words`` over the
    complete test excerpts of every row (whole documents for ``"whole"``)."""
    test = excerpts[(excerpts["role"] == "test") & excerpts["complete"].astype(bool)]
    return test.groupby(test["length"].astype(str))["n_words"].median()


def summarise(results: pd.DataFrame, excerpts: pd.DataFrame) -> pd.DataFrame:
    """Mean and sample sd (ddof 1; NaN for one seed) of the accuracy over seeds per (class size,
    method, feature set, training, length); the mean chance level (``baseline``) and short test
    documents; the median words of the length (:func:`median_words`). Sorted by class size,
    method, feature set (``words<k>`` by ``k``), training mode (:data:`TRAINING_MODES` order) and
    length.

    Two requested class sizes capped to the same number of authors are the same rows (same
    :func:`punctstyle.splits.row_rng`): they count once."""
    if results.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    keys = ["n_classes", "method", "feature_set", "training", "length"]
    frame = results.assign(length=results["length"].astype(str)).drop_duplicates([*keys, "seed"])
    summary = (
        frame.groupby(keys, sort=False)
        .agg(
            accuracy_mean=("accuracy", "mean"),
            accuracy_sd=("accuracy", "std"),
            n_seeds=("seed", "nunique"),
            baseline=("baseline", "mean"),
            n_short_test=("n_short_test", "mean"),
        )
        .reset_index()
    )
    words = median_words(excerpts.drop_duplicates(["n_classes", "seed", "length", "book_id", "role"]))
    summary["median_words"] = summary["length"].map(words).astype(float)
    mode = summary["training"].map({m: i for i, m in enumerate(TRAINING_MODES)})
    sets = summary["feature_set"].astype(str)
    summary = summary.assign(
        _mode=mode,
        _order=summary["length"].map(length_sort_key),
        _set=sets.str.replace(r"words[0-9]+$", "words", regex=True),  # words100 < words500 < words1000
        _k=sets.str.extract(r"words([0-9]+)$", expand=False).astype(float).fillna(0.0),
    ).sort_values(["n_classes", "method", "_set", "_k", "_mode", "_order"], kind="stable")
    return summary.drop(columns=["_mode", "_order", "_set", "_k"]).reset_index(drop=True)[SUMMARY_COLUMNS]


def summary_markdown(summary: pd.DataFrame, display: Callable[[str], str] = str) -> str:
    """One Markdown table per class size: a line per (method, feature set, training), a column
    per length (accuracy ``mean ± sd`` over seeds), then the chance level and median words."""
    if summary.empty:
        return "No length-curve rows (fewer than two authors in the corpus).\n"
    parts = []
    for n_classes, block in summary.groupby("n_classes", sort=True):
        labels = sorted(block["length"].unique(), key=length_sort_key)
        header = (
            "| method | features | training | "
            + " | ".join("whole document" if label == WHOLE else f"{label} marks" for label in labels)
            + " |"
        )
        lines = [f"### {n_classes} authors", "", header, "|" + "---|" * (len(labels) + 3)]
        for (method, feature_set, mode), line in block.groupby(["method", "feature_set", "training"], sort=False):
            by_length = line.set_index("length")
            cells = [_cell(by_length, label) for label in labels]
            lines.append(f"| {display(method)} | {feature_text(feature_set)} | {mode} | " + " | ".join(cells) + " |")
        chance = block.groupby("length")["baseline"].mean()
        words = block.groupby("length")["median_words"].first()
        lines.append("| chance level | | | " + " | ".join(f"{chance[label]:.3f}" for label in labels) + " |")
        lines.append(
            "| median words | | | "
            + " | ".join("" if pd.isna(words[label]) else f"{words[label]:,.0f}" for label in labels)
            + " |"
        )
        parts.append("\n".join(lines))
    note = (
        "Training on excerpts has no whole-document column: at that length it is the whole-document "
        "experiment (the training-on-whole line). Chance level: the proportional random classifier."
    )
    return "\n\n".join(parts) + "\n\n" + note + "\n"


def feature_text(feature_set: str) -> str:
    """How tables show a feature set: ``words100`` -> ``100 words``, ``all+words1000`` ->
    ``all + 1000 words``, ``f1+f5`` -> ``{f1, f5}`` (:func:`punctstyle.featuresets.feature_set_label`);
    a name it does not know as given."""
    try:
        return feature_set_label(feature_set)
    except ValueError:
        return feature_set


def _cell(by_length: pd.DataFrame, label: str) -> str:
    if label not in by_length.index or pd.isna(by_length.at[label, "accuracy_mean"]):
        return ""
    mean, sd = by_length.at[label, "accuracy_mean"], by_length.at[label, "accuracy_sd"]
    return f"{mean:.3f}" if pd.isna(sd) else f"{mean:.3f} ± {sd:.3f}"
