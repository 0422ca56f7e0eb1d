"""Fixtures shared by the unit tests' modules."""

from tests.fixtures.one_book import book_mirror, rules_file  # noqa: F401 - fixtures
