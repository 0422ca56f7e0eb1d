"""Each language's punctuation mapped onto the paper's ten marks, and language codes.

Extraction (:mod:`punctstyle.text.extract`) tokenizes with spaCy's blank tokenizer of the
language (``spacy.blank(code)``: rules only, no model download) and classifies tokens as the
paper does. Before cleaning, :func:`normalise_marks` maps what other languages write onto
the ten marks ``! " ( ) , . : ; ? ...``; English texts are left unchanged, so the paper's
English path stays bit-for-bit what it was.

The mapping (tested in ``tests/unit/test_languages.py``):

=====================================  ============================================================
what the text has                      becomes
=====================================  ============================================================
« » „ “ ” (double quotation marks)     ``"`` (cleaning already does this for every language)
‚ ‘ ’ (single quotation marks)         ``'`` (cleaning), one quotation mark when a token alone
‹ › (single guillemets)                ``'``: one quotation mark (every language but English)
¿ ¡ (Spanish opening marks)            removed: the closing ``?`` / ``!`` counts the question or
                                       exclamation once, as in the other languages
Greek ``;`` (and U+037E, its           ``?`` (Greek only)
canonical twin) the question mark
Greek ``·`` (ano teleia, U+0387,       ``;`` (Greek only)
and the middle dot U+00B7)
the French spaces before ``; : ! ?``   nothing to do: no-break (U+00A0), narrow no-break
                                       (U+202F) and thin (U+2009) spaces are whitespace to the
                                       tokenizer, so ``Quoi ?`` and ``Quoi\\u202f?`` give a word
                                       and a ``?``, as ``Quoi?`` does
``…`` (the Unicode ellipsis)           ``...`` (the classification already does this)
a dialogue dash opening a line         ``"`` with ``dialogue_dash`` (``extraction.dialogue_dash:
(— – ― at a paragraph's start)         quote``); else left out like every dash (the paper's rule)
apostrophes (``l'``, ``d’``, ``'s``)    stay out: parts of words, as in the paper
=====================================  ============================================================

The dialogue dash. Spanish, French, Polish and Russian novels open a speech turn with a dash
(``— Oui, dit-il.``) where English ones use quotation marks; the paper leaves dashes out,
so such dialogue leaves no mark at all. With ``dialogue_dash`` on, a dash that opens a line
(a TEI paragraph is a line, :mod:`punctstyle.sources.tei`) counts as one quotation mark:
the turn is marked as an English turn's opening ``"`` is. A dash inside a line (an
incise ``— dit-il —``, a parenthetic dash) stays out. docs/languages.md reports attribution
with and without it.
"""

from __future__ import annotations

import re

ENGLISH = "en"
LANGUAGE_CODES: dict[str, str] = {
    "eng": "en", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "spa": "es", "pol": "pl",
    "ell": "el", "gre": "el", "rus": "ru", "ita": "it", "por": "pt", "nld": "nl", "dut": "nl",
    "ces": "cs", "cze": "cs", "hun": "hu", "ron": "ro", "rum": "ro", "srp": "sr", "slv": "sl",
    "swe": "sv", "nor": "nb", "nob": "nb", "ukr": "uk", "lit": "lt", "hrv": "hr", "fin": "fi",
    "dan": "da", "cat": "ca", "eus": "eu", "baq": "eu", "gle": "ga", "lav": "lv", "est": "et",
    "tur": "tr", "slk": "sk", "slo": "sk", "bul": "bg", "lat": "la", "mkd": "mk", "mac": "mk",
}  # fmt: skip
"""ISO 639-2/3 codes (as TEI headers and ELTeC's tables write them) -> spaCy's two-letter codes."""

_COMMON = {"‹": "'", "›": "'", "¿": None, "¡": None}
_GREEK = {";": "?", "\u037e": "?", "\u0387": ";", "\u00b7": ";"}
DIALOGUE_DASH = re.compile(r"^([^\S\n]*)[—–―][^\S\n]*", re.MULTILINE)
"""A dash (em, en, horizontal bar) opening a line, after optional spaces, with the spaces after it."""
DIALOGUE_DASH_OPTIONS: tuple[str, ...] = ("none", "quote")
"""``extraction.dialogue_dash``: ``none`` (dashes stay out, the paper's rule) or ``quote``."""


