"""Cleaning a Project Gutenberg text before extraction (section 2.1 of the paper).

Steps, in order (:func:`clean_text`):

1. strip the Project Gutenberg header and licence footer with gutenbergpy's
   ``strip_headers`` when the text has the ``*** START OF`` / ``*** END OF`` markers;
2. normalise line endings to ``\\n``;
3. the paper's repairs:

   * quotation marks written as unicode or typewriter variants become ASCII: the double
     quotes ``“ ” „ ‟ « »`` and the LaTeX-style pairs ````` and ``''`` become ``"``; the single
     quotes ``‘ ’ ‚ ‛`` become ``'`` (so that ``don’t`` tokenises like ``don't``);
   * a missing space between a word and a punctuation mark: dashes (``—``, ``–``, ``--``)
     glue words and marks together (``said—‘no’—(maybe``), so they are surrounded with
     spaces; a comma, semicolon, colon, question or exclamation mark directly followed by a
     letter or a quotation mark (``said:"Hi``, ``yes;no``) gets a space after it (digits are
     left alone: ``5:30``, ``1,000``);
   * spaced periods ``. . .`` (three or more) are an ellipsis written with spaces: they
     become ``...``.

Everything else is left to the tokenizer, which stays the definition of marks and words.
"""

from __future__ import annotations

import re

from gutenbergpy.textget import strip_headers

START_MARKER = "*** START OF"
END_MARKER = "*** END OF"

_DOUBLE_QUOTES = re.compile("[“”„‟«»]|``|''")
_SINGLE_QUOTES = re.compile("[‘’‚‛]")
_DASHES = re.compile(r"\s*(?:—|–|-{2,})\s*")
_GLUED_MARK = re.compile(r"(?<=[^\W\d_])([,;:?!])(?=[^\W\d_]|[\"'])")
_SPACED_PERIODS = re.compile(r"\.(?: \.){2,}")


def has_gutenberg_markers(text: str) -> bool:
    """True when the text carries a Project Gutenberg start marker line."""
    return START_MARKER in text and END_MARKER in text


def strip_gutenberg_header(text: str) -> str:
    """Remove the Project Gutenberg header and licence footer (gutenbergpy ``strip_headers``).

    Texts without the ``*** START OF`` / ``*** END OF`` markers are returned unchanged.
    """
    if not has_gutenberg_markers(text):
        return text
    stripped = strip_headers(text.encode("utf-8")).decode("utf-8")
    # strip_headers looks for the footer only after 100 lines of text: cut a short text's
    # footer at its end marker too.
    end = stripped.find("\n" + END_MARKER)
    return stripped if end < 0 else stripped[:end]


def normalise_line_endings(text: str) -> str:
    """``\\r\\n`` and lone ``\\r`` -> ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def normalise_quotes(text: str) -> str:
    """Unicode and typewriter quotation-mark variants -> ASCII ``"`` and ``'``."""
    text = _DOUBLE_QUOTES.sub('"', text)
    return _SINGLE_QUOTES.sub("'", text)


def repair_missing_spaces(text: str) -> str:
    """Put spaces where words and marks are glued together (see the module docstring)."""
    text = _DASHES.sub(" — ", text)
    text = _GLUED_MARK.sub(r"\1 ", text)
    return _SPACED_PERIODS.sub("...", text)


def clean_text(text: str) -> str:
    """Header/footer stripping, line endings, then the paper's repairs (module docstring)."""
    text = normalise_line_endings(text)
    text = strip_gutenberg_header(text)
    text = normalise_line_endings(text)
    text = normalise_quotes(text)
    return repair_missing_spaces(text)
