"""The schema's enumerations are the package's lists (one vocabulary, defined once)."""

from __future__ import annotations

import re

from punctstyle.settings import load_schema
from punctstyle.featuresets import resolve_feature_set
from punctstyle.rule_names import (
    DISTRIBUTION_FEATURES, FEATURES, METADATA_TASKS, PAPER_FEATURES, PAPER_TASKS, TASKS, wildcard_pattern,
)


def _node(*keys: str) -> dict:
    node = load_schema()
    for key in keys:
        node = node["properties"][key]
    return node


def test_task_enumerations_are_the_package_tasks():
    assert tuple(_node("consistency", "tasks")["items"]["enum"]) == PAPER_TASKS
    assert tuple(_node("metadata_tasks")["items"]["enum"]) == METADATA_TASKS
    assert TASKS == ("author", "genre", "time_slot", "gender")


def test_distribution_feature_enumerations_are_the_package_list():
    for keys in (
        ("consistency", "features"),
        ("recognition", "methods", "kl"),
        ("attribution", "kl_features"),
        ("attribution", "threshold_features"),
    ):
        assert tuple(_node(*keys)["items"]["enum"]) == DISTRIBUTION_FEATURES, keys


def test_feature_set_pattern_accepts_exactly_the_package_features():
    for pattern in (
        _node("attribution", "feature_set")["pattern"],
        _node("recognition", "methods", "mlp")["items"]["pattern"],
    ):
        regex = re.compile(pattern)
        for feature in FEATURES:
            assert regex.match(feature)
        assert regex.match("+".join(FEATURES)) and regex.match("all") and regex.match("f3+f7")
        assert not regex.match("f8") and not regex.match("f0") and not regex.match("f1+")


def test_all_is_the_papers_six_features_and_f7_comes_after_them():
    assert PAPER_FEATURES == ("f1", "f2", "f3", "f4", "f5", "f6")
    assert resolve_feature_set("all") == PAPER_FEATURES
    assert FEATURES[: len(PAPER_FEATURES)] == PAPER_FEATURES and FEATURES[len(PAPER_FEATURES) :] == ("f7",)
    assert "f7" in DISTRIBUTION_FEATURES and resolve_feature_set("f3+f7") == ("f3", "f7")


def test_default_config_lists_f7_after_the_papers_columns():
    from punctstyle.settings import schema_default

    assert schema_default("consistency", "features") == ["f1", "f3", "f4", "f5", "f7"]
    methods = schema_default("recognition", "methods")
    assert methods["kl"][-1] == "f7" and methods["mlp"][-1] == "f7"
    assert methods["mlp"].index("all") < methods["mlp"].index("f7")
    assert schema_default("attribution", "feature_set") == "all"
    assert schema_default("attribution", "kl_features") == ["f3", "f1"]


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
