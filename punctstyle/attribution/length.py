"""How long must a text be before its attribution means anything?

:func:`minimum_marks_for_attribution` measures, on held-out books truncated to their first
``n`` marks, the top-1 accuracy of KL-nearest attribution for every ``n`` of a grid, and
returns the smallest ``n`` reaching a fraction of the full-length accuracy; the books are held
out in the rounds of :func:`held_out_rounds` (the bundle: cross-fitted over K folds of texts,
every text held out once; else one 80/20 split).
:func:`mlp_length_curve` measures the MLP's accuracy on the same split and lengths, so that
the command line can say which method to trust at a text's length.
:func:`threshold_record` combines both into the record of ``threshold.json``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.classifiers.kl_nearest import class_signatures, kl_nearest
from punctstyle.experiments.metrics import accuracy, baseline_accuracy
from punctstyle.experiments.row import documents_split
from punctstyle.features import compute_feature

FeaturesFunction = Callable[[np.ndarray, np.ndarray], Mapping[str, np.ndarray]]
"""``compute_features(marks, gaps) -> {"f1": ..., ..., "f6": ...}``."""

Sequences = Sequence[tuple[np.ndarray, np.ndarray]]

CURVE_COLUMNS: tuple[str, ...] = ("n_marks", "accuracy", "n_test", "n_right", "n_truncated", "n_fallback")


@dataclass(frozen=True)
class HeldOutRound:
    """One round of a held-out measurement: ``fold`` (its number), ``train`` and ``test`` row indices."""

    fold: int
    train: np.ndarray
    test: np.ndarray


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


def fold_rounds(labels: Sequence[Any], folds: np.ndarray) -> list[HeldOutRound]:
    """Cross-fitting rounds: for each fold ``k`` (ascending), ``train`` = the rows of the other
    folds, ``test`` = the rows of fold ``k`` whose author has a training row (a measurement of
    closed-set attribution cannot name an author it never saw); rounds without a test row are left
    out. Over the rounds every row whose author has texts in two folds is tested once."""
    y = np.asarray(labels, dtype=object)
    folds = np.asarray(folds)
    rounds = []
    for k in np.unique(folds).tolist():
        inside = folds == k
        train = np.flatnonzero(~inside)
        test = np.flatnonzero(inside & np.isin(y.astype(str), y[train].astype(str)))
        if test.size:
            rounds.append(HeldOutRound(int(k), train, test))
    return rounds


def held_out_rounds(labels: Sequence[Any], test_fraction: float, seed: int, groups: Sequence[Any] | None = None,
                    folds: np.ndarray | None = None) -> list[HeldOutRound]:
    """The rounds of a length measurement: :func:`fold_rounds` of ``folds`` (cross-fitted: every
    text held out once) or, without ``folds``, the one split of :func:`attribution_split` (no
    round when it has no test row)."""
    if folds is not None:
        return fold_rounds(labels, folds)
    train, test = attribution_split(labels, test_fraction, seed, groups)
    return [HeldOutRound(0, train, test)] if test.size else []


NO_TEST_BOOK = (
    "no test books: every class needs at least 3 books (texts, when documents are excerpts) for a test document"
)


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
    :func:`attribution_split`). In each round, author signatures are the mean ``feature`` of the
    full-length training books; each test book is truncated to its first ``n`` marks for every
    ``n`` of ``grid`` and attributed to ``argmin_a d_KL(signature_a, f(truncated book))``. The
    accuracy at ``n`` is ``n_right / n_test`` pooled over the rounds. The threshold is the
    smallest ``n`` whose top-1 accuracy is at least ``fraction`` times the full-length accuracy.
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
    right = np.zeros(len(lengths) + 1, dtype=np.int64)  # full length, then each grid length
    fallbacks = np.zeros(len(lengths), dtype=np.int64)
    n_truncated = np.zeros(len(lengths), dtype=np.int64)
    n_test = 0
    for held_out in rounds:
        train, test = held_out.train, held_out.test
        classes, signatures, counts = class_signatures(
            _feature_rows(sequences, train, compute_features, feature), y[train]
        )
        fallback = int(np.argmax(counts))
        for j, n in enumerate([None, *lengths]):
            nearest, n_fallback = kl_nearest(signatures, _feature_rows(sequences, test, compute_features, feature, n),
                                             fallback)
            right[j] += int(np.sum(classes[nearest] == y[test]))
            if j:
                fallbacks[j - 1] += n_fallback
        text_lengths = np.array([len(sequences[i][0]) for i in test])
        n_truncated += (text_lengths[None, :] > np.array(lengths)[:, None]).sum(axis=1)
        n_test += int(test.size)
    full_accuracy = right[0] / n_test
    rows = [(n, right[j + 1] / n_test, n_test, int(right[j + 1]), int(n_truncated[j]), int(fallbacks[j]))
            for j, n in enumerate(lengths)]
    curve = pd.DataFrame(rows, columns=list(CURVE_COLUMNS))
    target = fraction * full_accuracy
    reached = curve.loc[curve["accuracy"] >= target - 1e-12, "n_marks"]
    n_min = None if full_accuracy == 0 or reached.empty or math.isnan(full_accuracy) else int(reached.iloc[0])
    return MarksThreshold(n_min, float(full_accuracy), float(target), fraction, feature, curve, int(right[0]))


def mlp_length_curve(
    sequences: Sequences,
    labels: Sequence[Any],
    full_features: np.ndarray,
    features_of: Callable[[np.ndarray, np.ndarray], np.ndarray],
    train: Callable[[np.ndarray, np.ndarray], Any],
    *,
    grid: Sequence[int],
    test_fraction: float,
    seed: int,
    groups: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """Held-out top-1 accuracy of an MLP on books truncated to ``n`` marks, per grid length.

    The split is :func:`attribution_split` (the same as the KL curve's, with the same ``groups``). ``full_features``:
    the (n_books, d) model inputs at full length; ``features_of(marks, gaps)``: the d inputs
    of one (truncated) text; ``train(X, y)``: a model with ``predict(X)``, trained on the
    training rows at full length. Returns ``{"full_accuracy", "curve": [{"n_marks",
    "accuracy"}]}``.
    """
    y = np.asarray(labels, dtype=object)
    train_rows, test_rows = attribution_split(y, test_fraction, seed, groups)
    if test_rows.size == 0:
        raise ValueError(NO_TEST_BOOK)
    model = train(np.asarray(full_features)[train_rows], y[train_rows])
    lengths = sorted({int(n) for n in grid})
    truncated = np.empty((len(lengths), test_rows.size, np.asarray(full_features).shape[1]))
    for j, i in enumerate(test_rows):
        marks, gaps = sequences[i]
        for k, n in enumerate(lengths):
            truncated[k, j] = features_of(*truncate_sequence(marks, gaps, n))
    full = accuracy(y[test_rows], model.predict(np.asarray(full_features)[test_rows]))
    curve = [
        {"n_marks": n, "accuracy": _json_number(accuracy(y[test_rows], model.predict(truncated[k])))}
        for k, n in enumerate(lengths)
    ]
    return {"full_accuracy": _json_number(full), "curve": curve}


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

    The estimate is run for each candidate KL feature of ``features`` (same split). The
    threshold is taken from the feature whose full-length KL-nearest accuracy is highest
    (the first on a tie) among those that beat the proportional random baseline
    (:func:`punctstyle.experiments.metrics.baseline_accuracy` on the same split): a feature that
    attributes no better than chance at full length cannot say how long a text must be.

    ``min_marks`` is what the CLI compares a text with: the chosen feature's ``n_min``; when
    no grid length reaches the target, the largest grid length (a lower bound,
    ``estimated`` false); None when nothing can be estimated (no test book, or no feature
    better than chance). ``curve`` is the chosen feature's accuracy per grid length,
    ``curves`` those of every candidate; ``note`` says how the value was obtained.

    With ``groups`` (documents are excerpts of texts; :func:`attribution_split`) the record adds
    ``n_texts``; the test documents are then excerpts, so the full length is an excerpt's and
    ``min_marks`` is at most the first grid length from the excerpt length on.

    With ``folds`` (cross-fitted, :func:`held_out_rounds`) the record adds ``folds`` (their
    number) and the baseline is pooled over the rounds: ``sum_r n_r b_r / sum_r n_r`` (``b_r``
    the baseline of round ``r``'s ``n_r`` test books).
    """
    y = np.asarray(labels, dtype=object)
    grid = sorted({int(n) for n in grid})
    features = list(dict.fromkeys(features))
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
    rounds = held_out_rounds(y, test_fraction, seed, groups, folds)
    sizes = np.array([r.test.size for r in rounds], dtype=np.float64)
    baseline = float(np.dot(sizes, [baseline_accuracy(y[r.train], y[r.test]) for r in rounds]) / sizes.sum())
    curves = {
        f: {
            "full_accuracy": _json_number(r.full_accuracy),
            "n_test": int(sizes.sum()),
            "n_right": r.full_right,
            "target_accuracy": _json_number(r.target_accuracy),
            "n_min": r.n_min,
            "curve": curve_records(r.curve),
        }
        for f, r in results.items()
    }
    better = [f for f in features if results[f].full_accuracy > baseline + 1e-12]
    if not better:
        accuracies = ", ".join(f"{f} {results[f].full_accuracy:.3f}" for f in features)
        note = (
            f"not estimated: at full length no KL feature attributes better than the "
            f"random baseline {baseline:.3f} ({accuracies})"
        )
        return {**record, **_not_estimated(note, baseline_accuracy=_json_number(baseline), curves=curves)}
    result = results[max(better, key=lambda f: (results[f].full_accuracy, -features.index(f)))]
    return {
        **record,
        **_chosen_threshold(result, grid, baseline),
        "n_min": result.n_min,
        "feature": result.feature,
        "full_accuracy": _json_number(result.full_accuracy),
        "target_accuracy": _json_number(result.target_accuracy),
        "baseline_accuracy": _json_number(baseline),
        "curve": curve_records(result.curve),
        "curves": curves,
    }


__all__ = [
    "HeldOutRound",
    "MarksThreshold",
    "attribution_split",
    "fold_rounds",
    "held_out_rounds",
    "curve_records",
    "minimum_marks_for_attribution",
    "mlp_length_curve",
    "single_feature_function",
    "threshold_record",
    "truncate_sequence",
]
