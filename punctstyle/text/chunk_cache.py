"""The fast extraction path: the text cut into pieces, each piece's marks and gaps cached (the same result as :mod:`punctstyle.text.extract`'s definition).

(Split from the former extract.py.)"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import chain, repeat

import numpy as np

from punctstyle.text.extract import OTHER, WORD, PunctuationSequence, classify_token, sequence_from_classes, word_key
from punctstyle.text.tokenizer import TokenizerRules
from punctstyle.text.languages import normalise_marks
from punctstyle.text.tokenizer_facts import _simple_chunk_words, _tokenizer_facts, default_rules

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
    def rules(self) -> TokenizerRules:
        """The tokenizer's rules (with the language whose marks extraction maps,
        :func:`normalise`)."""
        return self._facts.tokenizer.rules

    def normalise(self, text: str) -> str:
        """A raw text with its language's marks mapped onto the paper's, before cleaning
        (:func:`punctstyle.text.languages.normalise_marks`; English: the text itself)."""
        rules = self.rules
        if rules.language == "en" and not rules.dialogue_dash:
            return text
        return normalise_marks(text, rules.language, rules.dialogue_dash)

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

    def extract_with_word_ids(self, text: str, vocabulary: dict[str, int]) -> tuple[PunctuationSequence, np.ndarray]:
        """Marks and gaps of ``text`` and its words in text order as ids: word ``j`` of the gap
        stream (:meth:`extract_with_word_stream`) is ``ids[j]``, the id of its :func:`word_key`
        in ``vocabulary`` (word -> id), which gets each new word with the next id (so one
        dictionary serves the consecutive pieces of a book). A piece costs one dictionary
        lookup per word of each distinct chunk and one gather of the chunks' ids
        (``np.repeat``, as the token classes are gathered); the counts of the words are
        ``np.bincount(ids)``."""
        parts, streams = [], []
        for piece in text_pieces(text, self.piece_chars):
            ids = self._piece_ids(piece)  # may renew the cache: read self._words after it
            parts.append(sequence_from_classes(self._gather(ids)))
            distinct, inverse = np.unique(ids, return_inverse=True)
            chunk_words = self._words
            lengths = np.fromiter((len(chunk_words[c]) for c in distinct.tolist()), np.int64, distinct.size)
            flat = np.fromiter(
                (vocabulary.setdefault(w, len(vocabulary)) for c in distinct.tolist() for w in chunk_words[c]),
                np.int64,
                int(lengths.sum()),
            )
            counts = lengths[inverse]
            ends = np.cumsum(counts)
            offsets = np.repeat((np.cumsum(lengths) - lengths)[inverse] - (ends - counts), counts)
            streams.append(flat[offsets + np.arange(offsets.size)])
        stream = np.concatenate(streams) if streams else np.zeros(0, np.int64)
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
            if word is not None and not facts.unicode and chunk.isalpha() and chunk.isascii() and chunk not in rules:
                classes.append(word)  # the commonest chunk: a plain word
                words.append((word_key(chunk),))
                first_codes.append(right_get(chunk, 0))
                last_codes.append(left_get(chunk, 0))
                continue
            simple = simple_chunk(chunk)
            if simple is not None:
                classes.append(simple[0])
                words.append(simple[3] if len(simple) == 4 else _simple_chunk_words(chunk))
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
