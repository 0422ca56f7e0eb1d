"""Calibration of the attribution MLP's probabilities on held-out books (issue 22 item 18,
issue 35 item 3).

The temperature is fitted on predictions of the network it is applied to, cross-fitted as
scikit-learn's ``CalibratedClassifierCV(ensemble=False)`` does: the texts are dealt into ``K``
folds (:func:`text_folds`; a text's excerpts share its fold); for each fold a network of the
deployed recipe (same classifier, options, features and seed) is trained on the other folds and
predicts the fold's texts, whole and cut to each length of the mark grid; those out-of-fold
predictions fit one temperature ``T`` (temperature scaling, Guo et al. 2017), which is applied
to the deployed network (the same recipe trained on every text):

    p'_a = softmax(log p_a / T),  T = argmin_T  - sum_i log p'_{i, y_i}

(the mean negative log-likelihood of the true authors), ``T`` in :data:`TEMPERATURE_BOUNDS`.
``T > 1`` softens over-confident probabilities; the ranking is unchanged (a monotone map of each text's probabilities). The
reliability of the probabilities before and after is the table of :func:`reliability`: per
confidence bin ``[k/B, (k+1)/B)`` of the top probability, the predictions in it, their mean
confidence and their accuracy; the expected calibration error is
``ECE = sum_k n_k / n |accuracy_k - confidence_k|``. The table after calibration is out of
sample (:func:`cross_fitted_record`): fold ``k``'s predictions are scaled by ``T_{-k}``, the
temperature fitted on the other folds' predictions only, so no prediction is judged by a
temperature it helped to fit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from punctstyle.attribution.length import truncate_sequence

TEMPERATURE_BOUNDS: tuple[float, float] = (1.0, 100.0)
"""The temperatures searched (bounded search on ``log T``). Calibration only softens
(``T >= 1``): held-out sets are small, and when every held-out prediction is right the fitted
``T`` would run to 0 (probabilities of 1), the over-confidence it is meant to correct."""
RELIABILITY_BINS: int = 10


def scaled_probabilities(proba: np.ndarray, temperature: float) -> np.ndarray:
    """``softmax(log p / T)`` row by row (``p = 0`` stays 0)."""
    proba = np.asarray(proba, dtype=np.float64)
    with np.errstate(divide="ignore"):
        logits = np.log(proba) / float(temperature)
    logits -= np.max(logits, axis=1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=1, keepdims=True)


def mean_nll(proba: np.ndarray, truth: np.ndarray) -> float:
    """``-mean_i log p_{i, y_i}`` (``truth``: column index of each row's true class)."""
    picked = np.asarray(proba, dtype=np.float64)[np.arange(len(truth)), truth]
    return float(-np.mean(np.log(np.clip(picked, 1e-300, None))))


def fit_temperature(proba: np.ndarray, truth: np.ndarray) -> float:
    """The ``T`` of :data:`TEMPERATURE_BOUNDS` minimising :func:`mean_nll` of the scaled
    probabilities (bounded scalar search on ``log T``)."""
    from scipy.optimize import minimize_scalar

    low, high = np.log(TEMPERATURE_BOUNDS)
    result = minimize_scalar(lambda log_t: mean_nll(scaled_probabilities(proba, np.exp(log_t)), truth),
                             bounds=(low, high), method="bounded", options={"xatol": 1e-4})
    # The bounded search stops within xatol of the bound, not on it: when no temperature
    # improves on the raw probabilities (T = 1, the lower bound), keep them as they are.
    if mean_nll(scaled_probabilities(proba, np.exp(result.x)), truth) >= mean_nll(proba, truth):
        return 1.0
    return float(np.exp(result.x))


def reliability(proba: np.ndarray, truth: np.ndarray, bins: int = RELIABILITY_BINS) -> dict[str, Any]:
    """``{"ece", "bins": [{"low", "high", "n", "confidence", "accuracy"}]}`` of the top
    probability (empty bins left out; module docstring)."""
    proba = np.asarray(proba, dtype=np.float64)
    confidence = proba.max(axis=1)
    correct = proba.argmax(axis=1) == np.asarray(truth)
    which = np.minimum((confidence * bins).astype(np.int64), bins - 1)
    rows, ece = [], 0.0
    for k in range(bins):
        members = which == k
        n = int(members.sum())
        if n == 0:
            continue
        mean_confidence = float(confidence[members].mean())
        accuracy = float(correct[members].mean())
        ece += n / len(confidence) * abs(accuracy - mean_confidence)
        rows.append({"low": k / bins, "high": (k + 1) / bins, "n": n, "confidence": mean_confidence,
                     "accuracy": accuracy})
    return {"ece": float(ece), "bins": rows}


def cross_fitted_record(proba: np.ndarray, truth: np.ndarray, folds: np.ndarray) -> dict[str, Any]:
    """The ``calibration`` block of ``threshold.json`` from out-of-fold predictions (``folds``:
    the fold of each prediction's text): ``temperature`` ``T`` fitted on all of them (the one
    applied to the deployed network), ``fold_temperatures`` ``T_{-k}`` fitted without fold ``k``,
    ``nll_before``/``before`` of the raw predictions and ``nll_after``/``after`` out of sample:
    fold ``k`` scaled by ``T_{-k}`` (a fold alone, with no other fold, is scaled by ``T``)."""
    proba = np.asarray(proba, dtype=np.float64)
    truth = np.asarray(truth, dtype=np.int64)
    folds = np.asarray(folds)
    temperature = fit_temperature(proba, truth)
    after = np.empty_like(proba)
    fold_temperatures = {}
    for k in np.unique(folds).tolist():
        inside = folds == k
        t_k = fit_temperature(proba[~inside], truth[~inside]) if (~inside).any() else temperature
        fold_temperatures[str(k)] = t_k
        after[inside] = scaled_probabilities(proba[inside], t_k)
    return {
        "method": "temperature scaling on cross-fitted predictions of the deployed recipe; "
                  "after: each fold scaled by the temperature of the other folds",
        "temperature": temperature,
        "n_predictions": int(len(truth)),
        "folds": len(fold_temperatures),
        "fold_temperatures": fold_temperatures,
        "nll_before": mean_nll(proba, truth),
        "nll_after": mean_nll(after, truth),
        "before": reliability(proba, truth),
        "after": reliability(after, truth),
    }


def text_folds(labels: Sequence[Any], groups: Sequence[Any] | None, n_folds: int,
               rng: np.random.Generator) -> np.ndarray:
    """The fold (``0 .. n_folds - 1``) of each document, stratified by class, whole texts kept
    together: a class's ``g`` texts (``groups``; each document its own text without) in a random
    order get folds ``(o + j) mod n_folds``, ``j = 0 .. g - 1``, with a random offset ``o`` per
    class, so every fold holds ``floor(g / n_folds)`` or one more of them; each document follows
    its text."""
    if n_folds < 2:
        raise ValueError(f"cross-fitting needs at least 2 folds, got {n_folds}")
    y = np.asarray(labels, dtype=object)
    g = np.arange(y.size) if groups is None else np.asarray(groups, dtype=object)
    _, first, inverse = np.unique(g.astype(str), return_index=True, return_inverse=True)
    text_labels = y[first].astype(str)
    fold_of_text = np.empty(first.size, dtype=np.int64)
    for label in np.unique(text_labels).tolist():
        texts = rng.permutation(np.flatnonzero(text_labels == label))
        fold_of_text[texts] = (int(rng.integers(n_folds)) + np.arange(texts.size)) % n_folds
    return fold_of_text[np.asarray(inverse).ravel()]


def aligned_probabilities(proba: np.ndarray, model_classes: Sequence[Any], classes: Sequence[Any]) -> np.ndarray:
    """``proba`` (columns in ``model_classes`` order) as columns of ``classes`` (a superset):
    a class the model never saw gets probability 0."""
    index = {c: k for k, c in enumerate(classes)}
    out = np.zeros((len(proba), len(index)), dtype=np.float64)
    out[:, [index[c] for c in model_classes]] = proba
    return out


def length_inputs(sequences: Sequence[Any], rows: Sequence[int], full_features: np.ndarray,
                  features_of: Callable[[np.ndarray, np.ndarray], np.ndarray], grid: Sequence[int]) -> np.ndarray:
    """The model inputs of ``rows`` whole (``full_features[rows]``), then cut to each grid length
    (ascending, :func:`punctstyle.attribution.length.truncate_sequence`, ``features_of(marks,
    gaps)``), stacked: ``(1 + |grid|) len(rows)`` rows, one block per length."""
    inputs = [np.asarray(full_features)[list(rows)]]
    for n in sorted({int(n) for n in grid}):
        inputs.append(np.stack([features_of(*truncate_sequence(*sequences[i], n)) for i in rows]))
    return np.concatenate(inputs)


def held_out_predictions(model: Any, sequences: Sequence[Any], labels: Sequence[Any], test_rows: np.ndarray,
                         full_features: np.ndarray, features_of: Callable[[np.ndarray, np.ndarray], np.ndarray],
                         grid: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``(proba, truth)`` of ``model`` (``predict_proba``, ``classes``) on the held-out rows,
    whole and cut to each grid length (:func:`punctstyle.attribution.length.truncate_sequence`);
    rows whose author the model does not know are left out."""

    y = np.asarray(labels, dtype=object)
    index = {c: k for k, c in enumerate(model.classes)}
    known = [i for i in np.asarray(test_rows).tolist() if y[i] in index]
    if not known:
        return np.zeros((0, len(index))), np.zeros(0, np.int64)
    proba = model.predict_proba(length_inputs(sequences, known, full_features, features_of, grid))
    truth = np.tile(np.array([index[y[i]] for i in known], dtype=np.int64), 1 + len({int(n) for n in grid}))
    return proba, truth


__all__ = [
    "aligned_probabilities",
    "cross_fitted_record",
    "fit_temperature",
    "held_out_predictions",
    "length_inputs",
    "mean_nll",
    "reliability",
    "scaled_probabilities",
    "text_folds",
]
