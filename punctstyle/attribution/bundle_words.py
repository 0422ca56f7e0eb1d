"""The bundle's word methods (issue 36): Burrows' Delta on the most frequent words, and on the
words together with the paper's punctuation features f1..f6, beside the MLP and KL.

* ``delta_words``: the ``k`` most frequent words (:func:`punctstyle.corpus.words.training_vocabulary`:
  the largest mean relative frequency over the books, ties by word), each text's relative
  frequencies ``x_j = c_j / m`` (``c_j`` the count of word ``j`` among its ``m`` words), then
  Burrows' Delta to the author centroids (:mod:`punctstyle.classifiers.delta`, variant
  ``centroid``: z-scores with the books' mean and sample sd, ``Delta(x, c_a) = (1/d) sum_i
  |z_i(x) - c_{a,i}|``, the nearest author first);
* ``delta_both``: the same on ``[f1 .. f6, x]`` (the combined features of the collaborations
  benchmark, ``delta_both`` of :mod:`punctstyle.attribution.collaborations`).

``words.npz`` (the bundle's file ``words``) holds the deployed models, fitted on every corpus
book: the words (best first), and per method the authors, the z-score ``mean`` and ``sd`` and
the author ``centroids``. Their held-out accuracy per length (:func:`word_length_curves`:
cross-fitted over the folds of the MLP's and KL's curves, the vocabulary chosen on each round's
training books, each test book cut to its first ``n`` marks and the words before them) and the
rolling method chosen by change-point F1 on synthetic collaborations of the held-out books of the
first fold (:func:`rolling_choice`) go into ``threshold.json`` (``word_curves``, ``rolling``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.attribution.length import WHOLE, cut_points
from punctstyle.classifiers import build_classifier
from punctstyle.classifiers.delta import BurrowsDelta
from punctstyle.distances import delta, zscores
from punctstyle.experiments.driver import Documents, Estimator, FitCache, Point, View, run_points
from punctstyle.io import InputError, atomic_path
from punctstyle.marks import PAPER_FEATURES

WORD_METHODS: tuple[str, ...] = ("delta_words", "delta_both")
ROLLING_CHOICES: tuple[str, ...] = ("punctuation", "words", "both")
"""``punctstyle rolling --method``: the bundle's punctuation method (the MLP or KL, the more
accurate at the window), ``delta_words`` or ``delta_both``."""
ROLLING_METHOD_OF: dict[str, str] = {"words": "delta_words", "both": "delta_both"}
COLLABORATION_KINDS: tuple[str, ...] = ("A-B", "A-B-A")

Stream = Callable[[int], np.ndarray]


def stream_frequencies(stream: Sequence[str], words: Sequence[str]) -> np.ndarray:
    """``x_j = c_j / m``: the count of each of ``words`` among the ``m`` words of ``stream``
    (zeros for an empty stream)."""
    stream = np.asarray(stream, dtype=object)
    if stream.size == 0 or len(words) == 0:
        return np.zeros(len(words))
    ranks = pd.Index(list(words), dtype=object).get_indexer(stream)
    counts = np.bincount(ranks[ranks >= 0], minlength=len(words)).astype(np.float64)
    return counts / stream.size


def count_frequencies(book_words: Sequence[str], counts: np.ndarray, words: Sequence[str]) -> np.ndarray:
    """``c_d(w) / n_d`` of each of ``words`` from a book's whole word counts (``n_d = sum c``)."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum()
    column = pd.Index(list(book_words), dtype=object).get_indexer(list(words))
    values = np.where(column >= 0, counts[np.maximum(column, 0)], 0.0)
    return values / total if total > 0 else values


def punctuation_block(features: Mapping[str, Any]) -> np.ndarray:
    """``[f1 .. f6]`` of one text (a row) or of several (rows): the paper's features side by side."""
    return np.hstack([np.atleast_2d(np.asarray(features[f], dtype=np.float64)) for f in PAPER_FEATURES])


def method_rows(method: str, punctuation: np.ndarray, words: np.ndarray) -> np.ndarray:
    """The inputs of ``delta_words`` (the word frequencies) or ``delta_both`` (punctuation, then words)."""
    if method == "delta_words":
        return np.atleast_2d(words)
    if method == "delta_both":
        return np.hstack([np.atleast_2d(punctuation), np.atleast_2d(words)])
    raise ValueError(f"unknown word method {method!r}: expected one of {list(WORD_METHODS)}")


