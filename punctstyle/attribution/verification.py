"""Authorship verification by the General Imposters method: is this text by this author?

**The score** (Koppel and Winter 2014, as Kestemont et al. 2016 describe it and stylo's
``imposters()`` implements it, with stylo's defaults): a test text ``t``, the reference texts
``C`` of the candidate author and the texts ``I`` of other authors (the imposters), all as
vectors of the same ``d`` features. In each of ``K`` iterations (default 100):

* draw ``round(feature_share * d)`` features ``F_k`` (default half) and
  ``round(imposter_share * |I|)`` imposters ``I_k`` (default half), without replacement (the
  imposters: the texts of ``I`` of smallest key, one uniform key per reference text and
  iteration, :class:`Draws`; the same draws serve every candidate, case and text);
* z-score the features of ``F_k`` over the texts of the iteration (``C``, ``I_k`` and ``t``
  counted ``test_copies`` times, default twice: stylo's ``perform.delta`` with
  ``z.scores.both.sets = TRUE`` binds a single test vector to itself, ``rbind(test.set,
  test.set)``, before ``scale()``): ``sigma_{k,i}`` the sample standard deviation
  (``ddof = 1``, over ``|C| + |I_k| + test_copies`` rows; 1 where it is 0);
* Burrows' Delta (stylo's default distance) from ``t`` to every text ``r`` of ``C`` and ``I_k``:
  ``Delta_k(t, r) = (1/|F_k|) sum_{i in F_k} |t_i - r_i| / sigma_{k,i}`` (the means cancel);
* the iteration counts for the candidate when its nearest text is one of ``C``:
  ``min_{r in C} Delta_k(t, r) <= min_{r in I_k} Delta_k(t, r)`` (a tie goes to the candidate,
  as in stylo, whose training set lists the candidate first).

``score = (1/K) * #{k : the iteration counts for the candidate}`` in [0, 1]. Vectorised: the
per-iteration standard deviations are weighted sums ``W @ R`` and ``W @ R^2`` over the rows, the
distances of every text in every iteration one product ``|R - t| @ (F / sigma / |F|)^T`` (the
weighted form of :func:`punctstyle.distances.delta`). The
calibration cases of a seed, family and length share one set of draws over the reference set
(:func:`score_cases`), as ``punctstyle verify`` draws one set for its text: a case's score does
not depend on which other cases are scored with it.

**The undecided band** (stylo's ``imposters.optimize()``): on calibration cases with known
truth, the thresholds ``p1 <= p2`` on a grid of step 0.01 that maximise c@1 when a score
``s < p1`` answers "different author", ``s > p2`` "same author" and ``p1 <= s <= p2`` leaves the
case undecided (ties: the narrowest band, then the smallest ``p1``). For the PAN measures the
scores are mapped to [0, 1] with the band at 0.5 (:func:`rescale`, piecewise linear:
``s < p1 -> 0.5 s / p1``, band -> 0.5, ``s > p2 -> 0.5 + 0.5 (s - p2) / (1 - p2)``; stylo's
``rescale`` is not monotone and can put a score below ``p1`` above 0.5).

**The cases** (:func:`verification_cases`): the corpus documents split by
:class:`punctstyle.experiments.row.Row` (all authors, whole texts on one side), the training side
the reference set, each held-out text one same-author case (candidate: its author) and
``n_different`` different-author cases (candidates drawn among the other reference authors).
The imposters of a case are the reference texts of every author but the candidate, the text's
own author included in a different-author case: the setting ``punctstyle verify`` applies the
band in (every other author of the reference an imposter).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from punctstyle.attribution.pan_metrics import pan_measures
from punctstyle.attribution.verification_settings import ImpostersSettings, family_parts
from punctstyle.distances import delta
from punctstyle.experiments.row import Row

VERIFICATION_TASK = "verification"
DECISIONS: tuple[str, str, str] = ("different author", "undecided", "same author")


def _subset_masks(rng: np.random.Generator, iterations: int, size: int, share: float) -> np.ndarray:
    """(iterations, size) booleans, each row ``max(1, round(share * size))`` True drawn without
    replacement (R's and Python's ``round``: half to even)."""
    chosen = min(size, max(1, round(share * size)))
    keys = rng.random((iterations, size))
    ranks = np.argsort(np.argsort(keys, axis=1), axis=1)
    return ranks < chosen


@dataclass(frozen=True)
class Draws:
    """The random draws of ``K`` iterations over a reference set of ``n_r`` texts and ``d``
    features (:func:`imposters_draws`): ``features`` (K, d) the features drawn, ``keys`` (K, n_r)
    one uniform key per text and iteration; an iteration's imposters are the
    ``round(imposter_share * n_i)`` texts of smallest key among the ``n_i`` texts allowed as
    imposters (:func:`imposter_choice`), so the same draws serve every candidate, case and text."""

    features: np.ndarray
    keys: np.ndarray


def imposters_draws(rng: np.random.Generator, n_features: int, n_reference: int,
                    settings: ImpostersSettings = ImpostersSettings()) -> Draws:
    """The draws of :class:`Draws`: the feature subsets first (:func:`_subset_masks`), then the keys."""
    features = _subset_masks(rng, settings.iterations, n_features, settings.feature_share)
    return Draws(features, rng.random((settings.iterations, n_reference)))


def imposter_choice(keys: np.ndarray, allowed: np.ndarray, share: float) -> np.ndarray:
    """(K, n_r) booleans: in each iteration the ``max(1, round(share * n_i))`` texts of smallest
    key among the ``n_i`` texts ``allowed`` (R's and Python's ``round``: half to even), a uniform
    draw without replacement, as stylo's ``sample(rownames(imposters.set))[1:no.of.imposters]``."""
    allowed = np.asarray(allowed, dtype=bool)
    n_i = int(allowed.sum())
    if n_i == 0:
        raise ValueError("no imposter text")
    chosen = min(n_i, max(1, round(share * n_i)))
    masked = np.where(allowed[None, :], keys, np.inf)
    ranks = np.argsort(np.argsort(masked, axis=1, kind="stable"), axis=1, kind="stable")
    return (ranks < chosen) & allowed[None, :]


