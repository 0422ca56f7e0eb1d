"""Corpus-level rules: exclusions, the author minimum re-applied, genres, feature tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from punctstyle.book import InclusionRule, feature_row
from punctstyle.corpus import build_corpus, corpus_summary, feature_matrix, feature_table
from punctstyle.extract import PunctuationSequence
from punctstyle.marks import MARK_CODE


def sequence(marks: str) -> PunctuationSequence:
    codes = np.array([MARK_CODE[m] for m in marks.split()], dtype=np.uint8)
    return PunctuationSequence(codes, np.full(codes.size, 3, dtype=np.uint32), n_words=3 * codes.size)


@pytest.fixture
def books():
    rule = InclusionRule(min_marks=3, require_quotation_marks=True)
    selection = pd.DataFrame(
        {
            "book_id": [1, 2, 3, 4, 5],
            "title": list("abcde"),
            "author": ["A", "A", "A", "B", "B"],
            "birth": pd.array([1800, 1800, 1800, None, None], dtype="Int64"),
            "death": pd.array([1870, 1870, 1870, 1950, 1950], dtype="Int64"),
            "bookshelves": [["Humor"], ["Humor", "Best Books Ever Listings"], ["Humor"], ["Horror"], []],
        }
    )
    sequences = {
        1: sequence('" , . " .'),
        2: sequence('" ; . "'),
        3: sequence(", . ,"),  # no quotation mark: excluded (the paper's rule)
        4: sequence('" ! "'),
        5: sequence('"'),  # too few marks: excluded, so author B drops below the minimum
    }
    meta = {"status": "ok"}
    rows = pd.DataFrame([feature_row(i, s, meta, rule) for i, s in sequences.items()])
    return selection, rows


def test_exclusions_and_author_minimum_after_exclusions(books):
    selection, rows = books
    corpus, exclusions = build_corpus(
        selection, rows, min_docs_per_author=2, genre_shelves=None, genre_min_docs=2,
        genre_multi_shelf_rule="most_specific",
    )
    assert corpus["book_id"].tolist() == [1, 2]
    reasons = dict(zip(exclusions["book_id"], exclusions["stage"]))
    assert reasons == {3: "features", 4: "corpus", 5: "features"}
    assert "quotation" in exclusions.set_index("book_id").loc[3, "reason"]
    # default genre shelves: "Best Books Ever Listings" is not a genre, Humor is
    assert corpus["genre"].tolist() == ["Humor", "Humor"]
    summary = corpus_summary(selection, corpus, exclusions)
    assert summary["books_in_corpus"] == 2 and summary["excluded_by_stage"] == {"features": 2, "corpus": 1}


def test_feature_tables_are_distributions(books):
    selection, rows = books
    corpus, _ = build_corpus(
        selection, rows, min_docs_per_author=1, genre_shelves=["Horror"], genre_min_docs=1,
        genre_multi_shelf_rule="drop",
    )
    table = feature_table(corpus, "f3")
    assert table.columns[0] == "book_id" and 'f3[" ,]' in table.columns
    np.testing.assert_allclose(feature_matrix(table, "f3").sum(axis=1), 1.0)
    assert corpus.set_index("book_id")["genre"].to_dict() == {1: None, 2: None, 4: "Horror"}


def test_missing_feature_row_is_an_error(books):
    selection, rows = books
    with pytest.raises(ValueError, match="no feature row"):
        build_corpus(selection, rows[rows["book_id"] != 2], min_docs_per_author=1, genre_shelves=None,
                     genre_min_docs=2, genre_multi_shelf_rule="drop")
