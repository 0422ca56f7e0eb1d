"""Cleaning in pieces: the pieces joined are the whole-text cleaning, and extracting them
one by one gives the whole text's sequence (bounded memory, issue 14 item 1)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from punctstyle.book.steps import clean_and_extract
from punctstyle.book.inclusion import count_double_quotes
from punctstyle.text.clean import _DASHES, _GLUED_MARK, _PIECE_CUT, clean_pieces, clean_text, raw_pieces
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.extract import extract_with_spacy
from tests.conftest import LE_GUIN

# Every repair next to a line break, with the break's neighbours in every tricky shape:
# dashes on either side (their surrounding whitespace is eaten), glued marks whose
# look-arounds touch the break, quote pairs split by it, spaced periods, CR LF and lone CR.
TRICKY_TEXTS = [
    "said—\n‘no’—\n(maybe\nword--\nnext\nword\n--next\nword –\ntwo\nend",
    "yes;\nno and yes;no\nsaid:\n\"Hi\" said:\"Hi\"\na:\nb\nc,\n'd'\n",
    "``quoted''\n''x ' ''x\n`\n`\n'\n'\n. . .\n. . . .\nx . .\n. y",
    "line one\r\nline two,\r\nthree—\r\nfour\rfive;\rsix\r\n\r\nseven\u2028eight\u00a0\nnine",
    "“Well,” he said\n—“I don’t know”—\n„maybe“\n«oui»\n‚single‛\nMr.\nSmith's :)\n: )\nend.",
    LE_GUIN.replace(", ", ",\n").replace("; ", "—\n"),
    "*** START OF THIS PROJECT GUTENBERG EBOOK X ***\r\nHe said—\r\nno;way\r\n" * 3
    + "*** END OF THIS PROJECT GUTENBERG EBOOK X ***\r\nlicence\r\n",
]


@pytest.mark.parametrize("text", TRICKY_TEXTS)
def test_cleaned_pieces_joined_are_the_whole_text_cleaning(text):
    whole = clean_text(text)
    for piece_chars in range(1, len(text) + 2):
        pieces = list(clean_pieces(text, piece_chars))
        assert "".join(pieces) == whole, piece_chars
        for left, right in zip(pieces, pieces[1:]):  # a cut extraction may make too
            assert left.endswith("\n") and not left[-2].isspace() and not right[0].isspace()


@pytest.mark.parametrize("text", TRICKY_TEXTS)
def test_raw_pieces_cut_only_after_a_safe_line_break(text):
    pieces = list(raw_pieces(text, 1))
    assert "".join(pieces) == text
    assert len(pieces) > 1
    for left, right in zip(pieces, pieces[1:]):
        tail = left[-3:] if left.endswith("\r\n") else left[-2:]
        cut = _PIECE_CUT.match(tail + right[:1])
        assert cut is not None and cut.end() == len(tail)


def test_a_text_without_a_safe_line_break_is_one_piece():
    text = "no line break at all, said—he\n—or only beside dashes\n\nand blank lines"
    assert list(raw_pieces(text, 1)) == [text]
    assert list(clean_pieces(text, 1)) == [clean_text(text)]


@pytest.mark.parametrize("text", TRICKY_TEXTS)
@pytest.mark.parametrize("piece_chars", [1, 3, 8, 40])
def test_clean_and_extract_is_the_whole_text_definition(text, piece_chars):
    reference = extract_with_spacy(clean_text(text))
    sequence, n_double_quotes = clean_and_extract(text, ChunkCachedExtractor(piece_chars=piece_chars))
    np.testing.assert_array_equal(sequence.marks, reference.marks)
    np.testing.assert_array_equal(sequence.gaps, reference.gaps)
    assert sequence.n_words == reference.n_words
    assert n_double_quotes == count_double_quotes(clean_text(text))


def test_random_texts_cleaned_in_pieces_extract_identically():
    rng = np.random.default_rng(1)
    atoms = list("\"'():;,.!?-_aAsS8") + ["—", "–", "--", "“", "”", "‘", "’", "``", "''", ". . .", "Mr", "n't"]
    breaks = [" ", " ", " ", "\n", "\r\n", "\r", "  ", "\n\n", "\u00a0"]
    extractor = ChunkCachedExtractor(piece_chars=5)
    for _ in range(200):
        words = ["".join(rng.choice(atoms, size=rng.integers(1, 4))) for _ in range(rng.integers(1, 12))]
        text = "".join(w + str(rng.choice(breaks)) for w in words)
        reference = extract_with_spacy(clean_text(text))
        sequence, n_double_quotes = clean_and_extract(text, extractor)
        assert "".join(clean_pieces(text, 5)) == clean_text(text), repr(text)
        np.testing.assert_array_equal(sequence.marks, reference.marks, err_msg=repr(text))
        np.testing.assert_array_equal(sequence.gaps, reference.gaps, err_msg=repr(text))
        assert sequence.n_words == reference.n_words
        assert n_double_quotes == clean_text(text).count('"')


@pytest.mark.parametrize("space", [" ", ""])
def test_the_header_and_licence_go_with_or_without_the_space_after_the_stars(space):
    """158 of the development mirror's texts write ``***START OF``: their licence (300-400
    marks) was counted as text while only ``*** START OF`` was recognised."""
    header = "The Project Gutenberg EBook of X, by Y; see the licence.\n\n"
    body = "He said: “no, never!”\nShe left.\n" * 120
    licence = "Section 1. General Terms of Use; Redistribution: (see below).\n" * 3
    text = (
        f"{header}***{space}START OF THE PROJECT GUTENBERG EBOOK X ***\n\n{body}\n"
        f"***{space}END OF THE PROJECT GUTENBERG EBOOK X ***\n\n{licence}"
    )
    cleaned = clean_text(text)
    assert "Gutenberg" not in cleaned and "Section" not in cleaned and "licence" not in cleaned
    assert cleaned.count("She left.") == 120
    for piece_chars in (50, 1000):
        assert "".join(clean_pieces(text, piece_chars)) == cleaned
    # without the end marker nothing is stripped: the text may not be Gutenberg's
    assert "Gutenberg" in clean_text(text.replace(f"***{space}END OF", "END"))


# The repair patterns as first written: the faster forms in punctstyle.text.clean must match
# exactly where these do (same spans, same group), so that their substitutions are the same.
_DASHES_AS_WRITTEN = re.compile(r"\s*(?:—|–|-{2,})\s*")
_GLUED_MARK_AS_WRITTEN = re.compile(r"(?<=[^\W\d_])([,;:?!])(?=[^\W\d_]|[\"'])")
# every class the patterns look at: whitespace (ASCII and not), dashes and lone hyphens,
# the glued marks and others, ASCII and non-ASCII letters, digits and the underscore, quotes
_ALPHABET = [" ", "  ", "\n", "\t", "\r", "\u00a0", "\u2028", "—", "–", "-", "--", ",", ";", ":", "?", "!",
             ".", "a", "Z", "é", "ж", "1", "_", '"', "'", "(", "x—y", " -- "]  # fmt: skip


def _matches(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], tuple]]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


@pytest.mark.parametrize(
    ("fast", "written"), [(_DASHES, _DASHES_AS_WRITTEN), (_GLUED_MARK, _GLUED_MARK_AS_WRITTEN)], ids=["dashes", "glued"]
)
def test_the_fast_repair_patterns_match_where_the_written_ones_do(fast, written):
    rng = np.random.default_rng(37)
    texts = [*TRICKY_TEXTS, "", "—", "--", "-", " \n—\t ", "a,b a;\"c 1,000 a_,b é!ж"]
    texts += ["".join(rng.choice(_ALPHABET, size=int(rng.integers(1, 60)))) for _ in range(3000)]
    for text in texts:
        assert _matches(fast, text) == _matches(written, text), text
    whole = "".join(texts)
    assert fast.sub(" — ", whole) == written.sub(" — ", whole)
    assert _matches(fast, whole) == _matches(written, whole)
