"""A trained network is trained once (punctstyle.experiments.fit_store): the recognition grid's
fits are stored keyed by (row, classifier, view), read back value for value through the driver's
FitCache, refused when they do not match the row, and the length curve and the f3 importance give
the same results from them as when they train."""

from __future__ import annotations

import json

import numpy as np
import pytest

from punctstyle.analyses.recognition import recognition_experiments
from punctstyle.training.importance import importance_row
from punctstyle.training.length_curve import length_curve_row
from punctstyle.classifiers import build_classifier
from punctstyle.experiments.driver import FitCache
from punctstyle.experiments.fit_store import FitKey, FitStore, StoredFit, stores_row, write_fits
from punctstyle.features import compute_feature
from punctstyle.io import InputError
from punctstyle.plan.fitted_models import fitted_inputs, stored_views
from tests.unit.recognition_data import mlp_params
from tests.unit.test_length_curve import _corpus, _documents


def _whole_features(docs):
    return {"f1": np.vstack([compute_feature("f1", m, g) for m, g in docs])}


def _grid_fit(features, labels, params, n_classes=3, seed=0):
    options = {"mlp": {"params": params, "num_threads": 1}}
    (experiment,) = recognition_experiments(
        features, labels, task="author", class_sizes=[n_classes], seeds=[seed], methods={"mlp": ["f1"]},
        test_fraction=0.2, classifier_options=options, keep_models=True,
    )
    return experiment


def _store(tmp_path, experiment, book_ids):
    path = tmp_path / "seed0_fitted.npz"
    key = FitKey("author", experiment.n_classes, experiment.seed, "mlp", "f1")
    write_fits(path, [StoredFit(key, experiment.model, book_ids[experiment.train_index],
                                book_ids[experiment.test_index], experiment.y_pred)])
    return path, key


def _mlp(params, feature_set=("f1",), seed=0):
    """``make()``: a fresh MLP of the asking row (its options)."""
    return lambda: build_classifier("mlp", seed=seed, feature_set=feature_set, params=params, num_threads=1)


def test_a_stored_fit_predicts_the_same_numbers_and_refuses_another_row(tmp_path):
    docs, labels = _corpus(per_class=6)
    params = mlp_params(hidden=16, max_epochs=4)
    experiment = _grid_fit(_whole_features(docs), labels, params)
    book_ids = 1000 + np.arange(labels.size)
    path, key = _store(tmp_path, experiment, book_ids)
    models = FitStore([path])
    asked = dict(classes=experiment.classes, train_ids=book_ids[experiment.train_index])
    model = models.load(key, _mlp(params), **asked).model
    X = _whole_features(docs)["f1"]
    assert np.array_equal(model.predict_proba(X), experiment.model.model.predict_proba(X))
    assert model.epochs == experiment.model.model.epochs
    assert models.load(key, _mlp(params), **asked).diagnostics() == experiment.model.diagnostics()
    test_ids, y_pred = models.predictions(key)
    assert np.array_equal(test_ids, book_ids[experiment.test_index]) and list(y_pred) == list(experiment.y_pred)
    assert models.load(FitKey("author", 3, 1, "mlp", "f1"), _mlp(params), **asked) is None  # not stored: trained
    for make, change, field in (
        (_mlp(params, ("f3",)), {}, "feature columns"),
        (_mlp(params), {"classes": experiment.classes[:2]}, "classes"),
        (_mlp(params), {"train_ids": book_ids[experiment.test_index]}, "training books"),
        (_mlp(mlp_params(hidden=16, max_epochs=5)), {}, "protocol"),
    ):
        with pytest.raises(InputError, match=field) as error:
            models.load(key, make, **{**asked, **change})
        assert "\n" not in str(error.value) and str(path) in str(error.value)


