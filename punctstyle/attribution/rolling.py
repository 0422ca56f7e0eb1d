"""Where does the hand change? Rolling attribution of one text (Eder 2016; stylo's
``rolling.classify()`` / ``rolling.delta()``).

The text's sequence of ``n`` marks is cut into slices of ``N`` consecutive marks (the window)
starting every ``S`` marks (the step): slice ``i`` holds marks ``[s_i, s_i + N)`` with
``s_i = i S`` for ``i = 0 .. floor((n - N) / S)`` (the marks after the last full slice are
not scored, as in stylo). Each slice is scored against the reference authors:

* probabilities ``P(a | slice)`` (the attribution bundle's MLP, calibrated by its temperature);
* or distances ``d(a, slice)``: the KL divergence ``d_KL(signature_a, f^slice)`` of section
  2.4, or Burrows' Delta to the author's centroid (words).

A slice is attributed to ``argmax_a P`` or ``argmin_a d``. Its position along the text is
its centre ``c_i = s_i + N / 2``.

**Change points** (:func:`optimal_partition`): the per-slice score vectors ``y_i`` (the
probabilities; distances negated and centred per slice) of the authors that win at least one
slice are cut into segments by penalised least squares: the changes minimise
``sum_segments sum_{i in seg} |y_i - mean_seg|^2 + beta * (number of changes)``, found exactly
by optimal partitioning (dynamic programming), every segment at least ``L = ceil(N / S)``
slices long (the lag at which slices stop sharing marks). The penalty is the
Laurent-Massart chi-square tail bound at ``x = log(n_slices)`` (a union bound over the
candidate splits), ``beta = L sigma^2 (d + 2 sqrt(d x) + 2 x)``: ``d`` the columns,
``sigma^2`` the mean of the columns' noise variances estimated robustly from slices that do
not overlap, ``sigma_j = median_i |y_{i+L,j} - y_{i,j}| / (0.6745 sqrt 2)``, and the factor
``L`` because overlapping slices are about ``L`` times fewer independent observations.
A change between slices ``t - 1`` and ``t`` is placed at ``(c_{t-1} + c_t) / 2`` marks: with
overlapping slices the least-squares split falls where the slices are half one author, half
the other, so the centre of the mixed slices is the change. Each segment's author is the one
with the best mean score over its slices; neighbouring segments with the same author are
merged (:func:`merged_changes`: a split among the mixed slices is not a change of hand) and
each remaining change is moved to the best split between its neighbours (:func:`refined_changes`).

Functions take arrays and return arrays; the bundle's scoring is :func:`bundle_slice_scores`,
the method chosen at a window length by :func:`best_method_at`; the change points are computed in
:mod:`punctstyle.attribution.change_points`. The figure is
:func:`punctstyle.report.plots.rolling.rolling_figure`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from punctstyle.attribution.change_points import (
    change_point_errors,
    change_positions,
    merged_changes,
    noise_variance,
    optimal_partition,
    refined_changes,
    segmentation_columns,
    segmentation_penalty,
    slice_centres,
    truth_at,
)
from punctstyle.divergence import pairwise_kl
from punctstyle.features import compute_feature

PROBABILITY = "probability"
DISTANCE = "distance"
SCORE_KINDS = (PROBABILITY, DISTANCE)


# --------------------------------------------------------------------------- slices


def slice_starts(n_marks: int, window: int, step: int) -> np.ndarray:
    """``s_i = i S`` for ``i = 0 .. floor((n - N) / S)``; ValueError when ``n < N`` (no slice)."""
    if window < 1 or step < 1:
        raise ValueError(f"window and step must be positive, got {window} and {step}")
    if n_marks < window:
        raise ValueError(f"{n_marks} marks, fewer than one window of {window}")
    return np.arange(0, n_marks - window + 1, step, dtype=np.int64)


def slice_features(
    marks: np.ndarray, gaps: np.ndarray, starts: np.ndarray, window: int, feature_names: Sequence[str]
) -> dict[str, np.ndarray]:
    """``{feature: (n_slices, size)}``: each feature of :mod:`punctstyle.features` computed on
    every slice's marks ``[s_i, s_i + N)`` and their gaps."""
    marks, gaps = np.asarray(marks), np.asarray(gaps)
    return {
        name: np.vstack([compute_feature(name, marks[s : s + window], gaps[s : s + window]) for s in starts])
        for name in feature_names
    }


