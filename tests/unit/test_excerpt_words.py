"""Each excerpt's own words (issue 34 item 3): the word range of an excerpt of marks in its text's
word stream, its counts in the corpus word matrix and in the word streams of the analyses, on a
hand-made text whose counts are written out by hand."""

from __future__ import annotations

import gzip
import json
import logging

import numpy as np
import pandas as pd
import pytest

from punctstyle.book.feature_rows import excerpt_bounds
from punctstyle.book.sequence_file import read_sequence
from punctstyle.book.steps import extract_book
from punctstyle.corpus.sequences import document_sequences, excerpt_word_spans
from punctstyle.corpus.tables import EXCERPT_ID_BASE
from punctstyle.corpus.word_matrix_job import corpus_words_job
from punctstyle.corpus.words import (
    document_word_files,
    excerpt_word_counts,
    read_word_matrix,
)
from punctstyle.io import InputError

# marks: , . ; ! . ? .  -- gaps (words before each mark): 1 4 3 2 3 2 3, then 1 word after the last
TEXT = "Yes, the old cat sat. A bird sang; it ran! The cat sat. Did it? Yes it did. Fin"
GAPS = [1, 4, 3, 2, 3, 2, 3]
# excerpts of 2 marks: marks [0, 2), [2, 4), [4, 6); mark 6 and the last word "fin" are in none
EXPECTED = [
    {"yes": 1, "the": 1, "old": 1, "cat": 1, "sat": 1},  # words [0, 5)
    {"a": 1, "bird": 1, "sang": 1, "it": 1, "ran": 1},  # words [5, 10)
    {"the": 1, "cat": 1, "sat": 1, "did": 1, "it": 1},  # words [10, 15)
]


@pytest.fixture
def text(tmp_path):
    """The hand-made text extracted as the workflow does: ``s.parquet`` and ``w.parquet`` of book 7."""
    (tmp_path / "7.txt.gz").write_bytes(gzip.compress(TEXT.encode()))
    (tmp_path / "7.json").write_text(json.dumps({"status": "ok", "encoding": "utf-8"}))
    (tmp_path / "sequences").mkdir()
    (tmp_path / "words").mkdir()
    extract_book(tmp_path / "7.txt.gz", tmp_path / "7.json", tmp_path / "sequences/7.parquet", 7,
                 words_path=tmp_path / "words/7.parquet")
    return tmp_path


def excerpt_table(n_marks: int, excerpt_marks: int) -> pd.DataFrame:
    bounds = excerpt_bounds(n_marks, excerpt_marks)
    return pd.DataFrame({
        "book_id": EXCERPT_ID_BASE + np.arange(len(bounds)), "source_id": 7, "excerpt": np.arange(len(bounds)),
        "first_mark": bounds[:, 0], "stop_mark": bounds[:, 1],
    })


def test_the_hand_made_text_has_the_gaps_written_out(text):
    sequence, _ = read_sequence(text / "sequences/7.parquet")
    assert sequence.gaps.tolist() == GAPS and sequence.n_words == sum(GAPS) + 1


def test_an_excerpt_holds_the_words_before_each_of_its_marks():
    spans = excerpt_word_spans(np.array(GAPS), excerpt_bounds(len(GAPS), 2))
    assert spans.tolist() == [[0, 5], [5, 10], [10, 15]]
    assert excerpt_word_spans(np.array(GAPS), excerpt_bounds(len(GAPS), 3)).tolist() == [[0, 8], [8, 15]]
    # W_s - W_f is the feature row's n_words, sum(gaps[f:s])
    assert (spans[:, 1] - spans[:, 0]).tolist() == [sum(GAPS[f:f + 2]) for f in (0, 2, 4)]
    with pytest.raises(ValueError, match="outside the text's 7 marks"):
        excerpt_word_spans(np.array(GAPS), np.array([[6, 8]]))