def reference_scores(
    tests: np.ndarray,
    reference: np.ndarray,
    candidate: np.ndarray,
    imposters: np.ndarray,
    draws: Draws,
    settings: ImpostersSettings = ImpostersSettings(),
) -> np.ndarray:
    """The General Imposters score of each row of ``tests`` (m, d) against the reference texts
    ``reference`` (n_r, d): the rows ``candidate`` (booleans) are the candidate's texts, the
    imposters of each iteration are drawn (:func:`imposter_choice`) among the rows ``imposters``
    with the shared ``draws``; module docstring. Returns (m,)."""
    T = np.atleast_2d(np.asarray(tests, dtype=np.float64))
    R = np.atleast_2d(np.asarray(reference, dtype=np.float64))
    is_candidate = np.asarray(candidate, dtype=bool)
    d = T.shape[1]
    if not is_candidate.any():
        raise ValueError("no candidate text")
    if R.shape[1] != d:
        raise ValueError(f"tests and reference differ in features: {d}, {R.shape[1]}")
    if draws.features.shape[1] != d or draws.keys.shape[1] != R.shape[0]:
        raise ValueError("the draws were made for another reference set")
    chosen = imposter_choice(draws.keys, np.asarray(imposters, dtype=bool) & ~is_candidate, settings.imposter_share)
    weights = (chosen | is_candidate[None, :]).astype(np.float64)  # (K, n_r): rows of iteration k
    features = draws.features
    copies = float(settings.test_copies)
    center = R.mean(axis=0)
    Rc = R - center
    WR, WR2 = weights @ Rc, weights @ (Rc * Rc)  # (K, d)
    n = weights.sum(axis=1)[:, None] + copies  # (K, 1): texts of iteration k, the test text's copies too
    candidate_columns, imposter_rows = np.flatnonzero(is_candidate), chosen.T  # (n_r, K)
    out = np.empty(T.shape[0])
    block = max(1, int(4_000_000 // max(1, R.shape[0] * d)))
    for start in range(0, T.shape[0], block):
        Tc = T[start : start + block] - center
        s1 = WR[None] + copies * Tc[:, None, :]  # (m, K, d)
        s2 = WR2[None] + copies * (Tc * Tc)[:, None, :]
        variance = np.maximum(s2 - s1 * s1 / n, 0.0) / (n - 1.0)
        sd = np.sqrt(variance)
        sd = np.where(sd > 1e-12 * (1.0 + np.abs(s1 / n)), sd, 1.0)
        scale = features[None] / sd / features.sum(axis=1)[None, :, None]  # (m, K, d): w = [i in F_k] / (|F_k| sigma)
        distances = delta(T[start : start + block], R, scale)  # (m, n_r, K)
        nearest_candidate = distances[:, candidate_columns].min(axis=1)
        nearest_imposter = np.where(imposter_rows[None], distances, np.inf).min(axis=1)
        out[start : start + block] = np.mean(nearest_candidate <= nearest_imposter, axis=1)
    return out


def imposters_scores(
    tests: np.ndarray,
    candidate_rows: np.ndarray,
    imposter_rows: np.ndarray,
    rng: np.random.Generator,
    settings: ImpostersSettings = ImpostersSettings(),
) -> np.ndarray:
    """:func:`reference_scores` of the rows of ``tests`` (m, d) with the reference set
    ``[candidate_rows; imposter_rows]`` and draws (:func:`imposters_draws`) from ``rng``,
    shared by the rows of ``tests``. Returns (m,)."""
    C = np.atleast_2d(np.asarray(candidate_rows, dtype=np.float64))
    imposters = np.atleast_2d(np.asarray(imposter_rows, dtype=np.float64))
    d = np.atleast_2d(np.asarray(tests)).shape[1]
    if C.shape[0] == 0:
        raise ValueError("no candidate text")
    if imposters.shape[0] == 0:
        raise ValueError("no imposter text")
    if C.shape[1] != d or imposters.shape[1] != d:
        raise ValueError(f"tests, candidates and imposters differ in features: {d}, {C.shape[1]}, {imposters.shape[1]}")
    R = np.vstack([C, imposters])
    candidate = np.arange(R.shape[0]) < C.shape[0]
    return reference_scores(tests, R, candidate, ~candidate, imposters_draws(rng, d, R.shape[0], settings), settings)


# --------------------------------------------------------------------------- the band


@dataclass(frozen=True)
class Band:
    """The undecided band ``[p1, p2]`` and the c@1 it reached on its calibration cases."""

    p1: float
    p2: float
    c_at_1: float

    def as_json(self) -> dict[str, float]:
        return {"p1": self.p1, "p2": self.p2, "c_at_1": self.c_at_1}


def band_grid(step: float) -> np.ndarray:
    """``0, step, ..., 1`` (rounded to 10 decimals, as stylo rounds its scores)."""
    if not 0.0 < step <= 0.5:
        raise ValueError(f"the band's grid step must lie in (0, 0.5], got {step}")
    return np.round(np.linspace(0.0, 1.0, int(round(1.0 / step)) + 1), 10)


def optimal_band(scores: Sequence[float], same: Sequence[bool], step: float = 0.01) -> Band:
    """The band of :func:`band_grid` that maximises c@1 on the cases (module docstring):
    ``n_c(p1, p2) = #{same, s > p2} + #{different, s < p1}``, ``n_u = #{p1 <= s <= p2}``,
    ``c@1 = (n_c + n_u n_c / n) / n``; ties: the narrowest band, then the smallest ``p1``."""
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(same, dtype=bool)
    if s.size == 0 or s.shape != y.shape:
        raise ValueError("the band needs cases: as many scores as truths, at least one")
    grid = band_grid(step)
    same_sorted, different_sorted = np.sort(s[y]), np.sort(s[~y])
    same_above = same_sorted.size - np.searchsorted(same_sorted, grid, side="right")  # s > p2
    different_below = np.searchsorted(different_sorted, grid, side="left")  # s < p1
    below_all = np.searchsorted(np.sort(s), grid, side="left")
    above_all = s.size - np.searchsorted(np.sort(s), grid, side="right")
    n = s.size
    n_c = different_below[:, None] + same_above[None, :]  # [p1, p2]
    n_u = n - below_all[:, None] - above_all[None, :]
    c = (n_c + n_u * n_c / n) / n
    valid = grid[:, None] <= grid[None, :]
    c = np.where(valid, c, -np.inf)
    best = c.max()
    width = np.where(np.isclose(c, best, rtol=0, atol=1e-12), grid[None, :] - grid[:, None], np.inf)
    i, j = np.unravel_index(np.argmin(width), width.shape)  # row-major: the smallest p1 first
    return Band(float(grid[i]), float(grid[j]), float(best))


def rescale(scores: Sequence[float] | float, band: Band) -> np.ndarray:
    """Scores mapped to [0, 1] with the band at 0.5 (module docstring); monotone."""
    s = np.asarray(scores, dtype=np.float64)
    below = 0.5 * s / band.p1 if band.p1 > 0 else np.zeros_like(s)
    above = 0.5 + 0.5 * (s - band.p2) / (1.0 - band.p2) if band.p2 < 1 else np.ones_like(s)
    return np.where(s < band.p1, below, np.where(s > band.p2, above, 0.5))


def decide(score: float, band: Band) -> str:
    """``"same author"`` above the band, ``"different author"`` below it, else ``"undecided"``."""
    if score > band.p2:
        return DECISIONS[2]
    if score < band.p1:
        return DECISIONS[0]
    return DECISIONS[1]


# --------------------------------------------------------------------------- the cases


@dataclass(frozen=True)
class Cases:
    """Verification cases on a corpus (:func:`verification_cases`): ``reference`` (document
    indices of the reference set); per case ``text`` (the held-out document), ``candidate``
    (the author asked about) and ``same`` (whether it is the text's author)."""

    reference: np.ndarray
    text: np.ndarray
    candidate: np.ndarray
    same: np.ndarray


def case_rng(seed: int) -> np.random.Generator:
    """The generator of the candidates of different-author cases and of the imposter draws."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), 0x7E51F1]))


def verification_cases(
    labels: Sequence[Any],
    groups: Sequence[Any] | None,
    *,
    seed: int,
    test_fraction: float,
    n_different: int,
    rng: np.random.Generator,
) -> Cases:
    """The reference set and the cases of one seed (module docstring): the split of
    :class:`punctstyle.experiments.row.Row` over every author (task ``verification``; with
    ``groups`` whole texts on one side), then per held-out document one same-author case and
    ``n_different`` different-author cases, their candidates drawn by ``rng`` without
    replacement among the other authors of the reference set (fewer when fewer exist)."""
    y = np.asarray(labels, dtype=object)
    row = Row(VERIFICATION_TASK, int(np.unique(y).size), int(seed), y,
              groups=None if groups is None else np.asarray(groups, dtype=object))
    split = row.split(test_fraction)
    reference, held_out = split.train_index, split.test_index
    authors = np.unique(y[reference])
    texts, candidates, same = [], [], []
    for index in held_out.tolist():
        others = authors[authors != y[index]]
        drawn = rng.choice(others, size=min(n_different, others.size), replace=False) if others.size else []
        texts += [index] * (1 + len(drawn))
        candidates += [y[index], *drawn]
        same += [True] + [False] * len(drawn)
    return Cases(reference, np.asarray(texts, dtype=np.int64), np.asarray(candidates, dtype=object),
                 np.asarray(same, dtype=bool))


def score_cases(
    tests: np.ndarray,
    reference: np.ndarray,
    reference_labels: Sequence[Any],
    candidates: Sequence[Any],
    draws: Draws,
    settings: ImpostersSettings = ImpostersSettings(),
) -> np.ndarray:
    """The score of each case (:func:`reference_scores`): row ``c`` of ``tests`` (one per case)
    for candidate ``candidates[c]``, with the reference texts of that author as candidate texts
    and those of every other author as imposters, as ``punctstyle verify`` scores a text. The
    ``draws`` (:func:`imposters_draws` over the reference set) are shared by every case and
    text, so a case's score does not depend on the other cases; the cases of one candidate are
    scored in one call."""
    X = np.asarray(reference, dtype=np.float64)
    tests = np.atleast_2d(np.asarray(tests, dtype=np.float64))
    labels = np.asarray(reference_labels, dtype=object)
    asked = np.asarray(candidates, dtype=object)
    if asked.size != tests.shape[0]:
        raise ValueError(f"{tests.shape[0]} cases but {asked.size} candidates")
    scores = np.full(asked.size, np.nan)
    for candidate in dict.fromkeys(asked.tolist()):
        rows = np.flatnonzero(asked == candidate)
        scores[rows] = reference_scores(tests[rows], X, labels == candidate, labels != candidate, draws, settings)
    return scores


def cross_fitted_scores(scores: np.ndarray, same: np.ndarray, texts: np.ndarray, step: float,
                        rng: np.random.Generator) -> np.ndarray:
    """PAN-submitted scores of the cases with a band never fitted on their own texts: the held-out
    texts are split in two halves at random, each half's scores rescaled (:func:`rescale`) by the
    band fitted (:func:`optimal_band`) on the other half's cases."""
    unique = np.unique(texts)
    half = np.isin(texts, rng.permutation(unique)[: unique.size // 2])
    out = np.empty_like(scores, dtype=np.float64)
    for part in (half, ~half):
        fit = ~part if (~part).any() else part
        out[part] = rescale(scores[part], optimal_band(scores[fit], same[fit], step))
    return out


def case_measures(scores: np.ndarray, same: np.ndarray, texts: np.ndarray, step: float,
                  rng: np.random.Generator) -> dict[str, float]:
    """:func:`punctstyle.attribution.pan_metrics.pan_measures` of the cross-fitted scores
    (:func:`cross_fitted_scores`), plus the raw scores' AUC (``auc_raw``: no band) and the
    band fitted on every case (``p1``, ``p2``)."""
    measured = pan_measures(same.astype(int), cross_fitted_scores(scores, same, texts, step, rng))
    band = optimal_band(scores, same, step)
    raw = pan_measures(same.astype(int), scores)["auc"]
    return {**measured, "auc_raw": raw, "p1": band.p1, "p2": band.p2, "n_cases": int(scores.size),
            "n_same": int(same.sum())}


# --------------------------------------------------------------------------- families


def family_matrix(family: str, features: Mapping[str, np.ndarray], words: np.ndarray | None) -> np.ndarray:
    """The (n, d) matrix of a family: the punctuation set's features stacked
    (:func:`punctstyle.featuresets.stack_features`), then the word frequencies ``words``."""
    from punctstyle.featuresets import stack_features

    punctuation, with_words = family_parts(family)
    blocks = [] if punctuation is None else [stack_features(features, punctuation)]
    if with_words:
        if words is None:
            raise ValueError(f"family {family!r} needs word frequencies")
        blocks.append(np.atleast_2d(np.asarray(words, dtype=np.float64)))
    return np.hstack(blocks)
