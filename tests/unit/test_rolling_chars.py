"""Tests of rolling attribution's character offsets (punctstyle.attribution.rolling_chars): texts
written here, offsets counted by hand."""

from __future__ import annotations

import re

import numpy as np
import pytest

from punctstyle.api.text import sequence_of_text
from punctstyle.attribution import rolling, rolling_chars
from punctstyle.marks import MARKS
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.clean import clean_text


def ends_of(text: str) -> tuple[list[str], list[int]]:
    sequence = sequence_of_text(text)
    ends = rolling_chars.mark_ends(text, sequence.marks, ChunkCachedExtractor())
    return [MARKS[m] for m in sequence.marks], ends.tolist()


def test_mark_ends_of_a_plain_text():
    # A0 l1 p2 h3 a4 ,5 | b7 .. a10 .11 | G13 .. a17 ;18 | d20 .. a24 !25
    assert ends_of("Alpha, beta. Gamma; delta!") == ([",", ".", ";", "!"], [6, 12, 19, 26])


def test_a_special_case_inside_a_chunk_is_no_mark():
    # ";)" is the tokenizer's emoticon, one token and no mark: only "." (H0 .. t31 .32)
    assert ends_of("He had not seen it;) but he left.") == (["."], [33])
    # O0 h1 _2 (3 | n4 .. i8 t9 ;10 )11 ,12 | h14 .. d20 .21
    assert ends_of("Oh (not it;), he said.") == (["(", ",", "."], [4, 13, 22])


def test_mark_ends_through_the_cleaning_repairs():
    # H0 e1 _2 s3 a4 i5 d6 :7 “8 Y9 e10 s11 _12 .13 _14 .15 _16 .17 _18 n19 o20 ”21 \r22 \n23
    # T24 h25 e26 n27 —28 `29 `30 s31 o32 '33 '34 .35: the glued colon gets a space, the curly
    # quotes and the typewriter pairs become ", the spaced periods an ellipsis, the dash spaces
    text = "He said:\u201cYes . . . no\u201d\r\nThen\u2014``so''."
    assert ends_of(text) == ([":", '"', "...", '"', '"', '"', "."], [8, 9, 18, 22, 31, 35, 36])


def test_mark_ends_after_a_gutenberg_header_and_before_its_footer():
    body = "First one; then two.\nThird, last!\n"
    text = ("The Project Gutenberg eBook of Nothing\r\nTitle: Nothing, at all.\r\n\r\n"
            "*** START OF THE PROJECT GUTENBERG EBOOK NOTHING ***\r\n" + body.replace("\n", "\r\n")
            + "*** END OF THE PROJECT GUTENBERG EBOOK NOTHING ***\r\nLicence: read it; keep it.\r\n")
    at = text.index("First")
    marks, ends = ends_of(text)
    assert marks == [";", ".", ",", "!"]
    # F0 .. e8 ;9 | t11 .. o18 .19 | \r20 \n21 T22 .. d26 ,27 | l29 .. t32 !33 (from the body's start)
    assert ends == [at + 10, at + 20, at + 28, at + 34]


def test_the_replayed_cleaning_is_the_cleaning():
    text = "*** START OF X ***\n\u201cWell\u201d\u2014she said;no. . . .\r\nOK: ``fine''\n*** END OF X ***\n"
    cleaned, ends = rolling_chars.cleaned_with_ends(text)
    assert cleaned == clean_text(text) and ends.size == len(cleaned)
    assert (np.diff(ends) >= 0).all() and ends.max() <= len(text)


def test_replaced_spreads_a_replacement_over_its_match():
    text, ends = rolling_chars.replaced("a. . .b", np.arange(1, 8), re.compile(r"\.(?: \.){2,}"), "...")
    assert text == "a...b" and ends.tolist() == [1, 3, 5, 6, 7]  # ". . ." ends at 2+2, 4+2... of 5 chars
    text, ends = rolling_chars.replaced("x;y", np.arange(1, 4), re.compile(r"(;)"), r"\1 ")
    assert text == "x; y" and ends.tolist() == [1, 2, 2, 3]


def test_changes_and_segments_in_characters():
    ends = np.array([6, 12, 19, 26])
    # a change at p marks is before mark ceil(p): it ends the mark before
    assert rolling_chars.change_characters([1.5, 2.0, 2.25], ends).tolist() == [12, 12, 19]
    assert rolling_chars.segment_characters([12], 30) == [(0, 12), (12, 30)]
    assert rolling_chars.change_characters([], ends).tolist() == []


def test_a_language_mapping_gives_no_offsets():
    class Mapped:
        piece_chars = 1000

        def normalise(self, text: str) -> str:
            return text.replace("«", '"')

    assert rolling_chars.mark_ends("«Oui», dit-il.", np.array([1, 1, 4, 5]), Mapped()) is None


def test_rolling_result_gives_changes_and_segments_in_characters():
    starts = np.arange(20)
    values = np.array([[0.1, 0.9]] * 10 + [[0.9, 0.1]] * 10)
    scores = rolling.SliceScores("toy", rolling.DISTANCE, np.array(["A", "B"], dtype=object), values)
    result = rolling.rolling_attribution(scores, starts, 2, 1, 21)
    assert result.change_marks == (10.5,) and result.change_chars() == [] and "change_chars" not in {
        k for k, v in result.as_json().items() if v is not None}
    from dataclasses import replace

    with_text = replace(result, mark_ends=3 + 4 * np.arange(21), n_chars=90)
    assert with_text.change_chars() == [43]  # before mark ceil(10.5) = 11: after mark 10, which ends at 3 + 40
    record = with_text.as_json()
    assert record["change_chars"] == [43] and record["n_chars"] == 90
    assert [(s["start_char"], s["end_char"], s["author"]) for s in record["segments"]] == [(0, 43, "A"), (43, 90, "B")]
    table = rolling.rolling_table("t", with_text)
    assert "change points (characters of the input): 43" in table and "0 -        43  A" in table


def test_penalty_scale_must_be_positive():
    scores = rolling.SliceScores("toy", rolling.DISTANCE, np.array(["A", "B"], dtype=object), np.ones((4, 2)))
    with pytest.raises(ValueError, match="penalty_scale"):
        rolling.rolling_attribution(scores, np.arange(4), 2, 1, 5, penalty_scale=0)
