"""Corpus feature tables: one row per book, metadata columns then feature columns."""

from __future__ import annotations

import numpy as np
import pandas as pd

from punctstyle.marks import FEATURE_SIZES, feature_column_names

METADATA_COLUMNS: tuple[str, ...] = (
    "book_id",
    "title",
    "author",
    "birth",
    "death",
    "bookshelves",
    "genre",
    "n_marks",
)


def feature_matrix(frame: pd.DataFrame, feature: str) -> np.ndarray:
    """The (n_books, size) float64 array of ``feature`` (``f1`` .. ``f6``) from a table."""
    columns = feature_column_names(feature)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise KeyError(f"table has no column {missing[0]!r} of feature {feature}")
    values = frame.loc[:, columns].to_numpy(dtype=np.float64)
    assert values.shape[1] == FEATURE_SIZES[feature]
    return values
