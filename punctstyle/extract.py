"""Text -> punctuation sequence and word gaps (section 2.2 of the paper).

The definition (spaCy's English tokenizer, ``spacy.blank("en")``, no model):

* a token made only of quotation characters (``" ' “ ” ‘ ’ „ « »`` and the backtick) is one
  quotation mark ``"``;
* ``…`` or a token of three or more periods is an ellipsis ``...``;
* a token equal to one of ``! ( ) , . : ; ?`` is that mark;
* any other token with at least one letter or digit is a word (``don't`` -> ``do`` ``n't``:
  two words; ``Mr.`` is a word and emits no period);
* anything else (dashes, ``$``, ``*``, ``&``, whitespace) is neither.

Output: the mark codes ``theta_1..theta_n`` (:mod:`punctstyle.marks` order) and the gaps
``w_0..w_{n-1}``, where ``w_0`` is the number of words before the first mark and ``w_l``
the number of words between marks ``l`` and ``l+1``; words after the last mark are dropped.

Two implementations give identical output:

* :func:`extract_with_spacy` tokenises the whole text: the reference definition;
* :class:`ChunkCachedExtractor` (the default) classifies each distinct whitespace-separated
  chunk once and reuses the result, so a book costs one dictionary lookup per chunk and a
  few vectorised numpy passes. ``benchmarks/bench_extract.py`` proves the identity on every
  book of the shared mirror.

Why chunks are (almost) independent. spaCy splits the text on ``str.isspace`` characters
(the same set as ``str.split()``: NBSP, ``\\u2028``, ``\\u3000``, ``\\x1c``... but not the
zero-width space) and tokenises each chunk alone (prefixes, suffixes, infixes, special
cases). One step looks across chunks: the special-case ``PhraseMatcher`` runs over the
whole token sequence, and a pattern of several tokens (``: )`` of the emoticon ``:)``,
``' '`` of ``''``, ``Mr .`` of ``Mr.``) can match across a single space between two
chunks. Such a match is never applied (its text contains the space), but it claims its
tokens and can thereby suppress an overlapping special case inside a chunk: ``' ''x``
gives three quotation marks, while ``'`` and ``''x`` alone give two. The fast path
therefore knows, for every cached chunk, whether its first and last tokens occur in such a
pattern; where two neighbours separated by exactly one space could form one, it
tokenises them together as one chunk.

How new chunks are classified. A chunk of ASCII letters with at most one opening
``" ' (``, single hyphens between words, a possessive ``'s``, one stop ``, ; : ! ? .`` and
one closing ``" ' )`` splits into exactly those pieces: spaCy's prefix, suffix and infix
rules split off each of those characters on its own and never split ASCII letters. The
fast path classifies such a chunk by a regular expression unless a special case could
apply (the chunk less some outer pieces, or a word, is a special case such as ``Mr.``,
``he's``, ``cannot``; or two neighbouring pieces are a pattern pair such as ``; )``), or
the period follows a capital not preceded by another capital (``I.`` stays one token).
Every such form is checked against the tokenizer on probe words once (when the rules are
exported, :func:`export_extraction_rules`, else once per process). These chunks are over
90 % of the distinct chunks of a book; every other chunk goes through the tokenizer, chunk
by chunk (as if separated by newlines, which no pattern can cross).

The tokenizer. The fast path does not run spaCy: it replays spaCy's algorithm on spaCy's
rules exported as data (:mod:`punctstyle.tokenizer`; the workflow exports them once per
spaCy version, rule ``tokenizer_rules``), so a job needs no ``import spacy`` (about one CPU
second). :func:`extract_with_spacy` still runs spaCy itself: it is the definition the fast
path is checked against.

Word counts. :meth:`ChunkCachedExtractor.extract_with_words` also counts the words (the
tokens of class ``WORD``, the ones the gaps count) by :func:`word_key` (lower-cased): each
cached chunk keeps its words (a simple chunk's from the regular expression, the others' from
the tokenizer), so the counts cost one ``np.bincount`` of the chunk ids per piece;
:func:`words_with_spacy` is the reference they are tested against.
:meth:`ChunkCachedExtractor.extract_with_word_stream` gives the words themselves, in text order
(word ``j`` is word ``j`` of the gap stream), for the length curve's word methods.

Memory. A long text is extracted in pieces of about :data:`PIECE_CHARS` characters, cut
inside whitespace that no token and no pattern spans (:func:`text_pieces`); the pieces'
sequences are concatenated (:func:`concatenate_sequences`), identical to the whole text's.
A raw text is cleaned in pieces too, cut where both cleaning and extraction may cut
(:func:`punctstyle.clean.clean_pieces`, :func:`punctstyle.book.clean_and_extract`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import chain, pairwise, repeat
from pathlib import Path
from typing import Any

import numpy as np

from punctstyle.io import InputError
from punctstyle.marks import ELLIPSIS, MARK_CODE, QUOTE, QUOTE_CHARACTERS
from punctstyle.tokenizer import RuleTokenizer, TokenizerRules, export_rules

WORD: int = -1
"""Token class of a word."""
OTHER: int = -2
"""Token class of a token that is neither a word nor a mark."""

_SINGLE_MARKS: dict[str, int] = {m: c for m, c in MARK_CODE.items() if m not in ('"', "...")}


@dataclass(frozen=True)
class PunctuationSequence:
    """The marks (uint8 codes) of a text and the word gaps before each mark (uint32)."""

    marks: np.ndarray
    gaps: np.ndarray
    n_words: int = 0
    """All words of the text, those after the last mark included."""

    def __post_init__(self) -> None:
        if self.marks.shape != self.gaps.shape:
            raise ValueError(f"marks and gaps differ in length: {self.marks.shape} vs {self.gaps.shape}")

    def __len__(self) -> int:
        return int(self.marks.shape[0])


@lru_cache(maxsize=1)
def english_tokenizer() -> Any:
    """spaCy's rule-based English tokenizer (``spacy.blank("en")``; no model download)."""
    import spacy

    return spacy.blank("en").tokenizer