@dataclass(frozen=True)
class DeltaReference:
    """One fitted Delta: ``authors`` (sorted), z-score ``mean``/``sd``, author ``centroids``."""

    method: str
    authors: np.ndarray
    mean: np.ndarray
    sd: np.ndarray
    centroids: np.ndarray

    @classmethod
    def fit(cls, method: str, X: np.ndarray, labels: Sequence[Any]) -> DeltaReference:
        fitted = BurrowsDelta(seed=0, feature_set=()).fit(X, labels)
        return cls(method, np.asarray(fitted.classes, dtype=object), fitted.mean, fitted.sd, fitted.centroids)

    def distances(self, X: np.ndarray) -> np.ndarray:
        """``Delta(x_k, c_a)`` (:func:`punctstyle.distances.delta` of the z-scores): (n_rows, n_authors)."""
        return delta(zscores(np.atleast_2d(np.asarray(X, dtype=np.float64)), self.mean, self.sd), self.centroids)

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.authors[np.argmin(self.distances(X), axis=1)]


@dataclass(frozen=True)
class WordModels:
    """The bundle's word methods: ``words`` (best first) and a :class:`DeltaReference` per method."""

    words: tuple[str, ...]
    references: dict[str, DeltaReference]

    def distances(self, method: str, features: Mapping[str, Any], stream: Sequence[str]) -> pd.Series:
        """Delta of one text (its f1..f6 ``features`` and word ``stream``) to every author."""
        reference = self.references[method]
        rows = method_rows(method, punctuation_block(features), stream_frequencies(stream, self.words))
        return pd.Series(reference.distances(rows)[0], index=pd.Index(reference.authors, name="author"),
                         name=method)


def fit_word_models(punctuation: np.ndarray, word_rows: np.ndarray, labels: Sequence[Any],
                    words: Sequence[str]) -> WordModels:
    """Both Delta methods fitted on the rows (books) given."""
    return WordModels(tuple(words), {m: DeltaReference.fit(m, method_rows(m, punctuation, word_rows), labels)
                                     for m in WORD_METHODS})


def write_word_models(path: Any, models: WordModels) -> None:
    """``words.npz``: ``words`` and, per method, ``<method>.authors/mean/sd/centroids`` (atomic)."""
    arrays: dict[str, np.ndarray] = {"words": np.asarray(models.words, dtype=str)}
    for method, reference in models.references.items():
        arrays[f"{method}.authors"] = np.asarray(reference.authors, dtype=str)
        arrays[f"{method}.mean"] = reference.mean
        arrays[f"{method}.sd"] = reference.sd
        arrays[f"{method}.centroids"] = reference.centroids
    with atomic_path(path) as temporary, open(temporary, "wb") as handle:
        np.savez(handle, **arrays)


def read_word_models(path: Any) -> WordModels:
    """The models of :func:`write_word_models`; an unreadable or incomplete file raises
    :class:`InputError` in one line naming it."""
    try:
        with np.load(os.fspath(path), allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError, EOFError) as exc:
        raise InputError(f"{path}: not a readable word-model file ({str(exc).splitlines()[0] if str(exc) else exc})") from None
    keys = ["words"] + [f"{m}.{part}" for m in WORD_METHODS for part in ("authors", "mean", "sd", "centroids")]
    missing = [k for k in keys if k not in arrays]
    if missing:
        raise InputError(f"{path}: field {missing[0]} missing; rebuild the bundle")
    references = {}
    for m in WORD_METHODS:
        authors, mean, sd, centroids = (arrays[f"{m}.{p}"] for p in ("authors", "mean", "sd", "centroids"))
        if centroids.shape != (authors.size, mean.size) or sd.shape != mean.shape:
            raise InputError(f"{path}: field {m}.centroids: shape {centroids.shape} for {authors.size} authors "
                             f"and {mean.size} columns; rebuild the bundle")
        references[m] = DeltaReference(m, authors.astype(object), mean, sd, centroids)
    return WordModels(tuple(str(w) for w in arrays["words"]), references)


# --------------------------------------------------------------------------- held-out measurements


