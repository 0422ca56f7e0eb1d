"""The measurements of the PAN authorship verification tasks (2020-2023), as the PAN evaluator
(``pan20_verif_evaluator.py``, reused unchanged through 2023) computes them.

Each case has a truth ``y`` (1: same author, 0: different authors) and a submitted score ``s``
in [0, 1]; a score of exactly 0.5 is a non-answer (the system leaves the case undecided).

* **AUC**: the area under the ROC curve of the scores (undecided cases included, at 0.5),
  ``P(s_pos > s_neg) + P(s_pos = s_neg) / 2`` over every (same-author, different-author) pair
  (the Mann-Whitney statistic, what scikit-learn's ``roc_auc_score`` returns); 0 when the cases
  hold one class only (the evaluator catches scikit-learn's error and scores 0).
* **c@1** (Peñas and Rodrigo 2011): with ``n`` cases, ``n_c`` answered right (``s > 0.5`` and
  ``y = 1``, or ``s < 0.5`` and ``y = 0``) and ``n_u`` undecided (``s = 0.5``),
  ``c@1 = (n_c + n_u * n_c / n) / n``: a non-answer counts as right in the proportion of right
  answers.
* **F1**: the F1 score of the class ``y = 1`` over the *answered* cases only (``s != 0.5``),
  ``s > 0.5`` counted as positive, ``2 TP / (2 TP + FP + FN)`` (0 when ``TP = 0``, as
  scikit-learn returns with its zero-division warning).
* **F0.5u** (Bevendorff et al. 2019): the F0.5 score with undecided cases counted as false
  negatives, ``1.25 TP / (1.25 TP + 0.25 (FN + n_u) + FP)`` (0 when the denominator is 0).
* **Brier**: the complement of the Brier loss, ``1 - (1/n) sum (s - y)^2`` (higher is better,
  as every other measure here).
* **overall**: the mean of the five.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.stats import rankdata

UNDECIDED: float = 0.5
"""The score of a non-answer."""

MEASURES: tuple[str, ...] = ("auc", "c_at_1", "f_05_u", "f1", "brier")
"""The PAN measures, in the evaluator's order; :func:`pan_measures` adds ``overall``."""


def _cases(truth: Sequence[Any], scores: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(truth, dtype=np.float64).ravel()
    s = np.asarray(scores, dtype=np.float64).ravel()
    if y.shape != s.shape:
        raise ValueError(f"truth and scores differ in length: {y.size} != {s.size}")
    if y.size == 0:
        raise ValueError("no case to measure")
    if not np.all((y == 0) | (y == 1)):
        raise ValueError("the truth must be 0 (different authors) or 1 (same author)")
    if not np.all(np.isfinite(s)) or np.any((s < 0) | (s > 1)):
        raise ValueError("scores must lie in [0, 1]")
    return y.astype(bool), s


def auc(truth: Sequence[Any], scores: Sequence[Any]) -> float:
    """Area under the ROC curve: ``(R_pos - n_pos (n_pos + 1) / 2) / (n_pos n_neg)`` with
    ``R_pos`` the sum of the same-author cases' ranks among all scores (ties: mean ranks);
    0 with one class only (the evaluator's fallback)."""
    y, s = _cases(truth, scores)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        return 0.0
    ranks = rankdata(s)
    return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def c_at_1(truth: Sequence[Any], scores: Sequence[Any]) -> float:
    """``(n_c + n_u n_c / n) / n`` (module docstring)."""
    y, s = _cases(truth, scores)
    undecided = s == UNDECIDED
    n_u = int(undecided.sum())
    n_c = int(((s > UNDECIDED) == y)[~undecided].sum())
    n = y.size
    return float((n_c + n_u * n_c / n) / n)


def f1(truth: Sequence[Any], scores: Sequence[Any]) -> float:
    """``2 TP / (2 TP + FP + FN)`` over the answered cases, ``s > 0.5`` positive; 0 when TP = 0."""
    y, s = _cases(truth, scores)
    answered = s != UNDECIDED
    predicted, actual = s[answered] > UNDECIDED, y[answered]
    tp = int((predicted & actual).sum())
    fp = int((predicted & ~actual).sum())
    fn = int((~predicted & actual).sum())
    return 0.0 if tp == 0 else float(2 * tp / (2 * tp + fp + fn))


def f_05_u(truth: Sequence[Any], scores: Sequence[Any]) -> float:
    """``1.25 TP / (1.25 TP + 0.25 (FN + n_u) + FP)``: undecided cases count as false negatives."""
    y, s = _cases(truth, scores)
    undecided = s == UNDECIDED
    positive, negative = (s > UNDECIDED), (s < UNDECIDED)
    tp = int((positive & y).sum())
    fp = int((positive & ~y).sum())
    fn = int((negative & y).sum())
    n_u = int(undecided.sum())
    denominator = 1.25 * tp + 0.25 * (fn + n_u) + fp
    return 0.0 if denominator == 0 else float(1.25 * tp / denominator)


def brier(truth: Sequence[Any], scores: Sequence[Any]) -> float:
    """``1 - (1/n) sum (s - y)^2``."""
    y, s = _cases(truth, scores)
    return float(1.0 - np.mean((s - y.astype(np.float64)) ** 2))


def pan_measures(truth: Sequence[Any], scores: Sequence[Any]) -> dict[str, float]:
    """The five measures of :data:`MEASURES` and their mean, ``overall``."""
    values = {
        "auc": auc(truth, scores),
        "c_at_1": c_at_1(truth, scores),
        "f_05_u": f_05_u(truth, scores),
        "f1": f1(truth, scores),
        "brier": brier(truth, scores),
    }
    values["overall"] = float(np.mean([values[m] for m in MEASURES]))
    return values