def classify_token(token: str) -> int:
    """A token's class: a mark code 0..9, :data:`WORD` or :data:`OTHER` (module docstring)."""
    if not token:
        return OTHER
    if all(ch in QUOTE_CHARACTERS for ch in token):
        return QUOTE
    if token == "…" or (len(token) >= 3 and token.count(".") == len(token)):
        return ELLIPSIS
    code = _SINGLE_MARKS.get(token)
    if code is not None:
        return code
    if any(ch.isalnum() for ch in token):
        return WORD
    return OTHER


def word_key(token: str) -> str:
    """How a word token is counted: lower-cased (``str.lower``: ``The`` -> ``the``,
    ``N'T`` -> ``n't``). A word token is a token of class :data:`WORD` (module docstring):
    ``don't`` counts ``do`` and ``n't``, ``Mr.`` counts ``mr.``, ``1885`` counts ``1885``,
    ``well-known`` counts ``well`` and ``known`` (the hyphen is a token of class ``OTHER``),
    ``Alice's`` counts ``alice`` and ``'s``."""
    return token.lower()


def _simple_chunk_words(chunk: str) -> tuple[str, ...]:
    """The words of a simple chunk (``_TokenizerFacts.simple_chunk`` accepted it): the core's
    hyphen-separated words, then the possessive ``'s``, lower-cased."""
    m = _SIMPLE_CHUNK.fullmatch(chunk)
    words = m.group(2).lower().split("-")
    return (*words, "'s") if m.group(3) else tuple(words)


def words_with_spacy(text: str) -> Counter[str]:
    """The reference word counts: spaCy's tokens of class ``WORD``, by :func:`word_key`."""
    return Counter(word_key(t.text) for t in english_tokenizer()(text) if classify_token(t.text) == WORD)


def sequence_from_classes(classes: np.ndarray) -> PunctuationSequence:
    """Token classes (mark codes, WORD, OTHER) in text order -> marks and gaps.

    With ``c_t`` the cumulative number of words up to token ``t`` and ``t_1 < ... < t_n`` the
    positions of the marks: ``w_0 = c_{t_1}``, ``w_l = c_{t_{l+1}} - c_{t_l}``.
    """
    classes = np.asarray(classes, dtype=np.int64)
    words_so_far = np.cumsum(classes == WORD)
    is_mark = classes >= 0
    marks = classes[is_mark].astype(np.uint8)
    words_at_marks = words_so_far[is_mark]
    gaps = np.diff(words_at_marks, prepend=0).astype(np.uint32)
    n_words = int(words_so_far[-1]) if words_so_far.size else 0
    return PunctuationSequence(marks=marks, gaps=gaps, n_words=n_words)


