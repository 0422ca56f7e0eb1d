"""The punctuation features of a document: the paper's six, f1..f6 (section 2.2), and f7.

Notation: ``theta_1..theta_n`` the mark codes of a document, ``w_0..w_{n-1}`` the word gaps
(``w_0`` words before the first mark, ``w_l`` words between marks ``l`` and ``l+1``, 0-based
as in :mod:`punctstyle.text.extract`), ``K = 10`` marks. The issue text fixes the paper's small
inconsistencies; this module implements it:

* f1 (K):      ``f1_i = #{l : theta_l = i} / n``
* f2 (K*K):    ``P_ij = #{l : theta_l = i, theta_{l+1} = j} / #{l < n : theta_l = i}``;
  a row whose mark has no successor is 0; flattened row-major
* f3 (K*K):    ``f3_ij = f1_i * P_ij`` (the paper's ``P~ = P f1``)
* f4 (200):    sentence lengths ``s = sum of the gaps up to and including the gap before a
  sentence end . ? ! ...``; ``f4_s = #{sentences of length s} / #sentences``, lengths
  >= 199 in the last bin; an unfinished sentence after the last end mark is not counted
* f5 (40):     ``f5_g = #{l : w_l = g} / n``, gaps >= 39 in the last bin
* f6 (K*K):    ``W_ij = mean of w_{l+1} over l with theta_l = i, theta_{l+1} = j`` (the words
  between the two marks), 0 where the pair never occurs
* f7 (K*K*K):  not in the paper (its "higher-order categorical Markov chains"): the
  second-order analogue of f3, ``f7_ijk = f3_ij * Q_ijk`` with
  ``Q_ijk = #{l : (theta_l, theta_{l+1}, theta_{l+2}) = (i, j, k)} / #{l < n-1 : (theta_l,
  theta_{l+1}) = (i, j)}``, 0 where the pair has no successor; flattened row-major (i, j, k);
  like f3 it sums to 1 only when nothing is lost at the end (see :func:`joint_triple_frequencies`)

Every feature is defined (never NaN) for empty texts, texts without marks and texts with one
mark: the vectors are then zero where nothing was observed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from punctstyle.marks import (
    N_GAP_BINS,
    N_MARKS,
    N_SENTENCE_LENGTH_BINS,
    SENTENCE_END_CODES,
)

_SENTENCE_END_MASK = np.zeros(N_MARKS, dtype=bool)
_SENTENCE_END_MASK[list(SENTENCE_END_CODES)] = True


def _as_arrays(marks: np.ndarray, gaps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    marks = np.asarray(marks, dtype=np.int64)
    gaps = np.asarray(gaps, dtype=np.int64)
    if marks.shape != gaps.shape or marks.ndim != 1:
        raise ValueError(f"marks and gaps must be 1-d of equal length, got {marks.shape} and {gaps.shape}")
    if marks.size and (marks.min() < 0 or marks.max() >= N_MARKS):
        raise ValueError(f"mark codes must lie in 0..{N_MARKS - 1}")
    if gaps.size and gaps.min() < 0:
        raise ValueError("gaps must be non-negative")
    return marks, gaps


def _safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.broadcast_to(np.asarray(denominator, dtype=np.float64), numerator.shape)
    out = np.zeros_like(numerator)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def mark_counts(marks: np.ndarray) -> np.ndarray:
    """``#{l : theta_l = i}`` for each mark i (length K)."""
    return np.bincount(np.asarray(marks, dtype=np.int64), minlength=N_MARKS).astype(np.float64)


def transition_counts(marks: np.ndarray) -> np.ndarray:
    """``T_ij = #{l : theta_l = i, theta_{l+1} = j}`` (K x K)."""
    marks = np.asarray(marks, dtype=np.int64)
    pairs = marks[:-1] * N_MARKS + marks[1:]
    return np.bincount(pairs, minlength=N_MARKS * N_MARKS).reshape(N_MARKS, N_MARKS).astype(np.float64)


def triple_counts(marks: np.ndarray) -> np.ndarray:
    """``T_ijk = #{l : (theta_l, theta_{l+1}, theta_{l+2}) = (i, j, k)}`` (K x K x K)."""
    marks = np.asarray(marks, dtype=np.int64)
    triples = (marks[:-2] * N_MARKS + marks[1:-1]) * N_MARKS + marks[2:]
    counts = np.bincount(triples, minlength=N_MARKS**3)
    return counts.reshape(N_MARKS, N_MARKS, N_MARKS).astype(np.float64)


def mark_frequencies(marks: np.ndarray) -> np.ndarray:
    """f1: ``f1_i = #{l : theta_l = i} / n`` (zeros when n = 0)."""
    marks = np.asarray(marks, dtype=np.int64)
    return _safe_divide(mark_counts(marks), marks.size)


def transition_matrix(marks: np.ndarray) -> np.ndarray:
    """P (f2 before flattening): ``P_ij = T_ij / sum_j T_ij``, rows without successor 0."""
    counts = transition_counts(marks)
    return _safe_divide(counts, counts.sum(axis=1, keepdims=True))


def joint_transition_matrix(marks: np.ndarray) -> np.ndarray:
    """P~ (f3 before flattening): ``P~_ij = f1_i * P_ij``."""
    return mark_frequencies(marks)[:, None] * transition_matrix(marks)


