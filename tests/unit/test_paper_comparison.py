"""The comparison of our recognition tables with the paper's printed values."""

from __future__ import annotations

import math

import pandas as pd

from punctstyle.report.paper_comparison import PAPER_ACCURACY, comparison_markdown, comparison_rows, difference_in_sd


def test_difference_in_standard_deviations():
    assert math.isclose(difference_in_sd(0.70, 0.05, 0.80), -2.0)
    assert math.isnan(difference_in_sd(0.7, 0.0, 0.8)) and math.isnan(difference_in_sd(0.7, math.nan, 0.8))


def test_rows_only_for_cells_the_paper_reports():
    summary = pd.DataFrame({
        "task": ["author", "author"], "method": ["mlp", "mlp"], "n_classes": [10, 57], "n_seeds": [5, 5],
        "accuracy[f3]": [0.83, 0.70], "accuracy_std[f3]": [0.05, 0.03],
        "baseline": [0.12, 0.02], "baseline_std": [0.01, 0.0],
    })
    rows = comparison_rows(summary)
    assert rows["classes"].tolist() == [10, 10] and rows["feature set"].tolist() == ["f3", "baseline"]
    f3 = rows.iloc[0]
    assert f3["paper"] == PAPER_ACCURACY[("author", "mlp", 10)]["f3"] == 0.93
    assert math.isclose(f3["difference"], -0.10) and math.isclose(f3["difference / sd"], -2.0)
    assert "| author | mlp | 10 | f3 |" in comparison_markdown([summary])
