"""The run's plan for one configuration: the validated config with what it takes to read once,
a folder corpus' metadata columns. Every other planning function lives in the plan module of
its analysis (:mod:`~punctstyle.plan.corpus`, :mod:`~punctstyle.plan.tasks`,
:mod:`~punctstyle.plan.paper`, :mod:`~punctstyle.plan.targets`, ... and each analysis'
:mod:`punctstyle.plan.analyses` entry), as functions of the config or of this plan. The ``.smk``
files build one :class:`WorkflowPlan` (``PLAN``); the unit tests
(``tests/unit/test_plan_workflow.py``) call it without Snakemake."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from punctstyle.io import InputError
from punctstyle.plan import sources
from punctstyle.plan.report import ReportFlags
from punctstyle.plan.targets import out
from punctstyle.sources.folder import metadata_columns
from punctstyle.sources.tei import TeiSettings

TEMPORAL_ANALYSIS = "temporal analysis"


def folder_metadata_path(config: dict[str, Any]) -> str:
    """The folder corpus' metadata CSV (folder.metadata, else metadata.csv in folder.path);
    a missing folder or file: an :class:`InputError` naming the config key."""
    folder = config["folder"]
    if not folder["path"]:
        raise InputError("config folder.path: needed with source: folder (the folder of texts)")
    if not os.path.isdir(folder["path"]):
        raise InputError(f"config folder.path: {folder['path']} is not a folder")
    path = folder["metadata"] or os.path.join(folder["path"], "metadata.csv")
    if not os.path.isfile(path):
        raise InputError(f"config folder.metadata: {path} is not a file (a CSV with columns file, author)")
    return path


@dataclass(frozen=True)
class WorkflowPlan:
    """What the workflow runs for ``config`` (validated, with the schema's defaults);
    ``folder_columns``: the metadata CSV's columns with a value (a folder corpus).

    The one planning object that stays: the metadata columns decide which analyses the corpus
    can feed (:meth:`skipped_analyses`) and where the publication years come from, and reading
    the CSV once here (not at every input function Snakemake calls) keeps planning fast; the
    report flags (``flags``) are the figure paths the rule files share. Everything else is a
    function of the config (paths: :func:`punctstyle.plan.targets.out`) or of this plan in the
    plan module of its analysis."""

    config: dict[str, Any]
    folder_columns: tuple[str, ...] = ()
    flags: ReportFlags = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "flags", ReportFlags(self.config["outdir"]))

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> WorkflowPlan:
        """The plan, reading a folder corpus' metadata columns; a bad folder, metadata CSV or
        publication-year CSV stops here with one line (:class:`InputError`)."""
        columns = metadata_columns(folder_metadata_path(config)) if config["source"] == "folder" else []
        if config["source"] == "tei":
            columns = list(sources.TEI_COLUMNS) + (["genre"] if config["tei"].get("genre_from") else [])
            TeiSettings.from_config(config)  # a missing folder or table: one line naming the key
        plan = cls(config, tuple(columns))
        plan.publication_years_csv()
        return plan

    def skipped_analyses(self) -> list[tuple[str, str]]:
        """(analysis, cause) of each analysis the metadata cannot feed (plan.sources)."""
        return sources.skipped_analyses(self.config["source"], list(self.folder_columns))

    def publication_years_csv(self) -> str | None:
        """The configured publication-year CSV (temporal.publication_years_csv), else a folder
        corpus' years from its metadata CSV (written by select_books), or None."""
        path = self.config["temporal"]["publication_years_csv"]
        if not path and self.config["source"] in sources.FILE_SOURCES and "year" in self.folder_columns:
            return out(self.config, "corpus/publication_years.csv")
        if path and not os.path.isfile(path):
            raise InputError(
                f"config temporal.publication_years_csv: {path} is not a file "
                "(a CSV with columns book_id, year; null to skip the per-author figure)"
            )
        return path or None