def language_code(value: str | None) -> str:
    """A language tag -> spaCy's code: the primary subtag, lower-cased, ISO 639-2/3 codes
    mapped to two letters (``fr-FR`` -> ``fr``, ``eng`` -> ``en``, ``GRE`` -> ``el``); ``""``
    for an empty tag."""
    primary = (value or "").strip().replace("_", "-").split("-")[0].lower()
    return LANGUAGE_CODES.get(primary, primary)


def translation_table(language: str) -> dict[int, str | None]:
    """The character mapping of ``language`` (module docstring); empty for English."""
    language = language_code(language) or ENGLISH
    if language == ENGLISH:
        return {}
    table = dict(_COMMON)
    if language == "el":
        table.update(_GREEK)
    return str.maketrans(table)


def normalise_marks(text: str, language: str, dialogue_dash: bool = False) -> str:
    """``text`` with ``language``'s marks mapped onto the paper's (module docstring); a dash
    opening a line becomes ``"`` with ``dialogue_dash``. English without ``dialogue_dash``:
    ``text`` itself."""
    for char, replacement in translation_table(language).items():  # str.replace: C speed, unlike translate
        if chr(char) in text:
            text = text.replace(chr(char), replacement or "")
    if dialogue_dash:
        text = DIALOGUE_DASH.sub(r'\1" ', text)
    return text


def rules_variant(language: str, dialogue_dash: bool = False) -> str:
    """The name of a language's extraction rules (``fr``, ``fr-dialogue``); ``""`` for English
    without the dialogue dash (the paper's rules file keeps its name)."""
    language = language_code(language) or ENGLISH
    if language == ENGLISH and not dialogue_dash:
        return ""
    return f"{language}-dialogue" if dialogue_dash else language


def parse_variant(variant: str) -> tuple[str, bool]:
    """:func:`rules_variant` read back: ``(language, dialogue_dash)``."""
    if not variant:
        return ENGLISH, False
    language, _, suffix = variant.partition("-")
    return language, suffix == "dialogue"


def blank_tokenizer(language: str):  # noqa: ANN201 - a spaCy Tokenizer (spaCy imported lazily)
    """spaCy's blank tokenizer of ``language`` (``spacy.blank(code).tokenizer``: rules only,
    nothing downloaded). Raises ValueError for a code spaCy does not know or whose tokenizer
    is not rule-based (Chinese, Japanese, Korean, Thai, Vietnamese: they need extra packages)."""
    import spacy  # lazy: spacy is slow to import
    from spacy.tokenizer import Tokenizer  # lazy: spacy is slow to import

    code = language_code(language) or ENGLISH
    try:
        nlp = spacy.blank(code)
    except (ImportError, KeyError, ValueError) as exc:
        raise ValueError(
            f"language {code!r}: spaCy has no blank tokenizer for it ({' '.join(str(exc).split())[:160]})"
        ) from None
    if not isinstance(nlp.tokenizer, Tokenizer):
        raise ValueError(f"language {code!r}: spaCy's tokenizer for it is not rule-based; not supported")
    return nlp.tokenizer


_RULES_FILE = re.compile(r"tokenizer_rules(?:-([a-z]{2,3}(?:-dialogue)?))?-spacy[^/]*\.json$")


def rules_file_variant(path: str) -> tuple[str, bool]:
    """``(language, dialogue_dash)`` named by a rules file's name
    (``.../tokenizer_rules-fr-dialogue-spacy3.8.json`` -> ``("fr", True)``; the paper's
    ``tokenizer_rules-spacy3.8.json`` -> ``("en", False)``): the rule that exports them reads
    its output's name, so the English file and its rule stay as they were."""
    match = _RULES_FILE.search(str(path))
    if match is None:
        raise ValueError(f"{path}: not a tokenizer rules file name (tokenizer_rules[-<language>]-spacy<version>.json)")
    return parse_variant(match.group(1) or "")
