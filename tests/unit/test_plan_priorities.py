"""The paper's rules first (issue 26 item 6): punctstyle.plan.priorities and the rules' declarations."""

from __future__ import annotations

import re
from pathlib import Path

from punctstyle.plan.priorities import BEYOND_RULES, PAPER_RULES, rule_priority

REPO = Path(__file__).resolve().parents[2]
RULE = re.compile(r"^(?:rule|checkpoint) (\w+):\n((?:[ \t]+.*\n|\n)*)", re.M)


def declared(directive: str) -> dict[str, str | None]:
    """Each rule of the workflow with the expression of its ``directive:`` (None: not declared)."""
    found = {}
    for path in [REPO / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]:
        for name, body in RULE.findall(path.read_text(encoding="utf-8")):
            match = re.search(rf"^\s+{directive}:\s*(.+)$", body, re.M)
            found[name] = match.group(1).strip() if match else None
    return found


def declared_priorities() -> dict[str, str | None]:
    """Each rule of the workflow with the expression of its ``priority:`` (None: Snakemake's 0)."""
    return declared("priority")


def test_the_papers_rules_come_before_the_rules_beyond_it():
    assert min(rule_priority(rule) for rule in PAPER_RULES) > max(rule_priority(rule) for rule in BEYOND_RULES)
    assert {"recognition", "recognition_tables", "consistency", "temporal"} <= set(PAPER_RULES)
    assert {"length_curve_row", "sequence_row", "f3_importance_row", "book_parts", "attribution_model"} <= set(
        BEYOND_RULES
    )


def test_every_rule_declares_the_plans_priority():
    declared = declared_priorities()
    assert set(PAPER_RULES) | set(BEYOND_RULES) <= set(declared), set(PAPER_RULES) - set(declared)
    for rule in PAPER_RULES:
        assert declared[rule] == f'rule_priority("{rule}")', rule
    # a rule beyond the paper keeps Snakemake's default, or asks the plan under its own name
    for rule in BEYOND_RULES:
        assert declared[rule] in (None, f'rule_priority("{rule}")'), rule
    for rule, expression in declared.items():
        assert expression is None or expression == f'rule_priority("{rule}")', (rule, expression)


def test_no_paper_rule_waits_for_two_free_cores():
    """A paper rule asks for one thread: on 2 cores Snakemake's greedy scheduler starts a
    2-thread job only when no 1-thread job is ready, so a 2-thread consistency job (as it was)
    ran after every length-curve and importance row, last of the shared-mirror run, whatever
    its priority."""
    import yaml

    defaults = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    from_config = {'config["recognition"]["mlp"]["threads"]': defaults["recognition"]["mlp"]["threads"]}
    threads = declared("threads")
    for rule in PAPER_RULES:
        assert threads[rule] in (None, "1") or from_config.get(threads[rule]) == 1, (rule, threads[rule])
