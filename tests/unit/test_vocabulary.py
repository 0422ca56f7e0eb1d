"""The schema's enumerations are the package's lists (one vocabulary, defined once)."""

from __future__ import annotations

import re

from punctstyle.settings import load_schema
from punctstyle.vocabulary import DISTRIBUTION_FEATURES, FEATURES, TASKS, wildcard_pattern


def _node(*keys: str) -> dict:
    node = load_schema()
    for key in keys:
        node = node["properties"][key]
    return node


def test_task_enumerations_are_the_package_tasks():
    assert tuple(_node("consistency", "tasks")["items"]["enum"]) == TASKS


def test_distribution_feature_enumerations_are_the_package_list():
    for keys in (("consistency", "features"), ("attribution", "kl_features"), ("attribution", "threshold_features")):
        assert tuple(_node(*keys)["items"]["enum"]) == DISTRIBUTION_FEATURES, keys


def test_feature_set_pattern_accepts_exactly_the_package_features():
    pattern = re.compile(_node("attribution", "feature_set")["pattern"])
    for feature in FEATURES:
        assert pattern.match(feature)
    assert pattern.match("+".join(FEATURES)) and pattern.match("all")
    assert not pattern.match("f7") and not pattern.match("f0") and not pattern.match("f1+")


def test_wildcard_pattern_matches_whole_names_only():
    regex = re.compile(f"^(?:{wildcard_pattern(DISTRIBUTION_FEATURES)})$")
    assert [f for f in FEATURES if regex.match(f)] == list(DISTRIBUTION_FEATURES)


def test_every_feature_has_one_function_size_and_column_names():
    from punctstyle.features import FEATURE_FUNCTIONS, compute_feature
    from punctstyle.marks import FEATURE_SIZES, feature_column_names

    assert tuple(FEATURE_FUNCTIONS) == FEATURES == tuple(FEATURE_SIZES)
    for feature in FEATURES:
        vector = compute_feature(feature, [0, 4, 5, 1, 5], [1, 2, 3, 0, 4])
        assert vector.shape == (FEATURE_SIZES[feature],) == (len(feature_column_names(feature)),)
