"""The ten punctuation marks of the paper: order, integer codes, names and colours.

This module is the single source of truth: every feature vector, table column, figure
legend and colour in punctstyle uses the order below (section 2.1 of the paper)::

    code:   0  1  2  3  4  5  6  7  8  9
    mark:   !  "  (  )  ,  .  :  ;  ?  ...

The quotation mark ``"`` stands for every double or single quotation mark, amalgamated.
"""

from __future__ import annotations

MARKS: tuple[str, ...] = ("!", '"', "(", ")", ",", ".", ":", ";", "?", "...")
"""The ten marks, in the paper's order."""

N_MARKS: int = len(MARKS)

MARK_CODE: dict[str, int] = {mark: code for code, mark in enumerate(MARKS)}
"""Mark -> integer code (its index in :data:`MARKS`)."""

MARK_NAMES: tuple[str, ...] = (
    "exclamation mark",
    "quotation mark",
    "left parenthesis",
    "right parenthesis",
    "comma",
    "period",
    "colon",
    "semicolon",
    "question mark",
    "ellipsis",
)
"""Readable names, aligned with :data:`MARKS`."""

EXCLAMATION, QUOTE, LEFT_PAREN, RIGHT_PAREN, COMMA, PERIOD, COLON, SEMICOLON, QUESTION, ELLIPSIS = range(N_MARKS)

SENTENCE_END_CODES: frozenset[int] = frozenset({PERIOD, QUESTION, EXCLAMATION, ELLIPSIS})
"""Marks that end a sentence for f4: ``. ? ! ...``."""

QUOTE_CHARACTERS: frozenset[str] = frozenset('"\'“”‘’„«»`')
"""A token made only of these characters is one quotation mark."""

MARK_COLOURS: tuple[str, ...] = (
    "#d62728",  # !  red
    "#1f77b4",  # "  blue
    "#8c564b",  # (  brown
    "#c49c94",  # )  light brown
    "#2ca02c",  # ,  green
    "#000000",  # .  black
    "#9467bd",  # :  purple
    "#ff7f0e",  # ;  orange
    "#e377c2",  # ?  pink
    "#17becf",  # ... cyan
)
"""One colour per mark, the same in every figure."""

# Feature sizes (section 2.2): n_S = 200 sentence-length bins, n_s = 40 gap bins.
N_SENTENCE_LENGTH_BINS: int = 200
N_GAP_BINS: int = 40


def pair_label(first: int, second: int) -> str:
    """Readable label of the ordered pair (first, second): the two marks with a space."""
    return f"{MARKS[first]} {MARKS[second]}"


def triple_label(first: int, second: int, third: int) -> str:
    """Readable label of the ordered triple (first, second, third): the three marks, spaced."""
    return f"{MARKS[first]} {MARKS[second]} {MARKS[third]}"


def feature_column_names(feature: str) -> list[str]:
    """Readable column names of a feature of :data:`FEATURES`.

    f1 -> ``f1[!]`` ...; f2, f3, f6 (row-major pairs) -> ``f3[" ,]`` (first mark, a space,
    second mark; the space keeps ``. ...`` and ``... .`` apart); f4 -> ``f4[0]`` ..
    ``f4[199+]``; f5 -> ``f5[0]`` .. ``f5[39+]`` (the last bin holds the overflow); f7
    (row-major triples) -> ``f7[" , .]`` (three marks separated by spaces).
    """
    if feature == "f1":
        return [f"f1[{m}]" for m in MARKS]
    if feature in ("f2", "f3", "f6"):
        return [f"{feature}[{pair_label(i, j)}]" for i in range(N_MARKS) for j in range(N_MARKS)]
    if feature == "f4":
        n = N_SENTENCE_LENGTH_BINS
        return [f"f4[{k}]" for k in range(n - 1)] + [f"f4[{n - 1}+]"]
    if feature == "f5":
        n = N_GAP_BINS
        return [f"f5[{k}]" for k in range(n - 1)] + [f"f5[{n - 1}+]"]
    if feature == "f7":
        marks = range(N_MARKS)
        return [f"f7[{triple_label(i, j, k)}]" for i in marks for j in marks for k in marks]
    raise ValueError(f"unknown feature {feature!r}: expected one of {', '.join(FEATURES)}")


PAPER_FEATURES: tuple[str, ...] = ("f1", "f2", "f3", "f4", "f5", "f6")
"""The paper's six features (section 2.2): the feature set ``all`` of Tables 3-4 is these,
whatever else :data:`FEATURES` holds, so that its column stays comparable with the paper."""

FEATURES: tuple[str, ...] = (*PAPER_FEATURES, "f7")
"""Every feature the workflow computes: the paper's six, then f7 (ordered mark triples, the
second-order analogue of f3)."""

FEATURE_SIZES: dict[str, int] = {
    "f1": N_MARKS,
    "f2": N_MARKS * N_MARKS,
    "f3": N_MARKS * N_MARKS,
    "f4": N_SENTENCE_LENGTH_BINS,
    "f5": N_GAP_BINS,
    "f6": N_MARKS * N_MARKS,
    "f7": N_MARKS * N_MARKS * N_MARKS,
}
DISTRIBUTION_FEATURES: tuple[str, ...] = ("f1", "f3", "f4", "f5", "f7")
"""Features that are probability distributions (the ones KL divergence applies to; f3 and f7 up
to the mass a document's last mark or pair may lose, which KL's renormalisation ignores)."""