def extract_with_spacy(text: str) -> PunctuationSequence:
    """The reference definition: tokenise the whole text with spaCy and classify each token."""
    tokens = english_tokenizer()(text)
    classes = np.fromiter((classify_token(t.text) for t in tokens), dtype=np.int64, count=len(tokens))
    return sequence_from_classes(classes)


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
    """``[UTF-16 code unit]`` -> ``str.isspace()``."""
    return np.array([chr(c).isspace() for c in range(0x10000)])


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


SHIPPED_RULES: Path = Path(__file__).with_name("data") / "tokenizer_rules.json"
"""The extraction rules (:func:`export_extraction_rules`) of one spaCy version, shipped with the
package so that the command line's ``extract`` and ``features`` import neither spaCy nor,
through spaCy's thinc, torch. Regenerate after a spaCy upgrade with
``python -c "from punctstyle.extract import *; export_extraction_rules().save(SHIPPED_RULES)"``
(a unit test checks that they are the installed spaCy's)."""


@lru_cache(maxsize=1)
def default_rules() -> TokenizerRules:
    """The rules of :func:`english_tokenizer`: :data:`SHIPPED_RULES` when they come from the
    installed spaCy version (no spaCy import), else exported in this process (imports spaCy)."""
    try:
        return TokenizerRules.load(SHIPPED_RULES)
    except InputError:
        return export_extraction_rules()


def export_extraction_rules(tokenizer: Any = None) -> TokenizerRules:
    """The tokenizer's rules (:func:`punctstyle.tokenizer.export_rules`, imports spaCy) with
    the simple-chunk forms the fast path checked against them, for jobs to read."""
    rules = export_rules(tokenizer if tokenizer is not None else english_tokenizer())
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


PIECE_CHARS: int = 250_000
"""Characters of text cleaned and extracted at once (a piece's chunk list takes about 10 bytes
a character, its cleaning copies 2 to 4 bytes a character each; 4 M characters made 50 MB
texts peak at 5.4 times the text, 1 M at 4.9, ``benchmarks/bench_extract_memory.py``). It
also bounds the distinct chunks the cache takes at once (:data:`DEFAULT_MAX_CACHE`): 250,000
(issue 22 item 12) with the cache bound took a 5 MB text of 200,000 distinct words from 58 MB
above the start to 21 MB."""


DEFAULT_MAX_CACHE: int = 50_000
"""Chunks the cache holds at most (then it is emptied, a piece at a time). A cached chunk
costs about 300 bytes (its key, its words, its classes and codes), and a piece of
:data:`PIECE_CHARS` characters has at most about 35,000 distinct chunks, so the cache stays
under about 30 MB whatever the text's vocabulary (issue 22 item 12: with 2,000,000 chunks and
pieces of 1,000,000 characters, a 20 MB text of 200,000 distinct invented words peaked at 26x
the text; ``benchmarks/bench_extract_memory.py --sizes 20 --vocabulary 200000``). A real book
has fewer distinct chunks (58,234 over 12 mirror books in ``bench_extract.py --limit 12``)."""


