"""The names a rule file uses from below the planning floor, in one place, so that the
Snakefile and ``workflow/rules/*.smk`` import from :mod:`punctstyle.plan` only
(``tests/unit/test_import_floors.py``): the config file's and the config's checks
(:mod:`punctstyle.settings`, the verification block's), the one-line refusal
(:class:`punctstyle.io.InputError`), the features and tasks that name wildcards and tables
(:mod:`punctstyle.rule_names`, :mod:`punctstyle.marks`), a per-book job's memory budget
(:func:`punctstyle.book.memory.extraction_mem_mb`) and a folder document's content hash
(:func:`punctstyle.sources.folder.file_sha256`, a param: an edit that keeps the modification
time reruns the book), the end of a run's note on class sizes without a row, and the guarded
Snakemake patches that ``common.smk`` installs (:mod:`punctstyle.snakemake_patches`).
"""

from __future__ import annotations

from typing import Any

from punctstyle.attribution.verification_settings import verification_config_error
from punctstyle.book.memory import extraction_mem_mb
from punctstyle.io import InputError
from punctstyle.marks import PAPER_FEATURES
from punctstyle.rule_names import DISTRIBUTION_FEATURES, FEATURES, TASKS, wildcard_pattern
from punctstyle.settings import coerce_config_types, config_error, config_file_error, without_execution_keys
from punctstyle.snakemake_patches.console import install_short_job_listing
from punctstyle.snakemake_patches.scheduler_timers import install_for_workflow
from punctstyle.sources.folder import file_sha256


def uncomputed_rows_lines(config: dict[str, Any]) -> list[str]:
    """The end of a run's lines on configured class sizes that have no row
    (:func:`punctstyle.report.figure_jobs.uncomputed_rows_lines`, imported when the run ends:
    it reads the recognition summaries with pandas)."""
    from punctstyle.report.figure_jobs import uncomputed_rows_lines as lines

    return lines(config)

__all__ = [
    "DISTRIBUTION_FEATURES",
    "FEATURES",
    "PAPER_FEATURES",
    "TASKS",
    "InputError",
    "coerce_config_types",
    "config_error",
    "config_file_error",
    "extraction_mem_mb",
    "file_sha256",
    "install_for_workflow",
    "install_short_job_listing",
    "uncomputed_rows_lines",
    "verification_config_error",
    "wildcard_pattern",
    "without_execution_keys",
]
