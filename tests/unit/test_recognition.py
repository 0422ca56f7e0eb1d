"""Tests of the recognition grid and its parts: feature sets, splits, metrics (punctstyle.analyses.recognition,
punctstyle.featuresets, punctstyle.experiments.splits, punctstyle.experiments.metrics, punctstyle.analyses.paper.recognition_run)."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from punctstyle import featuresets as fs
from punctstyle.experiments import metrics as me
from punctstyle.analyses import recognition as rec
from punctstyle.experiments import splits as sp
from punctstyle.analyses.paper import duplicates_full_corpus_row, recognition_run
from punctstyle.marks import FEATURES, feature_column_names
from punctstyle.settings import schema_default
from tests.unit.recognition_data import feature_dict, mlp_params


# ----------------------------------------------------------------------------- feature sets


def test_feature_sets_resolve_to_the_papers_sets():
    assert fs.resolve_feature_set("all") == ("f1", "f2", "f3", "f4", "f5", "f6")
    assert fs.resolve_feature_set("f1+f3+f4+f5") == ("f1", "f3", "f4", "f5")
    assert fs.resolve_feature_set("f3") == ("f3",)
    assert fs.feature_set_label("f1+f3+f4+f5") == "{f1, f3, f4, f5}"
    assert fs.KL_FEATURE_SETS == ("f1", "f3", "f4", "f5")
    with pytest.raises(ValueError):
        fs.resolve_feature_set(f"f{len(FEATURES) + 1}")
    with pytest.raises(ValueError):
        fs.resolve_feature_set("f1+f1")


def test_stack_features_concatenates_in_set_order():
    features = {"f1": np.ones((3, 10)), "f3": np.zeros((3, 100)), "f5": np.full((3, 40), 2.0)}
    X = fs.stack_features(features, "f1+f3")
    assert X.shape == (3, 110)
    assert np.all(X[:, :10] == 1) and np.all(X[:, 10:] == 0)
    one = fs.stack_features({"f1": np.ones(10), "f5": np.zeros(40)}, ("f5", "f1"))
    assert one.shape == (1, 50) and one[0, 0] == 0 and one[0, -1] == 1
    with pytest.raises(KeyError):
        fs.stack_features(features, "f4")


# ----------------------------------------------------------------------------- split


def test_stratified_split_counts_per_class():
    sizes = {"one": 1, "two": 2, "three": 3, "seven": 7, "ten": 10, "thirteen": 13, "hundred": 100}
    labels = np.concatenate([[name] * n for name, n in sizes.items()])
    train, test = sp.stratified_split(labels, 0.2, np.random.default_rng(0))
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
    train, test = sp.stratified_split(labels, 0.9, np.random.default_rng(0))
    n_train = pd.Series(labels[train]).value_counts().to_dict()
    # round(0.9 n) = 1, 4, 9 test documents, capped at n - 1 = 0, 3, 9
    assert n_train == {"a": 1, "b": 1, "c": 1}
    assert test.size == 0 + 3 + 9
    with pytest.raises(ValueError):
        sp.stratified_split(labels, 1.0, np.random.default_rng(0))


def test_stratified_split_is_deterministic_and_seed_dependent():
    labels = np.repeat(list("abcdefgh"), 12)
    first = sp.stratified_split(labels, 0.2, np.random.default_rng(3))
    again = sp.stratified_split(labels, 0.2, np.random.default_rng(3))
    other = sp.stratified_split(labels, 0.2, np.random.default_rng(4))
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not np.array_equal(first[1], other[1])
    assert first[1].size == other[1].size == 8 * 2  # round(0.2 * 12) = 2 per class


def test_row_split_samples_classes_and_is_deterministic():
    labels = np.repeat([f"a{i:02d}" for i in range(30)], 10)
    s1 = sp.row_split(labels, 10, seed=0, task="author", test_fraction=0.2)
    s2 = sp.row_split(labels, 10, seed=0, task="author", test_fraction=0.2)
    s3 = sp.row_split(labels, 10, seed=1, task="author", test_fraction=0.2)
    s4 = sp.row_split(labels, 10, seed=0, task="genre", test_fraction=0.2)
    assert s1.classes.size == 10 and set(s1.classes) <= set(labels)
    assert np.array_equal(s1.train_index, s2.train_index) and np.array_equal(s1.test_index, s2.test_index)
    assert not np.array_equal(s1.test_index, s3.test_index)
    assert not np.array_equal(s1.test_index, s4.test_index)
    assert set(labels[s1.train_index]) == set(s1.classes)
    assert s1.train_index.size == 80 and s1.test_index.size == 20
    everything = sp.row_split(labels, 30, seed=5, task="author", test_fraction=0.2)
    assert everything.classes.size == 30 and everything.train_index.size + everything.test_index.size == 300


def test_effective_class_sizes_caps_and_deduplicates():
    assert sp.effective_class_sizes((10, 50, 100, "all"), 32) == [10, 32]
    assert sp.effective_class_sizes(schema_default("recognition", "class_sizes"), 651) == [10, 50, 100, 200, 400, 600, 651]
    with pytest.raises(ValueError):
        sp.effective_class_sizes((0,), 5)
    with pytest.raises(ValueError):
        sp.effective_class_sizes(("most",), 5)


# ----------------------------------------------------------------------------- baseline


def test_baseline_hand_example():
    train = ["a"] * 6 + ["b"] * 3 + ["c"]
    test = ["a", "a", "b", "c"]
    # (0.6 + 0.6 + 0.3 + 0.1) / 4
    assert me.baseline_accuracy(train, test) == pytest.approx(0.4)
    # balanced classes: 1 / n_classes
    assert me.baseline_accuracy(list("abcde") * 4, list("abcde")) == pytest.approx(0.2)
    assert math.isnan(me.baseline_accuracy(train, []))


def test_accuracy():
    assert me.accuracy(["a", "b", "c", "d"], ["a", "b", "x", "y"]) == 0.5


# ----------------------------------------------------------------------------- grid


def test_grid_rows_share_the_split_across_classifiers():
    features, labels = feature_dict(6, 12, seed=0)
    experiments = list(
        rec.recognition_experiments(
            features,
            labels,
            task="author",
            class_sizes=(3, 10, "all"),
            seeds=(0, 1),
            methods={"kl": ["f3"], "mlp": ["f3", "f1+f3+f4+f5", "all"]},
            test_fraction=0.2,
            classifier_options={"mlp": {"params": mlp_params(hidden=16, max_epochs=5), "num_threads": 1}},
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
    kwargs = dict(task="genre", class_sizes=("all",), seeds=(0,), methods={"kl": ["f1", "f3"]}, test_fraction=0.2)
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
    cm = me.confusion_matrix(y_true, y_pred)
    assert list(cm.index) == ["a", "b", "c"] and list(cm.columns) == ["a", "b", "c"]
    np.testing.assert_array_equal(cm.to_numpy(), [[1, 1, 0], [1, 2, 0], [1, 0, 0]])
    assert cm.to_numpy().sum() == 6
    wide = me.confusion_matrix(y_true, y_pred, labels=["a", "b", "c", "d"])
    assert wide.shape == (4, 4) and wide.loc["d"].sum() == 0
    per = me.per_class_accuracy(y_true, y_pred)
    assert list(per["class"]) == ["a", "b", "c"]
    assert list(per["n_test"]) == [2, 3, 1]
    np.testing.assert_allclose(per["accuracy"], [0.5, 2 / 3, 0.0])


def test_predictions_frame():
    features, labels = feature_dict(3, 10, seed=2)
    experiments = list(
        rec.recognition_experiments(
            features, labels, task="author", class_sizes=("all",), seeds=(0,), methods={"kl": ["f3"]},
            test_fraction=0.2,
        )
    )
    ids = np.arange(labels.size) + 1000
    frame = rec.predictions_frame(experiments, doc_ids=ids)
    e = experiments[0]
    assert len(frame) == e.test_index.size
    assert list(frame["doc"]) == list(ids[e.test_index])
    assert list(frame["true"]) == list(labels[e.test_index])




def test_grid_rejects_unknown_classifiers_and_kl_on_joined_sets():
    features, labels = feature_dict(3, 6, seed=0)
    common = dict(task="author", class_sizes=("all",), seeds=(0,), test_fraction=0.2)
    with pytest.raises(ValueError, match="unknown classifier 'svm'"):
        list(rec.recognition_experiments(features, labels, methods={"svm": ["f1"]}, **common))
    with pytest.raises(ValueError, match="one distribution feature"):
        list(rec.recognition_experiments(features, labels, methods={"kl": ["f1+f3"]}, **common))
    with pytest.raises(ValueError, match="one distribution feature"):
        list(rec.recognition_experiments(features, labels, methods={"kl": ["f2"]}, **common))


def test_row_rng_depends_only_on_its_row():
    # the same (task, n_classes, seed) row gives the same split whatever else is configured
    labels = np.repeat([f"a{i:02d}" for i in range(12)], 8)
    alone = list(rec.recognition_experiments(
        *_kl_inputs(labels), task="author", class_sizes=[5], seeds=[2], methods={"kl": ["f1"]}, test_fraction=0.2))
    among = list(rec.recognition_experiments(
        *_kl_inputs(labels), task="author", class_sizes=[3, 5, "all"], seeds=[0, 1, 2], methods={"kl": ["f1"]},
        test_fraction=0.2))
    twin = next(e for e in among if (e.n_classes, e.seed) == (5, 2))
    assert np.array_equal(alone[0].test_index, twin.test_index)
    np.testing.assert_array_equal(alone[0].y_pred, twin.y_pred)


def _kl_inputs(labels):
    rng = np.random.default_rng(0)
    return {"f1": rng.dirichlet(np.ones(10), size=labels.size)}, labels


def _tables(n_classes: int, n_per_class: int) -> dict[str, pd.DataFrame]:
    features, labels = feature_dict(n_classes, n_per_class, seed=3)
    meta = pd.DataFrame({"book_id": np.arange(labels.size), "author": labels})
    return {
        name: pd.concat([meta, pd.DataFrame(features[name], columns=feature_column_names(name))], axis=1)
        for name in FEATURES
    }


def test_recognition_run_one_row_and_capped_sizes():
    tables = _tables(4, 8)
    run = recognition_run(tables, "author", 10, 0, methods={"kl": ["f1", "f3"]}, test_fraction=0.2,
                          classifier_options={})
    assert run.results["n_classes"].tolist() == [4, 4]  # 10 capped to the 4 authors
    assert set(run.per_class["class"]) <= {f"class{c:02d}" for c in range(4)}
    everything = recognition_run(tables, "author", "all", 0, methods={"kl": ["f1", "f3"]}, test_fraction=0.2,
                                 classifier_options={})
    pd.testing.assert_frame_equal(run.results, everything.results)  # the same experiment: row_rng(0, 4, author)
    assert duplicates_full_corpus_row(10, 4, all_configured=True)
    assert not duplicates_full_corpus_row(10, 4, all_configured=False)
    assert not duplicates_full_corpus_row(3, 4, all_configured=True)
    assert not duplicates_full_corpus_row("all", 4, all_configured=True)


KL_ONLY_SCRIPT = """
import sys
import numpy as np, pandas as pd
from punctstyle.analyses.paper import consistency_analysis, recognition_run
from punctstyle.marks import FEATURES, feature_column_names
rng = np.random.default_rng(0)
labels = np.repeat(["a", "b", "c"], 6)
meta = pd.DataFrame({"book_id": np.arange(labels.size), "author": labels})
tables = {f: pd.concat([meta, pd.DataFrame(rng.dirichlet(np.ones(len(feature_column_names(f))), labels.size),
                                          columns=feature_column_names(f))], axis=1) for f in FEATURES}
