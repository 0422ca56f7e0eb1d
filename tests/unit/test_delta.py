"""Burrows' Delta (punctstyle.classifiers.delta): a hand-computed example and faststylometry's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from punctstyle.analyses.recognition import recognition_experiments, word_experiments
from punctstyle.classifiers import build_classifier, display_name
from punctstyle.classifiers.delta import BurrowsDelta, fit_zscores
from punctstyle.classifiers.options import options_by_classifier
from punctstyle.settings import coerce_config_types, config_error, schema_defaults


def test_delta_on_three_documents_by_hand():
    # column 1: 1, 2, 3 (mean 2, sample sd 1); column 2: 2, 4, 6 (mean 4, sd 2)
    X = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    model = BurrowsDelta(seed=0, feature_set=("words2",)).fit(X, np.array(["A", "B", "C"], dtype=object))
    assert model.mean.tolist() == [2.0, 4.0] and model.sd.tolist() == [1.0, 2.0]
    assert model.centroids.tolist() == [[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]]
    # x = (2.5, 3): z = (0.5, -0.5); Delta to A = (1.5 + 0.5)/2, to B = (0.5 + 0.5)/2, to C = (0.5 + 1.5)/2
    x = np.array([[2.5, 3.0]])
    assert model.distances(x).tolist() == [[1.0, 0.5, 1.0]]
    assert model.predict(x).tolist() == ["B"]


def test_centroid_is_the_mean_z_score_of_the_class():
    X = np.array([[0.0], [2.0], [4.0], [10.0]])  # mean 4, sample sd sqrt(56/3)
    model = BurrowsDelta(seed=0, feature_set=("words1",)).fit(X, np.array(["A", "A", "B", "B"], dtype=object))
    sd = np.sqrt(56 / 3)
    assert model.centroids[:, 0] == pytest.approx([(-4 - 2) / 2 / sd, (0 + 6) / 2 / sd])
    assert model.predict(np.array([[1.0], [9.0]])).tolist() == ["A", "B"]


def test_constant_columns_get_unit_scale():
    mean, sd = fit_zscores(np.array([[1.0, 5.0], [3.0, 5.0]]))
    assert mean.tolist() == [2.0, 5.0] and sd.tolist() == [pytest.approx(np.sqrt(2)), 1.0]
    with pytest.raises(ValueError, match="at least 2 training documents"):
        fit_zscores(np.array([[1.0]]))


def test_delta_equals_faststylometry_with_one_book_per_author():
    """faststylometry 1.0.5, ``calculate_burrows_delta(train, test, vocab_size=3)`` on token
    lists: A = the x5 of x3 and x2, B = the x2 of x4 and x4, C = the x3 of and; test T = the x4
    of x2 and x2. It z-scores the author profiles with ``std(ddof=1)``; with one book per
    author those are our training documents. Its output (printed with repr):
    A 0.311004233964073, B 1.4133971633074809, C 0.47113238776916017."""
    X = np.array([[5, 3, 2], [2, 4, 4], [3, 1, 1]]) / np.array([[10], [10], [5]])
    model = build_classifier("delta", seed=0, feature_set=("words3",)).fit(X, np.array(["A", "B", "C"], dtype=object))
    D = model.distances(np.array([[4, 2, 2]]) / 8)
    assert D[0] == pytest.approx([0.311004233964073, 1.4133971633074809, 0.47113238776916017], rel=1e-12)
    assert display_name("delta") == "Burrows' Delta"


def test_delta_batches_give_the_same_distances():
    rng = np.random.default_rng(0)
    X, y = rng.random((30, 7)), np.repeat(np.array(["a", "b", "c"], dtype=object), 10)
    model = BurrowsDelta(seed=0, feature_set=("words7",)).fit(X, y)
    Z = rng.random((25, 7))
    assert np.allclose(model.distances(Z, max_cells=21), model.distances(Z))


def test_variants_differ_on_a_hand_computed_example():
    # training 0 (A), 2 (B), 4 (A): mean 2, sample sd 2; z = -1, 0, 1; test 1.5: z = -0.25
    X, y = np.array([[0.0], [2.0], [4.0]]), np.array(["A", "B", "A"], dtype=object)
    x = np.array([[1.5]])
    ours = build_classifier("delta", seed=0, feature_set=("w",)).fit(X, y)
    # centroids: A (-1 + 1)/2 = 0, B 0: a tie, the first class wins
    assert ours.distances(x).tolist() == [[0.25, 0.25]] and ours.predict(x).tolist() == ["A"]
    stylo = build_classifier("delta", seed=0, feature_set=("w",), variant="nearest_text").fit(X, y)
    # nearest training text: A min(|-0.25 + 1|, |-0.25 - 1|) = 0.75, B |-0.25 - 0| = 0.25
    assert stylo.distances(x).tolist() == [[0.75, 0.25]] and stylo.predict(x).tolist() == ["B"]


def test_nearest_text_with_z_scores_over_training_and_test_rows():
    X, y = np.array([[0.0], [2.0], [4.0]]), np.array(["A", "B", "A"], dtype=object)
    model = BurrowsDelta(seed=0, feature_set=("w",), variant="nearest_text", zscore_over="all").fit(X, y)
    # rows 0, 2, 4, 1.5: mean 1.875, squared deviations sum 8.1875, sample sd sqrt(8.1875 / 3);
    # in one dimension Delta is |x - t| / sd: A min(1.5, 2.5) / sd, B 0.5 / sd
    sd = np.sqrt(8.1875 / 3)
    assert model.distances(np.array([[1.5]]))[0] == pytest.approx([1.5 / sd, 0.5 / sd], rel=1e-12)


def test_pooled_profile_z_scores_over_the_author_profiles():
    # A: 0, 4 -> profile 2; B: 2, 10 -> profile 6; statistics over the profiles: mean 4,
    # sample sd sqrt(8); test 3: z = -1/sqrt(8); profiles z = -2/sqrt(8), 2/sqrt(8)
    X, y = np.array([[0.0], [4.0], [2.0], [10.0]]), np.array(["A", "A", "B", "B"], dtype=object)
    pooled = BurrowsDelta(seed=0, feature_set=("w",), variant="pooled_profile").fit(X, y)
    assert pooled.mean.tolist() == [4.0] and pooled.sd == pytest.approx([np.sqrt(8)])
    assert pooled.distances(np.array([[3.0]]))[0] == pytest.approx([1 / np.sqrt(8), 3 / np.sqrt(8)])
    # ours on the same rows: book statistics mean 4, sd sqrt(56/3); centroids -2/sd and 2/sd
    sd = np.sqrt(56 / 3)
    ours = BurrowsDelta(seed=0, feature_set=("w",)).fit(X, y)
    assert ours.distances(np.array([[3.0]]))[0] == pytest.approx([1 / sd, 3 / sd])


def test_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown Delta variant 'burrows'"):
        BurrowsDelta(seed=0, feature_set=("w",), variant="burrows")
    with pytest.raises(ValueError, match="unknown Delta zscore_over"):
        BurrowsDelta(seed=0, feature_set=("w",), zscore_over="test")


def command_line_config(**delta: str) -> dict:
    """The run's config when ``--config`` hands ``recognition.delta`` over (strings), coerced
    and validated as the Snakefile does."""
    config = schema_defaults()
    config["recognition"]["delta"].update({key: str(value) for key, value in delta.items()})
    config = coerce_config_types(config)
    assert config_error({**config, "outdir": "out"}) is None
    return config


def test_the_config_block_reaches_every_delta_job():
    defaults = options_by_classifier(command_line_config(), {"mlp": {}}, 1)
    assert defaults["delta"] == {"variant": "centroid", "zscore_over": "training"}
    stylo = options_by_classifier(command_line_config(variant="nearest_text", zscore_over="all"), {"mlp": {}}, 1)
    assert stylo["delta"] == {"variant": "nearest_text", "zscore_over": "all"}
    model = build_classifier("delta", seed=0, feature_set=("words",), **stylo["delta"])
    assert (model.variant, model.zscore_over) == ("nearest_text", "all")
    config = schema_defaults()
    config["recognition"]["delta"]["variant"] = "nearest"
    assert config_error({**coerce_config_types(config), "outdir": "out"}).startswith(
        "config recognition.delta.variant: 'nearest' is not one of"
    )


def test_the_grid_and_the_word_baselines_run_the_configured_variant():
    """The options the scripts build from the config decide the grid's and the word baselines'
    predictions: each equals the variant fitted by hand on the row's split (Delta does not depend
    on the order of the columns, and k = 6 takes every word); the variants differ on these rows."""
    rng = np.random.default_rng(3)
    y = np.repeat(np.array(["A", "B", "C", "D"], dtype=object), 6)
    X = rng.gamma(2.0, size=(24, 6)) + (np.arange(24) % 3)[:, None] * rng.random(6)
    frequencies = X / X.sum(axis=1, keepdims=True)
    predictions = {}
    for variant in ("centroid", "nearest_text", "pooled_profile"):
        options = options_by_classifier(command_line_config(variant=variant), {"mlp": {}}, 1)
        settings = dict(task="author", class_sizes=["all"], seeds=[0], test_fraction=0.25, classifier_options=options)
        (grid,) = recognition_experiments({"f1": frequencies}, y, methods={"delta": ["f1"]}, **settings)
        (words,) = word_experiments({}, y, frequencies, methods={"delta": ["words6"]}, **settings)
        train, test = grid.train_index, grid.test_index
        expected = BurrowsDelta(seed=0, feature_set=("w",), variant=variant).fit(frequencies[train], y[train])
        assert grid.y_pred.tolist() == expected.predict(frequencies[test]).tolist()
        assert words.y_pred.tolist() == grid.y_pred.tolist()
        predictions[variant] = tuple(grid.y_pred.tolist())
    assert len(set(predictions.values())) == 3
