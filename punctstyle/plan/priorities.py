"""Which jobs Snakemake starts first when several are ready (the rules' ``priority:``): the
paper's results (Tables 2-4, consistency, the temporal analysis and their tables) before the
analyses beyond the paper (length curve, sequence network, f3 importance, parts, attribution
bundle, word baselines), so that a user sees the paper's tables first (issue 26 item 6).

Snakemake's default priority is 0; the rules below declare ``priority: rule_priority("<name>")``
(``tests/unit/test_plan_priorities.py`` checks the declarations against this table)."""

from __future__ import annotations

PAPER_PRIORITY = 10
BEYOND_PRIORITY = 0

PAPER_RULES = (
    "consistency",
    "consistency_summary",
    "recognition",
    "recognition_tables",
    "temporal",
    "figures_recognition",
    "figures_kl",
    "figures_temporal",
    "appendix_table",
)
BEYOND_RULES = (
    "corpus_words",
    "recognition_word_tables",
    "length_curve_row",
    "length_curve",
    "sequence_row",
    "sequence_table",
    "f3_importance_row",
    "f3_importance",
    "book_parts",
    "attribution_model",
)


def rule_priority(rule: str) -> int:
    """The ``priority:`` of a rule: :data:`PAPER_PRIORITY` for the paper's analyses and their
    tables (:data:`PAPER_RULES`), :data:`BEYOND_PRIORITY` (Snakemake's default) otherwise."""
    return PAPER_PRIORITY if rule in PAPER_RULES else BEYOND_PRIORITY
