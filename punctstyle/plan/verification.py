"""Planning of the verification analysis (rule file workflow/rules/verification.smk, issue 23):
whether it runs, its settings, inputs and targets, as plain functions of the config."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from punctstyle.attribution.verification_settings import VerificationSettings, needs_word_streams
from punctstyle.plan.checkpoints import CorpusCounts
from punctstyle.plan.shapes import VERIFICATION, is_shape_skipped, shape_settings
from punctstyle.plan.targets import out, word_stream_inputs
from punctstyle.settings import schema_values

VERIFICATION_FIGURE = "beyond/verification"
"""The figure of rule figures_verification (``figures/<name>.png`` and ``.pdf``)."""


def verification_enabled(config: dict[str, Any]) -> bool:
    """verification.enabled (on excerpts too: each excerpt's own words feed the word families
    and the bundle's word models)."""
    return bool(config["verification"]["enabled"])


def verification_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The verification block as the job reads it: every key the settings loader reads from the
    schema (:func:`punctstyle.settings.schema_values`, the defaults filled in) but the switch
    ``enabled``, with the config's values (word families on excerpts too: each excerpt's own words)."""
    keys = schema_values(VerificationSettings.SECTION, config["verification"])
    settings = {key: config["verification"][key] for key in keys if key != "enabled"}
    return settings


def verification_word_inputs(config: dict[str, Any], book_ids: Iterable[int], rules_file: str) -> dict[str, Any]:
    """The word families' inputs: the word matrix and, at excerpt lengths, the selected books'
    texts, words files and the tokenizer ``rules_file`` (each excerpt's words re-tokenized);
    none without a word family."""
    settings = VerificationSettings.from_config(verification_settings(config))
    if not settings.uses_words:
        return {}
    inputs: dict[str, Any] = {"word_matrix": out(config, "corpus/words.npz")}
    if needs_word_streams(settings):
        inputs.update(word_stream_inputs(config, book_ids, rules_file))
    return inputs


def verification_outputs(config: dict[str, Any], counts: CorpusCounts | None = None) -> list[str]:
    """Targets of rule all: the bundle's verification files, the PAN tables, the figure and its
    HTML table (none when verification.enabled is false, or when the corpus, ``counts``, has too
    few authors with two texts: :func:`punctstyle.plan.shapes.shape_skips`)."""
    if not verification_enabled(config):
        return []
    if counts is not None and is_shape_skipped(shape_settings(config), counts, VERIFICATION):
        return []
    return [
        out(config, "models/attribution/verification.json"),
        out(config, "models/attribution/verification_reference.parquet"),
        out(config, "analysis/verification/results.csv"),
        out(config, "analysis/verification/summary.csv"),
        out(config, f"figures/{VERIFICATION_FIGURE}.png"),
        out(config, f"figures/{VERIFICATION_FIGURE}.pdf"),
        out(config, "tables/beyond_verification.html"),
    ]
