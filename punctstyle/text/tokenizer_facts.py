"""What the fast extraction path knows of the tokenizer's rules: the forms of simple chunks, checked against the rules.

(Split from the former extract.py.)"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from punctstyle.io import InputError
from punctstyle.text.extract import OTHER, WORD, classify_token, english_tokenizer, word_key
from punctstyle.text.tokenizer import RuleTokenizer, TokenizerRules, export_rules


def _simple_chunk_words(chunk: str) -> tuple[str, ...]:
    """The words of a simple chunk (``_TokenizerFacts.simple_chunk`` accepted it): the core's
    hyphen-separated words, then the possessive ``'s``, lower-cased."""
    m = _SIMPLE_CHUNK.fullmatch(chunk)
    words = m.group(2).lower().split("-")
    return (*words, "'s") if m.group(3) else tuple(words)


# --- fast path -------------------------------------------------------------------------

_SIMPLE_CHUNK = re.compile(r"""(["'(]?)([A-Za-z]+(?:-[A-Za-z]+)*)('s)?([,;:!?.]?)(["')]?)""")
"""A chunk the fast path may classify without the tokenizer: prefix, core (words joined by
single hyphens), possessive, stop, closer (module docstring)."""
_PREFIXES = ("", '"', "'", "(")
_POSSESSIVES = ("", "'s")
_STOPS = ("", ",", ";", ":", "!", "?", ".")
_CLOSERS = ("", '"', "'", ")")
_PROBE_CORES = (
    "word", "Word", "WORD", "wORd", "x", "Zz", "AB", "said", "Alice", "cannonball",
    "well-known", "Half-Way-House", "X-ray", "a-b", "OK-GO",
)  # fmt: skip


def _period_splits(core: str) -> bool:
    """spaCy's suffix rule for ``.``: split after a lowercase letter or after two capitals."""
    return core[-1].islower() or (len(core) >= 2 and core[-1].isupper() and core[-2].isupper())


def _classes_of(tokenizer: RuleTokenizer, text: str) -> tuple[int, ...]:
    """The token classes of ``text`` by the tokenizer, ``OTHER`` dropped."""
    return tuple(c for c in map(classify_token, tokenizer(text)) if c != OTHER)


