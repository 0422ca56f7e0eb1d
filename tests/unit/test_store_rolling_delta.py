"""The helpers of benchmarks/store_rolling_run.py, store_delta_variants.py and
bench_attribution_methods.py's evidence tables (docs/results.md and docs/attribution.md quote them)."""

from __future__ import annotations


import pandas as pd
import pytest

from tests.conftest import load_benchmark as load


def records() -> pd.DataFrame:
    """Two seeds; per seed one A-B text (1 true change) and one A-B-A text (2), two methods."""
    rows = []
    for seed, (ab, aba) in enumerate([((1.0, 0.5), (0.5, 1.0)), ((0.0, 1.0), (1.0, 0.5))]):
        for method, (w_ab, w_aba) in zip(["m1", "m2"], zip(ab, aba, strict=True), strict=True):
            rows.append({"kind": "A-B", "method": method, "seed": seed, "number": 0, "n_true": 1, "within_step": w_ab,
                         "slice_accuracy": 0.5, "n_found": 2, "precision": 0.5, "recall": 1.0, "f1": 0.6,
                         "false_alarms": 1.0, "segments_right": False, "n_marks": 5000})
            rows.append({"kind": "A-B-A", "method": method, "seed": seed, "number": 1, "n_true": 2,
                         "within_step": w_aba, "slice_accuracy": 0.25 if method == "m1" else 0.75, "n_found": 3,
                         "precision": 1.0, "recall": 1.0, "f1": 1.0, "false_alarms": 0.0, "segments_right": True,
                         "n_marks": 9000})
    return pd.DataFrame(rows)


def test_two_parts_pools_the_true_changes_of_a_seeds_two_author_texts():
    store = load("store_rolling_run")
    table = store.two_parts(records()).set_index("method")
    # m1: seed 0 (1 * 1 + 0.5 * 2) / 3 = 2/3, seed 1 (0 + 1.0 * 2) / 3 = 2/3 (not the mean of the texts' shares)
    assert table.loc["m1", "seed0"] == pytest.approx(2 / 3)
    assert table.loc["m1", "seed1"] == pytest.approx(2 / 3)
    assert table.loc["m1", "seeds_below_target"] == 2
    # m2: seed 0 (0.5 + 2) / 3 = 5/6 (above 0.8), seed 1 (1 + 1) / 3 = 2/3 (under it)
    assert table.loc["m2", "share_mean"] == pytest.approx((5 / 6 + 2 / 3) / 2)
    assert table.loc["m2", "seeds_below_target"] == 1


def test_paired_differences_are_per_seed_means_on_the_same_texts(monkeypatch):
    store = load("store_rolling_run")
    monkeypatch.setattr(store, "PAIRS", [("m2", "m1")])
    table = store.paired(records())
    row = table[(table["kind"] == "A-B-A") & (table["measure"] == "slice_accuracy")].iloc[0]
    assert row["diff_mean"] == pytest.approx(0.5) and row["diff_sd"] == pytest.approx(0.0)
    assert row["seeds_above_0"] == 2
    within = table[(table["kind"] == "A-B") & (table["measure"] == "within_step")].iloc[0]
    assert within["diff_mean"] == pytest.approx(0.25)  # seed 0: -0.5, seed 1: +1.0
    assert within["seeds_above_0"] == 1


def test_found_per_text_averages_seeds():
    store = load("store_rolling_run")
    found = store.found_per_text(store.per_seed(records())).set_index(["kind", "method"])
    assert found.loc[("A-B-A", "m1"), "n_found_mean"] == 3
    assert found.loc[("A-B-A", "m1"), "n_found_sd"] == 0


def delta_results() -> pd.DataFrame:
    rows = []
    for seed, (ours, near, near_all) in enumerate([(0.8, 0.9, 0.9), (0.7, 0.7, 0.6)]):
        for variant, zscore, source, accuracy in [("centroid", "training", "default_run", ours),
                                                   ("nearest_text", "training", "rows", near),
                                                   ("nearest_text", "all", "rows", near_all),
                                                   ("centroid", "training", "rows", ours)]:
            rows.append({"variant": variant, "zscore_over": zscore, "source": source, "n_classes": 10, "seed": seed,
                         "top_k": 100, "accuracy": accuracy})
    return pd.DataFrame(rows)


def test_delta_variants_are_paired_with_ours_by_seed():
    store = load("store_delta_variants")
    paired = store.paired(delta_results()).set_index(["variant", "zscore_over"])
    assert paired.loc[("nearest_text", "training"), "diff_mean"] == pytest.approx(0.05)  # +0.1 and 0.0
    assert paired.loc[("nearest_text", "training"), "seeds_above_0"] == 1
    assert paired.loc[("nearest_text", "all"), "diff_mean"] == pytest.approx(0.0)  # +0.1 and -0.1
    assert ("centroid", "training") not in paired.index
    zscore = store.zscore_effect(delta_results()).set_index("variant")
    assert zscore.loc["nearest_text", "diff_mean"] == pytest.approx(-0.05)
    assert zscore.loc["nearest_text", "seeds_not_0"] == 1
    assert store.reproduced(delta_results())["max_abs_diff"].tolist() == [0.0]


def test_attribution_record_tables_mark_the_trusted_method_and_the_rolling_default():
    methods = load("bench_attribution_methods")
    record = {"accuracy": {"mlp": {"200": 0.4, "whole": 0.9}, "delta_words": {"200": 0.6, "whole": 0.9}},
              "trusted": {"200": "delta_words", "whole": "mlp"},
              "rolling_choice": {"default": "words", "window": 800, "step": 200, "margin": 800,
                                 "n_collaborations": 20,
                                 "methods": {"words": {"f1": 0.9}, "punctuation": {"f1": 0.4}}}}
    tables = methods.record_tables(record)
    accuracy = tables["accuracy.csv"].set_index(["method", "length"])
    assert accuracy.loc[("delta_words", "200"), "trusted"] and not accuracy.loc[("mlp", "200"), "trusted"]
    assert accuracy.loc[("mlp", "whole"), "trusted"]
    rolling = tables["rolling_choice.csv"].set_index("method")
    assert rolling.loc["words", "default"] and not rolling.loc["punctuation", "default"]
    assert rolling.loc["punctuation", "window"] == 800
    assert tables["rolling_timing.csv"].empty