class ChunkCachedExtractor:
    """Fast, identical extraction: classify each distinct whitespace chunk once.

    Long texts are cut into pieces of about ``piece_chars`` characters where no token or
    special-case pattern can span the cut (:func:`text_pieces`), which bounds the memory
    of the chunk lists. ``rules``: the tokenizer's data (:class:`TokenizerRules`, e.g. read
    from the workflow's rules file); by default exported from spaCy in this process.
    The instance owns its cache (no global state): chunk -> integer id, and per id the
    token classes (``OTHER`` dropped, stored flat) and the join codes of its first and last
    token (could they be part of a special-case pattern spanning a space).
    ``max_cache`` bounds the number of cached chunks (:data:`DEFAULT_MAX_CACHE`; checked once
    per piece: when a piece's new chunks would overflow it, the cache is emptied first, so it
    never holds more than ``max_cache`` chunks plus one piece's). Reuse one instance for many books.
    """

    def __init__(
        self,
        max_cache: int | None = None,
        rules: TokenizerRules | None = None,
        piece_chars: int = PIECE_CHARS,
    ) -> None:
        self.max_cache = DEFAULT_MAX_CACHE if max_cache is None else max_cache
        self.piece_chars = piece_chars
        self._facts = _tokenizer_facts(rules if rules is not None else default_rules())
        self.clear()

    def clear(self) -> None:
        """Forget every cached chunk."""
        self._ids: dict[str, int] = {}
        self._token_class: dict[str, int] = {}  # token text -> token class
        self._words: list[tuple[str, ...]] = []  # chunk id -> its word tokens, lower-cased
        self._start = np.zeros(0, np.int64)
        self._count = np.zeros(0, np.int64)
        self._first_code = np.zeros(0, np.int16)
        self._last_code = np.zeros(0, np.int16)
        self._classes = np.zeros(0, np.int8)
        self._n_classes = 0

    @property
    def cache_size(self) -> int:
        """Number of cached chunks (no ``__len__``: an empty extractor must stay truthy)."""
        return len(self._ids)

    def __call__(self, text: str) -> PunctuationSequence:
        """Marks and gaps of ``text``, extracted piece by piece (:func:`text_pieces`)."""
        return concatenate_sequences(map(self._extract_piece, text_pieces(text, self.piece_chars)))

    def extract_with_words(self, text: str) -> tuple[PunctuationSequence, Counter[str]]:
        """Marks and gaps of ``text`` and the counts of its words (:func:`word_key`).

        The words are the tokens of class ``WORD`` (those the gaps count): their counts sum
        to ``n_words``. Each cached chunk keeps its lower-cased words, so a piece costs one
        ``np.bincount`` over its chunk ids and one update per distinct chunk.
        """
        counts: Counter[str] = Counter()
        parts = []
        for piece in text_pieces(text, self.piece_chars):
            ids = self._piece_ids(piece)
            parts.append(sequence_from_classes(self._gather(ids)))
            occurrences = np.bincount(ids)
            present = np.flatnonzero(occurrences)
            words = self._words
            for chunk_id, n in zip(present.tolist(), occurrences[present].tolist()):
                for word in words[chunk_id]:
                    counts[word] += n
        return concatenate_sequences(parts), counts

    def extract_with_word_stream(self, text: str) -> tuple[PunctuationSequence, list[str]]:
        """Marks and gaps of ``text`` and its words in text order (:func:`word_key`).

        The words are the tokens of class ``WORD``, the ones the gaps count, so word ``j`` of
        the list is the ``j``-th word of the gap stream: ``sum(gaps[:l])`` words lie before mark
        ``l``, and the list has ``n_words`` entries (those after the last mark included). Each
        cached chunk keeps its words in token order (a chunk joined with its neighbour by a
        special-case pattern is one chunk), so a piece costs one pass over its chunk ids; the
        sequence is the one of ``self(text)``."""
        parts, stream = [], []
        for piece in text_pieces(text, self.piece_chars):
            ids = self._piece_ids(piece)  # may renew the cache: read self._words after it
            parts.append(sequence_from_classes(self._gather(ids)))
            stream.extend(chain.from_iterable(map(self._words.__getitem__, ids.tolist())))
        return concatenate_sequences(parts), stream

    def _extract_piece(self, text: str) -> PunctuationSequence:
        return sequence_from_classes(self._gather(self._piece_ids(text)))

    def _piece_ids(self, text: str) -> np.ndarray:
        """The chunk ids of one piece, neighbours a pattern could span merged into one."""
        chunks = text.split()
        ids = self._ids_of(chunks)
        if ids.size > 1:
            joinable = self._facts.join_matrix[self._last_code[ids[:-1]], self._first_code[ids[1:]]]
            candidates = np.flatnonzero(joinable)
            if candidates.size:
                ids = self._join_neighbours(text, chunks, ids, candidates)
        return ids

    # -- lookups ---------------------------------------------------------------------

    def _ids_of(self, chunks: list[str]) -> np.ndarray:
        """Chunk ids, classifying the chunks not seen before."""
        n = len(chunks)
        if self._ids:  # warm: one lookup per chunk, then only the missing ones
            ids = np.fromiter(map(self._ids.get, chunks, repeat(-1)), np.int64, n)
            missing = np.flatnonzero(ids < 0).tolist()
            if not missing:
                return ids
            unseen = list(dict.fromkeys([chunks[i] for i in missing]))
            if len(self._ids) + len(unseen) <= self.max_cache:
                self._add(unseen)
                ids[missing] = [self._ids[chunks[i]] for i in missing]
                return ids
            self.clear()
        self._add(list(dict.fromkeys(chunks)))
        return np.fromiter(map(self._ids.__getitem__, chunks), np.int64, n)

    def _gather(self, ids: np.ndarray) -> np.ndarray:
        """The token classes of the chunks ``ids``, in order."""
        counts = self._count[ids]
        ends = np.cumsum(counts)
        total = int(ends[-1]) if ends.size else 0
        offsets = np.repeat(self._start[ids] - (ends - counts), counts)
        return self._classes[offsets + np.arange(total)]

    def _join_neighbours(self, text: str, chunks: list[str], ids: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """Merge neighbours a special-case pattern could span into one chunk (docstring)."""
        facts = self._facts
        joins = []
        for k in candidates.tolist():
            left, right = chunks[k], chunks[k + 1]
            if facts.may_join(facts.boundary_tokens(left)[1], facts.boundary_tokens(right)[0], left, right):
                joins.append(k)
        if not joins:
            return ids
        single = _single_spaces(text, len(chunks), self._facts.space_table)
        joins = [k for k in joins if single[k]]  # a newline or two spaces are tokens: no pattern spans them
        if not joins:
            return ids
        keep = np.ones(ids.size, bool)
        merged: list[str] = []
        heads: list[int] = []
        run_start = run_end = joins[0]
        for k in joins[1:] + [-1]:
            if k == run_end + 1:
                run_end = k
                continue
            merged.append(" ".join(chunks[run_start : run_end + 2]))
            heads.append(run_start)
            keep[run_start + 1 : run_end + 2] = False
            run_start = run_end = k
        new = [c for c in dict.fromkeys(merged) if c not in self._ids]
        if new:
            self._add(new)
        ids = ids.copy()
        ids[heads] = [self._ids[c] for c in merged]
        return ids[keep]

    # -- classification of new chunks -------------------------------------------------

    def _add(self, chunks: list[str]) -> None:
        """Classify new chunks (simple ones by regex, the others with the tokenizer) and store
        them with their join codes (see ``_TokenizerFacts.join_matrix``): exact for known
        boundary tokens, else whether the chunk starts / ends with a pattern token at all."""
        facts = self._facts
        rules, simple_chunk = facts.rules, facts.simple_chunk
        word = facts.simple_classes.get(("", "", "", ""))
        right_get, left_get = facts.right_index.get, facts.left_index.get
        unknown_right, unknown_left = len(facts.right_index) + 1, len(facts.left_index) + 1
        classes: list[tuple[int, ...]] = []
        words: list[tuple[str, ...]] = []
        first_codes: list[int] = []
        last_codes: list[int] = []
        hard: list[int] = []
        for k, chunk in enumerate(chunks):
            if word is not None and chunk.isalpha() and chunk.isascii() and chunk not in rules:
                classes.append(word)  # the commonest chunk: a plain word
                words.append((word_key(chunk),))
                first_codes.append(right_get(chunk, 0))
                last_codes.append(left_get(chunk, 0))
                continue
            simple = simple_chunk(chunk)
            if simple is not None:
                classes.append(simple[0])
                words.append(_simple_chunk_words(chunk))
                first_codes.append(right_get(simple[1], 0))
                last_codes.append(left_get(simple[2], 0))
                continue
            hard.append(k)
            classes.append(())
            words.append(())
            if len(chunk) == 1:  # one character is one token
                first_codes.append(right_get(chunk, 0))
                last_codes.append(left_get(chunk, 0))
            else:
                first_codes.append(unknown_right if chunk.startswith(facts.right_tokens) else 0)
                last_codes.append(unknown_left if chunk.endswith(facts.left_tokens) else 0)
        if hard:
            for k, (hard_classes, hard_words) in zip(hard, self._tokenize([chunks[k] for k in hard])):
                classes[k] = hard_classes
                words[k] = hard_words
        self._words.extend(words)
        self._store(chunks, classes, first_codes, last_codes)

    def _tokenize(self, chunks: list[str]) -> list[tuple[tuple[int, ...], tuple[str, ...]]]:
        """The classes (``OTHER`` dropped) and the words (:func:`word_key`) of each chunk, by
        the tokenizer, chunk by chunk
        (as if the chunks were joined by newlines: a newline is a token of its own, so no
        special-case pattern spans two chunks)."""
        memo, tokenizer = self._token_class, self._facts.tokenizer
        out = []
        for chunk in chunks:
            classes = []
            words = []
            for token in tokenizer(chunk):
                code = memo.get(token)
                if code is None:
                    code = memo[token] = classify_token(token)
                if code != OTHER:
                    classes.append(code)
                if code == WORD:
                    words.append(word_key(token))
            out.append((tuple(classes), tuple(words)))
        return out

    def _store(
        self,
        chunks: list[str],
        classes: list[tuple[int, ...]],
        first_codes: list[int],
        last_codes: list[int],
    ) -> None:
        """Give the new chunks ids and store their classes and boundary facts."""
        base, n = len(self._ids), len(chunks)
        counts = np.fromiter(map(len, classes), np.int64, n)
        n_new = int(counts.sum())
        flat = np.fromiter(chain.from_iterable(classes), np.int8, n_new)
        if base + n > self._start.size:
            size = max(2 * self._start.size, base + n, 1024)
            self._start = _grown(self._start, size)
            self._count = _grown(self._count, size)
            self._first_code = _grown(self._first_code, size)
            self._last_code = _grown(self._last_code, size)
        if self._n_classes + n_new > self._classes.size:
            self._classes = _grown(self._classes, max(2 * self._classes.size, self._n_classes + n_new, 4096))
        self._start[base : base + n] = self._n_classes + np.cumsum(counts) - counts
        self._count[base : base + n] = counts
        self._first_code[base : base + n] = first_codes
        self._last_code[base : base + n] = last_codes
        self._classes[self._n_classes : self._n_classes + n_new] = flat
        self._n_classes += n_new
        self._ids.update(zip(chunks, range(base, base + n)))


_SAFE_CUT = re.compile(r"[^\S ]|  ")
"""Whitespace no token and no special-case pattern spans: any whitespace character but the
space, or two spaces (a single space may lie inside a pattern such as ``: )``)."""


def text_pieces(text: str, piece_chars: int) -> Iterator[str]:
    """``text`` cut into pieces of at least ``piece_chars`` characters (the last one may be
    shorter), each cut just after the first safe whitespace (:data:`_SAFE_CUT`) past the
    piece length. Extracting the pieces alone and concatenating
    (:func:`concatenate_sequences`) gives the sequence of the whole text: the cut lies inside
    a whitespace run that is a token of its own (or the space before one) and splits no
    chunk, so every chunk is tokenized as in the whole text, and no pattern crosses it."""
    start = 0
    while len(text) - start > piece_chars:
        cut = _SAFE_CUT.search(text, start + piece_chars)
        if cut is None:
            break
        yield text[start : cut.start() + 1]
        start = cut.start() + 1
    yield text[start:] if start else text


def concatenate_sequences(parts: Iterable[PunctuationSequence]) -> PunctuationSequence:
    """The sequence of a text from the sequences of its consecutive pieces.

    The words after the last mark of the pieces so far (``n_words - sum(gaps)``) are added
    to the first gap of the next piece that has a mark.
    """
    marks, gaps = [], []
    carry = n_words = 0
    for part in parts:
        n_words += part.n_words
        if len(part):
            part_gaps = part.gaps.copy()
            part_gaps[0] += carry
            marks.append(part.marks)
            gaps.append(part_gaps)
            carry = part.n_words - int(part.gaps.sum(dtype=np.int64))
        else:
            carry += part.n_words
    if len(marks) == 1:
        return PunctuationSequence(marks[0], gaps[0], n_words)
    return PunctuationSequence(
        np.concatenate(marks) if marks else np.zeros(0, np.uint8),
        np.concatenate(gaps) if gaps else np.zeros(0, np.uint32),
        n_words,
    )


def _single_spaces(text: str, n_chunks: int, space_table: np.ndarray) -> np.ndarray:
    """For each of the ``n_chunks - 1`` boundaries between whitespace chunks of ``text``:
    are the two chunks separated by exactly one ``" "``?"""
    if text.isascii():
        codes = np.frombuffer(text.encode("ascii"), np.uint8)
    else:  # code units: a character outside the BMP is two non-space units, as good as one
        codes = np.frombuffer(text.encode("utf-16-le", "surrogatepass"), "<u2")
    space = space_table[codes]
    solid = ~space
    starts = np.flatnonzero(solid[1:] & space[:-1]) + 1
    ends = np.flatnonzero(solid[:-1] & space[1:]) + 1
    if solid[0]:
        starts = np.concatenate(([0], starts))
    if solid[-1]:
        ends = np.concatenate((ends, [codes.size]))
    if starts.size != n_chunks:
        raise RuntimeError("internal error: str.split() and str.isspace() disagree on whitespace")
    return (starts[1:] - ends[:-1] == 1) & (codes[ends[:-1]] == ord(" "))


def _grown(array: np.ndarray, size: int) -> np.ndarray:
    """A copy of ``array`` with room for ``size`` entries (the new ones zero)."""
    out = np.zeros(size, array.dtype)
    out[: array.size] = array
    return out


def extract(text: str, extractor: ChunkCachedExtractor | None = None) -> PunctuationSequence:
    """Marks and gaps of an already cleaned text, with the fast extractor."""
    return (extractor or ChunkCachedExtractor())(text)
