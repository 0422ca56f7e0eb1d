"""Tests of punctstyle.classifiers: the registry, KL nearest class, the MLP and its stopping rules."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from punctstyle import classifiers
from punctstyle.experiments import metrics as me
from punctstyle.experiments import splits as sp
from punctstyle.classifiers import kl_nearest as kl
from punctstyle.classifiers import mlp
from punctstyle.marks import DISTRIBUTION_FEATURES
from punctstyle.analyses.recognition import run_recognition_grid
from punctstyle.settings import load_schema
from tests.unit.recognition_data import dirichlet_classes, gaussian_classes, mlp_params

SMALL = mlp_params(hidden=64, max_epochs=60, patience=8)


# ----------------------------------------------------------------------------- registry


def test_schema_methods_are_the_registered_classifiers():
    methods = load_schema()["properties"]["recognition"]["properties"]["methods"]
    assert sorted(methods["properties"]) == sorted(classifiers.CLASSIFIERS)
    assert sorted(methods["default"]) == sorted(classifiers.CLASSIFIERS)
    for name, spec in classifiers.CLASSIFIERS.items():
        assert callable(spec.load_factory()), name
        if spec.distribution_features_only:
            assert tuple(methods["properties"][name]["items"]["enum"]) == DISTRIBUTION_FEATURES
    assert classifiers.display_name("mlp") == "neural network"
    assert classifiers.display_name("unknown") == "unknown"
    with pytest.raises(ValueError, match="unknown classifier"):
        classifiers.classifier_spec("svm")


class NearestCentroid:
    """A trivial classifier, registered as docs/CONVENTIONS.md says: nearest class mean (Euclidean)."""

    def __init__(self, *, seed: int, feature_set: tuple[str, ...]) -> None:
        self.classes = np.empty(0, dtype=object)
        self.centroids = np.empty((0, 0))

    def fit(self, X: np.ndarray, y: np.ndarray) -> "NearestCentroid":
        self.classes, inverse = np.unique(np.asarray(y, dtype=object), return_inverse=True)
        self.centroids = np.stack([X[inverse == j].mean(axis=0) for j in range(self.classes.size)])
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        distance = ((X[:, None, :] - self.centroids[None, :, :]) ** 2).sum(axis=2)
        return self.classes[np.argmin(distance, axis=1)]


def test_a_registered_classifier_runs_through_the_grid(monkeypatch):
    # the documented step 2: one entry in punctstyle.classifiers.CLASSIFIERS
    spec = classifiers.ClassifierSpec("nearest centroid", f"{__name__}:NearestCentroid")
    monkeypatch.setitem(classifiers.CLASSIFIERS, "centroid", spec)
    X, labels = gaussian_classes(4, 20, 6, seed=0, separation=4.0)
    features = {"f1": X[:, :3], "f2": X[:, 3:]}
    results = run_recognition_grid(features, labels, task="author", class_sizes=[4], seeds=[0, 1],
                                   methods={"centroid": ["f1+f2"]}, test_fraction=0.25)
    assert results["method"].tolist() == ["centroid", "centroid"]
    assert (results["accuracy"] == 1.0).all() and (results["n_test"] == 20).all()
    assert classifiers.display_name("centroid") == "nearest centroid"
    # on a single coordinate the classes overlap: the accuracy is computed, not assumed
    overlap = run_recognition_grid({"f1": np.zeros((80, 1))}, labels, task="author", class_sizes=[4], seeds=[0],
                                   methods={"centroid": ["f1"]}, test_fraction=0.25)
    assert overlap["accuracy"].iloc[0] == pytest.approx(0.25)


def test_kl_classifier_matches_classify_kl():
    X, y = dirichlet_classes(5, 20, 12, concentration=100.0, seed=2)
    train, test = sp.stratified_split(y, 0.2, np.random.default_rng(0))
    expected, n_fallback = kl.classify_kl(X[train], y[train], X[test])
    model = classifiers.build_classifier("kl", seed=0, feature_set=("f1",)).fit(X[train], y[train])
    np.testing.assert_array_equal(model.predict(X[test]), expected)
    assert model.diagnostics() == {"n_fallback": n_fallback}


# ----------------------------------------------------------------------------- stopping rules


def test_plateau_stop_epoch():
    # improvements of 1, 0.5, then below the tolerance (epochs 4, 5, 6 are stale), then 0.01
    losses = [3.0, 2.0, 1.5, 1.5 - 1e-8, 1.5, 1.6, 1.49]
    assert mlp.plateau_stop_epoch(losses, tolerance=1e-6, patience=3) == 6
    assert mlp.plateau_stop_epoch(losses, tolerance=1e-6, patience=5) is None
    # an improvement above the tolerance resets the count
    assert mlp.plateau_stop_epoch([1.0, 1.0, 0.5, 0.5, 0.5], tolerance=1e-6, patience=2) == 5
    # a larger tolerance counts small improvements as stale
    assert mlp.plateau_stop_epoch([1.0, 0.9, 0.85, 0.82], tolerance=0.2, patience=3) == 4


def test_paper_stopping_stops_on_a_training_loss_plateau():
    X, y = gaussian_classes(3, 20, 4, seed=6, separation=5.0)
    params = mlp_params(hidden=16, max_epochs=1000, patience=3, tolerance=1e-2, batch_size=60)
    model = mlp.train_mlp(X, y, params=params, seed=0, num_threads=1)
    assert model.epochs < params.max_epochs
    assert len(model.history) == model.epochs == model.best_epoch  # the last weights are kept
    assert mlp.plateau_stop_epoch(model.history, params.tolerance, params.patience) == model.epochs
    again = mlp.train_mlp(X, y, params=params, seed=0, num_threads=1)
    assert again.history == model.history  # deterministic for a seed
    with pytest.raises(ValueError, match="stopping rule"):
        mlp_params(stopping="sometimes")


def test_mlp_classifier_from_config_block():
    config = {"hidden_units": 8, "learning_rate": 0.01, "batch_size": 10, "max_epochs": 3, "patience": 2,
              "stopping": "paper", "tolerance": 0.0, "validation_fraction": 0.1, "device": "cpu", "threads": 1}
    X, y = gaussian_classes(2, 10, 3, seed=1)
    model = classifiers.build_classifier("mlp", seed=0, feature_set=("f1",), params=config, num_threads=1)
    assert model.fit(X, y).diagnostics() == {"epochs": 3}
    assert model.params.hidden == 8 and set(model.predict(X)) <= {"c0", "c1"}


# ----------------------------------------------------------------------------- KL nearest


def test_class_signatures_are_training_means():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [0.2, 0.8]])
    classes, S, counts = kl.class_signatures(X, ["b", "a", "b", "b"])
    assert list(classes) == ["a", "b"]
    np.testing.assert_allclose(S, [[0.0, 1.0], [1.7 / 3, 1.3 / 3]])
    assert list(counts) == [1, 3]


def test_kl_nearest_on_separated_dirichlet_classes():
    X, y = dirichlet_classes(8, 40, 20, concentration=200.0, seed=1)
    train, test = sp.stratified_split(y, 0.2, np.random.default_rng(0))
    pred, n_fallback = kl.classify_kl(X[train], y[train], X[test])
    assert me.accuracy(y[test], pred) > 0.9
    assert n_fallback == 0


def test_kl_nearest_uses_class_first_document_second():
    # d(p, q) is asymmetric: choose a case where the two orders disagree.
    signatures = np.array([[0.01, 0.40, 0.59], [0.38, 0.54, 0.08]])
    doc = np.array([[0.36, 0.14, 0.50]])
    from punctstyle.divergence import pairwise_kl

    forward = pairwise_kl(signatures, doc)[:, 0]
    backward = pairwise_kl(doc, signatures)[0]
    assert np.argmin(forward) != np.argmin(backward)
    nearest, _ = kl.kl_nearest(signatures, doc, fallback=0)
    assert nearest[0] == np.argmin(forward)


def test_kl_nearest_nan_never_wins_and_all_nan_falls_back():
    signatures = np.array([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5], [0.0, 0.2, 0.8]])
    docs = np.array(
        [
            [0.0, 0.2, 0.8],  # NaN for class 0 (no common support), > 0 for class 1, 0 for class 2
            [0.0, 0.5, 0.5],  # NaN for class 0, 0 for class 1
            [0.0, 0.0, 0.0],  # all NaN -> fallback
            [0.0, 0.0, 0.0],
        ]
    )
    nearest, n_fallback = kl.kl_nearest(signatures, docs, fallback=0)
    assert list(nearest) == [2, 1, 0, 0]
    assert n_fallback == 2
    # classify_kl falls back to the largest training class
    X_train = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    y_train = ["x", "y", "y", "x", "y"]
    pred, count = kl.classify_kl(X_train, y_train, np.array([[0.0, 0.0], [1.0, 0.0]]))
    assert list(pred) == ["y", "x"] and count == 1


# ----------------------------------------------------------------------------- MLP


def test_mlp_learns_separable_problem_and_shuffled_labels_do_not():
    X, y = gaussian_classes(4, 60, 12, seed=0)
    train, test = sp.stratified_split(y, 0.2, np.random.default_rng(0))
    model = mlp.train_mlp(X[train], y[train], params=SMALL, seed=0, num_threads=1)
    assert me.accuracy(y[test], model.predict(X[test])) > 0.9

    shuffled = np.random.default_rng(1).permutation(y)
    control = mlp.train_mlp(X[train], shuffled[train], params=SMALL, seed=0, num_threads=1)
    base = me.baseline_accuracy(shuffled[train], shuffled[test])
    acc = me.accuracy(shuffled[test], control.predict(X[test]))
    assert abs(acc - base) < 0.2


def test_mlp_probabilities_and_classes():
    X, y = gaussian_classes(3, 30, 5, seed=2)
    model = mlp.train_mlp(X, y, params=mlp_params(hidden=16, max_epochs=10), seed=0, num_threads=1)
    proba = model.predict_proba(X[:7])
    assert proba.shape == (7, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-5)
    assert list(model.classes) == ["c0", "c1", "c2"]
    assert model.device == "cpu"


def test_mlp_is_deterministic_for_a_seed_and_restores_global_state():
    X, y = gaussian_classes(3, 40, 8, seed=3)
    torch.manual_seed(1234)
    rng_state = torch.get_rng_state()
    threads = torch.get_num_threads()
    params = mlp_params(hidden=32, max_epochs=15, patience=5)
    a = mlp.train_mlp(X, y, params=params, seed=7, num_threads=1)
    assert torch.equal(torch.get_rng_state(), rng_state)
    torch.manual_seed(99)  # the global RNG state must not matter
    rng_state = torch.get_rng_state()
    b = mlp.train_mlp(X, y, params=params, seed=7, num_threads=1)
    c = mlp.train_mlp(X, y, params=params, seed=8, num_threads=1)
    for key, value in a.network.state_dict().items():
        assert torch.equal(value, b.network.state_dict()[key]), key
    assert not torch.equal(a.network.state_dict()["0.weight"], c.network.state_dict()["0.weight"])
    assert torch.equal(torch.get_rng_state(), rng_state)
    assert torch.get_num_threads() == threads
    assert not torch.are_deterministic_algorithms_enabled()


def test_mlp_validation_stopping_restores_best_weights():
    X, y = gaussian_classes(3, 40, 6, seed=4, separation=0.4)  # overlapping: val loss turns up
    params = mlp_params(hidden=128, max_epochs=300, patience=5, batch_size=20, stopping="validation")
    model = mlp.train_mlp(X, y, params=params, seed=0, num_threads=1)
    assert model.epochs < params.max_epochs
    assert len(model.history) == model.epochs
    assert model.best_epoch == int(np.argmin(model.history)) + 1
    assert model.epochs == model.best_epoch + params.patience
    # the restored network has the best validation loss
    fit, val = sp.stratified_split(np.unique(y, return_inverse=True)[1], 0.1, np.random.default_rng(0))
    with torch.no_grad():
        logits = model.network(torch.as_tensor(model.standardise(X[val]), dtype=torch.float32))
    target = torch.as_tensor(np.unique(y, return_inverse=True)[1][val])
    loss = float(torch.nn.functional.cross_entropy(logits, target).detach())
    assert loss == pytest.approx(min(model.history), rel=1e-6)


def test_scaler_zero_variance_column_gets_scale_one():
    X = np.array([[1.0, 5.0], [3.0, 5.0]])
    mean, scale = mlp.fit_scaler(X)
    np.testing.assert_allclose(mean, [2.0, 5.0])
    np.testing.assert_allclose(scale, [1.0, 1.0])


def test_train_mlp_rejects_bad_input():
    with pytest.raises(ValueError):
        mlp.train_mlp(np.array([[np.nan, 1.0], [0.0, 1.0]]), ["a", "b"], params=SMALL, seed=0)
    with pytest.raises(ValueError):
        mlp.train_mlp(np.ones((3, 2)), ["a", "b"], params=SMALL, seed=0)
    with pytest.raises(ValueError):
        mlp.resolve_device("tpu")
    if not torch.cuda.is_available():
        assert mlp.resolve_device("auto") == "cpu"
        with pytest.raises(ValueError):
            mlp.resolve_device("cuda")


def test_save_load_round_trip(tmp_path):
    X, y = gaussian_classes(3, 30, 6, seed=5)
    X[:, 2] = 1.0  # a zero-variance column
    model = mlp.train_mlp(
        X, y, params=mlp_params(hidden=16, max_epochs=8), seed=1, feature_set=("f1",), num_threads=1
    )
    path = tmp_path / "models" / "mlp.pt"
    mlp.save_model(path, model)
    assert sorted(p.name for p in path.parent.iterdir()) == ["mlp.pt"]  # no temporary left over
    payload = torch.load(path, weights_only=True)
    assert payload["torch_version"] == torch.__version__
    assert payload["classes"] == ["c0", "c1", "c2"]
    assert payload["params"]["hidden"] == 16
    loaded = mlp.load_model(path)
    np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
    np.testing.assert_array_equal(loaded.scale, model.scale)
    assert loaded.scale[2] == 1.0
    assert loaded.feature_set == ("f1",) and loaded.params == model.params
    (tmp_path / "bad.pt").write_bytes(b"")
    torch.save({"format": "other"}, tmp_path / "bad.pt")
    with pytest.raises(ValueError):
        mlp.load_model(tmp_path / "bad.pt")


