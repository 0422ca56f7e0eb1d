"""Tests of punctstyle.report.recognition_tables: Tables 2-4, the accuracy figure's data, the appendix tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from punctstyle.report import recognition_tables as rt
from punctstyle.report import render


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
    summary = rt.summarise(hand_results())
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
    text = rt.to_markdown(rt.summarise(hand_results()))
    lines = text.strip().splitlines()
    assert lines[0] == "**author recognition, KL nearest class**"
    assert lines[2] == "| No. authors | Training size | Testing size | f1 | f3 | baseline |"
    assert lines[3] == "| ---: | :--- | :--- | :--- | :--- | :--- |"
    assert lines[4] == "| 10 | 205 ± 7 | 50 | 0.70 ± 0.14 | 0.70 ± 0.14 | 0.21 ± 0.014 |"
    assert lines[5] == "| 50 | 800 | 200 |  | 0.66 | 0.029 |"


def test_to_html_renders_the_summary_directly():
    html = rt.to_html(rt.summarise(hand_results()))
    assert html.startswith("<table><caption>author recognition, KL nearest class</caption>")
    assert "<th>No. authors</th><th>Training size</th>" in html
    assert "<td>0.70 ± 0.14</td>" in html and '<td class="num">50</td>' in html


def test_summarise_counts_a_capped_duplicate_once():
    results = hand_results()
    doubled = pd.concat([results, results.iloc[[0]]], ignore_index=True)
    pd.testing.assert_frame_equal(rt.summarise(doubled), rt.summarise(results))


# ------------------------------------------------------------------------ recognition


def _summary() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "task": ["author"] * 3,
            "method": ["kl", "kl", "mlp"],
            "n_classes": [2, 3, 3],
            "accuracy[f1]": [0.75, 0.5, 1.0],
            "accuracy[all]": [np.nan, np.nan, 0.9],
            "baseline": [0.5, 0.33, 0.33],
            "accuracy_std[f1]": [0.35, np.nan, 0.0],
            "accuracy_std[all]": [np.nan, np.nan, 0.1],
        }
    )


def test_accuracy_long():
    long = rt.accuracy_long(_summary())
    assert list(long.columns) == ["method", "n_classes", "feature_set", "accuracy_mean", "accuracy_std",
                                  "baseline_mean"]
    assert len(long) == 4  # the kl rows have no "all"
    row = long[(long["method"] == "kl") & (long["n_classes"] == 2)].iloc[0]
    got = (row["feature_set"], row["accuracy_mean"], row["accuracy_std"], row["baseline_mean"])
    assert got == ("f1", 0.75, 0.35, 0.5)
    single = long[(long["method"] == "kl") & (long["n_classes"] == 3)].iloc[0]
    assert single["accuracy_std"] == 0.0  # NaN std (one seed) drawn as no error bar
    assert long[long["feature_set"] == "all"]["accuracy_mean"].tolist() == [0.9]


def _per_class() -> pd.DataFrame:
    rows = []
    for seed, tested in ((0, {"A": (2, 1), "B": (1, 1)}), (1, {"A": (2, 2)}), (2, {"A": (2, 0), "B": (1, 0)})):
        for cls, (n_test, n_correct) in tested.items():
            rows.append(dict(task="author", n_classes=3, seed=seed, method="mlp", feature_set="all", **{"class": cls},
                             n_test=n_test, n_correct=n_correct, accuracy=n_correct / n_test))
    # rows that must be ignored: another method, another feature set, a class sample
    rows.append(dict(task="author", n_classes=3, seed=0, method="kl", feature_set="f1", **{"class": "C"},
                     n_test=1, n_correct=1, accuracy=1.0))
    rows.append(dict(task="author", n_classes=3, seed=0, method="mlp", feature_set="f1", **{"class": "C"},
                     n_test=1, n_correct=1, accuracy=1.0))
    rows.append(dict(task="author", n_classes=2, seed=0, method="mlp", feature_set="all", **{"class": "C"},
                     n_test=1, n_correct=1, accuracy=1.0))
    return pd.DataFrame(rows)


def test_full_corpus_per_class_means_over_seeds():
    got = rt.full_corpus_per_class(_per_class(), 3, method="mlp", feature_set="all", n_seeds=3).set_index("class")
    assert sorted(got.index) == ["A", "B"]  # C only in other experiments
    assert got.loc["A", "accuracy"] == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert got.loc["A", "test_size"] == pytest.approx(2.0)
    # B was tested in seeds 0 and 2 only: accuracy over those, test size over all 3 seeds
    assert got.loc["B", "accuracy"] == pytest.approx(0.5)
    assert got.loc["B", "test_size"] == pytest.approx(2 / 3)
    assert got.loc["B", "n_seeds_tested"] == 2


def test_full_corpus_per_class_without_results():
    assert rt.full_corpus_per_class(pd.DataFrame(columns=["class", "n_test", "accuracy"]), 3, method="mlp", feature_set="all").empty
    assert rt.full_corpus_per_class(_per_class(), 4, method="mlp", feature_set="all").empty  # no experiment with 4 classes
    assert rt.full_corpus_per_class(_per_class(), 3, method="mlp", feature_set="f3").empty


def test_appendix_table_orders_by_consistency_with_na():
    consistency = pd.DataFrame(
        {"class": ["C", "A", "B", "D"], "n_docs": [4, 3, 2, 1], "consistency": [0.2, 0.1, 0.2, np.nan]}
    )
    per_class = rt.full_corpus_per_class(_per_class(), 3, method="mlp", feature_set="all", n_seeds=3)
    table = rt.appendix_table(consistency, per_class, "author", "f3")
    assert list(table.columns) == ["rank", "author", "documents", "test_size", "consistency_f3", "accuracy"]
    assert table["author"].tolist() == ["A", "B", "C", "D"]  # ties (B, C) by name, NaN last
    assert table["rank"].tolist() == [1, 2, 3, 4]
    assert table["documents"].tolist() == [3, 2, 4, 1]
    assert table["accuracy"].iloc[1] == pytest.approx(0.5)
    assert math.isnan(table["accuracy"].iloc[2]) and math.isnan(table["test_size"].iloc[2])
    markdown = render.markdown_table(table, {"test_size": "auto", "consistency_f3": ".4g", "accuracy": ".2f"})
    lines = markdown.splitlines()
    assert lines[0] == "| rank | author | documents | test_size | consistency_f3 | accuracy |"
    assert lines[1] == "| ---: | :--- | ---: | ---: | ---: | ---: |"
    assert lines[2] == "| 1 | A | 3 | 2 | 0.1 | 0.50 |"
    assert lines[3] == "| 2 | B | 2 | 0.7 | 0.2 | 0.50 |"
    assert lines[5] == "| 4 | D | 1 | NA | NA | NA |"