def test_excerpt_counts_by_hand():
    stream = np.array("yes the old cat sat a bird sang it ran the cat sat did it yes it did fin".split(), dtype=object)
    counted = excerpt_word_counts(stream, np.array([[0, 5], [5, 10], [10, 15], [3, 3]]))
    assert [dict(zip(w.tolist(), c.tolist(), strict=True)) for w, c in counted] == [*EXPECTED, {}]
    assert counted[0][0].tolist() == ["cat", "old", "sat", "the", "yes"]  # distinct, sorted
    with pytest.raises(ValueError, match="beyond the stream's 19 words"):
        excerpt_word_counts(stream, np.array([[15, 20]]))


def test_the_word_matrix_has_each_excerpts_own_counts(text):
    table = excerpt_table(len(GAPS), 2)
    table.to_parquet(text / "f1.parquet")
    corpus_words_job(str(text / "f1.parquet"), [str(text / "words/7.parquet")], str(text / "words.npz"), 3,
                     logging.getLogger("test"), [str(text / "sequences/7.parquet")])
    matrix = read_word_matrix(text / "words.npz")
    assert matrix.book_ids.tolist() == table["book_id"].tolist() and matrix.n_words.tolist() == [5, 5, 5]
    dense = matrix.counts.toarray()
    vocabulary = matrix.vocabulary.tolist()
    for row, expected in zip(dense, EXPECTED, strict=True):
        # the pool (3 a document) is the union of each excerpt's top 3; its counts are exact
        assert {w: int(c) for w, c in zip(vocabulary, row, strict=True) if c} == {
            w: c for w, c in expected.items() if w in vocabulary}
    # top 3 by count then word: cat old sat | a bird it | cat did it
    assert vocabulary == ["a", "bird", "cat", "did", "it", "old", "sat"]


def test_a_whole_text_keeps_its_whole_counts(text):
    pd.DataFrame({"book_id": [7]}).to_parquet(text / "f1.parquet")
    corpus_words_job(str(text / "f1.parquet"), [str(text / "words/7.parquet")], str(text / "words.npz"), 50,
                     logging.getLogger("test"))
    matrix = read_word_matrix(text / "words.npz")
    row = dict(zip(matrix.vocabulary.tolist(), matrix.counts.toarray()[0].tolist(), strict=True))
    assert matrix.n_words.tolist() == [19] and row["it"] == 3 and row["fin"] == 1 and row["yes"] == 2


def test_the_analyses_word_streams_are_each_excerpts_words(text):
    table = excerpt_table(len(GAPS), 2)
    ids = table["book_id"].tolist()[::-1]  # any order of the documents
    documents = document_sequences([text / "sequences/7.parquet"], table, ids)
    files = document_word_files(documents, table, ids, [], [text / "words/7.parquet"])
    for i, expected in enumerate(EXPECTED[::-1]):
        marks, gaps = documents[i]
        stream = files.stream(i, marks, gaps)
        assert stream.size == int(gaps.sum()) and sorted(stream.tolist()) == sorted(expected)
        words, counts = files.counts(i)
        assert dict(zip(words, counts.tolist(), strict=True)) == expected
    assert files.stream(2, *documents[2]).tolist() == ["yes", "the", "old", "cat", "sat"]
    # whole texts: their own files, unchanged
    whole = pd.DataFrame({"book_id": [7]})
    plain = document_word_files(document_sequences([text / "sequences/7.parquet"], whole), whole, [7], [],
                                [text / "words/7.parquet"])
    assert plain.span(0) is None and plain.stream(0, *documents[0]).size == 19


def test_an_excerpt_past_the_stream_is_refused_naming_the_file(text):
    table = excerpt_table(len(GAPS), 2)
    table.loc[2, "stop_mark"] = 8  # past the text's 7 marks: another extraction
    table.to_parquet(text / "f1.parquet")
    with pytest.raises(InputError, match=r"7.parquet: mark ranges outside the text's 7 marks"):
        corpus_words_job(str(text / "f1.parquet"), [str(text / "words/7.parquet")], str(text / "words.npz"), 3,
                         logging.getLogger("test"), [str(text / "sequences/7.parquet")])
