"""The experiment core (punctstyle.experiments): the row and its split, the runner's one record
schema, the classifier options, and the rule that only the core calls the split functions."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from punctstyle.experiments import splits
from punctstyle.classifiers import build_classifier
from punctstyle.classifiers.options import classifier_options, classifier_params, options_by_classifier
from punctstyle.experiments.row import Row, documents_split
from punctstyle.experiments.runner import RECORD_FIELDS, fit, run_split, score_fitted
from punctstyle.experiments.metrics import accuracy, baseline_accuracy
from tests.unit.recognition_data import dirichlet_classes, mlp_params

PACKAGE = Path(__file__).resolve().parents[2] / "punctstyle"
SPLIT_FUNCTIONS = {"row_split", "stratified_split", "grouped_split", "group_pair_split"}
CORE = {PACKAGE / "splits.py"} | set((PACKAGE / "experiments").glob("*.py"))


def excerpt_table():
    """Four authors, three texts each, three excerpts per text (source_id: the text)."""
    rows = []
    for a in range(4):
        for t in range(3):
            for e in range(3):
                rows.append({"book_id": 1000 * a + 10 * t + e, "source_id": 100 * a + t, "author": f"author{a}"})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("seed", range(6))
def test_row_from_an_excerpt_table_never_splits_a_text(seed):
    table = excerpt_table()
    row = Row.from_table(table, table["author"], task="author", n_classes=3, seed=seed)
    assert row.groups is not None and row.n_available == 4
    split = row.split(0.34)
    train_texts = set(table["source_id"].to_numpy()[split.train_index])
    test_texts = set(table["source_id"].to_numpy()[split.test_index])
    assert test_texts and not train_texts & test_texts
    assert len(split.classes) == 3
    assert set(table["author"].to_numpy()[split.test_index]) <= set(table["author"].to_numpy()[split.train_index])
    # exactly the grouped row split of Tables 2-3, drawn once and shared
    expected = splits.row_split(table["author"], 3, seed, "author", 0.34, groups=table["source_id"])
    assert np.array_equal(split.train_index, expected.train_index)
    assert np.array_equal(split.test_index, expected.test_index)
    assert row.split(0.34) is split


def test_row_of_whole_texts_has_no_groups():
    table = pd.DataFrame({"book_id": range(12), "author": np.repeat(["a", "b", "c"], 4)})
    row = Row.from_table(table, table["author"], task="author", n_classes=2, seed=1)
    assert row.groups is None
    split = row.split(0.25)
    expected = splits.row_split(table["author"], 2, 1, "author", 0.25)
    assert np.array_equal(split.test_index, expected.test_index)


def test_documents_split_keeps_groups_whole():
    labels = np.repeat(["a", "b"], 6)
    groups = np.repeat(np.arange(4), 3)
    train, test = documents_split(labels, groups, 0.5, np.random.default_rng(3))
    assert not set(groups[train]) & set(groups[test])
    plain = documents_split(labels, None, 0.5, np.random.default_rng(3))
    assert np.array_equal(plain[1], splits.stratified_split(labels, 0.5, np.random.default_rng(3))[1])


@pytest.mark.parametrize(("method", "options"), [("kl", {}), ("delta", {}), ("mlp", {"params": None})])
def test_runner_gives_one_record_schema_for_every_classifier(method, options):
    X, y = dirichlet_classes(3, 12, 10, 40.0, seed=2)
    if method == "mlp":
        options = {"params": mlp_params(max_epochs=5), "device": "cpu", "num_threads": 1}
    split = Row("author", 3, 0, y).split(0.25)

    def make():
        return build_classifier(method, seed=0, feature_set=("f3",), **options)

    scored = run_split(make, X[split.train_index], y[split.train_index], X[split.test_index], y[split.test_index])
    record = scored.record()
    assert tuple(record) == RECORD_FIELDS
    assert record["accuracy"] == accuracy(y[split.test_index], scored.y_pred)
    assert record["baseline"] == baseline_accuracy(y[split.train_index], y[split.test_index])
    assert isinstance(record["n_fallback"], int) and isinstance(record["epochs"], int)
    assert (record["epochs"] > 0) == (method == "mlp")
    # a fitted model scored apart gives the same predictions
    model, _ = fit(make, X[split.train_index], y[split.train_index])
    again = score_fitted(model, X[split.test_index], y[split.train_index], y[split.test_index])
    assert np.array_equal(again.y_pred, scored.y_pred)


def test_classifier_options_from_config_and_threads():
    config = {
        "recognition": {"mlp": {"device": "cpu"}, "delta": {"variant": "nearest_text", "zscore_over": "all"}},
        "beyond": {"sequence": {"device": "cpu"}},
    }
    assert classifier_options(config, "mlp", 3, {"hidden_units": 8}) == {
        "params": {"hidden_units": 8},
        "device": "cpu",
        "num_threads": 3,
    }
    assert classifier_options(config, "sequence_cnn", 2, {"epochs": 1})["device"] == "cpu"
    assert classifier_options(config, "kl", 4) == {}
    delta = {"variant": "nearest_text", "zscore_over": "all"}
    assert classifier_options(config, "delta", 4) == delta
    # Delta's options are the config's: every job gets them, named in its params or not
    assert options_by_classifier(config, {"mlp": None}, 1) == {
        "mlp": {"params": None, "device": "cpu", "num_threads": 1},
        "delta": delta,
    }
    assert options_by_classifier(config, {"mlp": None, "delta": None}, 1)["delta"] == delta


def test_classifier_params_are_each_section_without_what_decides_only_where_it_runs():
    config = {
        "recognition": {"mlp": {"hidden_units": 8, "device": "cuda", "threads": 4}, "delta": {"variant": "centroid"}},
        "beyond": {"sequence": {"epochs": 2, "enabled": True, "class_sizes": [5], "device": "cpu", "threads": 2}},
    }
    # kl has no section; sequence_cnn's is beyond.sequence, less its plan keys
    assert classifier_params(config, ["kl", "mlp", "delta", "sequence_cnn"]) == {
        "mlp": {"hidden_units": 8},
        "delta": {"variant": "centroid"},
        "sequence_cnn": {"epochs": 2},
    }
    # the run-time context joins the hyper-parameters in the script: threads and the section's device
    assert options_by_classifier(config, classifier_params(config, ["mlp"]), 3) == {
        "mlp": {"params": {"hidden_units": 8}, "device": "cuda", "num_threads": 3},
        "delta": {"variant": "centroid"},
    }
    with pytest.raises(ValueError, match="unknown classifier 'knn'"):
        classifier_params(config, ["knn"])


def split_calls(path: Path) -> list[str]:
    """Where a module imports or calls a split function of punctstyle.experiments.splits."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module == "punctstyle.experiments.splits":
            found += [f"{path.name}:{node.lineno} imports {a.name}" for a in node.names if a.name in SPLIT_FUNCTIONS]
        elif isinstance(node, ast.Attribute) and node.attr in SPLIT_FUNCTIONS:
            found.append(f"{path.name}:{node.lineno} uses .{node.attr}")
    return found


def test_only_the_experiment_core_calls_the_split_functions():
    offenders = [hit for path in sorted(PACKAGE.rglob("*.py")) if path not in CORE for hit in split_calls(path)]
    assert offenders == []


def test_the_split_scan_finds_a_call(tmp_path):
    module = tmp_path / "leaky.py"
    module.write_text("from punctstyle.experiments.splits import row_split\nimport punctstyle.experiments.splits as s\ns.grouped_split(1)\n")
    assert split_calls(module) == ["leaky.py:1 imports row_split", "leaky.py:3 uses .grouped_split"]
