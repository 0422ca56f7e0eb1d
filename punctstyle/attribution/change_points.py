"""Change points of rolling attribution (:mod:`punctstyle.attribution.rolling`): penalised
least squares on the per-slice score vectors, found exactly by optimal partitioning, the
segments' authors, merged and refined changes, and the evaluation against known changes
(the formulas: :mod:`punctstyle.attribution.rolling`'s docstring, "Change points")."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

NOISE_MAD_SCALE = 0.6745  # median |N(0, 1)|


def slice_centres(starts: np.ndarray, window: int) -> np.ndarray:
    """``c_i = s_i + N / 2`` (marks)."""
    return np.asarray(starts, dtype=np.float64) + window / 2.0


# --------------------------------------------------------------------------- change points


def _split_gains(cumulative: np.ndarray, a: int, b: int, min_size: int) -> tuple[int, float]:
    """The best split ``t`` of rows ``[a, b)`` and its gain ``G(t)`` (module docstring); (-1, 0)
    when the segment is too short to split."""
    t = np.arange(a + min_size, b - min_size + 1)
    if t.size == 0:
        return -1, 0.0
    total = cumulative[b] - cumulative[a]
    left = cumulative[t] - cumulative[a]
    right = total - left
    n_left = (t - a).astype(np.float64)
    n_right = (b - t).astype(np.float64)
    gains = (left**2).sum(axis=1) / n_left + (right**2).sum(axis=1) / n_right - (total**2).sum() / (b - a)
    best = int(np.argmax(gains))
    return int(t[best]), float(gains[best])


def noise_variance(Y: np.ndarray, lag: int) -> np.ndarray:
    """``sigma_j^2`` per column: ``(median_i |y_{i+L,j} - y_{i,j}| / (0.6745 sqrt 2))^2``
    (lag ``L`` clipped to the rows; zeros with fewer than two rows)."""
    Y = np.asarray(Y, dtype=np.float64)
    lag = max(1, min(int(lag), Y.shape[0] - 1))
    if Y.shape[0] < 2:
        return np.zeros(Y.shape[1])
    sigma = np.median(np.abs(Y[lag:] - Y[:-lag]), axis=0) / (NOISE_MAD_SCALE * math.sqrt(2.0))
    return sigma**2


def segmentation_penalty(Y: np.ndarray, lag: int) -> float:
    """``beta = L sigma^2 (d + 2 sqrt(d x) + 2 x)`` with ``x = log n`` and ``sigma^2`` the mean
    of the columns' :func:`noise_variance` (module docstring); a tiny positive floor keeps
    noise-free constant input from being split."""
    n, d = max(2, Y.shape[0]), max(1, Y.shape[1])
    x = math.log(n)
    sigma2 = float(noise_variance(Y, lag).mean()) if Y.size else 0.0
    return max(max(1, lag) * sigma2 * (d + 2.0 * math.sqrt(d * x) + 2.0 * x), 1e-12)


def optimal_partition(Y: np.ndarray, penalty: float, min_size: int = 1) -> list[int]:
    """Change indices ``t`` (sorted; a segment starts at row ``t``) minimising the penalised
    least-squares cost ``sum_segments C(a, b) + penalty * n_changes`` exactly, by optimal
    partitioning (Jackson et al. 2005): ``F(t) = min_s F(s) + C(s, t) + penalty`` with
    ``F(0) = -penalty`` and ``C(s, t) = sum_{i in [s, t)} |y_i|^2 - |S_[s,t)|^2 / (t - s)``,
    over ``s`` with ``t - s >= min_size``; ``O(n^2 d)``, vectorised over ``s``."""
    Y = np.asarray(Y, dtype=np.float64)
    if Y.ndim == 1:
        Y = Y[:, None]
    n = Y.shape[0]
    size = max(1, int(min_size))
    cumulative = np.vstack([np.zeros((1, Y.shape[1])), np.cumsum(Y, axis=0)])
    squares = np.concatenate([[0.0], np.cumsum((Y**2).sum(axis=1))])
    best = np.full(n + 1, np.inf)
    best[0] = -penalty
    previous = np.zeros(n + 1, dtype=np.int64)
    for t in range(size, n + 1):
        s = np.arange(0, t - size + 1)
        s = s[np.isfinite(best[s])]
        if s.size == 0:
            continue
        sums = cumulative[t] - cumulative[s]
        cost = squares[t] - squares[s] - (sums**2).sum(axis=1) / (t - s)
        total = best[s] + cost + penalty
        k = int(np.argmin(total))
        best[t], previous[t] = total[k], s[k]
    if not np.isfinite(best[n]):
        return []
    changes, t = [], n
    while t > 0:
        t = int(previous[t])
        if t > 0:
            changes.append(t)
    return sorted(changes)


def change_positions(starts: np.ndarray, window: int, change_slices: Sequence[int]) -> np.ndarray:
    """``(c_{t-1} + c_t) / 2`` marks for each change slice ``t``."""
    centres = slice_centres(starts, window)
    t = np.asarray(change_slices, dtype=np.int64)
    return (centres[t - 1] + centres[t]) / 2.0 if t.size else np.zeros(0)


def segment_authors(evidence: np.ndarray, changes: Sequence[int]) -> np.ndarray:
    """Column of the best mean evidence of each segment between ``changes``."""
    bounds = [0, *changes, evidence.shape[0]]
    return np.array([int(np.argmax(evidence[a:b].mean(axis=0))) for a, b in zip(bounds[:-1], bounds[1:])])


def merged_changes(evidence: np.ndarray, changes: Sequence[int]) -> list[int]:
    """The changes between segments of different authors: neighbouring segments with the same
    best author (a split inside one hand, e.g. of the mixed slices at a change) are merged,
    until no two neighbours share their author."""
    changes = list(changes)
    while changes:
        authors = segment_authors(evidence, changes)
        same = np.flatnonzero(authors[1:] == authors[:-1])
        if same.size == 0:
            break
        changes.pop(int(same[0]))
    return changes


def refined_changes(Y: np.ndarray, changes: Sequence[int], min_size: int) -> list[int]:
    """Each change moved to the best least-squares split of the rows between its neighbours
    (one pass, left to right), so that a change found beside mixed slices that were merged
    away sits at the middle of them again."""
    changes = list(changes)
    cumulative = np.vstack([np.zeros((1, Y.shape[1])), np.cumsum(Y, axis=0)])
    for k in range(len(changes)):
        a = changes[k - 1] if k > 0 else 0
        b = changes[k + 1] if k + 1 < len(changes) else Y.shape[0]
        t, _ = _split_gains(cumulative, a, b, max(1, min(min_size, (b - a) // 2)))
        if t > 0:
            changes[k] = t
    return changes


def segmentation_columns(evidence: np.ndarray) -> np.ndarray:
    """The columns segmented: the authors that win at least one slice (all when none)."""
    winners = np.unique(np.argmax(evidence, axis=1))
    return winners if winners.size else np.arange(evidence.shape[1])


# --------------------------------------------------------------------------- evaluation


def truth_at(positions: np.ndarray, boundaries: Sequence[float], authors: Sequence[Any]) -> np.ndarray:
    """The true author at each position (marks): part ``k`` spans ``[b_k, b_{k+1})`` with
    ``boundaries = (b_1, ..., b_{K-1})`` the true changes."""
    index = np.searchsorted(np.asarray(boundaries, dtype=np.float64), np.asarray(positions, np.float64), side="right")
    return np.asarray(authors, dtype=object)[index]


def change_point_errors(found: Sequence[float], true: Sequence[float]) -> np.ndarray:
    """``min_k |found_k - true_j|`` for each true change ``j`` (inf when nothing was found)."""
    true = np.asarray(true, dtype=np.float64)
    found = np.asarray(found, dtype=np.float64)
    if found.size == 0:
        return np.full(true.shape, np.inf)
    return np.abs(true[:, None] - found[None, :]).min(axis=1)


def matched_changes(found: Sequence[float], true: Sequence[float], margin: float) -> int:
    """``TP``: the most true changes that can each be paired with a distinct found change at
    most ``margin`` away (``|f_k - t_j| <= M``, one-to-one, as in the change-point literature:
    a found change counts for one true change only). Greedy over both sorted lists: each true
    change in order takes the first unused found change at least ``t_j - M``, if it is at most
    ``t_j + M``; on a line this is a maximum matching."""
    found = np.sort(np.asarray(found, dtype=np.float64))
    true = np.sort(np.asarray(true, dtype=np.float64))
    k, matched = 0, 0
    for t in true:
        k += int(np.searchsorted(found[k:], t - margin, side="left"))
        if k < found.size and found[k] <= t + margin:
            matched += 1
            k += 1
    return matched


def hausdorff_distance(found: Sequence[float], true: Sequence[float]) -> float:
    """``max(max_j min_k |t_j - f_k|, max_k min_j |f_k - t_j|)``: the farthest true change from
    a found one or found change from a true one (0 when both are empty, inf when one is)."""
    found = np.asarray(found, dtype=np.float64)
    true = np.asarray(true, dtype=np.float64)
    if found.size == 0 and true.size == 0:
        return 0.0
    if found.size == 0 or true.size == 0:
        return math.inf
    distances = np.abs(true[:, None] - found[None, :])
    return float(max(distances.min(axis=1).max(), distances.min(axis=0).max()))


def change_point_scores(found: Sequence[float], true: Sequence[float], margin: float) -> dict[str, float]:
    """Precision, recall and F1 of the found changes against the true ones within ``margin``
    (:func:`matched_changes`: ``TP``), false alarms counted, and the Hausdorff distance:

    * ``precision = TP / n_found`` (1 when nothing was found),
    * ``recall = TP / n_true`` (1 when there is no true change),
    * ``f1 = 2 P R / (P + R)`` (0 when ``P + R = 0``),
    * ``false_alarms = n_found - TP``, ``missed = n_true - TP``,
    * ``hausdorff``: :func:`hausdorff_distance`.
    """
    n_found, n_true = len(found), len(true)
    tp = matched_changes(found, true, margin)
    precision = tp / n_found if n_found else 1.0
    recall = tp / n_true if n_true else 1.0
    f1 = 2.0 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "true_positives": float(tp),
            "false_alarms": float(n_found - tp), "missed": float(n_true - tp),
            "hausdorff": hausdorff_distance(found, true)}
