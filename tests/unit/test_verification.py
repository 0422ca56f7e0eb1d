"""Verification (punctstyle.attribution.verification) and the PAN measures
(punctstyle.attribution.pan_metrics): exact values computed by hand, and a known answer on
generated texts of invented styles."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from punctstyle.attribution import pan_metrics
from punctstyle.attribution.verification import (
    Band,
    ImpostersSettings,
    case_measures,
    decide,
    family_matrix,
    imposters_draws,
    imposters_scores,
    optimal_band,
    rescale,
    score_cases,
    verification_cases,
)
from punctstyle.features import compute_features
from punctstyle.marks import N_MARKS

# truth and scores of five cases; the hand computation is in each test
TRUTH = [1, 1, 0, 0, 1]
SCORES = [0.9, 0.5, 0.2, 0.7, 0.4]


def test_auc_counts_the_pairs_in_order():
    # same-author scores 0.9, 0.5, 0.4 against 0.2, 0.7: 4 of the 6 pairs in order
    assert pan_metrics.auc(TRUTH, SCORES) == pytest.approx(4 / 6)
    assert pan_metrics.auc([1, 0], [0.5, 0.5]) == 0.5  # a tie counts half
    assert pan_metrics.auc([1, 1], [0.2, 0.9]) == 0.0  # one class: the evaluator's 0


def test_c_at_1_credits_non_answers_in_the_proportion_of_right_answers():
    # n = 5, one undecided (0.5), right: 0.9 (same) and 0.2 (different): (2 + 1 * 2 / 5) / 5
    assert pan_metrics.c_at_1(TRUTH, SCORES) == pytest.approx(0.48)


def test_f1_ignores_non_answers_and_f05u_counts_them_as_false_negatives():
    # answered: TP 0.9, FP 0.7, FN 0.4 -> F1 = 2 / (2 + 1 + 1)
    assert pan_metrics.f1(TRUTH, SCORES) == pytest.approx(0.5)
    # F0.5u = 1.25 * 1 / (1.25 * 1 + 0.25 * (1 + 1) + 1)
    assert pan_metrics.f_05_u(TRUTH, SCORES) == pytest.approx(1.25 / 2.75)
    assert pan_metrics.f1([1, 0], [0.2, 0.1]) == 0.0


def test_brier_is_the_complement_of_the_mean_squared_error_and_overall_the_mean():
    # (0.1^2 + 0.5^2 + 0.2^2 + 0.7^2 + 0.6^2) / 5 = 0.23
    assert pan_metrics.brier(TRUTH, SCORES) == pytest.approx(0.77)
    measures = pan_metrics.pan_measures(TRUTH, SCORES)
    assert measures["overall"] == pytest.approx((4 / 6 + 0.48 + 1.25 / 2.75 + 0.5 + 0.77) / 5)


def test_pan_measures_refuse_bad_cases():
    with pytest.raises(ValueError, match="lie in"):
        pan_metrics.auc([1, 0], [1.5, 0.2])
    with pytest.raises(ValueError, match="differ in length"):
        pan_metrics.c_at_1([1, 0], [0.5])


def test_the_band_maximises_c_at_1_and_is_the_narrowest_of_the_best():
    # same 0.9, 0.8, 0.45; different 0.1, 0.2, 0.55: leaving 0.45 and 0.55 undecided gives
    # (4 + 2 * 4 / 6) / 6 = 8/9; the narrowest such band is [0.45, 0.55]
    scores = [0.9, 0.8, 0.45, 0.1, 0.2, 0.55]
    same = [True, True, True, False, False, False]
    band = optimal_band(scores, same, step=0.01)
    assert (band.p1, band.p2) == (0.45, 0.55)
    assert band.c_at_1 == pytest.approx(8 / 9)
    assert pan_metrics.c_at_1([1, 1, 1, 0, 0, 0], rescale(scores, band)) == pytest.approx(8 / 9)


def test_rescale_puts_the_band_at_one_half_and_keeps_the_order():
    band = Band(0.4, 0.6, 1.0)
    assert rescale([0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0], band).tolist() == pytest.approx(
        [0.0, 0.25, 0.5, 0.5, 0.5, 0.75, 1.0]
    )
    assert [decide(s, band) for s in (0.39, 0.5, 0.61)] == ["different author", "undecided", "same author"]


# --------------------------------------------------------------------------- generated texts


def styled_text(rng: np.random.Generator, preference: np.ndarray, mean_gap: float, n: int = 600):
    """Marks drawn from an invented style: each mark follows the last by a Markov matrix that
    favours ``preference``; word gaps Poisson with ``mean_gap``."""
    transition = np.tile(preference, (N_MARKS, 1))
    transition[np.arange(N_MARKS), np.arange(N_MARKS)] += 0.5 * preference
    transition /= transition.sum(axis=1, keepdims=True)
    marks = np.empty(n, dtype=np.int64)
    marks[0] = 5
    draws = rng.random(n)
    cumulative = np.cumsum(transition, axis=1)
    for i in range(1, n):
        marks[i] = min(int(np.searchsorted(cumulative[marks[i - 1]], draws[i])), N_MARKS - 1)
    return marks, rng.poisson(mean_gap, n).astype(np.int64)


STYLES = {
    # ! " ( ) , . : ; ? ...
    "comma": (np.array([1, 1, 1, 1, 30, 12, 3, 8, 1, 1], float), 6.0),
    "period": (np.array([4, 6, 1, 1, 8, 30, 1, 1, 8, 4], float), 9.0),
    "colon": (np.array([1, 2, 4, 4, 14, 14, 10, 2, 1, 1], float), 7.0),
    "quote": (np.array([6, 20, 1, 1, 12, 14, 1, 1, 6, 3], float), 5.0),
}


def generated_corpus(seed: int, per_author: int = 4):
    rng = np.random.default_rng(seed)
    rows, labels = [], []
    for author, (preference, gap) in STYLES.items():
        for _ in range(per_author):
            features = compute_features(*styled_text(rng, preference, gap))
            rows.append(family_matrix("f1+f3+f5", features, None)[0])
            labels.append(author)
    return np.array(rows), np.array(labels, dtype=object)


def test_the_right_author_scores_high_and_a_wrong_one_low():
    X, y = generated_corpus(1)
    test = X[0]  # a "comma" text, left out of the reference set
    reference, labels = X[1:], y[1:]
    settings = ImpostersSettings()
    right = imposters_scores(test, reference[labels == "comma"], reference[labels != "comma"],
                             np.random.default_rng(5), settings)
    wrong = imposters_scores(test, reference[labels == "period"], reference[labels != "period"],
                             np.random.default_rng(5), settings)
    assert right[0] >= 0.95
    assert wrong[0] <= 0.05


def test_the_score_is_stylos_count_of_iterations():
    # one feature, all of it and every imposter in each iteration: a plain nearest-text vote
    tests = np.array([[0.0], [10.0]])
    candidate, imposters = np.array([[1.0], [2.0]]), np.array([[9.0], [30.0]])
    settings = ImpostersSettings(iterations=7, feature_share=1.0, imposter_share=1.0)
    assert imposters_scores(tests, candidate, imposters, np.random.default_rng(0), settings).tolist() == [1.0, 0.0]
    with pytest.raises(ValueError, match="no imposter"):
        imposters_scores(tests, candidate, imposters[:0], np.random.default_rng(0), settings)


def test_cases_never_share_a_text_with_the_reference_and_measure_well_on_clear_styles():
    X, y = generated_corpus(2, per_author=4)
    groups = np.repeat(np.arange(len(y) // 2), 2)  # two excerpts of each text
    rng = np.random.default_rng(3)
    cases = verification_cases(y, groups, seed=0, test_fraction=0.25, n_different=1, rng=rng)
    assert not set(groups[cases.reference]) & set(groups[cases.text])
    assert cases.same.sum() == (~cases.same).sum() == cases.text.size // 2
    assert np.all(y[cases.text][cases.same] == cases.candidate[cases.same])
    assert np.all(y[cases.text][~cases.same] != cases.candidate[~cases.same])
    settings = ImpostersSettings(iterations=30)
    draws = imposters_draws(rng, X.shape[1], cases.reference.size, settings)
    scores = score_cases(X[cases.text], X[cases.reference], y[cases.reference], cases.candidate, draws, settings)
    measures = case_measures(scores, cases.same, cases.text, 0.05, rng)
    # every same-author case scores high; a different-author case has its true author among the
    # imposters (the setting verify applies the band in), so it scores low
    assert scores[cases.same].min() >= 0.9
    assert scores[~cases.same].max() <= 0.2
    assert measures["auc_raw"] == 1.0
    assert measures["n_cases"] == cases.text.size


# --------------------------------------------------------------------------- the figure


def _summary(label: str = "") -> pd.DataFrame:
    rows = []
    for family in ("f3", "all", "words", "all+words"):
        for length in ("200", "800", "whole"):
            row = {"family": family + label, "length": length, "n_seeds": 3, "n_cases": 100}
            for measure in ("auc", "c_at_1", "f_05_u", "f1", "brier", "overall"):
                row[f"{measure}_mean"], row[f"{measure}_std"] = 0.8, 0.02
            rows.append(row)
    return pd.DataFrame(rows)


@pytest.mark.parametrize("kind", ["words", "one_word"])
def test_the_figure_keeps_every_text_inside_and_apart(kind, monkeypatch):
    from punctstyle.report.plots.verification import plot_verification
    from tests.unit.test_plots import LONG_TEXTS, _drawn_texts

    text = LONG_TEXTS[kind]
    summary = _summary()
    fig = plot_verification(summary, {f: f"{text} {f}" for f in summary["family"]}, title=text)
    texts = _drawn_texts(fig, monkeypatch)
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    boxes = []
    for item in texts:
        box = item.get_window_extent(renderer)
        assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= width + 1 and box.y1 <= height + 1, item.get_text()[:40]
        boxes.append((item.get_text()[:40], box.padded(-1.0)))
    for i, (first, a) in enumerate(boxes):
        for second, b in boxes[i + 1:]:
            assert not a.overlaps(b), f"texts {first!r} and {second!r} overlap"
    # word families dashed, punctuation solid
    handles, labels = plot_verification(_summary()).axes[0].get_legend_handles_labels()
    assert [(label, h.lines[0].get_linestyle()) for h, label in zip(handles, labels, strict=True)] == [
        ("f3", "-"), ("all", "-"), ("words", "--"), ("all+words", "--")]
