"""The Snakefiles declare rules; the planning policy lives in punctstyle.plan (issue 21 item 3:
at most 200 lines of Python in the .smk files)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYTHON_LINE_BUDGET = 200
DIRECTIVE = re.compile(
    r"^(rule|checkpoint)\b|^(localrules|wildcard_constraints|include|configfile|report|"
    r"container|conda|envvars|pepfile|pepschema|ruleorder|workdir)\s*:"
)


def python_lines(text: str) -> list[str]:
    """Non-blank, non-comment lines of a Snakefile outside the rule/checkpoint declarations'
    directive blocks and the top-level directives (include:, localrules:, ...)."""
    lines, in_block = [], False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not line[0].isspace():
            in_block = bool(DIRECTIVE.match(line))
            if in_block:
                continue
        if not in_block:
            lines.append(line)
    return lines


def smk_files() -> list[Path]:
    return [REPO / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]


def test_the_counter_skips_rules_directives_comments_and_blanks():
    text = (
        "include: 'x.smk'\n"
        "# a comment\n\n"
        "def f(wildcards):\n"
        "    return 1\n"
        "rule a:\n"
        "    input:\n"
        "        f,\n"
        "localrules:\n"
        "    a,\n"
        "X = 2\n"
    )
    assert python_lines(text) == ["def f(wildcards):", "    return 1", "X = 2"]


def test_the_smk_files_hold_at_most_200_lines_of_python():
    counts = {path.name: len(python_lines(path.read_text(encoding="utf-8"))) for path in smk_files()}
    assert sum(counts.values()) <= PYTHON_LINE_BUDGET, counts
