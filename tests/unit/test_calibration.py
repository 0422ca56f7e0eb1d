"""Temperature scaling of the attribution MLP's probabilities (issue 22 item 18)."""

from __future__ import annotations

import numpy as np
import pytest

from punctstyle.attribution import calibration as cal


def overconfident(n: int, n_classes: int, accuracy: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Predictions that give 0.99 to their top class but are right only ``accuracy`` of the time."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_classes, size=n)
    right = rng.random(n) < accuracy
    top = np.where(right, truth, (truth + rng.integers(1, n_classes, size=n)) % n_classes)
    proba = np.full((n, n_classes), 0.01 / (n_classes - 1))
    proba[np.arange(n), top] = 0.99
    return proba, truth


def test_scaled_probabilities_keep_order_and_sum_to_one():
    proba = np.array([[0.7, 0.2, 0.1], [0.05, 0.9, 0.05]])
    for t in (0.5, 1.0, 3.0):
        scaled = cal.scaled_probabilities(proba, t)
        assert np.allclose(scaled.sum(axis=1), 1.0)
        assert (scaled.argsort(axis=1) == proba.argsort(axis=1)).all()
    assert np.allclose(cal.scaled_probabilities(proba, 1.0), proba)
    assert cal.scaled_probabilities(proba, 3.0)[0, 0] < 0.7 < cal.scaled_probabilities(proba, 0.5)[0, 0]


def test_overconfident_predictions_are_softened_to_their_accuracy():
    proba, truth = overconfident(4000, 5, accuracy=0.7, seed=1)
    record = cal.calibration_record(proba, truth)
    assert record["temperature"] > 1.5
    assert record["nll_after"] < record["nll_before"]
    assert record["after"]["ece"] < 0.03 < 0.2 < record["before"]["ece"]
    (after_bin,) = [b for b in record["after"]["bins"] if b["n"] > 3000]
    assert after_bin["confidence"] == pytest.approx(0.7, abs=0.03)
    assert sum(b["n"] for b in record["before"]["bins"]) == record["n_predictions"] == 4000


def test_calibrated_predictions_keep_a_temperature_near_one():
    rng = np.random.default_rng(2)
    logits = rng.normal(size=(3000, 4)) * 2
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    truth = np.array([rng.choice(4, p=p) for p in proba])  # drawn from the probabilities themselves
    assert cal.fit_temperature(proba, truth) == pytest.approx(1.0, abs=0.15)


def test_reliability_bins_and_ece_by_hand():
    proba = np.array([[0.95, 0.05], [0.95, 0.05], [0.55, 0.45], [0.55, 0.45]])
    truth = np.array([0, 1, 0, 0])
    table = cal.reliability(proba, truth)
    assert [(b["low"], b["n"], b["accuracy"]) for b in table["bins"]] == [(0.5, 2, 1.0), (0.9, 2, 0.5)]
    assert table["ece"] == pytest.approx(0.5 * abs(1.0 - 0.55) + 0.5 * abs(0.5 - 0.95))


def test_all_right_held_out_predictions_never_sharpen():
    proba, truth = overconfident(200, 3, accuracy=1.0, seed=3)
    assert cal.fit_temperature(proba * 0 + np.where(np.eye(3)[truth] > 0, 0.6, 0.2), truth) == pytest.approx(1.0, abs=1e-3)