def slice_word_spans(gaps: np.ndarray, starts: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """(first word, stop word) of each slice in the text's word stream: the words before its
    marks, ``w_i = sum_{k < s_i} g_k`` to ``sum_{k < s_i + N} g_k`` (word ``j`` of the stream is
    word ``j`` of the gap stream)."""
    cumulative = np.concatenate([[0], np.cumsum(np.asarray(gaps, dtype=np.int64))])
    starts = np.asarray(starts, dtype=np.int64)
    return cumulative[starts], cumulative[starts + window]


def slice_word_frequencies(word_index: np.ndarray, first: np.ndarray, stop: np.ndarray, k: int) -> np.ndarray:
    """``x_ij = c_ij / m_i``: the relative frequency of vocabulary word ``j`` among the ``m_i``
    words of slice ``i`` (``word_index``: each stream word's vocabulary index, -1 outside it;
    an empty slice gives zeros)."""
    word_index = np.asarray(word_index, dtype=np.int64)
    rows = []
    for a, b in zip(first, stop, strict=True):
        part = word_index[a:b]
        counts = np.bincount(part[part >= 0], minlength=k)[:k].astype(np.float64)
        rows.append(counts / max(1, b - a))
    return np.vstack(rows) if rows else np.zeros((0, k))


# --------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class SliceScores:
    """Scores of every slice against every author: ``values`` (n_slices, n_authors), a
    ``kind`` (``probability``: larger is likelier; ``distance``: smaller is closer)."""

    method: str
    kind: str
    authors: np.ndarray
    values: np.ndarray

    def __post_init__(self) -> None:
        if self.kind not in SCORE_KINDS:
            raise ValueError(f"unknown score kind {self.kind!r}")
        if self.values.ndim != 2 or self.values.shape[1] != len(self.authors):
            raise ValueError(f"scores of shape {self.values.shape} for {len(self.authors)} authors")

    def evidence(self) -> np.ndarray:
        """Larger-is-likelier scores: the probabilities, or the distances negated and centred
        per slice (``-(d_ia - mean_a d_ia)``); non-finite values become the slice's worst."""
        values = np.asarray(self.values, dtype=np.float64)
        if self.kind == DISTANCE:
            values = -values
        worst = np.nanmin(np.where(np.isfinite(values), values, np.nan), axis=1, keepdims=True)
        values = np.where(np.isfinite(values), values, np.nan_to_num(worst, nan=0.0))
        if self.kind == DISTANCE:
            values = values - values.mean(axis=1, keepdims=True)
        return values

    def slice_authors(self) -> np.ndarray:
        """The author of each slice: ``argmax`` of :meth:`evidence` (the first on a tie)."""
        return self.authors[np.argmax(self.evidence(), axis=1)]


def kl_slice_scores(signatures: np.ndarray, authors: Sequence[Any], slice_vectors: np.ndarray, feature: str) -> SliceScores:
    """``d_KL(signature_a, f^slice_i)`` (signature first, slice second, section 2.4)."""
    values = pairwise_kl(np.asarray(signatures, np.float64), np.asarray(slice_vectors, np.float64)).T
    return SliceScores(f"kl_{feature}", DISTANCE, np.asarray(authors, dtype=object), values)


def bundle_slice_scores(bundle: Any, features: Mapping[str, np.ndarray], method: str) -> SliceScores:
    """The slices scored by an attribution bundle (:class:`punctstyle.attribution.bundle.AttributionBundle`):
    ``mlp`` (the model's probabilities, calibrated by the bundle's temperature when it has one) or
    ``kl_<feature>`` (the KL divergence to the author signatures)."""
    from punctstyle.attribution.attribute import signature_matrix
    from punctstyle.attribution.calibration import scaled_probabilities
    from punctstyle.featuresets import stack_features

    if method == "mlp":
        proba = bundle.model.predict_proba(stack_features(features, bundle.model.feature_set))
        if bundle.temperature is not None:
            proba = scaled_probabilities(proba, bundle.temperature)
        return SliceScores("mlp", PROBABILITY, np.asarray(bundle.model.classes, dtype=object), proba)
    if method.startswith("kl_"):
        feature = method[3:]
        authors, S = signature_matrix(bundle.signatures, feature)
        return kl_slice_scores(S, authors, features[feature], feature)
    raise ValueError(f"unknown rolling method {method!r}: expected 'mlp' or 'kl_<feature>'")


def _accuracy_by_length(curve: Sequence[Mapping[str, Any]]) -> dict[int, float]:
    return {int(r["n_marks"]): float(r["accuracy"]) for r in curve if r.get("accuracy") is not None}


def best_method_at(threshold: Mapping[str, Any], kl_features: Sequence[str], window: int) -> tuple[str, dict[str, float]]:
    """The bundle's method that works best at ``window`` marks: the one with the highest
    held-out accuracy at the measured length nearest to ``window`` among the MLP curve
    (``mlp_curve`` of ``threshold.json``) and the KL curves (``curves[<feature>]``) of the
    bundle's KL features; returns ``(method, {method: accuracy})``. Without any curve:
    ``mlp`` (the bundle's first method)."""
    curves = {"mlp": _accuracy_by_length(threshold.get("mlp_curve") or [])}
    for feature in kl_features:
        curve = ((threshold.get("curves") or {}).get(feature) or {}).get("curve") or []
        curves[f"kl_{feature}"] = _accuracy_by_length(curve)
    accuracies: dict[str, float] = {}
    for method, by_length in curves.items():
        if by_length:
            nearest = min(by_length, key=lambda n: (abs(n - window), n))
            accuracies[method] = by_length[nearest]
    if not accuracies:
        return "mlp", {}
    return max(accuracies, key=lambda m: (accuracies[m], m == "mlp")), accuracies


def default_window(threshold: Mapping[str, Any], fallback: int = 800) -> int:
    """The window: the bundle's minimum marks for attribution (``min_marks`` of
    ``threshold.json``) when it has one, else ``fallback``."""
    value = threshold.get("min_marks")
    return int(value) if value is not None else int(fallback)


ROLLING_MIN_WINDOW = 800
"""The shortest default window of ``punctstyle rolling`` (marks), chosen by measurement
(``benchmarks/bench_rolling.py --sweep-windows``, docs/attribution.md): on synthetic
collaborations of held-out books (2 and 3 parts of 2,000 to 20,000 marks) the bundle's
``min_marks`` window (100 marks there) found the changes but reported 3 to 5 false changes per
text; 800 marks kept 97-98% of the changes within one window with 0.02-0.15 false changes (Delta
on words) and was the shortest measured window at which the punctuation method (KL f3) met the
target too."""


def rolling_window(threshold: Mapping[str, Any]) -> int:
    """The default window of ``punctstyle rolling``: ``max(min_marks, 800)``
    (:func:`default_window`, at least :data:`ROLLING_MIN_WINDOW`): no shorter than the bundle's
    minimum marks for attribution, nor than the window measured to keep false changes below one
    per text."""
    return max(default_window(threshold), ROLLING_MIN_WINDOW)


WINDOWS_PER_PART = 2
"""How many default windows each part of the bundle's synthetic collaborations must hold for the
rolling choice to be measured at that window (:func:`choice_window`): with a step of a quarter
window and segments of at least ``ceil(N / S) = 4`` slices, an A-B text of two parts of ``N`` marks
has only 5 slices, too few for two segments; parts of ``2 N`` give 13."""


def choice_window(command_window: int, part_min: int) -> int:
    """The window at which the bundle measures its rolling methods (``rolling.window`` of
    ``threshold.json``): the command's default window ``N`` (:func:`rolling_window`) when the
    shortest part holds :data:`WINDOWS_PER_PART` of them, else what the parts allow:
    ``N_c = min(N, max(1, floor(p_min / 2)))`` (``p_min``: the shortest part, ``part_marks[0]``);
    so ``N_c = N`` for parts of at least ``2 N`` marks (800 for the default 2,000-mark parts)."""
    return int(min(int(command_window), max(1, int(part_min) // WINDOWS_PER_PART)))


def rolling_choice_record(threshold: Mapping[str, Any]) -> dict[str, Any] | None:
    """Where the bundle measured its rolling default: ``{"default", "window", "step",
    "command_window"}`` of ``rolling`` in ``threshold.json`` (``command_window`` None for a bundle
    built before it was recorded); None without that measurement."""
    record = threshold.get("rolling") or {}
    if not record.get("default") or record.get("window") is None:
        return None
    return {"default": str(record["default"]), "window": int(record["window"]), "step": int(record["step"]),
            "command_window": None if record.get("command_window") is None else int(record["command_window"])}


def rolling_choice_note(threshold: Mapping[str, Any]) -> str:
    """The rolling output's words on how the default was chosen: the window and step it was measured
    at, and, when that is not the command's default window, that it was shrunk to the parts."""
    record = rolling_choice_record(threshold)
    if record is None:
        return "the bundle's default"
    note = (f"the bundle's default, best change-point F1 on its synthetic collaborations at a window of "
            f"{record['window']} marks, step {record['step']}")
    if record["command_window"] is not None and record["command_window"] != record["window"]:
        note += (f"; shorter than the default window of {record['command_window']} because the bundle's "
                 f"collaboration parts were too short to hold it")
    return note


def default_step(window: int) -> int:
    """The step: a quarter of the window (``max(1, round(N / 4))``: 200 marks for 800)."""
    return max(1, int(round(window / 4)))


# --------------------------------------------------------------------------- the result


@dataclass(frozen=True)
class RollingResult:
    """Rolling attribution of one text: the slices, their scores, the change points.

    ``change_slices``: the first slice of each new segment; ``change_marks``: the change
    positions in marks (:func:`change_positions`); ``segments``: ``(first mark, stop mark,
    author)`` of each segment (the first starts at 0, the last stops at the text's end).
    ``mark_ends`` and ``n_chars`` (when the input text is known,
    :func:`punctstyle.attribution.rolling_chars.mark_ends`): where each mark ends in the input, in
    characters, and the input's length, for :meth:`change_chars` and :meth:`segment_chars`."""

    n_marks: int
    window: int
    step: int
    starts: np.ndarray
    scores: SliceScores
    change_slices: tuple[int, ...]
    change_marks: tuple[float, ...]
    segments: tuple[tuple[float, float, str], ...]
    mark_ends: np.ndarray | None = None
    n_chars: int | None = None

    @property
    def centres(self) -> np.ndarray:
        return slice_centres(self.starts, self.window)

    @property
    def has_chars(self) -> bool:
        return self.mark_ends is not None and self.n_chars is not None

    def change_chars(self) -> list[int]:
        """Each change in characters of the input
        (:func:`punctstyle.attribution.rolling_chars.change_characters`); [] without the text."""
        from punctstyle.attribution.rolling_chars import change_characters

        return change_characters(self.change_marks, self.mark_ends).tolist() if self.has_chars else []

    def segment_chars(self) -> list[tuple[int, int]]:
        """``(start_char, end_char)`` of each segment in the input; [] without the text."""
        from punctstyle.attribution.rolling_chars import segment_characters

        return segment_characters(self.change_chars(), self.n_chars) if self.has_chars else []

    def slice_authors(self) -> np.ndarray:
        return self.scores.slice_authors()

    def as_json(self, top: int = 5) -> dict[str, Any]:
        """Plain JSON: settings, each slice's start, author and its ``top`` authors' scores,
        the change points and segments."""
        evidence = self.scores.evidence()
        order = np.argsort(-evidence, axis=1, kind="stable")[:, :top]
        values = np.asarray(self.scores.values, dtype=np.float64)
        slices = []
        for i, start in enumerate(self.starts):
            best = [
                {"author": str(self.scores.authors[j]), self.scores.kind: _json_float(values[i, j])}
                for j in order[i]
            ]
            slices.append({"start": int(start), "stop": int(start) + self.window, "author": best[0]["author"], "top": best})
        segments = [{"start": float(a), "stop": float(b), "author": str(w)} for a, b, w in self.segments]
        for segment, (first, last) in zip(segments, self.segment_chars(), strict=False):
            segment.update(start_char=int(first), end_char=int(last))
        return {
            "n_marks": int(self.n_marks),
            "window": int(self.window),
            "step": int(self.step),
            "method": self.scores.method,
            "kind": self.scores.kind,
            "n_slices": int(len(self.starts)),
            "change_points": [float(c) for c in self.change_marks],
            "change_chars": [int(c) for c in self.change_chars()] if self.has_chars else None,
            "n_chars": self.n_chars,
            "segments": segments,
            "slices": slices,
        }


def _json_float(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def rolling_attribution(
    scores: SliceScores,
    starts: np.ndarray,
    window: int,
    step: int,
    n_marks: int,
    *,
    min_slices: int | None = None,
    merge_same_author: bool = True,
    penalty_scale: float = 1.0,
) -> RollingResult:
    """Change points and segments of scored slices (module docstring). ``min_slices``
    (default ``L = ceil(N / S)``): the fewest slices per segment; ``merge_same_author``: merge
    neighbouring segments with the same best author (:func:`merged_changes`); ``penalty_scale``
    ``k``: each change costs ``k beta`` (``beta``: :func:`segmentation_penalty`)."""
    if not penalty_scale > 0:
        raise ValueError(f"penalty_scale must be positive, got {penalty_scale}")
    evidence = scores.evidence()
    lag = max(1, math.ceil(window / step))
    Y = evidence[:, segmentation_columns(evidence)]
    penalty = penalty_scale * segmentation_penalty(Y, lag)
    changes = optimal_partition(Y, penalty, min_slices or lag)
    if merge_same_author:
        changes = refined_changes(Y, merged_changes(evidence, changes), min_slices or lag)
    marks = change_positions(starts, window, changes)
    bounds = [0, *changes, len(starts)]
    edges = [0.0, *marks.tolist(), float(n_marks)]
    segments = []
    for k in range(len(bounds) - 1):
        mean = evidence[bounds[k] : bounds[k + 1]].mean(axis=0)
        segments.append((edges[k], edges[k + 1], str(scores.authors[int(np.argmax(mean))])))
    return RollingResult(int(n_marks), int(window), int(step), np.asarray(starts), scores, tuple(changes),
                         tuple(float(m) for m in marks), tuple(segments))


def roll_text(
    marks: np.ndarray,
    gaps: np.ndarray,
    window: int,
    step: int,
    score: Callable[[dict[str, np.ndarray], np.ndarray], SliceScores],
    feature_names: Sequence[str],
    **options: Any,
) -> RollingResult:
    """Slice a sequence, compute the slices' ``feature_names``, score them with
    ``score(features, starts)`` and find the changes (:func:`rolling_attribution`)."""
    starts = slice_starts(len(marks), window, step)
    features = slice_features(marks, gaps, starts, window, feature_names)
    return rolling_attribution(score(features, starts), starts, window, step, len(marks), **options)


def bundle_features(bundle: Any, method: str) -> tuple[str, ...]:
    """The features a method of the bundle reads: the MLP's feature set, the KL feature, or
    f1..f6 for the word methods (``delta_both`` reads them beside the words)."""
    from punctstyle.marks import PAPER_FEATURES

    if method == "mlp":
        return tuple(bundle.model.feature_set)
    if method.startswith("kl_"):
        return (method[3:],)
    return tuple(PAPER_FEATURES)


def rolling_default(bundle: Any) -> str:
    """The default of ``punctstyle rolling --method``: the bundle's choice by change-point F1 on
    synthetic collaborations of held-out books (``rolling.default`` of ``threshold.json``,
    :func:`punctstyle.attribution.bundle_words.rolling_choice`), ``punctuation`` for a bundle
    without word methods or without that measurement."""
    record = bundle.threshold.get("rolling") or {}
    default = record.get("default")
    return str(default) if bundle.words is not None and default else "punctuation"


def word_slice_scores(bundle: Any, method: str, features: Mapping[str, np.ndarray], starts: np.ndarray,
                      gaps: np.ndarray, stream: Sequence[str], window: int) -> SliceScores:
    """Delta of every slice to every author (:mod:`punctstyle.attribution.bundle_words`): the
    slice's f1..f6 and the relative frequencies of the bundle's words among the words before its
    marks (:func:`slice_word_spans`)."""
    from punctstyle.attribution.bundle_words import method_rows, punctuation_block, stream_frequencies

    stream = np.asarray(stream, dtype=object)
    first, stop = slice_word_spans(gaps, starts, window)
    words = np.vstack([stream_frequencies(stream[a:b], bundle.words.words) for a, b in zip(first, stop, strict=True)])
    reference = bundle.words.references[method]
    return SliceScores(method, DISTANCE, reference.authors,
                       reference.distances(method_rows(method, punctuation_block(features), words)))


def roll_with_bundle(
    bundle: Any, marks: np.ndarray, gaps: np.ndarray, window: int | None = None, step: int | None = None,
    method: str | None = None, stream: Sequence[str] | None = None, **options: Any,
) -> RollingResult:
    """Rolling attribution against an attribution bundle: window from the bundle's threshold
    (:func:`rolling_window`), step a quarter of it. ``method``: ``punctuation`` (the bundle's
    punctuation method most accurate at the window, :func:`best_method_at`), ``words`` or
    ``both`` (Delta, :func:`word_slice_scores` on the text's word ``stream``), or a method name
    (``mlp``, ``kl_<feature>``, ``delta_words``, ``delta_both``); None: :func:`rolling_default`."""
    from punctstyle.attribution.bundle_words import ROLLING_METHOD_OF

    window = int(window or rolling_window(bundle.threshold))
    step = int(step or default_step(window))
    method = method or rolling_default(bundle)
    if method == "punctuation":
        method = best_method_at(bundle.threshold, bundle.kl_features, window)[0]
    method = ROLLING_METHOD_OF.get(method, method)
    if method in ("delta_words", "delta_both"):
        if bundle.words is None or stream is None:
            raise ValueError(f"rolling method {method} needs a bundle with word methods and the text's words")

        def score(features: dict[str, np.ndarray], starts: np.ndarray) -> SliceScores:
            return word_slice_scores(bundle, method, features, starts, np.asarray(gaps), stream, window)
    else:
        def score(features: dict[str, np.ndarray], starts: np.ndarray) -> SliceScores:
            return bundle_slice_scores(bundle, features, method)
    return roll_text(marks, gaps, window, step, score, bundle_features(bundle, method), **options)


def rolling_table(name: str, result: RollingResult, method_note: str = "") -> str:
    """The text output of ``punctstyle rolling``: a title, the segments (from, to, author),
    then one line per slice (start, stop, author, its score)."""
    kind = result.scores.kind
    lines = [
        f"{name}: {result.n_marks} marks; {len(result.starts)} slices of {result.window} marks every "
        f"{result.step}; method {result.scores.method} ({kind}){method_note}",
        f"change points (marks): {', '.join(f'{c:.0f}' for c in result.change_marks) or 'none'}",
    ]
    if result.has_chars:
        lines.append(f"change points (characters of the input): {', '.join(map(str, result.change_chars())) or 'none'}")
        lines.append("segments (marks; characters of the input):")
        lines += [f"  {a:8.0f} - {b:8.0f}  {c:9d} - {d:9d}  {author}"
                  for (a, b, author), (c, d) in zip(result.segments, result.segment_chars(), strict=True)]
    else:
        lines.append("segments (marks):")
        lines += [f"  {a:8.0f} - {b:8.0f}  {author}" for a, b, author in result.segments]
    lines.append(f"slices (start, stop, author, {kind}):")
    winners = result.slice_authors()
    column = {a: j for j, a in enumerate(result.scores.authors)}
    for i, (start, author) in enumerate(zip(result.starts, winners, strict=True)):
        value = float(result.scores.values[i, column[author]])
        lines.append(f"  {int(start):8d} {int(start) + result.window:8d}  {author}  {value:.4g}")
    return "\n".join(lines) + "\n"


__all__ = [
    "DISTANCE",
    "PROBABILITY",
    "RollingResult",
    "SliceScores",
    "best_method_at",
    "optimal_partition",
    "bundle_slice_scores",
    "change_point_errors",
    "change_positions",
    "default_step",
    "default_window",
    "rolling_window",
    "ROLLING_MIN_WINDOW",
    "WINDOWS_PER_PART",
    "choice_window",
    "rolling_choice_note",
    "rolling_choice_record",
    "kl_slice_scores",
    "noise_variance",
    "roll_text",
    "roll_with_bundle",
    "rolling_default",
    "word_slice_scores",
    "rolling_table",
    "rolling_attribution",
    "segmentation_penalty",
    "slice_centres",
    "slice_features",
    "slice_starts",
    "slice_word_frequencies",
    "slice_word_spans",
    "truth_at",
]
