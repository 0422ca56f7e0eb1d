"""Text distortion (punctstyle.training.distortion, Stamatatos 2017): DV-MA and DV-SA of sentences
written out by hand, the vectorised distortion against the string definition, and the n-gram
vectors counted by hand."""

from __future__ import annotations

import numpy as np
import pytest

from punctstyle.training.distortion import (
    DV_MA,
    DV_SA,
    distort,
    distorted_codes,
    ngram_codes,
    ngram_string,
    ngram_vectors,
    prepare_text,
    text_ngrams,
    top_words,
    word_counts,
)

SENTENCE = 'Mr. Holmes paid 250 pounds, "at once" -- and\nthe 2nd time, too.'


def test_dv_ma_masks_every_character_of_a_rare_word_keeping_its_length():
    kept = {"mr", "paid", "the", "and"}
    assert distort(SENTENCE, kept, DV_MA) == 'Mr. ****** paid ### ******, "** ****" -- and\nthe #** ****, ***.'


def test_dv_sa_masks_a_rare_word_as_one_symbol():
    kept = {"mr", "paid", "the", "and"}
    assert distort(SENTENCE, kept, DV_SA) == 'Mr. * paid # *, "* *" -- and\nthe * *, *.'


def test_the_kept_words_match_case_insensitively_and_keep_their_case():
    assert distort("The the THE cat", {"the"}, DV_SA) == "The the THE *"
    assert distort("", {"the"}, DV_MA) == ""
    with pytest.raises(ValueError, match="unknown text distortion"):
        distort("a", set(), "dv_xx")


@pytest.mark.parametrize("mode", [DV_MA, DV_SA])
def test_the_vectorised_distortion_is_the_string_one(mode):
    ids: dict[str, int] = {}
    texts = [SENTENCE, "  9 lives; 10 cats—ça va? Über 3 über", "no words at all?! ...", "x"]
    prepared = [prepare_text(t, ids) for t in texts]
    for kept_words in ({"the", "and", "über"}, set(), set(ids)):
        kept = np.array([w in kept_words for w in ids], dtype=bool)
        for text, ready in zip(texts, prepared, strict=True):
            got = "".join(map(chr, distorted_codes(ready, kept, mode)))
            assert got == distort(text, kept_words, mode), (text, kept_words)


def test_ngrams_are_the_overlapping_character_trigrams():
    codes = np.array([ord(c) for c in "ab*ab"])
    grams = [ngram_string(g, 3) for g in ngram_codes(codes, 3)]
    assert grams == ["ab*", "b*a", "*ab"]
    assert ngram_codes(codes[:2], 3).size == 0
    with pytest.raises(ValueError, match="n = 1..3"):
        ngram_codes(codes, 4)


def test_top_words_are_the_largest_mean_relative_frequencies_of_the_training_texts():
    ids: dict[str, int] = {}
    texts = [prepare_text(t, ids) for t in ("a a a b", "b c", "c c c c")]
    counts = word_counts(texts, len(ids))
    # a: (3/4 + 0 + 0)/3 = 0.25, b: (1/4 + 1/2)/3 = 0.25, c: (1/2 + 1)/3 = 0.5; a and b tie: smaller id
    assert [list(ids)[i] for i in top_words(counts, 2)] == ["c", "a"]
    assert [list(ids)[i] for i in top_words(counts[2:], 5)] == ["c"]


def test_ngram_vectors_keep_the_training_texts_most_frequent_ngrams():
    ids: dict[str, int] = {}
    train = [prepare_text(t, ids) for t in ("the cat", "the dog")]
    test = [prepare_text("a cat the", ids)]
    kept = np.array([w == "the" for w in ids], dtype=bool)
    # DV-SA: "the *" and "the *" -> trigrams "the", "he ", "e *" in each (1/3 each);
    # the test text "* * the": "* *", " * ", "* t", " th", "the" (1/5 each)
    X_train, X_test, features = ngram_vectors(text_ngrams(train, kept, DV_SA, 3), text_ngrams(test, kept, DV_SA, 3), 2)
    assert sorted(ngram_string(f, 3) for f in features) == ["e *", "he "]  # ties: the smaller codes
    names = [ngram_string(f, 3) for f in features]
    assert X_train.tolist() == [[1 / 3, 1 / 3]] * 2
    assert X_test.tolist() == [[0.0, 0.0]]
    X_train, X_test, features = ngram_vectors(text_ngrams(train, kept, DV_SA, 3), text_ngrams(test, kept, DV_SA, 3), 3)
    names = [ngram_string(f, 3) for f in features]
    assert sorted(names) == ["e *", "he ", "the"]
    assert X_test[0, names.index("the")] == pytest.approx(1 / 5)
