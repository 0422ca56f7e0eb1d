"""Each language's marks mapped onto the paper's ten (punctstyle.text.languages), extraction with
spaCy's blank tokenizer of the language, on TEI fixtures of our own sentences."""

from __future__ import annotations

import numpy as np
import pytest

from punctstyle.book.steps import clean_and_extract
from punctstyle.marks import MARKS
from punctstyle.sources.tei import parse_tei
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.clean import clean_text
from punctstyle.text.extract import classify_token, sequence_from_classes
from punctstyle.text.languages import (
    blank_tokenizer,
    language_code,
    normalise_marks,
    parse_variant,
    rules_file_variant,
    rules_variant,
)
from punctstyle.text.tokenizer import TokenizerRules
from punctstyle.text.tokenizer_facts import default_rules, export_extraction_rules
from tests.fixtures.tei_corpus import SAMPLES, tei_document


@pytest.fixture(scope="module")
def rules():
    cache = {}

    def get(language: str, dash: bool) -> TokenizerRules:
        if (language, dash) not in cache:
            cache[language, dash] = export_extraction_rules(language=language, dialogue_dash=dash)
        return cache[language, dash]

    return get


def marks_of(text: str, rules: TokenizerRules) -> tuple[str, list[int]]:
    sequence, _ = clean_and_extract(text, ChunkCachedExtractor(rules=rules))
    return " ".join(MARKS[m] for m in sequence.marks), sequence.gaps.tolist()


@pytest.mark.parametrize("language", sorted(SAMPLES))
@pytest.mark.parametrize("dash", [False, True], ids=["no-dash", "dialogue-dash"])
def test_tei_fixture_gives_the_exact_sequence(language, dash, rules):
    paragraphs, without, with_dash = SAMPLES[language]
    text = parse_tei(tei_document(paragraphs, language=language)).text
    assert marks_of(text, rules(language, dash))[0] == (with_dash if dash else without)


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_fast_path_is_spacy_blank_tokenizer_of_the_language(language, rules):
    text = "\n".join(SAMPLES[language][0] * 3)
    r = rules(language, True)
    fast, _ = clean_and_extract(text, ChunkCachedExtractor(rules=r))
    tokens = blank_tokenizer(language)(clean_text(normalise_marks(text, language, True)))
    reference = sequence_from_classes(np.array([classify_token(t.text) for t in tokens]))
    assert fast.marks.tolist() == reference.marks.tolist() and fast.gaps.tolist() == reference.gaps.tolist()


def test_french_gaps_and_spaces_before_marks(rules):
    r = rules("fr", False)
    # no-break, narrow no-break and thin spaces before ; : ! ? change nothing
    for space in (" ", "\u00a0", "\u202f", "\u2009", ""):
        assert marks_of(f"Il vient{space}? Oui{space}! Bon{space}; enfin{space}: rien.", r) == (
            "? ! ; : .",
            [2, 1, 1, 1, 1],
        )
    # elided articles are words, apostrophes are no marks
    assert marks_of("L’homme d'affaires l'a dit.", r) == (".", [7])  # L' homme d' affaires l' a dit


def test_spanish_opening_marks_are_dropped(rules):
    assert marks_of("¿Qué? ¡Nada! ¿Y tú?", rules("es", False)) == ("? ! ?", [1, 1, 2])


def test_greek_question_mark_and_ano_teleia(rules):
    r = rules("el", False)
    assert marks_of("Τι κάνεις; Καλά· ευχαριστώ.", r) == ("? ; .", [2, 1, 1])
    assert marks_of("Τι κάνεις\u037e Καλά\u0387 ευχαριστώ.", r) == ("? ; .", [2, 1, 1])


def test_single_guillemets_and_low_quotes_are_quotation_marks(rules):
    assert marks_of("‹Gut›, sagte er. ‚Ja‘.", rules("de", False)) == ('" " , . " " .', [0, 1, 0, 2, 0, 1, 0])


def test_unicode_ellipsis(rules):
    assert marks_of("Attends… non.", rules("fr", False)) == ("... .", [1, 1])


def test_dialogue_dash_only_at_a_line_start():
    text = "— Oui, dit-il — enfin.\n  – Non.\nUn mot — un autre.\n―Là."
    assert normalise_marks(text, "fr", True) == '" Oui, dit-il — enfin.\n  " Non.\nUn mot — un autre.\n" Là.'
    assert normalise_marks(text, "fr", False) == text


def test_english_is_left_unchanged():
    text = "‹odd› ¿what? ; · — dash\n— line"
    assert normalise_marks(text, "en") is text
    assert normalise_marks(text, "eng") is text
    assert default_rules().language == "en" and not default_rules().dialogue_dash


def test_language_codes():
    assert [language_code(c) for c in ("fr-FR", "fra", "FRE", "eng", "de_AT", "gre", "pl", "", None)] == [
        "fr", "fr", "fr", "en", "de", "el", "pl", "", "",
    ]  # fmt: skip
    with pytest.raises(ValueError, match="no blank tokenizer"):
        blank_tokenizer("qq")


def test_rules_variants_and_file_names():
    assert rules_variant("en") == "" and rules_variant("eng", True) == "en-dialogue"
    assert rules_variant("fra") == "fr" and rules_variant("pl", True) == "pl-dialogue"
    for variant in ("", "fr", "pl-dialogue", "en-dialogue"):
        assert parse_variant(variant) == parse_variant(rules_variant(*parse_variant(variant)))
    assert rules_file_variant("r/extraction/tokenizer_rules-spacy3.8.18.json") == ("en", False)
    assert rules_file_variant("r/extraction/tokenizer_rules-fr-spacy3.8.18.json") == ("fr", False)
    assert rules_file_variant("tokenizer_rules-es-dialogue-spacy3.8.18.json") == ("es", True)


def test_rules_keep_the_language_and_the_english_file_is_unchanged(tmp_path, rules):
    french = rules("fr", True)
    french.save(tmp_path / "fr.json")
    loaded = TokenizerRules.load(tmp_path / "fr.json")
    assert (loaded.language, loaded.dialogue_dash) == ("fr", True)
    english = default_rules().to_json()
    assert "language" not in english and "dialogue_dash" not in english


def test_other_languages_have_a_fast_path(rules):
    from punctstyle.text.tokenizer_facts import _tokenizer_facts

    for language in ("fr", "de", "es", "pl", "el"):
        facts = _tokenizer_facts(rules(language, False))
        assert facts.unicode and len(facts.simple_classes) >= 90, language
        assert facts.simple_chunk("«été") is None and facts.simple_chunk('"Łódź,') is not None
    assert not _tokenizer_facts(default_rules()).unicode
