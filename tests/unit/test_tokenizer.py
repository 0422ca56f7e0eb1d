"""spaCy's tokenizer replayed from exported rules (punctstyle.text.tokenizer) == spaCy itself."""

from __future__ import annotations

import json

import numpy as np
import pytest

from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.extract import english_tokenizer, extract_with_spacy
from punctstyle.io import InputError
from punctstyle.text.tokenizer import RuleTokenizer, TokenizerRules, export_rules, installed_spacy_version


@pytest.fixture(scope="module")
def rules():
    return export_rules(english_tokenizer())


@pytest.fixture(scope="module")
def tokenizer(rules):
    return RuleTokenizer(rules)


def spacy_tokens(text):
    return [t.text for t in english_tokenizer()(text)]


TRICKY = [
    "''x", "' ''x", "'\n''x", ":) :(", ":)", "x:( :", "Mr. Smith", "Mr.", "U.S.A.", "don't",
    "Don't!", "can't've", "'em", "he's", "cannot", "e.g.", "3.14", "12,000", "50%", "a/b",
    "http://example.com/a?b=c.", "www.gutenberg.org,", "me@example.com", "(a)", "[b]", "{c}",
    "'tis", "''quoted''", "«x»", "…end?!", "don’t", "o'clock", "10:30am", "5'10\"", "$3.50",
    "—dash—", "--", "-x-", "x--y", "...", "....", "!?", "?!", ";)", "(;", "<3", "</3", "=)",
    "C++", "a.b.c", "L.", "I.", "OK.", "co-op", "x-ray's", "\u00a0", "  ", "\t", "\n \n",
    " lead", "trail ", "a  b", "a \n b", "' '' ''x ' ''x", "(:", "):", "8)", "8-)", "V.S.",
]  # fmt: skip


@pytest.mark.parametrize("text", TRICKY)
def test_replayed_tokenizer_equals_spacy(tokenizer, text):
    assert tokenizer(text) == spacy_tokens(text)


def test_replayed_tokenizer_on_random_soup(tokenizer):
    rng = np.random.default_rng(1)
    pieces = list("\"'():;,.!?-_aAsSxXoOD8<>=[]*/%$@&") + ["Mr", "he", "'s", "em", "...", "—", "n't", "10", "co"]
    spaces = [" "] * 6 + ["\n", "  ", "\u00a0", "\t"]
    for _ in range(500):
        words = ["".join(rng.choice(pieces, size=rng.integers(1, 5))) for _ in range(rng.integers(1, 6))]
        text = "".join(w + str(rng.choice(spaces)) for w in words)
        assert tokenizer(text) == spacy_tokens(text), text


def test_rules_round_trip_through_json(rules, tmp_path):
    path = tmp_path / "rules.json"
    rules.save(path)
    loaded = TokenizerRules.load(path)
    assert loaded.to_json() == rules.to_json()
    text = "' ''x :) Mr. O'Brien's dog—a mutt—barked... (Twice!) U.S.A. 3.14"
    a = ChunkCachedExtractor(rules=loaded)(text)
    b = extract_with_spacy(text)
    np.testing.assert_array_equal(a.marks, b.marks)
    np.testing.assert_array_equal(a.gaps, b.gaps)


def test_rules_of_another_spacy_version_are_refused(rules, tmp_path):
    data = rules.to_json() | {"spacy_version": "0.0.1"}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=r"old.json: tokenizer rules of spaCy 0.0.1.*" + installed_spacy_version()):
        TokenizerRules.load(path)


def test_a_broken_rules_file_is_one_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(InputError, match="broken.json: not a tokenizer rules file") as info:
        TokenizerRules.load(path)
    assert "\n" not in str(info.value)


def test_a_rules_file_read_again_unchanged_is_the_same_object_and_rewritten_is_read_again(rules, tmp_path):
    """The same object for the same file (so the tokenizer facts, cached by rules object, are
    built once in a process and in the forks of the book-job server); a file saved again (a new
    file: :meth:`TokenizerRules.save` writes atomically) is read again, relative or absolute."""
    from dataclasses import replace

    path = tmp_path / "rules.json"
    rules.save(path)
    first = TokenizerRules.load(path)
    assert TokenizerRules.load(str(path)) is first
    replace(rules, language="fr").save(path)  # the same size as "en"
    second = TokenizerRules.load(path)
    assert second is not first and (first.language, second.language) == ("en", "fr")
    path.write_text("{not json")
    with pytest.raises(InputError, match="rules.json: not a tokenizer rules file"):
        TokenizerRules.load(path)
