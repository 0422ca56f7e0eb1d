"""The across-languages measures (punctstyle.analyses.across_languages, issue 34 item 4): exact
worked examples on tables and vectors we write."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from punctstyle.analyses.across_languages import accuracy_summary, grouped_accuracy, language_kl, single_slot_authors, weibull_by_language


def test_weibull_by_language_orders_by_median_p():
    fits = pd.DataFrame({"language": ["en", "en", "en", "fr", "fr", "pl"],
                         "p": [0.10, 0.20, 0.30, 0.40, 0.50, np.nan],
                         "beta": [1.0, 1.2, 1.4, 0.9, 1.1, 1.0],
                         "mean_gap": [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]})
    table = weibull_by_language(fits)
    assert table["language"].tolist() == ["en", "fr"]  # pl's only fit is NaN
    en = table.iloc[0]
    assert en["novels"] == 3 and [en["p_median"], en["p_q1"], en["p_q3"]] == pytest.approx([0.20, 0.15, 0.25])
    assert en["beta_median"] == pytest.approx(1.2) and en["mean_gap_median"] == 5.0
    assert table.iloc[1]["p_median"] == pytest.approx(0.45)


def test_grouped_accuracy_keeps_groups_on_one_side_and_scores_kl_nearest():
    # two languages, three authors each, two novels an author; the rows of a language are one
    # distribution, so every held-out novel is classed right
    X = np.array([[0.7, 0.2, 0.1]] * 6 + [[0.1, 0.2, 0.7]] * 6)
    labels = ["en"] * 6 + ["fr"] * 6
    groups = [f"a{i // 2}" for i in range(12)]
    table = grouped_accuracy(X, labels, groups, [0, 1, 2], 0.34)
    # round(0.34 * 3) = 1 author of each language held out: 2 novels each
    assert table["test"].tolist() == [4, 4, 4] and table["train"].tolist() == [8, 8, 8]
    assert table["accuracy"].tolist() == [1.0, 1.0, 1.0]
    # both classes have 4 training novels: the majority is the first in sorted order ("en"), half the test
    assert table["majority"].tolist() == [0.5, 0.5, 0.5]


def test_language_kl_worked_example():
    X = np.array([[0.5, 0.5], [0.5, 0.5], [0.25, 0.75]])
    table = language_kl(X, ["en", "en", "fr"]).set_index(["language_a", "language_b"])
    assert table.loc[("en", "en"), "pairs"] == 2 and table.loc[("en", "en"), "mean"] == 0.0
    d_en_fr = 0.5 * math.log(2) + 0.5 * math.log(2 / 3)
    d_fr_en = 0.25 * math.log(0.5) + 0.75 * math.log(1.5)
    assert table.loc[("en", "fr"), "mean"] == pytest.approx(d_en_fr) and table.loc[("en", "fr"), "pairs"] == 2
    assert table.loc[("fr", "en"), "mean"] == pytest.approx(d_fr_en)
    assert table.loc[("fr", "fr"), "pairs"] == 0 and math.isnan(table.loc[("fr", "fr"), "mean"])


def test_single_slot_authors():
    novels = pd.DataFrame({"language": ["en", "en", "en", "fr", "fr"],
                           "author": ["A", "A", "B", "A", "C"],
                           "time_slot": ["T1", "T2", "T3", "T1", ""]})
    # en/A spans two slots; fr/A is another author (another language); C has no slot
    assert single_slot_authors(novels).tolist() == [False, False, True, True, False]


def test_accuracy_summary_mean_and_sd_over_seeds():
    table = pd.DataFrame({"feature": ["f1", "f1", "f3"], "seed": [0, 1, 0], "accuracy": [0.5, 0.7, 0.9],
                          "majority": [0.3, 0.3, 0.4], "test": [10, 12, 11]})
    summary = accuracy_summary(table, ["feature"])
    first = summary.iloc[0]
    assert (first["feature"], first["seeds"], first["test_mean"]) == ("f1", 2, 11.0)
    assert first["accuracy_mean"] == pytest.approx(0.6) and first["accuracy_sd"] == pytest.approx(math.sqrt(0.02))
    assert first["majority_sd"] == 0.0 and math.isnan(summary.iloc[1]["accuracy_sd"])  # one seed: no sd
