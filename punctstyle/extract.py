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

How new chunks are classified. A chunk of the form ``[" ' (]? letters [, ; : ! ? .]?
[" ' )]?`` (ASCII letters; the period only after a lowercase letter or two capitals)
whose letters are not the core of a special case of that same form tokenises into exactly
those pieces: spaCy's prefix, suffix and infix rules split off each punctuation character
on its own and never split ASCII letters, and no special case can apply. Those chunks
(about 90 % of the distinct chunks of a book) are classified by a regular expression,
checked against spaCy once per process on probe strings; every other chunk goes through
the tokenizer (one call per text, chunks separated by newlines, which no pattern can
cross).
"""

from __future__ import annotations

import re
from itertools import chain
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from punctstyle.marks import ELLIPSIS, MARK_CODE, QUOTE, QUOTE_CHARACTERS

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

_SIMPLE_CHUNK = re.compile(r"""(["'(]?)([A-Za-z]+)([,;:!?.]?)(["')]?)""")
"""A chunk the fast path classifies without the tokenizer (module docstring)."""
_PREFIXES = ("", '"', "'", "(")
_STOPS = ("", ",", ";", ":", "!", "?", ".")
_CLOSERS = ("", '"', "'", ")")
_PROBE_CORES = ("word", "Word", "WORD", "wORd", "x", "Zz", "AB", "said", "Alice", "cannonball")
_NON_SPACE = re.compile(r"\S+")


def _period_splits(core: str) -> bool:
    """spaCy's suffix rule for ``.``: split after a lowercase letter or after two capitals."""
    return core[-1].islower() or (len(core) >= 2 and core[-2:].isupper())


@dataclass(frozen=True)
class _TokenizerFacts:
    """What the fast path needs to know about the tokenizer, derived from it once."""

    simple_classes: dict[tuple[str, str, str], tuple[int, ...]]
    """(prefix, stop, closer) -> token classes of a simple chunk of that form."""
    rule_cores: frozenset[str]
    """Letter cores of the special cases that have the simple-chunk form (``Mr.``, ``'em``)."""
    pattern_pairs: frozenset[tuple[str, str]]
    """Consecutive tokens ``(a, b)`` of a multi-token special-case pattern."""
    left_tokens: tuple[str, ...]
    """The ``a`` of :attr:`pattern_pairs`: a chunk ending in one may join its right neighbour."""
    right_tokens: tuple[str, ...]
    """The ``b`` of :attr:`pattern_pairs`: a chunk starting with one may join its left neighbour."""
    left_set: frozenset[str]
    right_set: frozenset[str]

    def may_join(self, last: str | None, first: str | None, left: str, right: str) -> bool:
        """Can a pattern span the boundary between chunks ``left`` and ``right``?

        ``last``/``first`` are the boundary tokens when known exactly (simple chunks), else
        None: then any token that ends ``left`` / starts ``right`` is possible.
        """
        if last is not None and first is not None:
            return (last, first) in self.pattern_pairs
        return any(
            (a == last if last is not None else left.endswith(a))
            and (b == first if first is not None else right.startswith(b))
            for a, b in self.pattern_pairs
        )


def _classes_of(text: str) -> tuple[int, ...]:
    """The token classes of ``text`` by the reference tokenizer, ``OTHER`` dropped."""
    return tuple(c for c in (classify_token(t.text) for t in english_tokenizer()(text)) if c != OTHER)


@lru_cache(maxsize=1)
def _tokenizer_facts() -> _TokenizerFacts:
    """Special-case patterns and simple-chunk classes of :func:`english_tokenizer`."""
    from spacy.tokenizer import Tokenizer

    tokenizer = english_tokenizer()
    rules = tokenizer.rules
    # The PhraseMatcher pattern of a special case is its tokenization without special cases;
    # every rule is taken (spaCy adds only those with affixes: a superset is safe).
    bare = Tokenizer(
        tokenizer.vocab,
        rules={},
        prefix_search=tokenizer.prefix_search,
        suffix_search=tokenizer.suffix_search,
        infix_finditer=tokenizer.infix_finditer,
        token_match=tokenizer.token_match,
        url_match=tokenizer.url_match,
    )
    pairs: set[tuple[str, str]] = set()
    for rule in rules:
        pieces = [t.text for t in bare(rule)]
        pairs.update(zip(pieces, pieces[1:]))
    rule_cores = frozenset(m.group(2) for m in map(_SIMPLE_CHUNK.fullmatch, rules) if m is not None)

    # A combination is left out (its chunks go through the tokenizer) when its stop and
    # closer are a special case (the emoticon ``;)``: the matcher would merge the two
    # tokens) or when spaCy disagrees on a probe.
    table: dict[tuple[str, str, str], tuple[int, ...]] = {}
    for prefix in _PREFIXES:
        for stop in _STOPS:
            for closer in _CLOSERS:
                if stop and closer and stop + closer in rules:
                    continue
                classes = tuple(WORD if p == "w" else classify_token(p) for p in (prefix, "w", stop, closer) if p)
                probes = [
                    prefix + core + stop + closer
                    for core in _PROBE_CORES
                    if core not in rule_cores and (stop != "." or _period_splits(core))
                ]
                if all(_classes_of(probe) == classes for probe in probes):
                    table[(prefix, stop, closer)] = classes
    return _TokenizerFacts(
        simple_classes=table,
        rule_cores=rule_cores,
        pattern_pairs=frozenset(pairs),
        left_tokens=tuple(sorted({a for a, _ in pairs})),
        right_tokens=tuple(sorted({b for _, b in pairs})),
        left_set=frozenset(a for a, _ in pairs),
        right_set=frozenset(b for _, b in pairs),
    )


class ChunkCachedExtractor:
    """Fast, identical extraction: classify each distinct whitespace chunk once.

    The instance owns its cache (no global state): chunk -> integer id, and per id the
    token classes (``OTHER`` dropped, stored flat), whether the first / last token may be
    part of a special-case pattern spanning a space, and those tokens when known.
    ``max_cache`` bounds the number of cached chunks (checked once per text: when a text
    would overflow it, the cache is emptied first). Reuse one instance for many books.
    """

    def __init__(self, max_cache: int = 2_000_000) -> None:
        self.max_cache = max_cache
        self._facts = _tokenizer_facts()
        self._orth_class: dict[int, int] = {}
        self.clear()

    def clear(self) -> None:
        """Forget every cached chunk."""
        self._ids: dict[str, int] = {}
        self._first_token: list[str | None] = []
        self._last_token: list[str | None] = []
        self._start = np.zeros(0, np.int64)
        self._count = np.zeros(0, np.int64)
        self._first_joins = np.zeros(0, bool)
        self._last_joins = np.zeros(0, bool)
        self._classes = np.zeros(0, np.int8)
        self._n_classes = 0

    def __len__(self) -> int:
        """Number of cached chunks."""
        return len(self._ids)

    def __call__(self, text: str) -> PunctuationSequence:
        chunks = text.split()
        ids = self._ids_of(chunks)
        if ids.size > 1:
            candidates = np.flatnonzero(self._last_joins[ids[:-1]] & self._first_joins[ids[1:]])
            if candidates.size:
                ids = self._join_neighbours(text, chunks, ids, candidates)
        return sequence_from_classes(self._gather(ids))

    # -- lookups ---------------------------------------------------------------------

    def _ids_of(self, chunks: list[str]) -> np.ndarray:
        """Chunk ids, classifying the chunks not seen before."""
        try:
            return np.fromiter(map(self._ids.__getitem__, chunks), np.int64, len(chunks))
        except KeyError:
            pass
        unseen = [c for c in dict.fromkeys(chunks) if c not in self._ids]
        if len(self._ids) + len(unseen) > self.max_cache:
            self.clear()
            unseen = list(dict.fromkeys(chunks))
        self._add(unseen)
        return np.fromiter(map(self._ids.__getitem__, chunks), np.int64, len(chunks))

    def _gather(self, ids: np.ndarray) -> np.ndarray:
        """The token classes of the chunks ``ids``, in order."""
        counts = self._count[ids]
        ends = np.cumsum(counts)
        total = int(ends[-1]) if ends.size else 0
        offsets = np.repeat(self._start[ids] - (ends - counts), counts)
        return self._classes[offsets + np.arange(total)]

    def _join_neighbours(self, text: str, chunks: list[str], ids: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """Merge neighbours a special-case pattern could span into one chunk (docstring)."""
        facts, first, last = self._facts, self._first_token, self._last_token
        joins = [
            k
            for k in candidates.tolist()
            if facts.may_join(last[ids[k]], first[ids[k + 1]], chunks[k], chunks[k + 1])
        ]
        if not joins:
            return ids
        spans = [m.span() for m in _NON_SPACE.finditer(text)]
        if len(spans) != len(chunks):  # str.split and the regex disagree on whitespace
            raise RuntimeError("internal error: str.split() and \\S+ split the text differently")
        # a pattern can only span a single space (any other whitespace is a token of its own)
        joins = [k for k in joins if spans[k + 1][0] == spans[k][1] + 1 and text[spans[k][1]] == " "]
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
        """Classify new chunks (simple ones by regex, the others with the tokenizer) and store them."""
        facts = self._facts
        table = facts.simple_classes
        rule_cores = facts.rule_cores
        classes: list[tuple[int, ...]] = []
        firsts: list[str | None] = []
        lasts: list[str | None] = []
        hard: list[int] = []
        for k, chunk in enumerate(chunks):
            m = _SIMPLE_CHUNK.fullmatch(chunk)
            if m is not None:
                prefix, core, stop, closer = m.groups()
                simple = table.get((prefix, stop, closer))
                if simple is not None and core not in rule_cores and (stop != "." or _period_splits(core)):
                    classes.append(simple)
                    firsts.append(prefix or core)
                    lasts.append(closer or stop or core)
                    continue
            hard.append(k)
            classes.append(())
            firsts.append(None)
            lasts.append(None)
        if hard:
            for k, hard_classes in zip(hard, self._tokenize([chunks[k] for k in hard])):
                classes[k] = hard_classes
        right, left = facts.right_set, facts.left_set
        first_joins = [
            chunk.startswith(facts.right_tokens) if tok is None else tok in right for chunk, tok in zip(chunks, firsts)
        ]
        last_joins = [
            chunk.endswith(facts.left_tokens) if tok is None else tok in left for chunk, tok in zip(chunks, lasts)
        ]
        self._store(chunks, classes, firsts, lasts, first_joins, last_joins)

    def _tokenize(self, chunks: list[str]) -> list[tuple[int, ...]]:
        """The classes of each chunk (``OTHER`` dropped), by one tokenizer call.

        Chunks are joined by newlines: a newline is a token of its own, so no special-case
        pattern can span two chunks and each is tokenised as if alone.
        """
        from spacy.attrs import IDX, ORTH

        doc = english_tokenizer()("\n".join(chunks))
        orth_idx = doc.to_array([ORTH, IDX])
        memo, strings = self._orth_class, doc.vocab.strings
        classes = np.fromiter(
            (memo[o] if o in memo else memo.setdefault(o, classify_token(strings[o])) for o in orth_idx[:, 0].tolist()),
            np.int64,
            len(doc),
        )
        starts = np.cumsum([0] + [len(c) + 1 for c in chunks[:-1]])
        owner = np.searchsorted(starts, orth_idx[:, 1].astype(np.int64), side="right") - 1
        keep = classes != OTHER
        bounds = np.cumsum(np.bincount(owner[keep], minlength=len(chunks))).tolist()
        flat = classes[keep].tolist()
        return [tuple(flat[a:b]) for a, b in zip([0] + bounds[:-1], bounds)]

    def _store(
        self,
        chunks: list[str],
        classes: list[tuple[int, ...]],
        firsts: list[str | None],
        lasts: list[str | None],
        first_joins: list[bool],
        last_joins: list[bool],
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
            self._first_joins = _grown(self._first_joins, size)
            self._last_joins = _grown(self._last_joins, size)
        if self._n_classes + n_new > self._classes.size:
            self._classes = _grown(self._classes, max(2 * self._classes.size, self._n_classes + n_new, 4096))
        self._start[base : base + n] = self._n_classes + np.cumsum(counts) - counts
        self._count[base : base + n] = counts
        self._first_joins[base : base + n] = first_joins
        self._last_joins[base : base + n] = last_joins
        self._classes[self._n_classes : self._n_classes + n_new] = flat
        self._n_classes += n_new
        self._first_token.extend(firsts)
        self._last_token.extend(lasts)
        self._ids.update(zip(chunks, range(base, base + n)))


def _grown(array: np.ndarray, size: int) -> np.ndarray:
    """A copy of ``array`` with room for ``size`` entries (the new ones zero)."""
    out = np.zeros(size, array.dtype)
    out[: array.size] = array
    return out


def extract(text: str, extractor: ChunkCachedExtractor | None = None) -> PunctuationSequence:
    """Marks and gaps of an already cleaned text, with the fast extractor."""
    return (extractor or ChunkCachedExtractor())(text)
