"""Permutation importance of f3 entries and top-k accuracy (punctstyle.training.importance)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from punctstyle.classifiers.kl_nearest import KLNearestClass
from punctstyle.training.importance import (
    importance_matrix,
    importance_row,
    importance_table,
    permutation_importance,
    permuted_copies,
    top_entries,
    top_k_table,
    top_transitions,
    training_ranking,
)
from punctstyle.experiments.splits import row_split
from tests.unit.recognition_data import mlp_params

SIGNAL = 37  # f3 entry (3, 7): ") ;"


def one_signal_entry(n_per_class: int = 12, seed: int = 0, levels=(0.1, 5.0, 40.0)):
    """100 positive entries of noise; only entry SIGNAL differs between the three classes."""
    rng = np.random.default_rng(seed)
    labels = np.repeat(["a", "b", "c"], n_per_class)
    X = rng.uniform(0.9, 1.1, size=(labels.size, 100))
    X[:, SIGNAL] = np.repeat(levels, n_per_class) * rng.uniform(0.97, 1.03, labels.size)
    return X, labels


def kl_only(method: str):
    """Every method as KL nearest class: cheap and deterministic."""
    return KLNearestClass(seed=0, feature_set=("f3",))


def test_permuted_copies_shuffle_one_column_each():
    X = np.arange(12, dtype=float).reshape(4, 3)
    copies = permuted_copies(X, np.array([0, 2]), np.random.default_rng(1))
    assert copies.shape == (2, 4, 3)
    for c, column in enumerate([0, 2]):
        others = [j for j in range(3) if j != column]
        assert np.array_equal(copies[c][:, others], X[:, others])
        assert sorted(copies[c][:, column]) == sorted(X[:, column])


def test_the_one_signal_entry_ranks_first():
    X, y = one_signal_entry()
    model = KLNearestClass(seed=0, feature_set=("f3",)).fit(X, y)
    importance = permutation_importance(model.predict, X, y, np.random.default_rng(0), repeats=5)
    assert importance.shape == (100,)
    assert top_entries(importance, 1)[0] == SIGNAL
    assert importance[SIGNAL] > 0.4  # shuffling it drops accuracy from 1 towards 1/3
    assert np.abs(np.delete(importance, SIGNAL)).max() < 0.1


def test_the_mlp_finds_the_signal_entry_on_the_test_split():
    # enough documents that 16 hidden units cannot fit the 99 noise entries instead
    X, y = one_signal_entry(n_per_class=150, levels=(1.0, 2.0, 3.0))
    params = mlp_params(hidden=16, max_epochs=80, patience=5, learning_rate=0.01, batch_size=32)

    def make(method):
        if method == "kl":
            return KLNearestClass(seed=0, feature_set=("f3",))
        from punctstyle.classifiers.mlp import MLPClassifier

        return MLPClassifier(seed=0, feature_set=("f3",), params=params, num_threads=1)

    row = importance_row(X, y, n_classes=3, seed=0, task="author", test_fraction=0.2, top_k=[1],
                         repeats=2, holdout_fraction=0.25, make=make)
    assert int(np.argmax(row.test_importance)) == SIGNAL
    assert int(np.argmax(row.ranking)) == SIGNAL
    top = pd.DataFrame(row.top_k)
    assert sorted(top["k"].unique()) == [1, 100]
    assert top.loc[(top["method"] == "mlp") & (top["k"] == 1), "accuracy"].item() > 0.8
    # one entry renormalised is the same distribution (1) for every document: KL cannot tell
    assert top.loc[(top["method"] == "kl") & (top["k"] == 1), "accuracy"].item() == pytest.approx(1 / 3)


def test_top_entries_order_and_ties():
    importance = np.array([0.1, 0.5, 0.5, -0.2, 0.3])
    assert top_entries(importance, 3).tolist() == [1, 2, 4]
    with pytest.raises(ValueError):
        top_entries(importance, 6)


def test_top_k_selection_uses_training_documents_only():
    """Changing every test document leaves the ranking, hence the top-k entries, unchanged."""
    X, y = one_signal_entry()
    split = row_split(y, 3, 0, "author", 0.2)
    scrambled = X.copy()
    scrambled[split.test_index] = np.random.default_rng(9).uniform(0.5, 2.0, (split.test_index.size, 100))
    options = dict(n_classes=3, seed=0, task="author", test_fraction=0.2, top_k=[1, 3], repeats=2,
                   holdout_fraction=0.3, make=kl_only)
    first, second = importance_row(X, y, **options), importance_row(scrambled, y, **options)
    assert np.array_equal(first.ranking, second.ranking)
    assert not np.array_equal(first.test_importance, second.test_importance)
    # the ranking is the inner hold-out importance of the training split, nothing else
    from punctstyle.experiments.splits import row_rng

    direct = training_ranking(X[split.train_index], y[split.train_index], kl_only, holdout_fraction=0.3,
                              repeats=2, rng=row_rng(0, 3, "author/ranking"))
    assert np.array_equal(first.ranking, direct)


def test_no_ranking_without_a_held_out_training_document():
    X = np.ones((2, 100))
    assert training_ranking(X, ["a", "b"], kl_only, holdout_fraction=0.5, repeats=1,
                            rng=np.random.default_rng(0)) is None


def test_tables_over_seeds():
    X, y = one_signal_entry()
    rows = [importance_row(X, y, n_classes=3, seed=s, task="author", test_fraction=0.2, top_k=[5], repeats=2,
                           holdout_fraction=0.3, make=kl_only) for s in (0, 1)]
    table = importance_table(rows)
    assert len(table) == 100 and (table["n_seeds"] == 2).all()
    signal = table[table["entry"] == SIGNAL].iloc[0]
    assert (signal["first"], signal["second"], signal["pair"], signal["rank"]) == (3, 7, ") ;", 1)
    expected = np.mean([r.test_importance[SIGNAL] for r in rows])
    assert signal["mean"] == pytest.approx(expected)
    assert importance_matrix(table, 3)[3, 7] == pytest.approx(expected)
    assert top_transitions(table, 10)["transition"].iloc[0] == ") ;"
    top = top_k_table(rows)
    assert set(zip(top["method"], top["k"])) == {("kl", 5), ("mlp", 5), ("kl", 100), ("mlp", 100)}
    assert (top["n_seeds"] == 2).all()


def test_no_rows_give_empty_tables():
    rows: list = []
    assert importance_table(rows).empty and top_k_table(rows).empty and top_transitions(importance_table(rows)).empty


def test_row_files_round_trip_and_skipped_rows(tmp_path):
    import numpy as np

    from punctstyle.training.importance import (
        ImportanceRow,
        read_importance_rows,
        write_importance_row,
    )

    row = ImportanceRow(3, 1, np.linspace(0, 1, 100), np.arange(100.0), [{"method": "kl", "k": 5, "accuracy": 0.5}])
    write_importance_row(tmp_path / "a.json", row)
    write_importance_row(tmp_path / "b.json", row)  # a requested size capped to the same row
    write_importance_row(tmp_path / "c.json", None, "the corpus has 1 author(s)")
    rows, reasons = read_importance_rows([tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"])
    assert len(rows) == 1 and reasons == ["the corpus has 1 author(s)"]
    np.testing.assert_array_equal(rows[0].test_importance, row.test_importance)
    np.testing.assert_array_equal(rows[0].ranking, row.ranking)
    assert (rows[0].n_classes, rows[0].seed, rows[0].top_k) == (3, 1, row.top_k)


def test_excerpts_of_a_text_stay_on_one_side_of_the_split_and_the_hold_out():
    """With groups (each document's text) the row's split and the ranking's inner hold-out keep
    a text's excerpts together; column 0 of X carries the document index to see which rows went where."""
    rng = np.random.default_rng(4)
    per_text = rng.integers(2, 6, 18)
    groups = np.repeat(np.arange(18), per_text)
    labels = np.repeat(np.array(["a", "b", "c"])[np.arange(18) % 3], per_text)
    X = rng.uniform(0.9, 1.1, size=(labels.size, 100))
    X[:, 0] = np.arange(labels.size)
    models = []

    class Recorder:
        def __init__(self):
            self.seen = {"fit": set(), "predict": set()}
            models.append(self)

        def fit(self, X, y):
            self.seen["fit"] |= set(X[:, 0].astype(int).tolist())
            return self

        def predict(self, X):
            self.seen["predict"] |= set(X[:, 0].astype(int).tolist())
            return np.full(len(X), "a", dtype=object)

    row = importance_row(X, labels, n_classes=3, seed=1, task="author", test_fraction=0.2, top_k=[5], repeats=1,
                         holdout_fraction=0.3, make=lambda method: Recorder(), groups=groups)
    assert row.ranking is not None
    split, ranking = models[0].seen, models[1].seen  # the row's MLP, then the ranking's
    for seen in (split, ranking):
        fitted, scored = set(groups[sorted(seen["fit"])]), set(groups[sorted(seen["predict"])])
        assert scored and not fitted & scored
    expected = row_split(labels, 3, 1, "author", 0.2, groups=groups)
    assert split["fit"] == set(expected.train_index.tolist())
    assert ranking["fit"] | ranking["predict"] == split["fit"]  # the hold-out is inside the training split
