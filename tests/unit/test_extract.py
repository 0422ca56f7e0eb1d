"""The extraction definition: tokenizer edge cases, Le Guin, and fast path == spaCy."""

from __future__ import annotations

import numpy as np
import pytest

from punctstyle.clean import clean_text
from punctstyle.extract import (
    OTHER,
    WORD,
    ChunkCachedExtractor,
    classify_token,
    extract,
    extract_with_spacy,
)
from punctstyle.marks import MARKS
from tests.conftest import LE_GUIN


def marks_of(text):
    seq = extract_with_spacy(text)
    return [MARKS[m] for m in seq.marks], seq.gaps.tolist()


def test_le_guin_exact():
    marks, gaps = marks_of(LE_GUIN)
    assert marks == [",", ".", ".", ".", ";", ";", '"', ",", '"', '"', ".", '"']
    assert gaps == [25, 6, 9, 2, 9, 7, 5, 1, 0, 4, 1, 0]


@pytest.mark.parametrize(
    "token, expected",
    [
        ('"', 1), ("'", 1), ("“", 1), ("”", 1), ("‘", 1), ("’", 1), ("„", 1), ("«", 1), ("»", 1),
        ("`", 1), ("''", 1), ("...", 9), ("....", 9), ("…", 9), ("!", 0), ("?", 8), ("(", 2),
        (")", 3), (",", 4), (".", 5), (":", 6), (";", 7), ("Mr.", WORD), ("n't", WORD),
        ("1,000", WORD), ("—", OTHER), ("-", OTHER), ("--", OTHER), ("$", OTHER), ("*", OTHER),
        ("&", OTHER), ("..", OTHER), ("", OTHER),
    ],
)
def test_classify_token(token, expected):
    assert classify_token(token) == expected


def test_abbreviations_emit_no_period():
    assert marks_of("Mr. Smith met Dr. Jones.") == (["."], [5])


def test_ellipsis_forms():
    assert marks_of("Wait.... Then … and so ... on")[0] == ["...", "..."] + ["..."]
    # spaced periods are three periods to the tokenizer; cleaning turns them into an ellipsis
    assert marks_of("so . . . on")[0] == [".", ".", "."]
    assert marks_of(clean_text("so . . . on"))[0] == ["..."]


def test_question_exclamation_and_doubles():
    assert marks_of("Really?! Yes!!") == (["?", "!", "!", "!"], [1, 0, 1, 0])


def test_dashes_hyphens_and_symbols_are_neither():
    marks, gaps = marks_of("well-known $5 & *stars* -- fine — ok.")
    assert marks == ["."]
    assert gaps == [6]  # well, known, 5, stars, fine, ok; and '$' '&' '*' '--' are not words


def test_unicode_quotes_and_contractions():
    marks, gaps = marks_of("“Don’t,” she said.")
    assert marks == ['"', ",", '"', "."]
    assert gaps == [0, 2, 0, 2]


def test_cleaning_repairs_glued_marks_and_dashes():
    cleaned = clean_text('He said:"Hi"—‘no’—(maybe) yes;no')
    marks, _ = marks_of(cleaned)
    assert marks == [":", '"', '"', '"', '"', "(", ")", ";"]
    assert "1,000" in clean_text("1,000 at 5:30")
    assert "5:30" in clean_text("1,000 at 5:30")


def test_cleaning_strips_gutenberg_header_and_footer():
    text = (
        "The Project Gutenberg eBook of Nothing\r\nHeader line, with a comma.\r\n"
        "*** START OF THE PROJECT GUTENBERG EBOOK NOTHING ***\r\n"
        "Body text here; only this.\r\n"
        + "\r\n" * 120
        + "*** END OF THE PROJECT GUTENBERG EBOOK NOTHING ***\r\nLicence, with marks!\r\n"
    )
    cleaned = clean_text(text)
    assert "Body text here; only this." in cleaned
    assert "Header line" not in cleaned and "Licence" not in cleaned and "\r" not in cleaned
    assert marks_of(cleaned)[0] == [";", "."]


def test_empty_text():
    seq = extract("")
    assert len(seq) == 0 and seq.n_words == 0


def test_fast_path_equals_spacy_on_tricky_text():
    text = clean_text(
        LE_GUIN + ' "Hello," he said. Mr. O\'Brien\'s dog--a mutt--barked... (Twice!) '
        "U.S.A. e.g. 3.14 12,000 'tis ''quoted'' ``open'' «guillemets» … end?! don’t\n\n"
        "Tab\tseparated\u00a0nbsp: fine; [bracket] {brace} _under_ *star* #hash 50% a/b"
    )
    fast = ChunkCachedExtractor()
    a, b = fast(text), extract_with_spacy(text)
    np.testing.assert_array_equal(a.marks, b.marks)
    np.testing.assert_array_equal(a.gaps, b.gaps)
    assert a.n_words == b.n_words
    # second call hits the cache and gives the same answer
    c = fast(text)
    np.testing.assert_array_equal(c.gaps, b.gaps)


def test_fast_path_cache_bound():
    fast = ChunkCachedExtractor(max_cache=5)
    text = "one, two. three; four: five! six? seven (eight) nine"
    a, b = fast(text), extract_with_spacy(text)
    np.testing.assert_array_equal(a.marks, b.marks)
    np.testing.assert_array_equal(a.gaps, b.gaps)
