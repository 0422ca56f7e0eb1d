"""Tests of punctstyle.recognition: splits, baseline, KL nearest class, MLP, grid, tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import torch

from punctstyle import recognition as rec
from punctstyle.marks import FEATURE_SIZES, FEATURES, feature_column_names

SMALL = rec.MLPParams(hidden=64, max_epochs=60, patience=8)


# ----------------------------------------------------------------------------- helpers


def dirichlet_classes(n_classes: int, n_per_class: int, size: int, concentration: float, seed: int):
    """Documents drawn around well separated class means: Dirichlet(concentration * mean_c)."""
    rng = np.random.default_rng(seed)
    means = rng.dirichlet(np.full(size, 0.5), size=n_classes)
    means = (means + 1e-3) / (means + 1e-3).sum(axis=1, keepdims=True)
    labels = np.repeat([f"class{c:02d}" for c in range(n_classes)], n_per_class)
    X = np.vstack([rng.dirichlet(concentration * means[c], size=n_per_class) for c in range(n_classes)])
    return X, labels


def gaussian_classes(n_classes: int, n_per_class: int, dim: int, seed: int, separation: float = 3.0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(n_classes, dim)) * separation
    labels = np.repeat([f"c{c}" for c in range(n_classes)], n_per_class)
    X = centres[np.repeat(np.arange(n_classes), n_per_class)] + rng.normal(
        size=(n_classes * n_per_class, dim)
    )
    return X, labels


def feature_dict(n_classes: int, n_per_class: int, seed: int):
    """f1..f6 for synthetic classes: distributions for f1..f5, positive values for f6."""
    rng = np.random.default_rng(seed)
    features = {}
    labels = None
    for i, name in enumerate(FEATURES):
        X, labels = dirichlet_classes(n_classes, n_per_class, FEATURE_SIZES[name], 300.0, seed + i)
        features[name] = X * (5.0 if name == "f6" else 1.0)
    order = rng.permutation(labels.size)  # documents not grouped by class
    return {k: v[order] for k, v in features.items()}, labels[order]


# ----------------------------------------------------------------------------- feature sets


def test_feature_sets_resolve_to_the_papers_sets():
    assert rec.resolve_feature_set("all") == ("f1", "f2", "f3", "f4", "f5", "f6")
    assert rec.resolve_feature_set("f1+f3+f4+f5") == ("f1", "f3", "f4", "f5")
    assert rec.resolve_feature_set("f3") == ("f3",)
    assert rec.feature_set_label("f1+f3+f4+f5") == "{f1, f3, f4, f5}"
    assert rec.KL_FEATURE_SETS == ("f1", "f3", "f4", "f5")
    with pytest.raises(ValueError):
        rec.resolve_feature_set("f7")
    with pytest.raises(ValueError):
        rec.resolve_feature_set("f1+f1")


def test_stack_features_concatenates_in_set_order():
    features = {"f1": np.ones((3, 10)), "f3": np.zeros((3, 100)), "f5": np.full((3, 40), 2.0)}
    X = rec.stack_features(features, "f1+f3")
    assert X.shape == (3, 110)
    assert np.all(X[:, :10] == 1) and np.all(X[:, 10:] == 0)
    one = rec.stack_features({"f1": np.ones(10), "f5": np.zeros(40)}, ("f5", "f1"))
    assert one.shape == (1, 50) and one[0, 0] == 0 and one[0, -1] == 1
    with pytest.raises(KeyError):
        rec.stack_features(features, "f4")


# ----------------------------------------------------------------------------- split


def test_stratified_split_counts_per_class():
    sizes = {"one": 1, "two": 2, "three": 3, "seven": 7, "ten": 10, "thirteen": 13, "hundred": 100}
    labels = np.concatenate([[name] * n for name, n in sizes.items()])
    train, test = rec.stratified_split(labels, 0.2, np.random.default_rng(0))
    assert np.intersect1d(train, test).size == 0
    assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(labels.size))
    n_test = pd.Series(labels[test]).value_counts().to_dict()
    n_train = pd.Series(labels[train]).value_counts().to_dict()
    expected_test = {"one": 0, "two": 0, "three": 1, "seven": 1, "ten": 2, "thirteen": 3, "hundred": 20}
    for name, n in sizes.items():
        assert n_test.get(name, 0) == expected_test[name], name
        assert n_train[name] == n - expected_test[name] >= 1
    # closed set: every test class is in training
    assert set(labels[test]) <= set(labels[train])


def test_stratified_split_always_keeps_one_training_document():
    labels = np.array(["a"] + ["b"] * 4 + ["c"] * 10)
    train, test = rec.stratified_split(labels, 0.9, np.random.default_rng(0))
    n_train = pd.Series(labels[train]).value_counts().to_dict()
    # round(0.9 n) = 1, 4, 9 test documents, capped at n - 1 = 0, 3, 9
    assert n_train == {"a": 1, "b": 1, "c": 1}
    assert test.size == 0 + 3 + 9
    with pytest.raises(ValueError):
        rec.stratified_split(labels, 1.0, np.random.default_rng(0))


def test_stratified_split_is_deterministic_and_seed_dependent():
    labels = np.repeat(list("abcdefgh"), 12)
    first = rec.stratified_split(labels, 0.2, np.random.default_rng(3))
    again = rec.stratified_split(labels, 0.2, np.random.default_rng(3))
    other = rec.stratified_split(labels, 0.2, np.random.default_rng(4))
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not np.array_equal(first[1], other[1])
    assert first[1].size == other[1].size == 8 * 2  # round(0.2 * 12) = 2 per class


def test_row_split_samples_classes_and_is_deterministic():
    labels = np.repeat([f"a{i:02d}" for i in range(30)], 10)
    s1 = rec.row_split(labels, 10, seed=0, task="author")
    s2 = rec.row_split(labels, 10, seed=0, task="author")
    s3 = rec.row_split(labels, 10, seed=1, task="author")
    s4 = rec.row_split(labels, 10, seed=0, task="genre")
    assert s1.classes.size == 10 and set(s1.classes) <= set(labels)
    assert np.array_equal(s1.train_index, s2.train_index) and np.array_equal(s1.test_index, s2.test_index)
    assert not np.array_equal(s1.test_index, s3.test_index)
    assert not np.array_equal(s1.test_index, s4.test_index)
    assert set(labels[s1.train_index]) == set(s1.classes)
    assert s1.train_index.size == 80 and s1.test_index.size == 20
    everything = rec.row_split(labels, 30, seed=5)
    assert everything.classes.size == 30 and everything.train_index.size + everything.test_index.size == 300


def test_effective_class_sizes_caps_and_deduplicates():
    assert rec.effective_class_sizes((10, 50, 100, "all"), 32) == [10, 32]
    assert rec.effective_class_sizes(rec.DEFAULT_CLASS_SIZES, 651) == [10, 50, 100, 200, 400, 600, 651]
    with pytest.raises(ValueError):
        rec.effective_class_sizes((0,), 5)
    with pytest.raises(ValueError):
        rec.effective_class_sizes(("most",), 5)


# ----------------------------------------------------------------------------- baseline


def test_baseline_hand_example():
    train = ["a"] * 6 + ["b"] * 3 + ["c"]
    test = ["a", "a", "b", "c"]
    # (0.6 + 0.6 + 0.3 + 0.1) / 4
    assert rec.baseline_accuracy(train, test) == pytest.approx(0.4)
    # balanced classes: 1 / n_classes
    assert rec.baseline_accuracy(list("abcde") * 4, list("abcde")) == pytest.approx(0.2)
    assert math.isnan(rec.baseline_accuracy(train, []))


def test_accuracy():
    assert rec.accuracy(["a", "b", "c", "d"], ["a", "b", "x", "y"]) == 0.5


# ----------------------------------------------------------------------------- KL nearest


def test_class_signatures_are_training_means():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [0.2, 0.8]])
    classes, S, counts = rec.class_signatures(X, ["b", "a", "b", "b"])
    assert list(classes) == ["a", "b"]
    np.testing.assert_allclose(S, [[0.0, 1.0], [1.7 / 3, 1.3 / 3]])
    assert list(counts) == [1, 3]


def test_kl_nearest_on_separated_dirichlet_classes():
    X, y = dirichlet_classes(8, 40, 20, concentration=200.0, seed=1)
    train, test = rec.stratified_split(y, 0.2, np.random.default_rng(0))
    pred, n_fallback = rec.classify_kl(X[train], y[train], X[test])
    assert rec.accuracy(y[test], pred) > 0.9
    assert n_fallback == 0


def test_kl_nearest_uses_class_first_document_second():
    # d(p, q) is asymmetric: choose a case where the two orders disagree.
    signatures = np.array([[0.01, 0.40, 0.59], [0.38, 0.54, 0.08]])
    doc = np.array([[0.36, 0.14, 0.50]])
    from punctstyle.divergence import pairwise_kl

    forward = pairwise_kl(signatures, doc)[:, 0]
    backward = pairwise_kl(doc, signatures)[0]
    assert np.argmin(forward) != np.argmin(backward)
    nearest, _ = rec.kl_nearest(signatures, doc, fallback=0)
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
    nearest, n_fallback = rec.kl_nearest(signatures, docs, fallback=0)
    assert list(nearest) == [2, 1, 0, 0]
    assert n_fallback == 2
    # classify_kl falls back to the largest training class
    X_train = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    y_train = ["x", "y", "y", "x", "y"]
    pred, count = rec.classify_kl(X_train, y_train, np.array([[0.0, 0.0], [1.0, 0.0]]))
    assert list(pred) == ["y", "x"] and count == 1


# ----------------------------------------------------------------------------- MLP


def test_mlp_learns_separable_problem_and_shuffled_labels_do_not():
    X, y = gaussian_classes(4, 60, 12, seed=0)
    train, test = rec.stratified_split(y, 0.2, np.random.default_rng(0))
    model = rec.train_mlp(X[train], y[train], params=SMALL, seed=0, num_threads=1)
    assert rec.accuracy(y[test], model.predict(X[test])) > 0.9

    shuffled = np.random.default_rng(1).permutation(y)
    control = rec.train_mlp(X[train], shuffled[train], params=SMALL, seed=0, num_threads=1)
    base = rec.baseline_accuracy(shuffled[train], shuffled[test])
    acc = rec.accuracy(shuffled[test], control.predict(X[test]))
    assert abs(acc - base) < 0.2


def test_mlp_probabilities_and_classes():
    X, y = gaussian_classes(3, 30, 5, seed=2)
    model = rec.train_mlp(X, y, params=rec.MLPParams(hidden=16, max_epochs=10), seed=0, num_threads=1)
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
    params = rec.MLPParams(hidden=32, max_epochs=15, patience=5)
    a = rec.train_mlp(X, y, params=params, seed=7, num_threads=1)
    assert torch.equal(torch.get_rng_state(), rng_state)
    torch.manual_seed(99)  # the global RNG state must not matter
    rng_state = torch.get_rng_state()
    b = rec.train_mlp(X, y, params=params, seed=7, num_threads=1)
    c = rec.train_mlp(X, y, params=params, seed=8, num_threads=1)
    for key, value in a.network.state_dict().items():
        assert torch.equal(value, b.network.state_dict()[key]), key
    assert not torch.equal(a.network.state_dict()["0.weight"], c.network.state_dict()["0.weight"])
    assert torch.equal(torch.get_rng_state(), rng_state)
    assert torch.get_num_threads() == threads
    assert not torch.are_deterministic_algorithms_enabled()


def test_mlp_early_stopping_restores_best_weights():
    X, y = gaussian_classes(3, 40, 6, seed=4, separation=0.4)  # overlapping: val loss turns up
    params = rec.MLPParams(hidden=128, max_epochs=300, patience=5, batch_size=20)
    model = rec.train_mlp(X, y, params=params, seed=0, num_threads=1)
    assert model.epochs < params.max_epochs
    assert len(model.history) == model.epochs
    assert model.best_epoch == int(np.argmin(model.history)) + 1
    assert model.epochs == model.best_epoch + params.patience
    # the restored network has the best validation loss
    fit, val = rec.stratified_split(np.unique(y, return_inverse=True)[1], 0.1, np.random.default_rng(0))
    with torch.no_grad():
        logits = model.network(torch.as_tensor(model.standardise(X[val]), dtype=torch.float32))
    target = torch.as_tensor(np.unique(y, return_inverse=True)[1][val])
    loss = float(torch.nn.functional.cross_entropy(logits, target).detach())
    assert loss == pytest.approx(min(model.history), rel=1e-6)


def test_scaler_zero_variance_column_gets_scale_one():
    X = np.array([[1.0, 5.0], [3.0, 5.0]])
    mean, scale = rec.fit_scaler(X)
    np.testing.assert_allclose(mean, [2.0, 5.0])
    np.testing.assert_allclose(scale, [1.0, 1.0])


def test_train_mlp_rejects_bad_input():
    with pytest.raises(ValueError):
        rec.train_mlp(np.array([[np.nan, 1.0], [0.0, 1.0]]), ["a", "b"], params=SMALL)
    with pytest.raises(ValueError):
        rec.train_mlp(np.ones((3, 2)), ["a", "b"], params=SMALL)
    with pytest.raises(ValueError):
        rec.resolve_device("tpu")
    if not torch.cuda.is_available():
        assert rec.resolve_device("auto") == "cpu"
        with pytest.raises(ValueError):
            rec.resolve_device("cuda")


def test_save_load_round_trip(tmp_path):
    X, y = gaussian_classes(3, 30, 6, seed=5)
    X[:, 2] = 1.0  # a zero-variance column
    model = rec.train_mlp(
        X, y, params=rec.MLPParams(hidden=16, max_epochs=8), seed=1, feature_set=("f1",), num_threads=1
    )
    path = tmp_path / "models" / "mlp.pt"
    rec.save_model(path, model)
    assert sorted(p.name for p in path.parent.iterdir()) == ["mlp.pt"]  # no temporary left over
    payload = torch.load(path, weights_only=True)
    assert payload["torch_version"] == torch.__version__
    assert payload["classes"] == ["c0", "c1", "c2"]
    assert payload["params"]["hidden"] == 16
    loaded = rec.load_model(path)
    np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
    np.testing.assert_array_equal(loaded.scale, model.scale)
    assert loaded.scale[2] == 1.0
    assert loaded.feature_set == ("f1",) and loaded.params == model.params
    (tmp_path / "bad.pt").write_bytes(b"")
    torch.save({"format": "other"}, tmp_path / "bad.pt")
    with pytest.raises(ValueError):
        rec.load_model(tmp_path / "bad.pt")


# ----------------------------------------------------------------------------- grid


def test_grid_rows_share_the_split_and_kl_runs_on_distribution_features():
    features, labels = feature_dict(6, 12, seed=0)
    experiments = list(
        rec.recognition_experiments(
            features,
            labels,
            task="author",
            class_sizes=(3, 10, "all"),
            seeds=(0, 1),
            feature_sets=("f3", "f1+f3+f4+f5", "all"),
            methods=("kl", "mlp"),
            mlp_params=rec.MLPParams(hidden=16, max_epochs=5),
            num_threads=1,
        )
    )
    results = rec.results_frame(experiments)
    # sizes (3, 6): 2 rows x 2 seeds x (1 KL + 3 MLP)
    assert len(results) == 2 * 2 * 4
    assert set(results.loc[results["method"] == "kl", "feature_set"]) == {"f3"}
    for _, group in results.groupby(["n_classes", "seed"]):
        assert group["n_train"].nunique() == 1 and group["n_test"].nunique() == 1
        assert group["baseline"].nunique() == 1
    by_row = {}
    for e in experiments:
        by_row.setdefault((e.n_classes, e.seed), []).append(e)
    for row in by_row.values():
        assert all(np.array_equal(row[0].test_index, e.test_index) for e in row)
    for e in experiments:
        cm = e.confusion()
        assert list(cm.index) == list(e.classes) and cm.to_numpy().sum() == e.test_index.size
        assert e.per_class()["n_test"].sum() == e.test_index.size
    full = results[results["n_classes"] == 6]
    assert (full["n_train"] + full["n_test"] == 72).all()
    assert (results.loc[results["method"] == "kl", "accuracy"] > 0.9).all()
    assert results["accuracy"].between(0, 1).all()


def test_grid_from_tables_drops_null_labels_and_is_deterministic():
    features, labels = feature_dict(4, 10, seed=1)
    genres = labels.astype(object)
    genres[::7] = None
    meta = pd.DataFrame({"book_id": np.arange(labels.size), "genre": genres})
    tables = {
        name: pd.concat([meta, pd.DataFrame(features[name], columns=feature_column_names(name))], axis=1)
        for name in FEATURES
    }
    kwargs = dict(task="genre", class_sizes=("all",), seeds=(0,), feature_sets=("f1", "f3"), methods=("kl",))
    a = rec.run_recognition_grid(tables, "genre", **kwargs)
    b = rec.run_recognition_grid(tables, "genre", **kwargs)
    pd.testing.assert_frame_equal(a, b)
    assert (a["n_train"] + a["n_test"] == int(pd.notna(genres).sum())).all()
    assert list(a["feature_set"]) == ["f1", "f3"]
    with pytest.raises(ValueError):
        rec.run_recognition_grid(features, genres, **kwargs)


def test_confusion_matrix_and_per_class_accuracy():
    y_true = ["a", "a", "b", "b", "b", "c"]
    y_pred = ["a", "b", "b", "b", "a", "a"]
    cm = rec.confusion_matrix(y_true, y_pred)
    assert list(cm.index) == ["a", "b", "c"] and list(cm.columns) == ["a", "b", "c"]
    np.testing.assert_array_equal(cm.to_numpy(), [[1, 1, 0], [1, 2, 0], [1, 0, 0]])
    assert cm.to_numpy().sum() == 6
    wide = rec.confusion_matrix(y_true, y_pred, labels=["a", "b", "c", "d"])
    assert wide.shape == (4, 4) and wide.loc["d"].sum() == 0
    per = rec.per_class_accuracy(y_true, y_pred)
    assert list(per["class"]) == ["a", "b", "c"]
    assert list(per["n_test"]) == [2, 3, 1]
    np.testing.assert_allclose(per["accuracy"], [0.5, 2 / 3, 0.0])


def test_predictions_frame():
    features, labels = feature_dict(3, 10, seed=2)
    experiments = list(
        rec.recognition_experiments(
            features, labels, class_sizes=("all",), seeds=(0,), feature_sets=("f3",), methods=("kl",)
        )
    )
    ids = np.arange(labels.size) + 1000
    frame = rec.predictions_frame(experiments, doc_ids=ids)
    e = experiments[0]
    assert len(frame) == e.test_index.size
    assert list(frame["doc"]) == list(ids[e.test_index])
    assert list(frame["true"]) == list(labels[e.test_index])


# ----------------------------------------------------------------------------- summary


def hand_results() -> pd.DataFrame:
    rows = []
    for seed, (acc1, acc3, n_train, base) in enumerate([(0.6, 0.8, 200, 0.2), (0.8, 0.6, 210, 0.22)]):
        for fs, acc in (("f1", acc1), ("f3", acc3)):
            rows.append(
                dict(
                    task="author",
                    n_classes=10,
                    seed=seed,
                    method="kl",
                    feature_set=fs,
                    n_train=n_train,
                    n_test=50,
                    accuracy=acc,
                    baseline=base,
                    n_fallback=0,
                    epochs=0,
                )
            )
    rows.append(
        dict(
            task="author",
            n_classes=50,
            seed=0,
            method="kl",
            feature_set="f3",
            n_train=800,
            n_test=200,
            accuracy=0.66,
            baseline=0.029,
            n_fallback=0,
            epochs=0,
        )
    )
    return pd.DataFrame(rows)


def test_summarise_means_and_stds_over_seeds():
    summary = rec.summarise(hand_results())
    assert list(summary["n_classes"]) == [10, 50]
    first = summary.iloc[0]
    assert first["n_seeds"] == 2
    assert first["n_train"] == pytest.approx(205.0)
    assert first["accuracy[f1]"] == pytest.approx(0.7)
    assert first["accuracy_std[f1]"] == pytest.approx(np.std([0.6, 0.8], ddof=1))
    assert first["baseline"] == pytest.approx(0.21)
    second = summary.iloc[1]
    assert math.isnan(second["accuracy[f1]"]) and second["accuracy[f3]"] == pytest.approx(0.66)
    assert math.isnan(second["accuracy_std[f3]"])
    columns = list(summary.columns)
    assert columns[:8] == [
        "task",
        "method",
        "n_classes",
        "n_seeds",
        "n_train",
        "n_test",
        "accuracy[f1]",
        "accuracy[f3]",
    ]
    assert columns[8] == "baseline"


def test_to_markdown_layout():
    text = rec.to_markdown(rec.summarise(hand_results()))
    lines = text.strip().splitlines()
    assert lines[0] == "**author recognition, KL nearest class**"
    assert lines[2] == "| No. authors | Training size | Testing size | f1 | f3 | baseline |"
    assert lines[3] == "| ---: | ---: | ---: | ---: | ---: | ---: |"
    assert lines[4] == "| 10 | 205 ± 7 | 50 | 0.70 ± 0.14 | 0.70 ± 0.14 | 0.21 ± 0.014 |"
    assert lines[5] == "| 50 | 800 | 200 |  | 0.66 | 0.029 |"
    table = rec.markdown_table(["a|b", "c"], [[1, "x"]], align=["l", "c"])
    assert table == "| a\\|b | c |\n| :--- | :---: |\n| 1 | x |\n"
