"""The extraction definition: tokenizer edge cases, Le Guin, and fast path == spaCy."""

from __future__ import annotations

import numpy as np
import pytest

from punctstyle.text.clean import clean_text
from punctstyle.text.extract import (
    OTHER,
    WORD,
    PunctuationSequence,
    classify_token,
    extract_with_spacy,
)
from punctstyle.text.chunk_cache import (
    ChunkCachedExtractor,
    concatenate_sequences,
    extract,
    text_pieces,
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
    # a text with new chunks overflows the bound: the cache is emptied, results unchanged
    other = "ten eleven, twelve. one, two."
    assert_same(fast(other), extract_with_spacy(other))
    assert fast.cache_size == 5  # only the chunks of `other`
    assert_same(fast(text), b)


def assert_same(fast, ref):
    np.testing.assert_array_equal(fast.marks, ref.marks)
    np.testing.assert_array_equal(fast.gaps, ref.gaps)
    assert fast.n_words == ref.n_words


def test_spacy_special_cases_can_depend_on_the_neighbouring_chunk():
    # spaCy's matcher sees the pattern ' ' (of the special case '') across the space and
    # thereby blocks the special case '' inside the next chunk: ' ' ' x, 3 quotation marks
    assert marks_of("''x")[0] == ['"']  # '' x
    assert marks_of("' ''x")[0] == ['"', '"', '"']
    assert marks_of("'\n''x")[0] == ['"', '"']  # a newline is a token: no pattern spans it


@pytest.mark.parametrize(
    "text",
    [
        "''x\n' ''x",
        "''x ' ''x and ' ''x",
        ":(x\n') :(x",
        "He wrote ') :(x. Then :(x again.",
        "x:( : and x:(\n:",
        "said: 'tis (a) : (b) ;) :) (: Mr . a ... it 's L. O'Sullivan P. O. Box",
        "'Hello,' 'em all'; 'em-up well-known brother's. X-ray OK. I. a-B. word;) word:)",
    ],
)
def test_fast_path_equals_spacy_across_chunk_boundaries(text):
    ref = extract_with_spacy(text)
    assert_same(ChunkCachedExtractor()(text), ref)
    shared = ChunkCachedExtractor()
    for chunk in text.split():  # every chunk seen alone first, then in context
        shared(chunk)
    assert_same(shared(text), ref)


def test_fast_path_equals_spacy_on_unicode_whitespace():
    # spaCy and str.split() both split on str.isspace(): NBSP, U+2028, U+3000, \x1c...;
    # the zero-width space and the BOM are not whitespace
    text = (
        "one,\u00a0two.\u2028three;\u3000four:\x1cfive!\u2009six?\u200bseven\ufeff(eight)"
        "\u0085nine\u2029ten\u202f'eleven'\x0bend. ' \u00a0''x ' ''x"
    )
    fast, ref = ChunkCachedExtractor()(text), extract_with_spacy(text)
    assert_same(fast, ref)
    assert fast.n_words > 10


@pytest.mark.parametrize("core", ["word", "Word", "OK", "I", "x", "he", "Mr", "em", "cannot", "well-known", "a-B", "s"])
def test_simple_chunks_are_classified_like_spacy(core):
    shared = ChunkCachedExtractor()
    for prefix in ("", '"', "'", "("):
        for possessive in ("", "'s"):
            for stop in ("", ",", ";", ":", "!", "?", "."):
                for closer in ("", '"', "'", ")"):
                    chunk = prefix + core + possessive + stop + closer
                    assert_same(shared(chunk), extract_with_spacy(chunk))


def test_fast_path_equals_spacy_on_random_punctuation_soup():
    rng = np.random.default_rng(0)
    pieces = list("\"'():;,.!?-_aAsSxXoOD8<>=[]*/") + ["Mr", "he", "'s", "em", "...", "—", "well", "10", "n't"]
    spaces = [" "] * 6 + ["\n", "  ", "\u00a0"]
    shared = ChunkCachedExtractor()
    for _ in range(300):
        words = ["".join(rng.choice(pieces, size=rng.integers(1, 4))) for _ in range(rng.integers(1, 7))]
        text = "".join(w + str(rng.choice(spaces)) for w in words).rstrip(" ")
        ref = extract_with_spacy(text)
        assert_same(ChunkCachedExtractor()(text), ref)
        assert_same(shared(text), ref)


def test_an_empty_extractor_is_reused():
    fast = ChunkCachedExtractor()
    assert fast  # truthy although empty: `extractor or ChunkCachedExtractor()` keeps it
    extract("one, two.", fast)
    assert fast.cache_size == 2


# --- pieces: long texts are extracted piece by piece, identically -----------------------

PIECE_TEXTS = [
    "''x ' ''x and ' ''x\n' ''x :) :( Mr. Smith's dog, 'tis said.  Then  (a) : (b) ;) ...",
    "one,\u00a0two.\u2028three;\u3000four:\x1cfive!\u2009six?\u200bseven\ufeff(eight) ' \u00a0''x",
    "\n\n  lead  \n' '' ''x  ' ''x\t:) : ) end",
    LE_GUIN.replace("; ", ";\n  ").replace(", ", ",  "),
]


@pytest.mark.parametrize("text", PIECE_TEXTS)
@pytest.mark.parametrize("piece_chars", [1, 2, 3, 5, 8, 13])
def test_pieces_give_the_whole_text_sequence(text, piece_chars):
    ref = extract_with_spacy(text)
    assert_same(ChunkCachedExtractor(piece_chars=piece_chars)(text), ref)
    pieces = list(text_pieces(text, piece_chars))
    assert "".join(pieces) == text
    assert len(pieces) > 1
    # every cut lies just after safe whitespace: never inside a chunk, never at a lone space
    for left, right in zip(pieces, pieces[1:]):
        assert left[-1].isspace() and (left[-1] != " " or right[:1] == " ")


def test_pieces_each_alone_are_what_spacy_gives_for_them():
    text = "A ' ''x\nB :) :( C\n\nD ' '' E" * 3
    pieces = list(text_pieces(text, 4))
    parts = [extract_with_spacy(piece) for piece in pieces]
    assert_same(concatenate_sequences(parts), extract_with_spacy(text))


def test_concatenate_sequences_carries_trailing_words():
    def seq(marks, gaps, n_words):
        return PunctuationSequence(np.array(marks, np.uint8), np.array(gaps, np.uint32), n_words)

    joined = concatenate_sequences([seq([4], [2], 5), seq([], [], 4), seq([5, 4], [1, 0], 3)])
    np.testing.assert_array_equal(joined.marks, [4, 5, 4])
    np.testing.assert_array_equal(joined.gaps, [2, 3 + 4 + 1, 0])
    assert joined.n_words == 12
    empty = concatenate_sequences([seq([], [], 3)])
    assert len(empty) == 0 and empty.n_words == 3


def test_a_text_without_safe_whitespace_is_one_piece():
    text = "a b c d e f g"
    assert list(text_pieces(text, 2)) == [text]


def test_shipped_tokenizer_rules_are_the_installed_spacys():
    """punctstyle/data/tokenizer_rules.json is export_extraction_rules() of the installed spaCy
    (else regenerate it: see punctstyle.text.tokenizer_facts.SHIPPED_RULES)."""
    from punctstyle.text.tokenizer_facts import SHIPPED_RULES, default_rules, export_extraction_rules
    from punctstyle.text.tokenizer import TokenizerRules

    shipped = TokenizerRules.load(SHIPPED_RULES)  # raises when another spaCy version made them
    assert shipped.to_json() == export_extraction_rules().to_json()
    assert default_rules().to_json() == shipped.to_json()
