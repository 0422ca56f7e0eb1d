"""The planning interface (punctstyle.plan.analyses): one AnalysisPlan per analysis in one list,
the list rule ``all`` reads; every rule file reaches an analysis' params and inputs through it."""

from __future__ import annotations

import re

import pytest

from punctstyle.attribution.verification_run import VerificationSettings
from punctstyle.plan import across_languages, cross, maps, rows, verification
from punctstyle.plan.analyses import (
    ANALYSES,
    analysis,
    analysis_inputs,
    analysis_params,
    analysis_rule_files,
    config_targets,
    corpus_targets,
)
from punctstyle.plan.checkpoints import CorpusCounts
from punctstyle.plan.workflow import WorkflowPlan
from punctstyle.settings import schema_values
from tests.conftest import REPO
from tests.unit.test_plan_rows import config

COUNTS = CorpusCounts({"author": 5, "genre": 2, "author_texts": 5})
EVERYTHING = {
    "beyond.importance.enabled": True, "beyond.parts.enabled": True, "beyond.sequence.enabled": True,
    "length_curve.enabled": True, "verification.enabled": True, "cross.enabled": True, "maps.enabled": True,
    "rolling.enabled": True, "attribution.enabled": True,
}  # fmt: skip


def no_books():
    raise AssertionError("an analysis without per-book inputs asked for the selected books")


def test_each_analysis_is_registered_once():
    names = [entry.name for entry in ANALYSES]
    assert len(names) == len(set(names))
    with pytest.raises(KeyError, match="no analysis 'nothing'"):
        analysis("nothing")


def test_rule_all_reads_the_registry():
    snakefile = (REPO / "Snakefile").read_text()
    rule_all = snakefile[snakefile.index("rule all:"):snakefile.index("onsuccess:")]
    assert "config_targets(PLAN)" in rule_all and "corpus_targets(PLAN, corpus_counts())" in rule_all
    # no analysis' targets named one by one beside the registry
    assert not re.search(r"_outputs\((config|corpus_counts)", rule_all)


def test_the_targets_are_split_by_what_they_wait_for_and_cover_every_enabled_analysis():
    plan = WorkflowPlan(config(outdir="r", **EVERYTHING))
    now, later = config_targets(plan), corpus_targets(plan, COUNTS)
    assert not set(now) & set(later)
    for entry in ANALYSES:
        planned = entry.planned(plan, COUNTS if entry.after_corpus else None)
        assert set(planned) <= set(later if entry.after_corpus else now), entry.name
    # the free modules' targets are the registry's, unchanged
    assert set(verification.verification_outputs(plan.config, COUNTS)) <= set(later)
    assert set(cross.cross_outputs(plan.config) + maps.maps_outputs(plan.config) + maps.rolling_outputs(plan.config)) <= set(now)
    assert "r/models/attribution/mlp.pt" in now and "r/analysis/length/author_results.csv" in now
    assert "r/analysis/beyond/parts.csv" in later and "r/analysis/skipped_analyses.csv" in later
    assert "r/analysis/verification/summary.csv" in later and "r/analysis/beyond/f3_importance.csv" in later


def test_a_switched_off_analysis_plans_nothing():
    off = {key: False for key in EVERYTHING}
    plan = WorkflowPlan(config(outdir="r", **off))
    for name in ("importance", "parts", "sequence", "length_curve", "verification", "cross", "maps", "rolling",
                 "attribution", "across_languages"):
        assert analysis(name).planned(plan, COUNTS) == [], name
    assert analysis("paper").planned(plan, COUNTS)  # the paper's analyses always run
    assert not across_languages.across_languages_enabled(plan.config)


def test_params_and_inputs_are_the_plan_modules():
    plan = WorkflowPlan(config(outdir="r", **{**EVERYTHING, "attribution.words": 0}))
    assert analysis_params(plan, "verification") == {"settings": verification.verification_settings(plan.config)}
    assert analysis_params(plan, "rolling") == {"settings": maps.rolling_settings(plan.config)}
    assert set(analysis_params(plan, "paper")["classifiers"]) <= set(rows.recognition_methods(plan.config))
    assert "mlp" in analysis_params(plan, "importance")["classifiers"]
    # the books are asked for only by an analysis that reads per-book files
    assert analysis_inputs(plan, "attribution", no_books) == {}
    assert set(analysis_inputs(plan, "temporal", no_books)) == {"f1", "f5"}
    assert analysis_inputs(plan, "rolling", lambda: [7])["word_files"] == ["r/words/7.parquet"]
    words = WorkflowPlan(config(outdir="r", **{"attribution.words": 10}))
    assert analysis_inputs(words, "attribution", lambda: [3])["word_files"] == ["r/words/3.parquet"]


def test_rule_files_reach_analysis_params_through_the_registry():
    rules = {path.name: path.read_text() for path in (REPO / "workflow/rules").glob("*.smk")}
    for text in rules.values():
        assert "_classifier_params()" not in text.replace("recognition_word_classifier_params", "")
    for name in ("paper", "attribution", "importance", "sequence", "length_curve", "verification", "cross",
                 "maps", "rolling", "across_languages"):
        assert any(f'analysis_params(PLAN, "{name}")' in text for text in rules.values()), name


def test_the_verification_settings_are_the_loaders_keys():
    """plan.verification_settings hands the job every key the settings loader reads from the
    schema (but the switch), the config's values unchanged."""
    cfg = config(outdir="r", **{"verification.enabled": True, "verification.top_words": 7})
    settings = verification.verification_settings(cfg)
    assert list(settings) == [key for key in schema_values(("verification",), {}) if key != "enabled"]
    assert settings["top_words"] == 7 and settings["lengths"] == cfg["verification"]["lengths"]
    assert VerificationSettings.from_config(settings) == VerificationSettings.from_config(cfg["verification"])


def test_every_rule_file_is_an_analysis_or_the_corpus():
    """The Snakefile includes the analyses' rule files from ANALYSES; the others are the sources'
    and the corpus' (included by name)."""
    snakefile = (REPO / "Snakefile").read_text()
    included = set(analysis_rule_files())
    for path in sorted((REPO / "workflow/rules").glob("*.smk")):
        name = f"workflow/rules/{path.name}"
        by_name = f'include: "{name}"' in snakefile or path.stem in ("gutenberg", "folder", "tei")
        assert (name in included) != by_name, name
