"""The change-point measure of rolling attribution (issue 35 item 4): precision, recall and F1
of changes within a margin, false alarms counted, and the Hausdorff distance; worked examples."""

from __future__ import annotations

import math

import pytest

from punctstyle.attribution.change_points import change_point_scores, hausdorff_distance, matched_changes


def test_one_found_change_counts_for_one_true_change_only():
    # true 1000 and 1100, one found change at 1050 within 100 of both: TP = 1, not 2
    assert matched_changes([1050.0], [1000.0, 1100.0], margin=100) == 1
    scores = change_point_scores([1050.0], [1000.0, 1100.0], margin=100)
    assert scores["precision"] == 1.0 and scores["recall"] == 0.5
    assert scores["f1"] == pytest.approx(2 / 3)
    assert scores["false_alarms"] == 0 and scores["missed"] == 1
    assert scores["hausdorff"] == 50.0


def test_false_alarms_lower_precision_and_f1():
    # true 3000, 5500; found 2950 (right), 4000 (false), 5800 (beyond a margin of 200: false)
    scores = change_point_scores([2950.0, 4000.0, 5800.0], [3000.0, 5500.0], margin=200)
    assert scores["true_positives"] == 1 and scores["false_alarms"] == 2 and scores["missed"] == 1
    assert scores["precision"] == pytest.approx(1 / 3) and scores["recall"] == 0.5
    assert scores["f1"] == pytest.approx(2 * (1 / 3) * 0.5 / (1 / 3 + 0.5))  # 0.4
    assert scores["f1"] == pytest.approx(0.4)
    # Hausdorff: 4000 is 1000 from 3000 (its nearest true change); every true change is within 300
    assert scores["hausdorff"] == 1000.0
    # with a margin of 300, 5800 matches 5500: TP = 2, one false alarm
    wider = change_point_scores([2950.0, 4000.0, 5800.0], [3000.0, 5500.0], margin=300)
    assert wider["precision"] == pytest.approx(2 / 3) and wider["recall"] == 1.0 and wider["f1"] == pytest.approx(0.8)


def test_greedy_matching_is_maximal():
    # found 90 could match true 0 or 150 (margin 100); matching it to 0 leaves 210 for 150
    assert matched_changes([90.0, 210.0], [0.0, 150.0], margin=100) == 2
    assert matched_changes([210.0, 90.0], [150.0, 0.0], margin=100) == 2  # order does not matter


def test_empty_sets():
    nothing = change_point_scores([], [1000.0], margin=100)
    assert (nothing["precision"], nothing["recall"], nothing["f1"]) == (1.0, 0.0, 0.0)
    assert math.isinf(nothing["hausdorff"])
    none_true = change_point_scores([500.0], [], margin=100)
    assert (none_true["precision"], none_true["recall"], none_true["f1"], none_true["false_alarms"]) == (0.0, 1.0, 0.0, 1)
    both = change_point_scores([], [], margin=100)
    assert (both["f1"], both["hausdorff"]) == (1.0, 0.0)
    assert hausdorff_distance([0.0, 10.0], [4.0]) == 6.0
