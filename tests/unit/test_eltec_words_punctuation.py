"""benchmarks/eltec_words_punctuation.py: seeds are paired within one class row of a task."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from tests.conftest import load_benchmark as load

# (method, feature_set) of each compared method, and its accuracy per (n_classes, seed)
ROWS = {("kl", "f3"): {10: [0.5, 0.6], 33: [0.3, 0.4]},
        ("mlp", "f1+f3+f4+f5"): {10: [0.6, 0.7], 33: [0.4, 0.5]},
        ("mlp", "all"): {10: [0.7, 0.9], 33: [0.5, 0.6]},
        ("delta", "words500"): {10: [0.8, 0.8], 33: [0.6, 0.5]},
        ("mlp", "words500"): {10: [0.9, 0.7], 33: [0.7, 0.7]},
        ("mlp", "all+words500"): {10: [0.95, 0.9], 33: [0.8, 0.8]}}


@pytest.fixture(scope="module")
def paired():
    return load("eltec_words_punctuation")


def _folder(tmp_path):
    rows = [{"task": "author", "n_classes": n, "seed": seed, "method": method, "feature_set": fs, "accuracy": acc}
            for (method, fs), by_row in ROWS.items() for n, accs in by_row.items() for seed, acc in enumerate(accs)]
    frame = pd.DataFrame(rows)
    words = frame["feature_set"].str.contains("words")
    frame[~words].to_csv(tmp_path / "author_results.csv", index=False)
    frame[words].to_csv(tmp_path / "author_words_results.csv", index=False)
    pd.DataFrame({"task": ["author", "author"], "n_classes": [10, 33], "baseline": [0.1, 0.03]}).to_csv(
        tmp_path / "author_summary.csv", index=False)
    (tmp_path / "run.json").write_text(json.dumps({"config": {"my.yaml": {"tei": {"path": "../x/ELTeC-xyz"}}}}))
    return tmp_path


def test_each_class_row_is_paired_seed_by_seed_within_itself(paired, tmp_path):
    methods, best, each = paired.language_rows(_folder(tmp_path), ("author",))
    assert [r["n_classes"] for r in best] == [10, 33]
    ten, all_ = best
    # row 10: network on all features (0.7, 0.9) against the best words, Delta (0.8, 0.8)
    assert ten["best_words"] == "Delta, 500 words"
    assert ten["difference"] == pytest.approx(0.0)
    assert ten["difference_sd"] == pytest.approx(((-0.1) ** 2 + 0.1 ** 2) ** 0.5)
    assert ten["seeds_above"] == 1 and ten["seeds"] == 2
    # row 33: (0.5, 0.6) against the network on words (0.7, 0.7)
    assert all_["best_words"] == "network, 500 words"
    assert all_["difference"] == pytest.approx(-0.15)
    assert all_["seeds_above"] == 0
    baselines = {(r["n_classes"], r["method"]): r["baseline"] for r in methods}
    assert baselines[(10, "Delta, 500 words")] == 0.1 and baselines[(33, "Delta, 500 words")] == 0.03
    assert {r["collection"] for r in methods} == {"ELTeC-xyz"} and len(each) == 4