def test_the_length_curve_and_the_importance_read_the_grid_fit_with_equal_results(tmp_path):
    docs, labels = _corpus(per_class=6)
    params = mlp_params(hidden=16, max_epochs=4)
    options = {"mlp": {"params": params, "num_threads": 1}}
    features = _whole_features(docs)
    experiment = _grid_fit(features, labels, params)
    book_ids = 1000 + np.arange(labels.size)
    path, key = _store(tmp_path, experiment, book_ids)
    fits = FitCache(FitStore([path]))

    row = dict(task="author", n_classes=3, seed=0, test_fraction=0.2, lengths=[50], methods={"mlp": ["f1"]},
               training=["whole"], classifier_options=options)
    trained = length_curve_row(_documents(docs), labels, **row)
    read = length_curve_row(_documents(docs), labels, **row, ids=book_ids, fits=fits)
    assert fits.loaded == [key]
    assert trained.results.equals(read.results)

    def make(method):
        return build_classifier(method, seed=0, feature_set=("f1",), **options.get(method, {}))

    common = dict(n_classes=3, seed=0, task="author", test_fraction=0.2, top_k=[3], repeats=2,
                  holdout_fraction=0.25, make=make)
    alone = importance_row(features["f1"], labels, **common, view="f1")
    fits = FitCache(FitStore([path]))
    reused = importance_row(features["f1"], labels, **common, ids=book_ids, view="f1", fits=fits)
    assert fits.loaded == [key]
    assert np.array_equal(alone.test_importance, reused.test_importance) and alone.top_k == reused.top_k


def _config(**length):
    return {
        "outdir": "out",
        "recognition": {"methods": {"mlp": ["f1", "f3", "all"]}, "class_sizes": [10, 50, "all"], "seeds": [0, 1]},
        "length_curve": {"enabled": True, "training": ["whole", "excerpt"], "class_sizes": [10, 50],
                         "methods": {"mlp": ["all", "words1000"], "kl": ["f3"]}, **length},
        "beyond": {"importance": {"enabled": True, "class_sizes": [10]}},
    }


def test_only_the_views_and_rows_later_analyses_read_are_stored():
    assert stored_views(_config(), "author") == ["all", "f3"]
    assert stored_views(_config(training=["excerpt"]), "author") == ["f3"]
    assert stored_views(_config(), "genre") == []
    words = {"tasks": ["author"], "top_k": [100, 1000], "methods": {"mlp": ["words"], "delta": ["words"]}}
    with_words = _config()
    with_words["recognition"]["words"] = words
    assert stored_views(with_words, "author") == ["all", "words1000", "f3"]  # the grid's word baseline
    with_words["recognition"]["words"] = {**words, "tasks": []}
    assert stored_views(with_words, "author") == ["all", "f3"]  # no word baseline: the curve trains it
    assert stores_row(10, 36, [10, 50]) and not stores_row(100, 36, [10, 50])
    assert stores_row("all", 36, [10, 50]) and not stores_row("all", 60, [10, 50])
    assert fitted_inputs(_config(), "author", "50", "1") == [
        "out/models/author/50_classes/seed1_fitted.npz",
        "out/models/author/all_classes/seed1_fitted.npz",
    ]
    assert fitted_inputs(_config(), "author", "10", "7") == []  # the grid does not run seed 7


def test_the_recognition_row_stores_only_the_asked_views_at_the_asked_sizes(tmp_path):
    from punctstyle.jobs.recognition import RecognitionSettings, recognition_job
    from tests.unit.test_recognition import _tables

    tables = _tables(4, 6)
    options = {"mlp": {"params": mlp_params(hidden=8, max_epochs=2), "num_threads": 1}}
    common = dict(methods={"mlp": ["f1", "f3"]}, test_fraction=0.2, classifier_options=options,
                  all_configured=True, store_views=["f3"])
    for class_size, sizes, stored in ((3, [3], ["f3"]), (3, [10], []), ("all", [10], ["f3"]), (10, [10], [])):
        outputs = {"fitted": tmp_path / f"{class_size}_{sizes[0]}.npz", "models": tmp_path / f"models_{class_size}"}
        recognition_job(tables, "author", class_size, 0, outputs, RecognitionSettings(store_class_sizes=sizes, **common))
        models = FitStore([outputs["fitted"]])
        assert [key.feature_set for key in models.keys()] == stored
        # the models folder keeps the full-corpus row's networks only, as before
        saved = sorted(path.name for path in outputs["models"].glob("*.pt"))
        assert saved == (["mlp_f1_4classes.pt", "mlp_f3_4classes.pt"] if class_size == "all" else [])


