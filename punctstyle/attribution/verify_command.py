"""``punctstyle verify TEXT --author NAME [--model BUNDLE] [--json]``: is this text by this author?

The text is cleaned and extracted as the workflow does (its marks, gaps and word stream,
:func:`punctstyle.corpus.words.book_word_stream`), scored by General Imposters against the bundle's
reference texts (:meth:`punctstyle.attribution.verification_run.VerificationBundle.score`: the
author's corpus texts as candidates, every other author's as imposters, the bundle's family, a
fixed seed so the same text gives the same score; the draws made as the calibration cases'
are, :func:`punctstyle.attribution.verification.imposters_draws`), and decided by the band calibrated at the
length nearest the text's (:meth:`~punctstyle.attribution.verification_run.VerificationBundle.band`).

Refused with one line and exit status 2 (:class:`punctstyle.io.InputError`): an empty text, a
text with fewer marks than the bundle's ``min_marks``, an author the bundle does not hold, a
bundle folder without verification files. A text shorter than the attribution bundle's
``min_marks`` (``threshold.json``, when the folder has it) or than every calibrated length gets a
warning, in the table, in ``--json`` and on standard error, as ``punctstyle attribute`` gives one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from punctstyle.io import InputError

if TYPE_CHECKING:  # the command line imports this module: pandas and scipy load only when verify runs
    from punctstyle.attribution.verification_run import VerificationBundle

WHOLE = "whole"
"""The band key of whole texts (:data:`punctstyle.attribution.verification_run.WHOLE`)."""

SCORE_SEED = 0
"""The imposter draws of ``verify`` (fixed: a text's score does not change between runs)."""
EXIT_OK = 0


@dataclass(frozen=True)
class Verification:
    """What ``verify`` reports about one text."""

    file: str
    author: str
    family: str
    n_marks: int
    n_words: int
    score: float
    decision: str
    band_length: str
    p1: float
    p2: float
    warning: str | None
    n_authors: int
    model: str

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.file, "author": self.author, "score": self.score, "decision": self.decision,
            "band": {"p1": self.p1, "p2": self.p2, "calibrated_at": self.band_length},
            "family": self.family, "n_marks": self.n_marks, "n_words": self.n_words,
            "too_short": self.warning is not None, "warning": self.warning,
            "n_authors": self.n_authors, "model": self.model,
        }

    def table(self) -> str:
        lines = [f"{self.file}: {self.n_marks} marks, {self.n_words} words; {self.n_authors} authors in the "
                 f"verification reference ({self.model})"]
        if self.warning:
            lines.append(f"WARNING: {self.warning}")
        lines += [
            f"author:   {self.author}",
            f"score:    {self.score:.2f}  (share of {self.family} imposter iterations in which the author's "
            "texts are nearest)",
            f"decision: {self.decision}  (undecided band [{self.p1:.2f}, {self.p2:.2f}], calibrated on "
            f"{'whole texts' if self.band_length == WHOLE else self.band_length + ' marks'})",
        ]
        return "\n".join(lines) + "\n"


def length_warning(bundle: VerificationBundle, n_marks: int) -> str | None:
    """The attribution bundle's "too short" message (``threshold.json`` beside the verification
    files), else a note when the text is shorter than every calibrated excerpt length; None."""
    from punctstyle.attribution.bundle import BUNDLE_FILES, read_threshold
    from punctstyle.attribution.bundle_checks import check_threshold

    threshold_path = os.path.join(bundle.directory, BUNDLE_FILES["threshold"])
    if os.path.isfile(threshold_path):
        threshold = read_threshold(threshold_path)
        check_threshold(threshold_path, threshold)  # a bad field: one line, as `attribute` refuses it
        needed = threshold.get("min_marks")
        if needed is not None and n_marks < int(needed):
            return (f"too short to say anything: {n_marks} marks, at least {int(needed)} needed for a reliable "
                    f"attribution (on this model's corpus, KL-nearest attribution on {threshold.get('feature')} "
                    f"reaches {float(threshold.get('fraction', 0)):.0%} of its full-length accuracy from "
                    f"{int(needed)} marks on)")
    lengths = [int(n) for n in bundle.record.get("lengths", [])]
    if lengths and n_marks < min(lengths):
        return (f"shorter than every calibrated length: {n_marks} marks, the band was calibrated on "
                f"{min(lengths)} marks or more")
    return None


def nearest_author_hint(author: str, authors: list[str]) -> str:
    """``did you mean 'X'?`` with the nearest name (white space and case ignored first, then
    :func:`difflib.get_close_matches`), else one example name. The name itself must match
    exactly, in the CLI, the API and the app alike."""
    import difflib

    def key(name: str) -> str:
        return " ".join(name.split()).casefold()

    same = [a for a in authors if key(a) == key(author)]
    close = same or difflib.get_close_matches(author, authors, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else f"e.g. {authors[0]!r}"


def verify_text(name: str, text: str, author: str, model: Any, extractor: Any = None) -> Verification:
    """Score and decide one text (module docstring); refusals raise :class:`InputError`.
    ``extractor``: the bundle's language's (:mod:`punctstyle.text.language_rules`; default: the
    paper's English rules)."""
    import numpy as np

    from punctstyle.attribution.verification import decide
    from punctstyle.attribution.verification_run import load_verification, stream_frequencies
    from punctstyle.corpus.words import book_word_stream
    from punctstyle.features import compute_features
    from punctstyle.text.chunk_cache import ChunkCachedExtractor

    if not text.strip():
        raise InputError(f"{name}: empty text, nothing to verify")
    bundle = load_verification(model)
    authors = bundle.authors
    if author not in authors:
        raise InputError(f"{author!r}: not an author of the verification reference in {bundle.directory} "
                         f"({len(authors)} authors; {nearest_author_hint(author, authors)})")
    sequence, stream = book_word_stream(text, extractor or ChunkCachedExtractor())
    n_marks = len(sequence.marks)
    needed = int(bundle.record["min_marks"])
    if n_marks < needed:
        raise InputError(f"{name}: too short to verify: {n_marks} marks, at least {needed} needed")
    family = str(bundle.record["bundle_family"])
    words = stream_frequencies(np.asarray(stream, dtype=object), bundle.words) if bundle.words else None
    score = bundle.score(family, compute_features(sequence.marks, sequence.gaps), words, author,
                         np.random.default_rng(SCORE_SEED))
    length, band = bundle.band(family, n_marks)
    return Verification(name, author, family, n_marks, len(stream), score, decide(score, band), length, band.p1,
                        band.p2, length_warning(bundle, n_marks), len(authors), bundle.directory)
