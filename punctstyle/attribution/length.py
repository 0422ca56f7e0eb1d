"""How long must a text be before its attribution means anything?

:func:`minimum_marks_for_attribution` measures, on held-out books truncated to their first
``n`` marks, the top-1 accuracy of KL-nearest attribution for every ``n`` of a grid, and
returns the smallest ``n`` reaching a fraction of the full-length accuracy; the books are held
out in the rounds of :func:`held_out_rounds` (the bundle: cross-fitted over K folds of texts,
every text held out once; else one 80/20 split). :func:`threshold_record` makes it the record
of ``threshold.json``; the bundle adds the MLP's and the word methods' curves on the same
rounds (:mod:`punctstyle.attribution.bundle_build`), so that the command line can say which
method to trust at a text's length.

Every held-out curve goes through the experiment driver
(:func:`punctstyle.experiments.driver.run_points`): a round is a driver
:class:`~punctstyle.experiments.driver.Split` (:class:`HeldOutRound`, with its fold), the
classifier comes from the registry (:func:`punctstyle.classifiers.build_classifier`), and the
truncation of the test documents to ``n`` marks is a view of them: one point per (round,
length) (:func:`cut_points`), the fit made once per round on the training documents at full
length and shared by the round's lengths (a :class:`~punctstyle.experiments.driver.FitCache`,
``train_key`` :data:`WHOLE`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.classifiers import build_classifier
from punctstyle.experiments.driver import Documents, Estimator, FitCache, Point, Split, View, run_points
from punctstyle.experiments.metrics import baseline_accuracy
from punctstyle.experiments.row import documents_split
from punctstyle.features import compute_feature

FeaturesFunction = Callable[[np.ndarray, np.ndarray], Mapping[str, np.ndarray]]
"""``compute_features(marks, gaps) -> {"f1": ..., ..., "f6": ...}``."""

Sequences = Sequence[tuple[np.ndarray, np.ndarray]]

CURVE_COLUMNS: tuple[str, ...] = ("n_marks", "accuracy", "n_test", "n_right", "n_truncated", "n_fallback")

TASK = "attribution"
"""The task of the held-out rounds (their :class:`~punctstyle.experiments.driver.Split`'s)."""
WHOLE = "whole"
"""The ``train_key`` of a round's training documents at full length (one fit per round)."""


@dataclass(frozen=True)
class HeldOutRound(Split):
    """One round of a held-out measurement: a driver split (task :data:`TASK`, the classes of
    its training rows, the measurement's seed) and its ``fold`` (number); ``train`` and
    ``test`` name its row indices."""

    fold: int = 0

    @property
    def train(self) -> np.ndarray:
        """The training rows (:attr:`train_index`)."""
        return self.train_index

    @property
    def test(self) -> np.ndarray:
        """The test rows (:attr:`test_index`)."""
        return self.test_index


def held_out_round(labels: np.ndarray, train: np.ndarray, test: np.ndarray, *, fold: int, seed: int) -> HeldOutRound:
    """The round of rows ``train`` / ``test``, its classes those of its training rows."""
    classes = np.unique(labels[train])
    return HeldOutRound(TASK, int(classes.size), int(seed), classes, train, test, int(fold))


@dataclass(frozen=True)
class MarksThreshold:
    """Result of :func:`minimum_marks_for_attribution`.

    ``n_min``: smallest grid length whose accuracy reaches ``target_accuracy`` (None if
    none does, or if the full-length accuracy is 0); ``curve``: one row per grid length
    (``n_marks``, ``accuracy``, ``n_test``, ``n_right``: test books attributed right,
    ``n_truncated``: test books longer than ``n_marks``, ``n_fallback``: all-NaN divergences);
    ``full_right``: test books attributed right at full length.
    """

    n_min: int | None
    full_accuracy: float
    target_accuracy: float
    fraction: float
    feature: str
    curve: pd.DataFrame
    full_right: int | None = None


def truncate_sequence(marks: np.ndarray, gaps: np.ndarray, n_marks: int) -> tuple[np.ndarray, np.ndarray]:
    """The first ``n_marks`` marks and their gaps (the whole text if it is shorter)."""
    return np.asarray(marks)[:n_marks], np.asarray(gaps)[:n_marks]


def single_feature_function(feature: str) -> FeaturesFunction:
    """A :data:`FeaturesFunction` that computes only ``feature`` (cheaper than all of them)."""

    compute_feature(feature, [], [])  # an unknown feature fails here, in one line
    return lambda marks, gaps: {feature: compute_feature(feature, marks, gaps)}


def _feature_rows(
    sequences: Sequences,
    index: np.ndarray,
    compute_features: FeaturesFunction,
    feature: str,
    n_marks: int | None = None,
) -> np.ndarray:
    """(len(index), size) array of ``feature`` for the chosen texts, optionally truncated."""
    rows = []
    for i in index:
        marks, gaps = sequences[i]
        if n_marks is not None:
            marks, gaps = truncate_sequence(marks, gaps, n_marks)
        rows.append(np.asarray(compute_features(marks, gaps)[feature], dtype=np.float64))
    return np.vstack(rows)


def attribution_split(
    labels: Sequence[Any], test_fraction: float, seed: int, groups: Sequence[Any] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The closed-set 80/20 split of every length measurement: (train, test) row indices.
    With ``groups`` (each document's text, when documents are excerpts) whole texts are split
    (:func:`punctstyle.experiments.splits.grouped_split`), so no test excerpt shares a text with training."""
    return documents_split(labels, groups, test_fraction, np.random.default_rng(seed))


def fold_rounds(labels: Sequence[Any], folds: np.ndarray, seed: int = 0) -> list[HeldOutRound]:
    """Cross-fitting rounds: for each fold ``k`` (ascending), ``train`` = the rows of the other
    folds, ``test`` = the rows of fold ``k`` whose author has a training row (a measurement of
    closed-set attribution cannot name an author it never saw); rounds without a test row are left
    out. Over the rounds every row whose author has texts in two folds is tested once. ``seed``:
    the rounds' (what a classifier trained in them is seeded with)."""
    y = np.asarray(labels, dtype=object)
    folds = np.asarray(folds)
    rounds = []
    for k in np.unique(folds).tolist():
        inside = folds == k
        train = np.flatnonzero(~inside)
        test = np.flatnonzero(inside & np.isin(y.astype(str), y[train].astype(str)))
        if test.size:
            rounds.append(held_out_round(y, train, test, fold=int(k), seed=seed))
    return rounds


def held_out_rounds(labels: Sequence[Any], test_fraction: float, seed: int, groups: Sequence[Any] | None = None,
                    folds: np.ndarray | None = None) -> list[HeldOutRound]:
    """The rounds of a length measurement, seeded with ``seed``: :func:`fold_rounds` of ``folds``
    (cross-fitted: every text held out once) or, without ``folds``, the one split of
    :func:`attribution_split` (no round when it has no test row)."""
    y = np.asarray(labels, dtype=object)
    if folds is not None:
        return fold_rounds(y, folds, seed)
    train, test = attribution_split(y, test_fraction, seed, groups)
    return [held_out_round(y, train, test, fold=0, seed=seed)] if test.size else []


def cut_points(held_out: HeldOutRound, lengths: Sequence[int],
               views_at: Callable[[int | None], Mapping[str, View]]) -> list[Point]:
    """The points of one round for :func:`punctstyle.experiments.driver.run_points`: its test
    documents whole (``None``), then cut to each of ``lengths`` (ascending), each a copy of the
    round with the views ``views_at(n)``."""
    return [(replace(held_out), dict(views_at(n))) for n in (None, *lengths)]


NO_TEST_BOOK = (
    "no test books: every class needs at least 3 books (texts, when documents are excerpts) for a test document"
)


@dataclass(frozen=True)
class KLCounts:
    """KL's held-out counts pooled over the rounds: ``right`` (test books attributed right at full
    length, then at each grid length), ``n_fallback`` and ``n_truncated`` (per grid length) and
    ``n_test``."""

    right: np.ndarray
    n_fallback: np.ndarray
    n_truncated: np.ndarray
    n_test: int


def kl_length_counts(sequences: Sequences, labels: np.ndarray, compute_features: FeaturesFunction, feature: str,
                     rounds: Sequence[HeldOutRound], lengths: Sequence[int],
                     groups: Sequence[Any] | None = None) -> KLCounts:
    """KL nearest class (the registry's ``kl`` on ``feature``) in every round, through the driver:
    the signatures (the mean ``feature`` of each author's training books at full length) fitted
    once per round, each test book attributed whole and cut to its first ``n`` marks, ``n`` in
    ``lengths`` (:func:`cut_points`): ``argmin_a d_KL(signature_a, f(truncated book))``; the
    right answers and all-NaN fallbacks are counted per length over the rounds."""
    points: list[Point] = []
    for held_out in rounds:
        train_rows = _feature_rows(sequences, held_out.train, compute_features, feature)

        def views_at(n: int | None, train_rows: np.ndarray = train_rows, test: np.ndarray = held_out.test) -> dict:
            test_rows = _feature_rows(sequences, test, compute_features, feature, n)
            return {feature: View(train_rows, test_rows, train_key=WHOLE)}

        points += cut_points(held_out, lengths, views_at)
    kl = Estimator("kl", lambda seed, view: build_classifier("kl", seed=seed, feature_set=(view,)), (feature,))
    right = np.zeros(len(lengths) + 1, dtype=np.int64)  # full length, then each grid length
    fallbacks = np.zeros(len(lengths), dtype=np.int64)
    for k, record in enumerate(run_points(Documents(labels, groups), points, [kl], cache=FitCache())):
        j = k % (len(lengths) + 1)
        right[j] += int(np.sum(record.y_pred == labels[record.split.test_index]))
        if j:
            fallbacks[j - 1] += record.scored.n_fallback
    tested = np.concatenate([held_out.test for held_out in rounds])
    text_lengths = np.array([len(sequences[i][0]) for i in tested])
    n_truncated = (text_lengths[None, :] > np.array(lengths)[:, None]).sum(axis=1)
    return KLCounts(right, fallbacks, n_truncated, int(tested.size))


def minimum_marks_for_attribution(
    sequences: Sequences,
    labels: Sequence[Any],
    compute_features: FeaturesFunction,
    *,
    grid: Sequence[int],
    fraction: float,
    feature: str,
    test_fraction: float,
    seed: int,
    groups: Sequence[Any] | None = None,
    folds: np.ndarray | None = None,
) -> MarksThreshold:
    """Estimate the number of marks below which KL-nearest attribution is unreliable.

    Books (``(marks, gaps)`` sequences with author ``labels``) are held out in the rounds of
    :func:`held_out_rounds` (``folds``: cross-fitted over the folds; without, the one split of
    :func:`attribution_split`) and attributed by :func:`kl_length_counts`. The accuracy at ``n``
    is ``n_right / n_test`` pooled over the rounds. The threshold is the smallest ``n`` of
    ``grid`` whose top-1 accuracy is at least ``fraction`` times the full-length accuracy.
    ``groups``: see :func:`attribution_split` (excerpts: the full length is an excerpt's).
    """
    y = np.asarray(labels, dtype=object)
    if len(sequences) != y.size:
        raise ValueError(f"{len(sequences)} sequences for {y.size} labels")
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"fraction must lie in (0, 1], got {fraction}")
    rounds = held_out_rounds(y, test_fraction, seed, groups, folds)
    if not rounds:
        raise ValueError(NO_TEST_BOOK)
    lengths = sorted({int(n) for n in grid})
    counts = kl_length_counts(sequences, y, compute_features, feature, rounds, lengths, groups)
    right, n_test = counts.right, counts.n_test
    full_accuracy = right[0] / n_test
    rows = [(n, right[j + 1] / n_test, n_test, int(right[j + 1]), int(counts.n_truncated[j]),
             int(counts.n_fallback[j])) for j, n in enumerate(lengths)]
    curve = pd.DataFrame(rows, columns=list(CURVE_COLUMNS))
    target = fraction * full_accuracy
    reached = curve.loc[curve["accuracy"] >= target - 1e-12, "n_marks"]
    n_min = None if full_accuracy == 0 or reached.empty or math.isnan(full_accuracy) else int(reached.iloc[0])
    return MarksThreshold(n_min, float(full_accuracy), float(target), fraction, feature, curve, int(right[0]))


# --------------------------------------------------------------------------- threshold.json


def _json_number(value: Any) -> Any:
    """A float for JSON: NaN and infinities become None."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def curve_records(curve: pd.DataFrame) -> list[dict[str, Any]]:
    """A :class:`MarksThreshold` curve as JSON records."""
    return [
        {
            "n_marks": int(r.n_marks),
            "accuracy": _json_number(r.accuracy),
            "n_test": int(r.n_test),
            "n_right": int(r.n_right),
            "n_truncated": int(r.n_truncated),
            "n_fallback": int(r.n_fallback),
        }
        for r in curve.itertuples(index=False)
    ]


def _not_estimated(note: str, **values: Any) -> dict[str, Any]:
    record = dict(
        min_marks=None,
        n_min=None,
        estimated=False,
        feature=None,
        full_accuracy=None,
        target_accuracy=None,
        baseline_accuracy=None,
        curve=[],
        curves={},
    )
    return {**record, **values, "note": note}


def _chosen_threshold(result: MarksThreshold, grid: list[int], baseline: float) -> dict[str, Any]:
    """``min_marks``, ``estimated`` and ``note`` of the chosen feature's estimate."""
    full, feature, fraction = float(result.full_accuracy), result.feature, result.fraction
    if result.n_min is not None:
        return dict(
            min_marks=result.n_min,
            estimated=True,
            note=(
                f"smallest grid length whose KL-nearest ({feature}) top-1 accuracy reaches "
                f"{fraction:g} x the full-length accuracy {full:.3f} (random baseline {baseline:.3f})"
            ),
        )
    return dict(
        min_marks=grid[-1],
        estimated=False,
        note=(
            f"no grid length reached {fraction:g} x the full-length KL-nearest ({feature}) accuracy "
            f"{full:.3f}; the largest grid length {grid[-1]} is a lower bound"
        ),
    )


def threshold_header(y: np.ndarray, *, grid: list[int], fraction: float, features: list[str], test_fraction: float,
                     seed: int, groups: Sequence[Any] | None, folds: np.ndarray | None) -> dict[str, Any]:
    """The settings and corpus size ``threshold.json`` opens with (``n_texts`` with ``groups``,
    ``folds`` with ``folds``)."""
    record: dict[str, Any] = {
        "fraction": float(fraction),
        "grid": grid,
        "candidates": features,
        "test_fraction": float(test_fraction),
        "seed": int(seed),
        "n_books": int(y.size),
        "n_authors": int(np.unique(y).size),
    }
    if groups is not None:
        record["n_texts"] = int(np.unique(np.asarray(groups, dtype=object)).size)
    if folds is not None:
        record["folds"] = int(np.unique(np.asarray(folds)).size)
    return record


def pooled_baseline(y: np.ndarray, rounds: Sequence[HeldOutRound]) -> tuple[float, int]:
    """The proportional random baseline pooled over the rounds, ``sum_r n_r b_r / sum_r n_r``
    (``b_r`` :func:`punctstyle.experiments.metrics.baseline_accuracy` of round ``r``'s ``n_r``
    test books), and ``sum_r n_r``."""
    sizes = np.array([r.test.size for r in rounds], dtype=np.float64)
    baseline = float(np.dot(sizes, [baseline_accuracy(y[r.train], y[r.test]) for r in rounds]) / sizes.sum())
    return baseline, int(sizes.sum())


def feature_curve(result: MarksThreshold, n_test: int) -> dict[str, Any]:
    """One candidate feature's entry of ``curves``."""
    return {
        "full_accuracy": _json_number(result.full_accuracy),
        "n_test": n_test,
        "n_right": result.full_right,
        "target_accuracy": _json_number(result.target_accuracy),
        "n_min": result.n_min,
        "curve": curve_records(result.curve),
    }


def chosen_record(results: Mapping[str, MarksThreshold], features: list[str], grid: list[int], baseline: float,
                  curves: Mapping[str, Any]) -> dict[str, Any]:
    """The estimate of ``threshold.json`` from the candidate features' ``results``: that of the feature
    with the highest full-length accuracy (the first on a tie) among those above ``baseline``,
    or not estimated when none is."""
    better = [f for f in features if results[f].full_accuracy > baseline + 1e-12]
    if not better:
        accuracies = ", ".join(f"{f} {results[f].full_accuracy:.3f}" for f in features)
        note = (
            f"not estimated: at full length no KL feature attributes better than the "
            f"random baseline {baseline:.3f} ({accuracies})"
        )
        return _not_estimated(note, baseline_accuracy=_json_number(baseline), curves=dict(curves))
    result = results[max(better, key=lambda f: (results[f].full_accuracy, -features.index(f)))]
    return {
        **_chosen_threshold(result, grid, baseline),
        "n_min": result.n_min,
        "feature": result.feature,
        "full_accuracy": _json_number(result.full_accuracy),
        "target_accuracy": _json_number(result.target_accuracy),
        "baseline_accuracy": _json_number(baseline),
        "curve": curve_records(result.curve),
        "curves": dict(curves),
    }


def threshold_record(
    sequences: Sequences,
    labels: Sequence[Any],
    *,
    grid: Sequence[int],
    fraction: float,
    features: Sequence[str],
    test_fraction: float,
    seed: int,
    groups: Sequence[Any] | None = None,
    folds: np.ndarray | None = None,
) -> dict[str, Any]:
    """:func:`minimum_marks_for_attribution` as the JSON record of ``threshold.json``.

    The estimate is run for each candidate KL feature of ``features`` (same rounds). The
    threshold is taken from the feature whose full-length KL-nearest accuracy is highest (the
    first on a tie) among those that beat the proportional random baseline
    (:func:`pooled_baseline`): a feature that attributes no better than chance at full length
    cannot say how long a text must be.

    ``min_marks`` is what the CLI compares a text with: the chosen feature's ``n_min``; when
    no grid length reaches the target, the largest grid length (a lower bound, ``estimated``
    false); None when nothing can be estimated (no test book, or no feature better than
    chance). ``curve`` is the chosen feature's accuracy per grid length, ``curves`` those of
    every candidate; ``note`` says how the value was obtained. With ``groups`` (documents are
    excerpts of texts: the full length is an excerpt's) the record adds ``n_texts``; with
    ``folds`` (cross-fitted, :func:`held_out_rounds`) ``folds``, their number.
    """
    y = np.asarray(labels, dtype=object)
    grid = sorted({int(n) for n in grid})
    features = list(dict.fromkeys(features))
    record = threshold_header(y, grid=grid, fraction=fraction, features=features, test_fraction=test_fraction,
                              seed=seed, groups=groups, folds=folds)
    try:
        results = {
            f: minimum_marks_for_attribution(
                sequences, y, single_feature_function(f), grid=grid, fraction=fraction,
                feature=f, test_fraction=test_fraction, seed=seed, groups=groups, folds=folds,
            )
            for f in features
        }
    except ValueError as exc:
        return {**record, **_not_estimated(f"not estimated: {exc}")}
    baseline, n_test = pooled_baseline(y, held_out_rounds(y, test_fraction, seed, groups, folds))
    curves = {f: feature_curve(r, n_test) for f, r in results.items()}
    return {**record, **chosen_record(results, features, grid, baseline, curves)}


__all__ = [
    "HeldOutRound",
    "KLCounts",
    "MarksThreshold",
    "attribution_split",
    "cut_points",
    "fold_rounds",
    "held_out_rounds",
    "curve_records",
    "kl_length_counts",
    "minimum_marks_for_attribution",
    "pooled_baseline",
    "single_feature_function",
    "threshold_record",
    "truncate_sequence",
]