def cut_word_rows(sequences: Sequence[tuple[np.ndarray, np.ndarray]], stream: Stream, test: np.ndarray,
                  lengths: Sequence[int], words: Sequence[str]) -> dict[int | None, tuple[np.ndarray, np.ndarray]]:
    """The test books whole (``None``) and cut to their first ``n`` marks, ``n`` in ``lengths``:
    ``n -> (f1..f6 of those marks, the frequencies of ``words`` among the words before them:
    stream(i)[: sum_{j < n} g_j])``, one row per test book."""
    from punctstyle.features import compute_features

    views: dict[int | None, tuple[list[np.ndarray], list[np.ndarray]]] = {n: ([], []) for n in [None, *lengths]}
    for i in test:
        marks, gaps = sequences[i]
        words_of = stream(int(i))
        cumulative = np.concatenate([[0], np.cumsum(np.asarray(gaps, dtype=np.int64))])
        for n in views:
            stop = len(marks) if n is None else min(n, len(marks))
            views[n][0].append(punctuation_block(compute_features(marks[:stop], gaps[:stop]))[0])
            end = len(words_of) if n is None else int(cumulative[stop])
            views[n][1].append(stream_frequencies(words_of[:end], words))
    return {n: (np.vstack(punct), np.vstack(freqs)) for n, (punct, freqs) in views.items()}


def delta_estimators() -> list[Estimator]:
    """Both Delta methods (:data:`WORD_METHODS`) as estimators of the experiment driver: the
    registry's ``delta`` with its defaults (variant ``centroid``, z-scores over the training
    rows: what :class:`DeltaReference` fits), each on the view named after it."""
    return [Estimator(m, lambda seed, view: build_classifier("delta", seed=seed, feature_set=(view,)), (m,))
            for m in WORD_METHODS]


def word_length_curves(sequences: Sequence[tuple[np.ndarray, np.ndarray]], stream: Stream,
                       counts: Callable[[int], tuple[Sequence[str], np.ndarray]], labels: Sequence[Any],
                       rounds: Sequence[Any], grid: Sequence[int], k: int,
                       groups: Sequence[Any] | None = None) -> dict[str, Any]:
    """Held-out top-1 accuracy of both Delta methods, whole and per grid length, pooled over rounds.

    ``rounds``: the driver splits of the MLP's and KL's measurement
    (:func:`punctstyle.attribution.length.held_out_rounds`: cross-fitted folds, or one split). In
    each round the ``k`` words are chosen on the training books' whole counts (``counts(i)``), the
    Deltas (:func:`delta_estimators`) fitted once on the training books whole and scored on each
    test book whole and cut to its first ``n`` marks (:func:`cut_word_rows`), one driver point per
    length (:func:`punctstyle.attribution.length.cut_points`). ``accuracy(n) = sum_r right_r(n) /
    sum_r n_r``. Returns ``{"<method>": {"full_accuracy", "n_test", "n_right", "curve":
    [{"n_marks", "accuracy", "n_test", "n_right"}]}}``."""
    from punctstyle.corpus.words import training_vocabulary
    from punctstyle.features import compute_features

    y = np.asarray(labels, dtype=object)
    lengths = sorted({int(n) for n in grid})
    every = sorted({int(i) for held_out in rounds for i in held_out.train})
    book_counts = {i: counts(i) for i in every}  # read once, used by every round
    whole = {i: punctuation_block(compute_features(*sequences[i]))[0] for i in every}
    points: list[Point] = []
    for held_out in rounds:
        train = held_out.train
        words = training_vocabulary((book_counts[int(i)] for i in train), k)
        punct_train = np.vstack([whole[int(i)] for i in train])
        words_train = np.vstack([count_frequencies(*book_counts[int(i)], words) for i in train])
        inputs = {m: method_rows(m, punct_train, words_train) for m in WORD_METHODS}
        cut = cut_word_rows(sequences, stream, held_out.test, lengths, words)
        points += cut_points(held_out, lengths, lambda n, cut=cut, inputs=inputs: {
            m: View(inputs[m], method_rows(m, *cut[n]), train_key=WHOLE) for m in WORD_METHODS})
    right = {method: np.zeros(len(lengths) + 1, dtype=np.int64) for method in WORD_METHODS}
    records = run_points(Documents(y, groups), points, delta_estimators(), cache=FitCache())
    for k_record, record in enumerate(records):
        j = k_record // len(WORD_METHODS) % (len(lengths) + 1)
        right[record.method][j] += int(np.sum(record.y_pred == y[record.split.test_index]))
    n_test = int(sum(len(held_out.test) for held_out in rounds))
    out: dict[str, Any] = {}
    for method in WORD_METHODS:
        share = [None if n_test == 0 else float(r) / n_test for r in right[method]]
        out[method] = {"full_accuracy": share[0], "n_test": n_test, "n_right": int(right[method][0]),
                       "curve": [{"n_marks": n, "accuracy": share[j + 1], "n_test": n_test,
                                  "n_right": int(right[method][j + 1])} for j, n in enumerate(lengths)]}
    return out


