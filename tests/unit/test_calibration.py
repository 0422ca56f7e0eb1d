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
    record = cal.cross_fitted_record(proba, truth, np.arange(4000) % 5)
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


def test_the_table_after_is_out_of_sample_each_fold_scaled_by_the_other_folds_temperature():
    sharp, sharp_truth = overconfident(600, 4, accuracy=0.6, seed=4)
    fair, fair_truth = overconfident(600, 4, accuracy=0.97, seed=5)
    proba, truth = np.concatenate([sharp, fair]), np.concatenate([sharp_truth, fair_truth])
    folds = np.repeat([0, 1], 600)
    record = cal.cross_fitted_record(proba, truth, folds)
    t0, t1 = cal.fit_temperature(fair, fair_truth), cal.fit_temperature(sharp, sharp_truth)
    assert record["fold_temperatures"] == {"0": t0, "1": t1}
    assert record["temperature"] == cal.fit_temperature(proba, truth)
    after = np.concatenate([cal.scaled_probabilities(sharp, t0), cal.scaled_probabilities(fair, t1)])
    assert record["after"] == cal.reliability(after, truth)
    assert record["nll_after"] == cal.mean_nll(after, truth)
    assert record["before"] == cal.reliability(proba, truth)
    assert (record["folds"], record["n_predictions"]) == (2, 1200)
    # fold 0 (right 60 % of the time) is scaled by the temperature of fold 1 (right 97 %): it stays
    # over-confident out of sample, which the in-sample table of one pooled temperature would hide
    in_sample = cal.reliability(cal.scaled_probabilities(proba, record["temperature"]), truth)
    assert record["after"]["ece"] > in_sample["ece"]
    assert t1 > t0


def test_text_folds_keep_a_text_together_and_spread_each_author_evenly():
    labels = ["a"] * 7 + ["b"] * 3 + ["c"] * 12
    groups = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "b1", "b2", "b3"] + [f"c{i // 2}" for i in range(12)]
    folds = cal.text_folds(labels, groups, 3, np.random.default_rng(0))
    assert folds.shape == (22,) and set(folds.tolist()) <= {0, 1, 2}
    assert all(folds[i] == folds[i + 1] for i in range(10, 22, 2))  # a text's two excerpts, one fold
    per_text = {g: f for g, f in zip(groups, folds.tolist(), strict=True)}
    for author, n_texts in (("a", 7), ("b", 3), ("c", 6)):
        counts = np.bincount([f for g, f in per_text.items() if g.startswith(author)], minlength=3)
        assert sorted(counts.tolist()) == sorted([n_texts // 3 + (k < n_texts % 3) for k in range(3)])
    assert (cal.text_folds(labels, groups, 3, np.random.default_rng(0)) == folds).all()
    with pytest.raises(ValueError, match="at least 2 folds"):
        cal.text_folds(labels, groups, 1, np.random.default_rng(0))


def test_aligned_probabilities_put_each_column_under_its_class():
    proba = np.array([[0.25, 0.75], [0.5, 0.5]])
    aligned = cal.aligned_probabilities(proba, ["c", "a"], ["a", "b", "c"])
    assert aligned.tolist() == [[0.75, 0.0, 0.25], [0.5, 0.0, 0.5]]


class LookupModel:
    """A network stand-in: input ``[j]`` gets 0.8 on class ``j`` (the rest shared evenly)."""

    def __init__(self, labels):
        self.classes = np.unique(np.asarray(labels).astype(str))

    def predict_proba(self, X):
        n = self.classes.size
        proba = np.full((len(X), n), 0.2 / (n - 1))
        proba[np.arange(len(X)), np.asarray(X, dtype=np.int64)[:, 0]] = 0.8
        return proba


class LookupClassifier:
    """A registered-classifier stand-in (fit, predict) whose network is a :class:`LookupModel`."""

    def __init__(self, trained):
        self.trained = trained

    def fit(self, X, labels):
        self.model = LookupModel(labels)
        self.trained.append(self.model)
        return self

    def predict(self, X):
        return self.model.classes[np.argmax(self.model.predict_proba(X), axis=1)]


class CountingTrainer:
    """Trains :class:`LookupModel` through the driver and counts the trainings; a text cut below
    10 marks reads as author 0."""

    def __init__(self):
        self.trained = []

    def estimator(self):
        from punctstyle.attribution.bundle_build import INPUTS
        from punctstyle.experiments.driver import Estimator

        return Estimator("mlp", lambda seed, view: LookupClassifier(self.trained), (INPUTS,))

    @staticmethod
    def network(fitted):
        return fitted.model

    def inputs_of(self, marks, gaps):
        return np.array([float(marks[0]) if len(marks) >= 10 else 0.0])


def test_the_mlp_curve_and_the_calibration_share_one_network_per_fold():
    from punctstyle.attribution.bundle import AttributionSettings
    from punctstyle.attribution.bundle_build import cross_fitted_mlp
    from punctstyle.settings import schema_defaults

    labels = np.repeat(np.array(["a", "b", "c"], dtype=object), 4)
    author = np.repeat([0, 1, 2], 4)
    sequences = [(np.full(30, a, dtype=np.uint8), np.ones(30, dtype=np.int64)) for a in author]
    settings = AttributionSettings.from_config({**schema_defaults()["attribution"], "mark_grid": [5, 20],
                                                "test_fraction": 0.5, "seed": 0})
    folds = cal.text_folds(labels, None, 2, np.random.default_rng(0))
    trainer = CountingTrainer()
    result = cross_fitted_mlp(sequences, labels, author[:, None].astype(float), settings, trainer, folds)
    assert len(trainer.trained) == 2 and result["model"] is trainer.trained[0]  # one training a fold, not two
    # every book held out once: right whole and at 20 marks; at 5 marks only author a's 4 books
    assert result["full"] == {"n_test": 12, "n_right": 12} and result["full_accuracy"] == 1.0
    assert result["curve"] == [{"n_marks": 5, "accuracy": 4 / 12, "n_test": 12, "n_right": 4},
                               {"n_marks": 20, "accuracy": 1.0, "n_test": 12, "n_right": 12}]
    assert result["calibration"]["n_predictions"] == 12 * 3 and result["calibration"]["folds"] == 2