@lru_cache(maxsize=1)
def _space_table() -> np.ndarray:
    """``[UTF-16 code unit]`` -> ``str.isspace()``: the units that ``re``'s ``\\s`` matches in a
    string of all 65,536 of them (``\\s`` of a str pattern is ``str.isspace``, checked by a unit
    test). Built once per extraction job: 0.002 CPU s, against 0.012 for a list of
    ``chr(c).isspace()``."""
    units = np.arange(0x10000, dtype=np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    table = np.zeros(0x10000, dtype=bool)
    table[[match.start() for match in re.finditer(r"\s", units)]] = True
    return table


@dataclass(frozen=True)
class _TokenizerFacts:
    """What the fast path needs to know about the tokenizer, derived from it once."""

    tokenizer: RuleTokenizer
    """The tokenizer the facts are derived from (it classifies the chunks that are not simple)."""

    simple_classes: dict[tuple[str, str, str, str], tuple[int, ...]]
    """(prefix, possessive, stop, closer) -> token classes of a simple chunk of that form
    with a one-word core."""
    rules: frozenset[str]
    """The special cases (``Mr.``, ``'em``, ``he's``, ``cannot``, ``:)``...)."""
    rule_cores: frozenset[str]
    """The cores of the special cases of the simple-chunk form (``Mr``, ``em``, ``he``)."""
    pattern_pairs: frozenset[tuple[str, str]]
    """Consecutive tokens ``(a, b)`` of a multi-token special-case pattern."""
    left_tokens: tuple[str, ...]
    """The ``a`` of the pairs (a chunk ending in one may join its right neighbour), sorted."""
    right_tokens: tuple[str, ...]
    """The ``b`` of the pairs (a chunk starting with one may join its left neighbour), sorted."""
    join_matrix: np.ndarray
    """``[left code, right code]`` -> may the two chunks join; code 0: no pair token, codes
    ``1..len(tokens)``: that token, the last code: unknown token (a chunk the tokenizer
    classified) that may be one."""
    space_table: np.ndarray
    """``[UTF-16 code unit]`` -> ``str.isspace()`` (no whitespace lies outside the BMP)."""
    left_index: dict[str, int]
    """Left token -> its join code (1 + its position in :attr:`left_tokens`)."""
    right_index: dict[str, int]
    """Right token -> its join code."""
    after: dict[str, tuple[str, ...]]
    """Left token -> the right tokens it pairs with."""
    before: dict[str, tuple[str, ...]]
    """Right token -> the left tokens it pairs with."""
    ending_with: dict[str, tuple[str, ...]]
    """Character -> the left tokens that end with it."""
    starting_with: dict[str, tuple[str, ...]]
    """Character -> the right tokens that start with it."""
    unicode: bool = False
    """Rules of another language than English: simple chunks are :data:`_UNICODE_CHUNK`'s
    (:meth:`_unicode_chunk`), the forms in :attr:`simple_classes` have no possessive."""
    token_match: Any = None
    """The compiled ``token_match`` (another language's rules only)."""
    url_match: Any = None
    """The compiled ``url_match`` (another language's rules only)."""

    def simple_chunk(self, chunk: str) -> tuple[tuple[int, ...], str, str] | None:
        """Token classes (``OTHER`` dropped), first and last token of a simple chunk; None
        when the chunk is not simple and needs the tokenizer.

        spaCy splits a simple chunk into the pieces prefix, core words and hyphens,
        ``'s``, stop, closer: each of those characters is a prefix / suffix / infix rule on
        its own and ASCII letters are never split. The pieces are final unless a special
        case applies: to an outer part (what the affix loop looks up: the chunk less some
        outer pieces), to a word, or, through the matcher, to two neighbouring pieces (a
        pattern pair). The period splits only after a lowercase letter or two capitals.
        """
        if self.unicode:
            return self._unicode_chunk(chunk)
        m = _SIMPLE_CHUNK.fullmatch(chunk)
        if m is None:
            return None
        prefix, core, possessive, stop, closer = m.groups()
        possessive = possessive or ""
        classes = self.simple_classes.get((prefix, possessive, stop, closer))
        if classes is None:  # also when two of possessive, stop, closer are a pattern pair
            return None
        if stop == "." and not possessive and not _period_splits(core):
            return None
        rules, pairs = self.rules, self.pattern_pairs
        if core in self.rule_cores:  # an outer part may be a special case: look them up
            end = len(chunk)
            for piece in ("", closer, stop, possessive):
                if piece or end == len(chunk):
                    end -= len(piece)
                    if chunk[:end] in rules or (prefix and chunk[1:end] in rules):
                        return None
        after = possessive or stop or closer
        if "-" not in core:
            if (prefix and (prefix, core) in pairs) or (after and (core, after) in pairs):
                return None
            return classes, prefix or core, closer or stop or possessive or core
        pieces = [prefix] if prefix else []
        words = core.split("-")
        for word in words:
            if word in rules:
                return None
            pieces += (word, "-")
        pieces[-1] = after
        for pair in zip(pieces, pieces[1:]):
            if pair in pairs:
                return None
        at = 1 if prefix else 0
        classes = classes[:at] + (WORD,) * len(words) + classes[at + 1 :]
        return classes, pieces[0], closer or stop or possessive or words[-1]

    def _unicode_chunk(self, chunk: str) -> tuple[tuple[int, ...], str, str, tuple[str, ...]] | None:
        """:meth:`simple_chunk` for another language's rules: an optional opening ``" ' (``, a
        core of letters of any script, an optional stop ``, ; : ! ? .`` and an optional closing
        ``" ' )``, of a form the tokenizer agreed on for every probe (:data:`_UNICODE_PROBES`);
        None (the tokenizer decides) when a period follows a capital not preceded by one, when
        a string the affix loop looks at (the chunk less some outer pieces) is a special case or
        a ``token_match``, when the core is a ``url_match``, or when two neighbouring pieces are
        a pattern pair. Also returns the chunk's words (the core, lower-cased)."""
        m = _UNICODE_CHUNK.fullmatch(chunk)
        if m is None:
            return None
        prefix, core, stop, closer = m.groups()
        classes = self.simple_classes.get((prefix, "", stop, closer))
        if classes is None:
            return None
        if stop == "." and not _period_splits(core):
            return None
        n = len(chunk)
        ends = {n, n - len(closer), n - len(closer) - len(stop)}
        token_match, rules = self.token_match, self.rules
        for start in {0, len(prefix)}:
            for end in ends:
                part = chunk[start:end]
                if part in rules or (token_match is not None and token_match(part) is not None):
                    return None
        if self.url_match is not None and self.url_match(core) is not None:
            return None
        pieces = [p for p in (prefix, core, stop, closer) if p]
        pairs = self.pattern_pairs
        if any(pair in pairs for pair in zip(pieces, pieces[1:])):
            return None
        return classes, pieces[0], pieces[-1], (word_key(core),)

    def boundary_tokens(self, chunk: str) -> tuple[str | None, str | None]:
        """The first and last token of a chunk before special-case matching; None where
        unknown (a chunk only the tokenizer can split)."""
        simple = self.simple_chunk(chunk)
        if simple is not None:
            return simple[1], simple[2]
        if len(chunk) == 1:  # one character is one token
            return chunk, chunk
        return None, None

    def may_join(self, last: str | None, first: str | None, left: str, right: str) -> bool:
        """Can a pattern span the boundary between chunks ``left`` and ``right``?

        ``last``/``first`` are the boundary tokens when known exactly, else None: then any
        token that ends ``left`` / starts ``right`` is possible.
        """
        if last is not None and first is not None:
            return (last, first) in self.pattern_pairs
        if last is not None:
            return right.startswith(self.after.get(last, ()))
        if first is not None:
            return left.endswith(self.before.get(first, ()))
        lasts = [a for a in self.ending_with.get(left[-1], ()) if left.endswith(a)]
        firsts = [b for b in self.starting_with.get(right[0], ()) if right.startswith(b)]
        return any((a, b) in self.pattern_pairs for a in lasts for b in firsts)


SHIPPED_RULES: Path = Path(__file__).resolve().parent.parent / "data" / "tokenizer_rules.json"
"""The extraction rules (:func:`export_extraction_rules`) of one spaCy version, shipped with the
package so that the command line's ``extract`` and ``features`` import neither spaCy nor,
through spaCy's thinc, torch. Regenerate after a spaCy upgrade with
``python -c "from punctstyle.text.extract import *; export_extraction_rules().save(SHIPPED_RULES)"``
(a unit test checks that they are the installed spaCy's)."""


@lru_cache(maxsize=1)
def default_rules() -> TokenizerRules:
    """The rules of :func:`english_tokenizer`: :data:`SHIPPED_RULES` when they come from the
    installed spaCy version (no spaCy import), else exported in this process (imports spaCy)."""
    try:
        return TokenizerRules.load(SHIPPED_RULES)
    except InputError:
        return export_extraction_rules()


def export_extraction_rules(
    tokenizer: Any = None, *, language: str = "en", dialogue_dash: bool = False
) -> TokenizerRules:
    """The tokenizer's rules (:func:`punctstyle.text.tokenizer.export_rules`, imports spaCy) with
    the simple-chunk forms the fast path checked against them, for jobs to read. ``language``
    other than English and no ``tokenizer``: spaCy's blank tokenizer of that language
    (:func:`punctstyle.text.languages.blank_tokenizer`); ``language`` and ``dialogue_dash`` are
    kept in the rules (the mark mapping extraction applies, :mod:`punctstyle.text.languages`)."""
    from punctstyle.text.languages import blank_tokenizer, language_code

    language = language_code(language) or "en"
    if tokenizer is None:
        tokenizer = english_tokenizer() if language == "en" else blank_tokenizer(language)
    rules = export_rules(tokenizer)
    rules = replace(rules, language=language, dialogue_dash=dialogue_dash)
    return replace(rules, simple_forms=tuple(sorted(_tokenizer_facts(rules).simple_classes)))


@lru_cache(maxsize=4)
def _tokenizer_facts(rules: TokenizerRules) -> _TokenizerFacts:
    """Special-case patterns and simple-chunk classes of the tokenizer of ``rules``."""
    tokenizer = RuleTokenizer(rules)
    # The PhraseMatcher pattern of a special case is its tokenization without special cases;
    # every rule is taken (spaCy adds only those with affixes: a superset is safe).
    pairs: set[tuple[str, str]] = set()
    for pieces in rules.bare_tokens.values():
        pairs.update(zip(pieces, pieces[1:]))
    candidates = {
        (prefix, possessive, stop, closer): tuple(
            WORD if p == "w" else classify_token(p) for p in (prefix, "w", possessive, stop, closer) if p
        )
        for prefix in _PREFIXES
        for possessive in _POSSESSIVES
        for stop in _STOPS
        for closer in _CLOSERS
        if not any(pair in pairs for pair in pairwise(p for p in (possessive, stop, closer) if p))
    }
    left = tuple(sorted({a for a, _ in pairs}))
    right = tuple(sorted({b for _, b in pairs}))
    join_matrix = np.zeros((len(left) + 2, len(right) + 2), bool)
    for a, b in pairs:
        join_matrix[left.index(a) + 1, right.index(b) + 1] = True
    join_matrix[-1, 1:] = True
    join_matrix[1:, -1] = True
    facts = _TokenizerFacts(
        tokenizer=tokenizer,
        simple_classes=candidates,
        rules=frozenset(rules.specials),
        rule_cores=frozenset(m.group(2) for m in map(_SIMPLE_CHUNK.fullmatch, rules.specials) if m is not None),
        pattern_pairs=frozenset(pairs),
        left_tokens=left,
        right_tokens=right,
        join_matrix=join_matrix,
        left_index={a: i + 1 for i, a in enumerate(left)},
        right_index={b: i + 1 for i, b in enumerate(right)},
        after={a: tuple(sorted(b for x, b in pairs if x == a)) for a in left},
        before={b: tuple(sorted(a for a, x in pairs if x == b)) for b in right},
        ending_with={c: tuple(a for a in left if a.endswith(c)) for c in {a[-1] for a in left}},
        starting_with={c: tuple(b for b in right if b.startswith(c)) for c in {b[0] for b in right}},
        space_table=_space_table(),
    )
    if rules.language != "en":
        return _unicode_facts(facts, rules, candidates)
    # Keep a form only if the tokenizer agrees on every probe of it (a safety net should a
    # future spaCy split differently: such forms then go through the tokenizer). A
    # token_match would stop the affix loop early: then no form is simple.
    if rules.simple_forms is not None:  # checked when the rules were exported
        return replace(facts, simple_classes={k: candidates[k] for k in rules.simple_forms if k in candidates})
    agreed = {}
    for key, classes in candidates.items() if rules.patterns.get("token_match") is None else ():
        prefix, possessive, stop, closer = key
        probes = [prefix + core + possessive + stop + closer for core in _PROBE_CORES]
        results = [(probe, facts.simple_chunk(probe)) for probe in probes]
        if all(r is None or r[0] == _classes_of(tokenizer, probe) for probe, r in results):
            agreed[key] = classes
    return replace(facts, simple_classes=agreed)


_UNICODE_CHUNK = re.compile(r"""(["'(]?)([^\W\d_]+)([,;:!?.]?)(["')]?)""")
"""Another language's simple chunk: opener, core of letters (any script), stop, closer."""
_UNICODE_PROBES = (
    "mot", "Mot", "MOT", "été", "Été", "ÉTÉ", "œuvre", "żółw", "Łódź", "ŁÓDŹ", "Straße", "Ärger",
    "ñandú", "Ñu", "ναι", "Ναι", "ΝΑΙ", "ἀρετή", "слово", "Слово", "x", "Zz", "AB",
)  # fmt: skip
"""Cores the forms of :data:`_UNICODE_CHUNK` are checked on (every script a language may use)."""


def _unicode_facts(facts: _TokenizerFacts, rules: TokenizerRules, candidates: dict) -> _TokenizerFacts:
    """The facts of another language's rules: the simple forms of :data:`_UNICODE_CHUNK` (no
    possessive), those the rules were exported with, else those the tokenizer agrees on for
    every probe core (:data:`_UNICODE_PROBES`)."""
    forms = {key: classes for key, classes in candidates.items() if key[1] == ""}
    facts = replace(
        facts,
        unicode=True,
        simple_classes=forms,
        token_match=_compiled_match(rules.patterns.get("token_match")),
        url_match=_compiled_match(rules.patterns.get("url_match")),
    )
    if rules.simple_forms is not None:  # checked when the rules were exported
        return replace(facts, simple_classes={k: forms[k] for k in rules.simple_forms if k in forms})
    agreed = {}
    for key, classes in forms.items():
        prefix, _, stop, closer = key
        probes = [prefix + core + stop + closer for core in _UNICODE_PROBES]
        results = [(probe, facts.simple_chunk(probe)) for probe in probes]
        if all(r is None or r[0] == _classes_of(facts.tokenizer, probe) for probe, r in results):
            agreed[key] = classes
    return replace(facts, simple_classes=agreed)


def _compiled_match(pattern: tuple[str, int] | None) -> Any:
    return None if pattern is None else re.compile(pattern[0], pattern[1]).match
