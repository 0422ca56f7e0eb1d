"""Whether a book goes further: statuses and the quotation-mark inclusion rules.

(Split from the former book.py.)"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from punctstyle.marks import QUOTE

STATUS_OK = "ok"
STATUS_INCLUDED = "included"
STATUS_EXCLUDED = "excluded"


QUOTATION_RULES = ("double", "any", "none")
"""Values of ``extraction.require_quotation_marks``: a double quotation mark (the paper's
rule, section 2.1: "we remove any documents in which double quotations do not appear"), a
quotation mark of any kind (single ones included), or no requirement."""


@dataclass(frozen=True)
class InclusionRule:
    """The per-book inclusion rule: at least ``min_marks`` marks and the quotation marks
    that ``require_quotation_marks`` asks for (:data:`QUOTATION_RULES`)."""

    min_marks: int
    require_quotation_marks: str

    def __post_init__(self) -> None:
        if self.require_quotation_marks not in QUOTATION_RULES:
            raise ValueError(
                f"require_quotation_marks must be one of {', '.join(QUOTATION_RULES)}, "
                f"not {self.require_quotation_marks!r}"
            )

    def reason_to_exclude(self, marks: np.ndarray, n_double_quotes: int | None) -> str | None:
        """None when the book is kept, else a one-line reason. ``n_double_quotes``: the
        book's double quotation marks (needed by the ``double`` rule only)."""
        if marks.size < self.min_marks:
            return f"too few punctuation marks: {marks.size} < min_marks {self.min_marks}"
        if self.require_quotation_marks == "double":
            if n_double_quotes is None:
                raise ValueError("the 'double' quotation rule needs the count of double quotation marks")
            if n_double_quotes == 0:
                return "no double quotation mark (the paper's rule)"
        if self.require_quotation_marks == "any" and not np.any(marks == QUOTE):
            return "no quotation mark of any kind (require_quotation_marks: any)"
        return None


def count_double_quotes(cleaned_text: str) -> int:
    """Double quotation marks of a cleaned text: its ``"`` characters (cleaning turns every
    double quotation variant into ``"``, see :mod:`punctstyle.text.clean`)."""
    return cleaned_text.count('"')
