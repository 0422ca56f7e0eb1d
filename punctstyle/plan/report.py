"""Figure and report planning that depends only on the config (pure functions)."""

from __future__ import annotations

from typing import Any

DEFAULT_SEQUENCE_BOOKS = 6  # two books each of the three authors with the most books


def n_sequence_books(config: dict[str, Any]) -> int:
    """Books of the per-book figures: figures.sequence_books, else the default six."""
    books = config["figures"]["sequence_books"]
    return DEFAULT_SEQUENCE_BOOKS if books is None else len(books)


def n_scatter_pairs(config: dict[str, Any]) -> int:
    """punctstyle.report.tables.scatter_pairs: (i, i + 1 mod n); one pair for two books."""
    n = n_sequence_books(config)
    return 0 if n < 2 else 1 if n == 2 else n


def consistency_feature(config: dict[str, Any]) -> str:
    """The appendix orders classes by f3 consistency (the first configured feature without f3)."""
    features = config["consistency"]["features"]
    return "f3" if "f3" in features else features[0]
