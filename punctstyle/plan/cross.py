"""Planning of issue 25's analyses (rule file workflow/rules/cross.smk): whether they run, their
files and targets, as plain functions of the config."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from punctstyle.training.distortion_modes import reads_texts
from punctstyle.plan.targets import out

CROSS_FIGURES: tuple[str, ...] = ("beyond/cross_domain", "beyond/gap_weibull_fit", "beyond/gap_weibull_plane", "beyond/translators")
"""The figures of rule figures_cross (``figures/<name>.png`` and ``.pdf``)."""

CROSS_TABLES: tuple[str, ...] = (
    "cross_domain_records", "cross_domain_pairs", "cross_domain_summary", "group_sizes",
    "gap_weibull", "gap_weibull_examples", "gap_weibull_era", "gap_weibull_consistency", "gap_weibull_recognition",
    "translator_books", "translator_consistency", "translator_follows", "translator_recognition", "translator_handling",
)  # fmt: skip
"""The CSV tables of rule cross_analyses (``analysis/cross/<name>.csv``)."""


def cross_enabled(config: dict[str, Any]) -> bool:
    """Whether the analyses run: ``cross.enabled`` and a Gutenberg source (the groups, the
    translators and the subjects come from the Gutenberg catalog; a folder or TEI corpus has none), of
    whole texts (they compare whole Gutenberg texts: plan.rows.excerpt_skips)."""
    gutenberg = config.get("source", "gutenberg") not in ("folder", "tei")
    return bool(config["cross"]["enabled"]) and gutenberg and config["extraction"]["excerpt_marks"] is None


def cross_analysis_files(config: dict[str, Any]) -> dict[str, str]:
    """Name -> path of every table of rule cross_analyses."""
    return {name: out(config, f"analysis/cross/{name}.csv") for name in CROSS_TABLES}


def cross_figure_files(config: dict[str, Any]) -> dict[str, str]:
    """Output name -> path of rule figures_cross: each figure's PNG and PDF and the HTML table."""
    files = {}
    for name in CROSS_FIGURES:
        key = name.split("/")[-1]
        files[key] = out(config, f"figures/{name}.png")
        files[f"{key}_pdf"] = out(config, f"figures/{name}.pdf")
    files["table"] = out(config, "tables/beyond_cross.html")
    return files


def cross_outputs(config: dict[str, Any]) -> list[str]:
    """The targets of rule all: every table and figure when the analyses run, else none."""
    if not cross_enabled(config):
        return []
    return [*cross_analysis_files(config).values(), *cross_figure_files(config).values()]


def cross_text_inputs(config: dict[str, Any], book_ids: Iterable[int]) -> dict[str, Any]:
    """The books' texts (``books/{id}.txt.gz``) when a method of ``cross.genres.methods`` reads
    them (the text distortions ``dv_ma``, ``dv_sa``), else none."""
    if not reads_texts(config["cross"]["genres"]["methods"]):
        return {}
    return {"texts": [out(config, f"books/{book_id}.txt.gz") for book_id in book_ids]}
