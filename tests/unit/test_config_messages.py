"""One-line config messages for schema alternatives (issue 22 item 14)."""

from __future__ import annotations

import pytest

from punctstyle.settings import config_error, schema_defaults


@pytest.mark.parametrize("value", [1, 0, -4, "most", 2.5])
def test_class_size_below_two_says_at_least_2(value):
    config = schema_defaults()
    config["recognition"]["class_sizes"] = [value, "all"]
    assert config_error(config) == (
        f"config recognition.class_sizes[0]: {value!r} is not allowed: expected an integer of at least 2 or 'all'"
    )


def test_shelves_alternatives_in_words():
    config = schema_defaults()
    config["genres"]["shelves"] = []
    assert config_error(config) == (
        "config genres.shelves: [] is not allowed: expected 'paper' or 'broad' or a list with at least 1 item"
    )


def test_valid_config_has_no_error():
    assert config_error(schema_defaults()) is None