def second_order_transition_matrix(marks: np.ndarray) -> np.ndarray:
    """Q (K x K x K): ``Q_ijk = T_ijk / sum_k T_ijk``, the probability that the pair (i, j)
    is followed by k; 0 where the pair never has a successor (e.g. only as the last pair)."""
    counts = triple_counts(marks)
    return _safe_divide(counts, counts.sum(axis=2, keepdims=True))


def joint_triple_frequencies(marks: np.ndarray) -> np.ndarray:
    """f7 before flattening (K x K x K): ``f7_ijk = f3_ij * Q_ijk = f1_i * P_ij * Q_ijk``.

    The second-order analogue of f3 (:func:`joint_transition_matrix`). Summing over k gives
    back ``f3_ij`` for every pair that has a successor, so ``sum f7 = sum f3`` minus
    ``f3_ij`` of the document's last pair (i, j) when that pair occurs nowhere earlier; like f3
    (which loses ``f1_i`` when the last mark's type occurs only last), f7 therefore does not
    sum to 1 in general, only when every pair that occurs has a successor. KL divergence on
    f7 uses the same common-support rule as on f3 (:mod:`punctstyle.divergence` restricts both
    vectors to their common support and renormalises, so the missing mass does not matter).
    """
    return joint_transition_matrix(marks)[:, :, None] * second_order_transition_matrix(marks)


def sentence_lengths(marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """Lengths in words of the completed sentences, in order.

    A sentence ends at each mark in ``. ? ! ...``; its length is the sum of the gaps since the
    previous sentence end, up to and including the gap before the end mark.
    """
    marks, gaps = _as_arrays(marks, gaps)
    ends = np.flatnonzero(_SENTENCE_END_MASK[marks])
    if ends.size == 0:
        return np.zeros(0, dtype=np.int64)
    words_through = np.cumsum(gaps)[ends]
    return np.diff(words_through, prepend=0)


def sentence_length_distribution(marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """f4: ``f4_s = #{sentences of length s} / #sentences``, lengths >= 199 in the last bin."""
    lengths = np.minimum(sentence_lengths(marks, gaps), N_SENTENCE_LENGTH_BINS - 1)
    hist = np.bincount(lengths, minlength=N_SENTENCE_LENGTH_BINS).astype(np.float64)
    return _safe_divide(hist, lengths.size)


def gap_distribution(gaps: np.ndarray) -> np.ndarray:
    """f5: ``f5_g = #{l : w_l = g} / n``, gaps >= 39 in the last bin."""
    gaps = np.asarray(gaps, dtype=np.int64)
    hist = np.bincount(np.minimum(gaps, N_GAP_BINS - 1), minlength=N_GAP_BINS).astype(np.float64)
    return _safe_divide(hist, gaps.size)


def mean_gap_matrix(marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """W (f6 before flattening): ``W_ij`` = mean of ``w_{l+1}`` over pairs ``theta_l = i,
    theta_{l+1} = j`` (the words between the two marks), 0 where the pair never occurs."""
    marks, gaps = _as_arrays(marks, gaps)
    pairs = marks[:-1] * N_MARKS + marks[1:]
    totals = np.bincount(pairs, weights=gaps[1:].astype(np.float64), minlength=N_MARKS * N_MARKS)
    counts = np.bincount(pairs, minlength=N_MARKS * N_MARKS)
    return _safe_divide(totals, counts).reshape(N_MARKS, N_MARKS)


FeatureFunction = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""``(marks, gaps) -> flat float64 vector`` of one feature."""

FEATURE_FUNCTIONS: dict[str, FeatureFunction] = {
    "f1": lambda marks, gaps: mark_frequencies(marks),
    "f2": lambda marks, gaps: transition_matrix(marks).ravel(),
    "f3": lambda marks, gaps: joint_transition_matrix(marks).ravel(),
    "f4": sentence_length_distribution,
    "f5": lambda marks, gaps: gap_distribution(gaps),
    "f6": lambda marks, gaps: mean_gap_matrix(marks, gaps).ravel(),
    "f7": lambda marks, gaps: joint_triple_frequencies(marks).ravel(),
}
"""Every feature's function, in the order of :data:`punctstyle.marks.FEATURES` (the one place
that says how a feature is computed; a unit test checks the two agree)."""


def compute_feature(feature: str, marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """One feature (a name in :data:`punctstyle.marks.FEATURES`) of a document, flattened, float64."""
    if feature not in FEATURE_FUNCTIONS:
        raise ValueError(f"unknown feature {feature!r}: expected one of {', '.join(FEATURE_FUNCTIONS)}")
    marks, gaps = _as_arrays(marks, gaps)
    return np.asarray(FEATURE_FUNCTIONS[feature](marks, gaps), dtype=np.float64)


def compute_features(marks: np.ndarray, gaps: np.ndarray) -> dict[str, np.ndarray]:
    """All features of one document, keyed by :data:`punctstyle.marks.FEATURES` (flattened, float64)."""
    marks, gaps = _as_arrays(marks, gaps)
    return {name: np.asarray(function(marks, gaps), dtype=np.float64) for name, function in FEATURE_FUNCTIONS.items()}