def test_the_length_curve_reads_the_word_baselines_fit_when_its_words_are_the_rows(tmp_path):
    """The length curve's whole-book word network (words<k>) is the grid's word baseline of the
    same row: stored with its words, read back with equal results; stored with other words, it
    is not the same experiment and the curve trains its own."""
    from punctstyle.analyses.recognition import word_experiments
    from punctstyle.corpus.words import build_word_matrix
    from tests.unit.test_length_curve_words import _row_inputs, _word_corpus

    labels, documents = _word_corpus()
    matrix = build_word_matrix(
        ((100 + i, list(c), np.array(list(c.values())), s.n_words) for i, (s, _, c) in enumerate(documents)),
        pool_per_book=1000,
    )
    params = mlp_params(hidden=8, max_epochs=4)
    options = {"mlp": {"params": params, "num_threads": 1}}
    (experiment,) = word_experiments(
        {}, labels, matrix.relative_frequencies(100 + np.arange(labels.size)), task="author", class_sizes=[3],
        seeds=[0], methods={"mlp": ["words5"]}, test_fraction=0.25, word_cutoff=matrix.cutoff,
        classifier_options=options, keep=[("mlp", "words5")], pool_words=matrix.vocabulary,
    )
    assert len(experiment.vocabulary) == 5 and experiment.model is not None
    book_ids = 100 + np.arange(labels.size)
    key = FitKey("author", 3, 0, "mlp", "words5")

    def store(vocabulary):
        path = tmp_path / f"fitted_{len(list(tmp_path.iterdir()))}.npz"
        write_fits(path, [StoredFit(key, experiment.model, book_ids[experiment.train_index],
                                    book_ids[experiment.test_index], experiment.y_pred, vocabulary=vocabulary)])
        return FitStore([path])

    row = dict(task="author", n_classes=3, seed=0, test_fraction=0.25, lengths=[20], methods={"mlp": ["words5"]},
               training=["whole"], classifier_options=options)
    document, word_counts = _row_inputs(documents)
    trained = length_curve_row(document, labels, **row, word_counts=word_counts)

    fits = FitCache(store(experiment.vocabulary))
    read = length_curve_row(document, labels, **row, word_counts=word_counts, ids=book_ids, fits=fits)
    assert fits.loaded == [key] and trained.results.equals(read.results)
    assert list(read.vocabulary[:5]) == list(experiment.vocabulary)
    other = (*experiment.vocabulary[1:], experiment.vocabulary[0])  # same words, another order
    fits = FitCache(store(other))
    retrained = length_curve_row(document, labels, **row, word_counts=word_counts, ids=book_ids, fits=fits)
    assert fits.loaded == [] and trained.results.equals(retrained.results)
    with pytest.raises(InputError, match="must name its words"):
        store(experiment.vocabulary).load(key, _mlp(params, ("words5",)), classes=experiment.classes,
                                          train_ids=book_ids[experiment.train_index])


def test_the_recognition_row_stores_its_word_baseline_with_the_words(tmp_path):
    """A recognition row keeps the word baseline's network a later analysis reads (words5 here),
    with the words of its block; the punctuation view beside it as before."""
    from punctstyle.corpus.words import build_word_matrix, write_word_matrix
    from punctstyle.jobs.recognition import RecognitionSettings, recognition_job
    from tests.unit.test_recognition import _tables

    tables = _tables(3, 6)
    rng = np.random.default_rng(0)
    words = [f"w{i:02d}" for i in range(12)]
    books = [(int(i), words, rng.integers(1, 30, size=len(words)), 400) for i in tables["f1"]["book_id"]]
    write_word_matrix(tmp_path / "words.npz", build_word_matrix(books, pool_per_book=12))
    options = {"mlp": {"params": mlp_params(hidden=8, max_epochs=2), "num_threads": 1}}
    outputs = {"fitted": tmp_path / "fitted.npz", "words": tmp_path / "words.csv"}
    settings = RecognitionSettings(methods={"mlp": ["f3"]}, test_fraction=0.2, classifier_options=options,
                                   all_configured=True, word_methods={"mlp": ["words5", "words10"], "delta": ["words5"]},
                                   word_options=options, store_views=["f3", "words5"], store_class_sizes=[3])
    recognition_job(tables, "author", "all", 0, outputs, settings, word_matrix=tmp_path / "words.npz")
    models = FitStore([outputs["fitted"]])
    assert sorted(key.feature_set for key in models.keys()) == ["f3", "words5"]
    with np.load(outputs["fitted"]) as data:
        views = {view["feature_set"]: view for view in json.loads(str(data["meta"]))["views"]}
    assert "vocabulary" not in views["f3"] and len(views["words5"]["vocabulary"]) == 5
    assert set(views["words5"]["vocabulary"]) <= set(words)
