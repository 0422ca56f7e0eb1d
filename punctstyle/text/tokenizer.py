"""spaCy's rule-based tokenizer as data: exported once, replayed without importing spaCy.

spaCy's English tokenizer (``spacy.blank("en").tokenizer``) is a fixed algorithm driven by
data: prefix, suffix and infix regular expressions, ``token_match`` / ``url_match``
expressions and the special cases (``Mr.`` -> ``Mr.``; ``don't`` -> ``do`` ``n't``).
:func:`export_rules` reads that data from spaCy once (a workflow rule writes it to a JSON file
per spaCy version); :class:`RuleTokenizer` replays spaCy's algorithm
(``spacy/tokenizer.pyx``: ``_tokenize_affixes``, ``_split_affixes``, ``_attach_tokens``,
``_apply_special_cases``) on it, so an extraction job needs no ``import spacy`` (about one
CPU second a process). ``tests/unit/test_tokenizer.py`` compares it with spaCy on tricky
chunks and ``benchmarks/bench_extract.py`` on every book of the shared mirror.

The algorithm, for a text:

1. split it into runs of ``str.isspace`` and other characters; a whitespace run that follows
   a token and starts with ``" "`` loses that one space, any rest is a token;
2. each other run (a chunk) is a special case, or: strip prefixes and suffixes alternately
   (stopping early at a special case or a ``token_match``), then the rest is a special case,
   a ``token_match`` / ``url_match`` token, or split at the infixes;
3. the special cases whose text has an affix, an infix or a space are also matched as token
   sequences (spaCy's ``PhraseMatcher``) over the whole token list: every occurrence of
   every length, longest first then leftmost, skipping a match whose first or last token
   an earlier (kept or not) match covers; a kept match whose text (spaces included) is a
   special case is replaced by that case's tokens.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from punctstyle.io import InputError, write_json_atomic

_RUNS = re.compile(r"\s+|\S+")
"""Whitespace runs and chunks (``\\s`` is ``str.isspace`` for ``str`` patterns)."""


def installed_spacy_version() -> str:
    """spaCy's version from the package metadata (no import of spaCy; importlib.metadata is
    imported here, not with the module: about 0.03 CPU s that an extraction job does not need)."""
    from importlib.metadata import version

    return version("spacy")


@dataclass(frozen=True, eq=False)
class TokenizerRules:
    """The data of a spaCy tokenizer (hashable by identity: one object, one cache)."""

    spacy_version: str
    patterns: dict[str, tuple[str, int] | None]
    """``prefix``, ``suffix``, ``infix``, ``token_match``, ``url_match`` -> (pattern, flags)."""
    specials: dict[str, tuple[str, ...]]
    """Special case -> its tokens."""
    bare_tokens: dict[str, tuple[str, ...]]
    """Special case -> its tokenization without special cases (its matcher pattern)."""
    matched: frozenset[str] = field(default_factory=frozenset)
    """The special cases the matcher looks for (those with an affix, an infix or a space)."""
    simple_forms: tuple[tuple[str, str, str, str], ...] | None = None
    """The fast path's simple-chunk forms checked against this tokenizer when the rules were
    exported (:func:`punctstyle.text.tokenizer_facts.export_extraction_rules`), so that each job need not
    probe them again; None: not checked yet."""
    language: str = "en"
    """The language whose blank tokenizer these rules are (:mod:`punctstyle.text.languages`): its
    marks are mapped onto the paper's before cleaning (:func:`punctstyle.text.languages.normalise_marks`)."""
    dialogue_dash: bool = False
    """Whether a dash opening a line counts as a quotation mark (``extraction.dialogue_dash``)."""

    def to_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}  # written only when not the paper's (its file stays as it was)
        if self.language != "en":
            extra["language"] = self.language
        if self.dialogue_dash:
            extra["dialogue_dash"] = True
        return {
            "spacy_version": self.spacy_version,
            "patterns": {k: list(v) if v else None for k, v in self.patterns.items()},
            "specials": {k: list(v) for k, v in self.specials.items()},
            "bare_tokens": {k: list(v) for k, v in self.bare_tokens.items()},
            "matched": sorted(self.matched),
            "simple_forms": None if self.simple_forms is None else [list(f) for f in self.simple_forms],
            **extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TokenizerRules:
        return cls(
            spacy_version=str(data["spacy_version"]),
            patterns={k: (v[0], int(v[1])) if v else None for k, v in data["patterns"].items()},
            specials={k: tuple(v) for k, v in data["specials"].items()},
            bare_tokens={k: tuple(v) for k, v in data["bare_tokens"].items()},
            matched=frozenset(data["matched"]),
            simple_forms=None
            if data.get("simple_forms") is None
            else tuple((str(a), str(b), str(c), str(d)) for a, b, c, d in data["simple_forms"]),
            language=str(data.get("language", "en")),
            dialogue_dash=bool(data.get("dialogue_dash", False)),
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, check_version: bool = True) -> TokenizerRules:
        """Read rules written by :meth:`save`; they must come from the installed spaCy. A file
        read again unchanged (same path, inode, modification time and size) gives the same object
        (:func:`_read_rules`), so the tokenizer facts cached by rules object are built once: a
        per-book job forked from the book-job server finds both made
        (:mod:`punctstyle.book.job_server`)."""
        try:
            stat = os.stat(path)
            rules = _read_rules(os.path.abspath(path), stat.st_ino, stat.st_mtime_ns, stat.st_size)
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise InputError(f"{path}: not a tokenizer rules file ({exc})") from exc
        if check_version and rules.spacy_version != installed_spacy_version():
            raise InputError(
                f"{path}: tokenizer rules of spaCy {rules.spacy_version}, but spaCy "
                f"{installed_spacy_version()} is installed: delete the file to re-export them"
            )
        return rules


@lru_cache(maxsize=4)
def _read_rules(path: str, inode: int, mtime_ns: int, size: int) -> TokenizerRules:
    """The rules of the file at ``path`` as it is at ``(inode, mtime_ns, size)`` (the cache's
    key: a file written again, atomically or not, is read again)."""
    with open(path, encoding="utf-8") as handle:
        return TokenizerRules.from_json(json.load(handle))


def _pattern_of(search: Any) -> tuple[str, int] | None:
    """(pattern, flags) of a compiled expression's bound method, None for None."""
    return None if search is None else (search.__self__.pattern, int(search.__self__.flags))


def export_rules(tokenizer: Any = None) -> TokenizerRules:
    """The rules of ``tokenizer`` (default: ``spacy.blank("en")``'s); imports spaCy."""
    import spacy  # lazy: spacy is slow to import
    from spacy.attrs import ORTH  # lazy: spacy is slow to import
    from spacy.tokenizer import Tokenizer  # lazy: spacy is slow to import

    if tokenizer is None:
        tokenizer = spacy.blank("en").tokenizer
    strings = tokenizer.vocab.strings

    def orth(spec: dict) -> str:
        value = spec.get(ORTH, spec.get("ORTH"))
        return value if isinstance(value, str) else strings[value]

    bare = Tokenizer(
        tokenizer.vocab,
        rules={},
        prefix_search=tokenizer.prefix_search,
        suffix_search=tokenizer.suffix_search,
        infix_finditer=tokenizer.infix_finditer,
        token_match=tokenizer.token_match,
        url_match=tokenizer.url_match,
    )
    rules = tokenizer.rules
    matched = {  # add_special_case's condition for a matcher pattern
        rule
        for rule in rules
        if not tokenizer.faster_heuristics
        or tokenizer.find_prefix(rule)
        or tokenizer.find_infix(rule)
        or tokenizer.find_suffix(rule)
        or " " in rule
    }
    return TokenizerRules(
        spacy_version=spacy.__version__,
        patterns={
            "prefix": _pattern_of(tokenizer.prefix_search),
            "suffix": _pattern_of(tokenizer.suffix_search),
            "infix": _pattern_of(tokenizer.infix_finditer),
            "token_match": _pattern_of(tokenizer.token_match),
            "url_match": _pattern_of(tokenizer.url_match),
        },
        specials={rule: tuple(orth(spec) for spec in specs) for rule, specs in rules.items()},
        bare_tokens={rule: tuple(t.text for t in bare(rule)) for rule in rules},
        matched=frozenset(matched),
    )


def _compiled(pattern: tuple[str, int] | None) -> re.Pattern[str] | None:
    return None if pattern is None else re.compile(pattern[0], pattern[1])


class RuleTokenizer:
    """spaCy's tokenizer replayed from :class:`TokenizerRules` (module docstring)."""

    def __init__(self, rules: TokenizerRules) -> None:
        self.rules = rules
        compiled = {name: _compiled(p) for name, p in rules.patterns.items()}
        self._prefix, self._suffix = compiled["prefix"], compiled["suffix"]
        self._infix = compiled["infix"]
        self._token_match, self._url_match = compiled["token_match"], compiled["url_match"]
        self.specials = rules.specials
        self._patterns: dict[str, list[tuple[str, ...]]] = {}
        for rule in rules.matched:
            tokens = rules.bare_tokens[rule]
            if tokens:
                self._patterns.setdefault(tokens[0], []).append(tokens)

    # -- affixes (spaCy's _tokenize_affixes) -------------------------------------------

    def _find_prefix(self, string: str) -> int:
        m = self._prefix.search(string) if self._prefix is not None else None
        return m.end() - m.start() if m is not None else 0

    def _find_suffix(self, string: str) -> int:
        m = self._suffix.search(string) if self._suffix is not None else None
        return m.end() - m.start() if m is not None else 0

    def _is_token_match(self, string: str) -> bool:
        return self._token_match is not None and self._token_match.match(string) is not None

    def _split_affixes(self, string: str, specials: dict | None) -> tuple[str, list[str], list[str]]:
        """Strip prefixes and suffixes alternately (spaCy's ``_split_affixes``, line by line)."""
        prefixes: list[str] = []
        suffixes: list[str] = []
        last_size = 0
        while string and len(string) != last_size:
            if self._is_token_match(string) or (specials is not None and string in specials):
                break
            last_size = len(string)
            pre_len = self._find_prefix(string)
            if pre_len:
                prefix, minus_pre = string[:pre_len], string[pre_len:]
                if minus_pre and specials is not None and minus_pre in specials:
                    prefixes.append(prefix)
                    string = minus_pre
                    break
            suf_len = self._find_suffix(string[pre_len:])
            if suf_len:
                suffix, minus_suf = string[-suf_len:], string[:-suf_len]
                if minus_suf and specials is not None and minus_suf in specials:
                    suffixes.append(suffix)
                    string = minus_suf
                    break
            if pre_len and suf_len and pre_len + suf_len <= len(string):
                string = string[pre_len:-suf_len]
                prefixes.append(prefix)
                suffixes.append(suffix)
            elif pre_len:
                string = minus_pre
                prefixes.append(prefix)
            elif suf_len:
                string = minus_suf
                suffixes.append(suffix)
        return string, prefixes, suffixes

    def _split_infixes(self, string: str) -> list[str]:
        """The core left by the affixes: whole, or split at its infixes (``_attach_tokens``)."""
        if (self._is_token_match(string)) or (
            self._url_match is not None and self._url_match.match(string) is not None
        ):
            return [string]
        matches = list(self._infix.finditer(string)) if self._infix is not None else []
        if not matches:
            return [string]
        tokens: list[str] = []
        start = 0
        for match in matches:
            infix_start, infix_end = match.start(), match.end()
            if infix_start == 0:
                continue
            if infix_start != start:
                tokens.append(string[start:infix_start])
            if infix_start != infix_end:
                tokens.append(string[infix_start:infix_end])
            start = infix_end
        if string[start:]:
            tokens.append(string[start:])
        return tokens

    def chunk_tokens(self, chunk: str, with_special_cases: bool = True) -> list[str]:
        """The tokens of one whitespace-free chunk before the special-case matcher."""
        specials = self.specials if with_special_cases else None
        if specials is not None and chunk in specials:
            return list(specials[chunk])
        core, prefixes, suffixes = self._split_affixes(chunk, specials)
        tokens = prefixes
        if core:
            if specials is not None and core in specials:
                tokens.extend(specials[core])
            else:
                tokens.extend(self._split_infixes(core))
        tokens.extend(reversed(suffixes))
        return tokens

    def tokens_with_offsets(self, text: str, with_special_cases: bool = True) -> list[tuple[str, int]]:
        """Tokens (whitespace tokens included) and their start offsets, before the matcher."""
        out: list[tuple[str, int]] = []
        for run in _RUNS.finditer(text):
            start, piece = run.start(), run.group()
            if not piece[0].isspace():
                for token in self.chunk_tokens(piece, with_special_cases):
                    out.append((token, start))
                    start += len(token)
                continue
            if piece[0] == " " and out:  # one space after a token is its trailing space
                piece, start = piece[1:], start + 1
            if piece:
                out.append((piece, start))
        return out

    # -- special-case matcher (spaCy's _apply_special_cases) ----------------------------

    def _kept_matches(self, words: list[str]) -> list[tuple[int, int]]:
        """Every pattern occurrence; longest first then leftmost; drop those whose first or
        last token an earlier one covers (``_filter_special_spans``)."""
        found = []
        for start, word in enumerate(words):
            for pattern in self._patterns.get(word, ()):
                end = start + len(pattern)
                if tuple(words[start:end]) == pattern:
                    found.append((start, end))
        if not found:
            return []
        found.sort(key=lambda span: (span[0] - span[1], span[0]))
        seen: set[int] = set()
        kept = []
        for start, end in found:
            if start not in seen and end - 1 not in seen:
                kept.append((start, end))
            seen.update(range(start, end))
        return sorted(kept)

    def __call__(self, text: str) -> list[str]:
        """The token texts of ``text``, whitespace tokens included, as spaCy gives them."""
        tokens = self.tokens_with_offsets(text)
        words = [t for t, _ in tokens]
        kept = self._kept_matches(words) if self._patterns else []
        if not kept:
            return words
        out: list[str] = []
        at = 0
        for start, end in kept:
            out.extend(words[at:start])
            span_text = text[tokens[start][1] : tokens[end - 1][1] + len(words[end - 1])]
            replacement = self.specials.get(span_text)
            out.extend(words[start:end] if replacement is None else replacement)
            at = end
        out.extend(words[at:])
        return out