consistency_analysis(tables["f3"], "author", "f3", baseline_pairs=20, seed=0, top_k=(2,))
run = recognition_run(tables, "author", "all", 0, methods={"kl": ["f1", "f3"]}, test_fraction=0.2,
                      classifier_options={"mlp": {"params": {}, "device": "cpu"}})
assert len(run.results) == 2
print("torch" in sys.modules)
"""


def test_consistency_and_kl_recognition_never_import_torch():
    done = subprocess.run([sys.executable, "-c", KL_ONLY_SCRIPT], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
    scripts = subprocess.run(
        [sys.executable, "-c", "import sys, punctstyle.analyses.paper, punctstyle.analyses.recognition, punctstyle.report.recognition_tables,"
         " punctstyle.classifiers; print('torch' in sys.modules)"],
        capture_output=True, text=True, check=True,
    )
    assert scripts.stdout.strip() == "False"


# ------------------------------------------------------------------ documents from long texts


def _excerpt_tables(n_authors: int = 4, texts_per_author: int = 4, seed: int = 5) -> dict[str, pd.DataFrame]:
    """Corpus tables whose documents are excerpts: each author's texts give 2 to 6 excerpts."""
    rng = np.random.default_rng(seed)
    n_excerpts = rng.integers(2, 7, n_authors * texts_per_author)
    sources = np.repeat(np.arange(100, 100 + n_excerpts.size), n_excerpts)
    authors = np.repeat([f"a{k}" for k in range(n_authors)], texts_per_author)
    labels = np.repeat(authors, n_excerpts)
    features, _ = feature_dict(1, labels.size, seed)
    meta = pd.DataFrame({"book_id": 9 * 10**15 + np.arange(labels.size), "author": labels, "source_id": sources})
    return {
        name: pd.concat([meta, pd.DataFrame(features[name], columns=feature_column_names(name))], axis=1)
        for name in FEATURES
    }


