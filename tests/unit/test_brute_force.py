"""The three brute-force checks of issue 35's audit, kept as tests: the vectorised General
Imposters score against a naive loop, the undecided band against an exhaustive search of every
band, and optimal partitioning against an exhaustive search of every segmentation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from punctstyle.attribution.change_points import optimal_partition
from punctstyle.attribution.pan_metrics import c_at_1
from punctstyle.attribution.verification import (
    ImpostersSettings,
    band_grid,
    decide,
    imposters_draws,
    imposters_scores,
    optimal_band,
    reference_scores,
    score_cases,
)

# --------------------------------------------------------------------------- imposters


def naive_imposters(tests, candidates, imposters, rng, settings):
    """The score as stylo's loop computes it: per test text and iteration, z-scores over the
    iteration's texts (candidates, drawn imposters, the test text ``test_copies`` times as
    stylo's ``rbind(test.set, test.set)``; sd with ddof 1, 1 where 0),
    Burrows' Delta on the drawn features, the candidate wins when its nearest text is nearest.
    The draws: :func:`imposters_draws` over ``[candidates; imposters]``, an iteration's imposters
    the imposter rows of smallest key, taken one by one."""
    K = settings.iterations
    n_c = len(candidates)
    draws = imposters_draws(rng, tests.shape[1], n_c + len(imposters), settings)
    n_chosen = min(len(imposters), max(1, round(settings.imposter_share * len(imposters))))
    scores = []
    for t in tests:
        wins = 0
        for k in range(K):
            order = [r - n_c for r in np.argsort(draws.keys[k], kind="stable") if r >= n_c][:n_chosen]
            drawn = imposters[sorted(order)]
            texts = np.vstack([candidates, drawn, np.repeat(t[None], settings.test_copies, axis=0)])
            texts = texts[:, draws.features[k]]
            sd = texts.std(axis=0, ddof=1)
            sd[sd <= 1e-12] = 1.0
            z = texts / sd
            training = len(texts) - settings.test_copies
            delta = [np.mean(np.abs(z[-1] - z[r])) for r in range(training)]
            wins += min(delta[:n_c]) <= min(delta[n_c:training])
        scores.append(wins / K)
    return np.array(scores)


@pytest.mark.parametrize("copies", [1, 2])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_imposters_scores_equal_a_naive_loop(seed, copies):
    data = np.random.default_rng(100 + seed)
    d, n_c, n_i = 9, 3, 7
    candidates = data.normal(0.0, 1.0, (n_c, d))
    imposters = data.normal(0.3, 1.2, (n_i, d))
    tests = np.vstack([candidates[:2] + data.normal(0, 0.3, (2, d)), data.normal(0.3, 1.2, (3, d))])
    tests[0, 4] = candidates[0, 4]  # a feature column that may be constant in an iteration
    settings = ImpostersSettings(iterations=40, feature_share=0.5, imposter_share=0.5, test_copies=copies)
    fast = imposters_scores(tests, candidates, imposters, np.random.default_rng(seed), settings)
    slow = naive_imposters(tests, candidates, imposters, np.random.default_rng(seed), settings)
    assert fast.tolist() == slow.tolist()
    assert len(set(fast.tolist())) > 1  # the cases are not all decided alike


def test_the_test_text_twice_in_the_z_scores_changes_a_decision():
    # stylo's rbind(test, test): test (1, 0), candidate (0, 5), imposter (5, 2), every feature
    # and imposter drawn. Once: sd = (sqrt 7, sqrt(19/3)) = (2.6458, 2.5166), Delta to the
    # candidate (1/2.6458 + 5/2.5166)/2 = 1.1824, to the imposter (4/2.6458 + 2/2.5166)/2 =
    # 1.1533: the imposter is nearer, score 0. Twice: sd of (0, 5, 1, 1) and (5, 2, 0, 0) =
    # (2.2174, 2.3629), Delta (0.4510 + 2.1160)/2 = 1.2835 against (1.8039 + 0.8464)/2 = 1.3252:
    # the candidate is nearer, score 1
    tests, candidate, imposter = np.array([[1.0, 0.0]]), np.array([[0.0, 5.0]]), np.array([[5.0, 2.0]])
    scores = [imposters_scores(tests, candidate, imposter, np.random.default_rng(0),
                               ImpostersSettings(iterations=3, feature_share=1.0, imposter_share=1.0,
                                                 test_copies=copies)).tolist() for copies in (1, 2)]
    assert scores == [[0.0], [1.0]]
    assert ImpostersSettings().test_copies == 2  # stylo's default


def test_imposters_a_constant_feature_has_sd_one_in_both():
    candidates = np.array([[1.0, 2.0, 5.0], [1.0, 3.0, 4.0]])
    imposters = np.array([[1.0, 9.0, 0.0], [1.0, 8.0, 1.0], [1.0, 7.0, 0.5]])
    tests = np.array([[1.0, 2.5, 4.5], [1.0, 8.5, 0.2]])
    settings = ImpostersSettings(iterations=25, feature_share=1.0, imposter_share=2 / 3)
    fast = imposters_scores(tests, candidates, imposters, np.random.default_rng(3), settings)
    slow = naive_imposters(tests, candidates, imposters, np.random.default_rng(3), settings)
    assert fast.tolist() == slow.tolist() == [1.0, 0.0]


def test_imposters_a_tie_goes_to_the_candidate():
    # an imposter equal to the candidate's text: every iteration that draws it ties
    candidates = np.array([[1.0, 2.0, 3.0, 0.5]])
    imposters = np.array([[1.0, 2.0, 3.0, 0.5], [4.0, 0.0, 1.0, 2.0], [0.0, 5.0, 2.0, 1.0]])
    tests = np.array([[1.1, 2.1, 2.9, 0.4]])
    settings = ImpostersSettings(iterations=10, feature_share=1.0, imposter_share=1.0)
    fast = imposters_scores(tests, candidates, imposters, np.random.default_rng(0), settings)
    slow = naive_imposters(tests, candidates, imposters, np.random.default_rng(0), settings)
    assert fast.tolist() == slow.tolist() == [1.0]


def test_cases_scored_together_equal_each_case_scored_alone_with_the_shared_draws():
    # issue 37: every case and text shares one set of draws, so scoring the cases in one call
    # (grouped by candidate) gives each case the score it gets alone with those draws
    data = np.random.default_rng(7)
    labels = np.array(["a", "a", "b", "b", "b", "c", "c", "d", "d"], dtype=object)
    reference = data.normal(0.0, 1.0, (labels.size, 6)) + (labels == "b")[:, None]
    tests = data.normal(0.0, 1.0, (5, 6))
    candidates = np.array(["a", "c", "b", "a", "b"], dtype=object)
    settings = ImpostersSettings(iterations=30)
    draws = imposters_draws(np.random.default_rng(1), 6, labels.size, settings)
    together = score_cases(tests, reference, labels, candidates, draws, settings)
    alone = [reference_scores(tests[c], reference, labels == candidates[c], labels != candidates[c], draws,
                              settings)[0]
             for c in range(tests.shape[0])]
    assert together.tolist() == alone
    assert len(set(alone)) > 1


def test_a_calibration_case_scores_what_verify_gives_the_text():
    # issue 35: the band is calibrated in the setting verify applies it in: every other author an
    # imposter, the same draws from the same seed over the same reference set
    import pandas as pd

    from punctstyle.attribution.verification_run import VerificationBundle
    from punctstyle.marks import feature_column_names

    data = np.random.default_rng(11)
    labels = np.array(["a", "b", "a", "c", "b", "c", "a"], dtype=object)
    columns = feature_column_names("f1")
    reference = data.dirichlet(np.ones(len(columns)), labels.size)
    frame = pd.concat([pd.DataFrame({"book_id": np.arange(labels.size), "author": labels.astype(str)}),
                       pd.DataFrame(reference, columns=columns)], axis=1)
    settings = ImpostersSettings(iterations=20)
    bundle = VerificationBundle("bundle", {"imposters": {"iterations": 20, "feature_share": 0.5,
                                                         "imposter_share": 0.5}, "words": []}, frame)
    texts = data.dirichlet(np.ones(len(columns)), 3)
    for author in ("a", "b", "c"):
        verified = [bundle.score("f1", {"f1": t[None]}, None, author, np.random.default_rng(0)) for t in texts]
        draws = imposters_draws(np.random.default_rng(0), len(columns), labels.size, settings)
        calibrated = score_cases(texts, reference, labels, [author] * 3, draws, settings)
        assert calibrated.tolist() == verified, author


# --------------------------------------------------------------------------- the band


def exhaustive_band(scores, same, step):
    """Every band p1 <= p2 of the grid, each case decided by :func:`decide` and c@1 counted
    directly; the best, ties to the narrowest band, then the smallest p1."""
    from punctstyle.attribution.verification import Band

    grid = band_grid(step)
    n = len(scores)
    best = None
    for p1, p2 in itertools.product(grid, grid):
        if p1 > p2:
            continue
        band = Band(float(p1), float(p2), 0.0)
        decisions = [decide(s, band) for s in scores]
        correct = sum((d == "same author") == y for d, y in zip(decisions, same, strict=True) if d != "undecided")
        undecided = decisions.count("undecided")
        value = (correct + undecided * correct / n) / n
        key = (-round(value, 12), round(p2 - p1, 12), p1)
        if best is None or key < best[0]:
            best = (key, float(p1), float(p2), value)
    return best[1:]


@pytest.mark.parametrize("seed", range(6))
def test_the_band_equals_an_exhaustive_search(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 30))
    same = rng.random(n) < 0.5
    same[0], same[1] = True, False
    # scores on a 0.05 grid (stylo's iterations make them multiples of 1/K): ties with the band
    scores = np.round(np.clip(np.where(same, 0.6, 0.35) + rng.normal(0, 0.25, n), 0, 1) * 20) / 20
    step = [0.05, 0.1, 0.25][seed % 3]
    band = optimal_band(scores, same, step)
    p1, p2, value = exhaustive_band(scores.tolist(), same.tolist(), step)
    assert (band.p1, band.p2) == (p1, p2)
    assert band.c_at_1 == pytest.approx(value, abs=1e-12)


def test_the_band_c_at_1_is_the_pan_measure_of_its_decisions():
    # c@1 of pan_metrics on scores already on the 0.5 scale: 0.5 is "undecided"
    scores = np.array([0.9, 0.8, 0.5, 0.55, 0.2, 0.1, 0.6, 0.3])
    same = np.array([True, True, True, False, False, False, False, True])
    band = optimal_band(scores, same, 0.05)
    answers = [1.0 if s > band.p2 else 0.0 if s < band.p1 else 0.5 for s in scores]
    assert band.c_at_1 == pytest.approx(c_at_1(same, answers), abs=1e-12)


# --------------------------------------------------------------------------- optimal partitioning


def segment_cost(Y, a, b):
    block = Y[a:b]
    return float(((block - block.mean(axis=0)) ** 2).sum())


def exhaustive_partition(Y, penalty, min_size):
    """Every set of change rows (segments of at least ``min_size`` rows): the one of least
    ``sum of within-segment squares + penalty * changes``."""
    n = Y.shape[0]
    best_cost, best_changes = np.inf, []
    for k in range(n):
        for changes in itertools.combinations(range(1, n), k):
            edges = [0, *changes, n]
            if any(b - a < min_size for a, b in itertools.pairwise(edges)):
                continue
            cost = sum(segment_cost(Y, a, b) for a, b in itertools.pairwise(edges)) + penalty * k
            if cost < best_cost - 1e-9:
                best_cost, best_changes = cost, list(changes)
    return best_changes, best_cost


@pytest.mark.parametrize("seed", range(8))
def test_optimal_partition_equals_an_exhaustive_search(seed):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(6, 12)), int(rng.integers(1, 4))
    means = rng.normal(0, 2, (3, d))
    labels = np.sort(rng.integers(0, 3, n))
    Y = means[labels] + rng.normal(0, 0.5, (n, d))
    penalty = float(rng.uniform(0.2, 3.0))
    min_size = [1, 2, 3][seed % 3]
    changes = optimal_partition(Y, penalty, min_size)
    expected, cost = exhaustive_partition(Y, penalty, min_size)
    edges = [0, *changes, n]
    found = sum(segment_cost(Y, a, b) for a, b in itertools.pairwise(edges)) + penalty * len(changes)
    assert found == pytest.approx(cost, abs=1e-9)
    assert changes == expected