def rolling_choice(sequences: Sequence[tuple[np.ndarray, np.ndarray]], stream: Stream, labels: Sequence[Any],
                   train: np.ndarray, test: np.ndarray, models: WordModels,
                   punctuation: Callable[[Mapping[str, np.ndarray]], Any], *, window: int, step: int,
                   per_kind: int, part_marks: tuple[int, int], seed: int,
                   feature_names: Sequence[str] = PAPER_FEATURES) -> dict[str, Any]:
    """The rolling method with the best change-point F1 on synthetic collaborations of the
    held-out books (:func:`punctstyle.attribution.collaborations.draw_collaborations`: ``per_kind``
    texts of each of :data:`COLLABORATION_KINDS`, parts of ``part_marks`` marks of held-out books
    by authors of the training books), each rolled with ``window``/``step`` by ``punctuation``
    (``features -> SliceScores``: the split's punctuation method), ``delta_words`` and
    ``delta_both`` (``models``: fitted on the training books), and scored with
    :func:`punctstyle.attribution.collaborations.evaluate_rolling` (margin: one window).
    ``default``: the largest mean F1 over the texts (on a tie the earlier of
    :data:`ROLLING_CHOICES`); None without a collaboration. ``feature_names``: the slice features
    computed (those ``punctuation`` reads, f1..f6 among them). Also per method the mean
    precision, recall, false alarms per text and the share of true changes found."""
    from punctstyle.attribution.rolling import DISTANCE, SliceScores, roll_text, slice_word_spans
    from punctstyle.attribution.collaborations import assemble, draw_collaborations, evaluate_rolling

    y = np.asarray(labels, dtype=object)
    n_marks = np.array([len(m) for m, _ in sequences], dtype=np.int64)
    rng = np.random.default_rng([seed, 36])
    collaborations = draw_collaborations(y, n_marks, test, COLLABORATION_KINDS, per_kind, part_marks, rng,
                                         known_authors=np.unique(y[train]))
    records: list[dict[str, Any]] = []
    for number, collaboration in enumerate(collaborations):
        marks, gaps, words = assemble(collaboration, sequences, stream)
        if len(marks) < window:
            continue

        def score(choice: str, features: Mapping[str, np.ndarray], starts: np.ndarray,
                  gaps: np.ndarray = gaps, words: np.ndarray = words) -> Any:
            if choice == "punctuation":
                return punctuation(features)
            method = ROLLING_METHOD_OF[choice]
            first, stop = slice_word_spans(gaps, starts, window)
            rows = method_rows(method, punctuation_block(features),
                               np.vstack([stream_frequencies(words[a:b], models.words) for a, b in zip(first, stop)]))
            reference = models.references[method]
            return SliceScores(method, DISTANCE, reference.authors, reference.distances(rows))

        for choice in ROLLING_CHOICES:
            result = roll_text(marks, gaps, window, step, lambda f, s, c=choice: score(c, f, s), feature_names)
            record = evaluate_rolling(result, collaboration)
            records.append({"number": number, "method": choice, **{k: record[k] for k in (
                "kind", "n_true", "n_found", "within_step", "precision", "recall", "f1", "false_alarms")}})
    if not records:
        return {"window": window, "step": step, "margin": window, "n_collaborations": 0, "methods": {},
                "default": None}
    frame = pd.DataFrame(records)
    means = frame.groupby("method")[["f1", "precision", "recall", "false_alarms", "within_step"]].mean()
    methods = {m: {k: float(v) for k, v in means.loc[m].items()} for m in ROLLING_CHOICES if m in means.index}
    default = max(ROLLING_CHOICES, key=lambda m: (methods[m]["f1"], -ROLLING_CHOICES.index(m)))
    return {"window": int(window), "step": int(step), "margin": int(window),
            "n_collaborations": int(frame["number"].nunique()), "kinds": list(COLLABORATION_KINDS),
            "methods": methods, "default": default}


__all__ = [
    "COLLABORATION_KINDS",
    "DeltaReference",
    "ROLLING_CHOICES",
    "ROLLING_METHOD_OF",
    "WORD_METHODS",
    "WordModels",
    "count_frequencies",
    "fit_word_models",
    "method_rows",
    "punctuation_block",
    "read_word_models",
    "rolling_choice",
    "stream_frequencies",
    "word_length_curves",
    "write_word_models",
]