def _sides(experiment, sources: np.ndarray) -> tuple[set, set]:
    return set(sources[experiment.train_index]), set(sources[experiment.test_index])


@pytest.mark.parametrize("test_fraction", [0.2, 0.5])
def test_the_excerpts_of_a_text_never_straddle_the_split(test_fraction):
    tables = _excerpt_tables()
    sources = tables["f1"]["source_id"].to_numpy()
    experiments = list(rec.recognition_experiments(
        *fs.matrices_from_tables(tables, "author")[:2], task="author", class_sizes=[2, 3, "all"], seeds=[0, 1, 2],
        methods={"kl": ["f1"]}, test_fraction=test_fraction, groups=sources,
    ))
    for experiment in experiments:
        train, test = _sides(experiment, sources)
        assert test and not train & test
        assert set(experiment.y_true) <= set(experiment.classes)
    # without groups, some text does straddle (the rule above is not luck)
    loose = list(rec.recognition_experiments(
        *fs.matrices_from_tables(tables, "author")[:2], task="author", class_sizes=["all"], seeds=[0],
        methods={"kl": ["f1"]}, test_fraction=test_fraction,
    ))
    assert any(set.intersection(*_sides(e, sources)) for e in loose)


def test_recognition_run_reads_the_texts_from_the_tables():
    """The workflow's path (analysis.recognition_run on corpus tables with source_id): whole texts
    on each side, the same split as row_split with the texts as groups; genre rows too."""
    tables = _excerpt_tables()
    sources = tables["f1"]["source_id"].to_numpy()
    genre = np.where(sources % 3 == 0, None, np.where(sources % 2 == 0, "g1", "g2"))
    tables = {name: table.assign(genre=pd.array(genre, dtype=object)) for name, table in tables.items()}
    for task, column in (("author", "author"), ("genre", "genre")):
        run = recognition_run(tables, task, "all", 1, methods={"kl": ["f1", "f3"]}, test_fraction=0.2,
                              classifier_options={})
        keep = tables["f1"][column].notna().to_numpy()
        kept_sources = sources[keep]
        for experiment in run.experiments:
            train, test = _sides(experiment, kept_sources)
            assert test and not train & test
        split = sp.row_split(tables["f1"][column].to_numpy(dtype=object)[keep], run.experiments[0].n_classes, 1,
                             task, 0.2, groups=kept_sources)
        np.testing.assert_array_equal(run.experiments[0].test_index, split.test_index)
    with pytest.raises(ValueError, match="3 groups for"):
        next(rec.recognition_experiments({"f1": np.ones((4, 10)) / 10}, ["a", "a", "b", "b"], task="author",
                                         class_sizes=["all"], seeds=[0], methods={"kl": ["f1"]},
                                         test_fraction=0.5, groups=[1, 1, 2]))
