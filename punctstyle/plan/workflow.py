"""The run's plan for one configuration: the paths, tasks and inputs that follow the config and
a folder corpus' metadata columns (and, where a checkpoint decides, the objects of
:mod:`punctstyle.plan.checkpoints`). What follows the config alone is a function of the config
in its plan module (:mod:`~punctstyle.plan.rows`, :mod:`~punctstyle.plan.targets`, ...), each
analysis' targets, params and inputs its :mod:`punctstyle.plan.analyses` entry. The ``.smk``
files build one :class:`WorkflowPlan` (``PLAN``); the unit tests
(``tests/unit/test_plan_workflow.py``) call it without Snakemake."""

from __future__ import annotations

import os
from importlib import metadata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from snakemake.io import expand

from punctstyle.analyses.paper import word_methods
from punctstyle.analyses.skipped import skip_lines
from punctstyle.descriptive.parts import PART_FEATURES
from punctstyle.io import InputError
from punctstyle.plan import rows, shapes, sources, targets
from punctstyle.plan.checkpoints import CorpusCounts
from punctstyle.plan.report import ReportFlags, consistency_feature
from punctstyle.rule_names import FEATURES
from punctstyle.sources.folder import metadata_columns
from punctstyle.sources.tei import TeiSettings
from punctstyle.text.languages import rules_variant

PER_BOOK_FILES = (
    "books/{book_id}.json",
    "books/{book_id}.txt.gz",
    "sequences/{book_id}.parquet",
    "words/{book_id}.parquet",
    "features/{book_id}.parquet",
)
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
    ``folder_columns``: the metadata CSV's columns with a value (a folder corpus)."""

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

    # ------------------------------------------------------------------ paths

    def out(self, path: str) -> str:
        """A path under the configured output folder."""
        return f"{self.config['outdir']}/{path}"

    def log_path(self, name: str) -> str:
        return self.out(f"logs/{name}.log")

    def per_book(self, pattern: str, book_ids: Iterable[int]) -> list[str]:
        """``pattern`` (a path under the output folder with ``{book_id}``) for each book."""
        return [self.out(pattern).format(book_id=book_id) for book_id in book_ids]

    def per_book_files(self, book_ids: Iterable[int]) -> list[str]:
        """Every per-book file of the selected books (a target of rule all: a deleted per-book
        file makes the job that writes it run, and every job downstream of it)."""
        ids = list(book_ids)
        return [path for pattern in PER_BOOK_FILES for path in self.per_book(pattern, ids)]

    def tokenizer_rules_file(self) -> str:
        """spaCy's exported tokenizer rules, one file per installed spaCy version (an upgrade
        re-exports them), language and dialogue-dash setting (English without it: the paper's
        file name, ``tokenizer_rules-spacy<version>.json``; else ``tokenizer_rules-fr-spacy...``,
        ``tokenizer_rules-fr-dialogue-spacy...``: :func:`punctstyle.text.languages.rules_variant`)."""
        dash = self.config["extraction"].get("dialogue_dash", "none") == "quote"
        variant = rules_variant(sources.corpus_language(self.config), dash)
        prefix = f"tokenizer_rules-{variant}" if variant else "tokenizer_rules"
        return self.out(f"extraction/{prefix}-spacy{metadata.version('spacy')}.json")

    def corpus_outputs(self) -> list[str]:
        tables = [self.out(f"corpus/{feature}.parquet") for feature in FEATURES]
        return [*tables, self.out("corpus/exclusions.csv"), self.out("corpus/summary.json")]

    def corpus_table_extra_inputs(self) -> dict[str, str]:
        """A folder corpus' left-out metadata rows, added to exclusions.csv."""
        if self.config["source"] not in sources.FILE_SOURCES:
            return {}
        return {"metadata_exclusions": self.out("corpus/metadata_exclusions.csv")}

    # ------------------------------------------------------------------ skipped analyses, tasks

    def skipped_analyses(self) -> list[tuple[str, str]]:
        """(analysis, cause) of each analysis the metadata cannot feed (plan.sources)."""
        return sources.skipped_analyses(self.config["source"], list(self.folder_columns))

    def shape_skips(self, counts: CorpusCounts) -> list[tuple[str, str]]:
        """(analysis, cause) of each analysis the corpus' shape (``counts``) cannot feed."""
        return shapes.shape_skips(shapes.shape_settings(self.config), counts)

    def planned_skips(self) -> list[tuple[str, str]]:
        """The skipped analyses known before the run, with those excerpts cannot feed."""
        return self.skipped_analyses() + rows.excerpt_skips(self.config)

    def analysis_skipped(self, name: str) -> bool:
        return rows.is_skipped(self.skipped_analyses(), name)

    def configured_consistency_tasks(self) -> list[str]:
        return rows.configured_consistency_tasks(self.config, self.skipped_analyses())

    def configured_recognition_tasks(self) -> list[str]:
        return rows.configured_recognition_tasks(self.config, self.skipped_analyses())

    def genre_analysis_configured(self) -> bool:
        """True when a genre analysis (consistency or recognition) is planned."""
        return "genre" in self.configured_consistency_tasks() + self.configured_recognition_tasks()

    def consistency_tasks(self, counts: Callable[[str], int]) -> list[str]:
        """The consistency tasks that run: less the genre, time slot or gender task when the corpus
        (``counts``, the corpus tables' :class:`CorpusCounts`) has fewer than two of its classes."""
        return rows.without_unfed_tasks(self.configured_consistency_tasks(), counts)

    def recognition_tasks(self, counts: Callable[[str], int]) -> list[str]:
        return rows.without_unfed_tasks(self.configured_recognition_tasks(), counts)

    def word_tasks(self) -> list[str]:
        """Recognition tasks whose rows also run the word baselines (plan.rows.word_tasks)."""
        return rows.word_tasks(self.config, self.skipped_analyses())

    # ------------------------------------------------------------------ recognition

    def all_configured(self) -> bool:
        """Whether class size "all" runs (a size capped to every class is that row)."""
        return "all" in rows.recognition_class_sizes(self.config)

    def recognition_word_methods(self, task: str) -> dict[str, list[str]]:
        """Classifier -> word sets of a task's rows (featuresets.expand_word_sets); {} when off."""
        if task not in self.word_tasks():
            return {}
        return word_methods(self.config["recognition"]["words"], task)

    def recognition_word_classifier_params(self, task: str) -> dict[str, dict[str, Any]]:
        """Classifier -> its hyper-parameters, for the word baselines' classifiers of a task
        (those of Tables 2-3: plan.rows.classifier_params); {} when off."""
        return rows.classifier_params(self.config, self.recognition_word_methods(task))

    def recognition_inputs(self, task: str) -> dict[str, Any]:
        """The recognition rule's inputs: the feature tables, and the word matrix when needed."""
        inputs: dict[str, Any] = {"tables": [self.out(f"corpus/{feature}.parquet") for feature in FEATURES]}
        if task in self.word_tasks():
            inputs["words"] = self.out("corpus/words.npz")
        return inputs

    def recognition_row_files(self, task: str, name: str, class_sizes: list[str] | None = None) -> list[str]:
        return targets.recognition_row_files(self.config, task, name, class_sizes)

    def corpus_row_files(self, task: str, name: str, counts: Callable[[str], int]) -> list[str]:
        """recognition_row_files of the rows that compute something (plan.rows.computed_class_sizes;
        ``counts`` is asked only when "all" is configured)."""
        sizes = rows.recognition_class_sizes(self.config)
        if "all" in sizes:
            sizes = rows.computed_class_sizes(sizes, counts(task))
        return self.recognition_row_files(task, name, sizes)

    def consistency_features(self) -> list[str]:
        return list(self.config["consistency"]["features"])

    def consistency_inputs(self) -> list[str]:
        """The corpus table of each consistency feature (consistency.features), in their order."""
        return [self.out(f"corpus/{feature}.parquet") for feature in self.consistency_features()]

    def consistency_files(self, suffix: str, task: str = "{task}") -> list[str]:
        """One file of one task's consistency per feature, in :meth:`consistency_inputs`' order:
        ``analysis/consistency/<task>_<feature><suffix>`` (by default ``{task}``, the rules'
        wildcard: rule consistency writes a task's files in one job, rule figures_kl reads them)."""
        return [self.out(f"analysis/consistency/{task}_{feature}{suffix}") for feature in self.consistency_features()]

    def consistency_summary_inputs(self, counts: Callable[[str], int]) -> list[str]:
        return targets.expand_product(
            self.out("analysis/consistency/{task}_{feature}.json"),
            task=self.consistency_tasks(counts),
            feature=self.config["consistency"]["features"],
        )

    def appendix_inputs(self, task: str) -> dict[str, Any]:
        """The consistency table of the appendix' feature, and the full-corpus recognition rows
        (class size "all", else every size: one may cap to all) when the task is recognised."""
        inputs: dict[str, Any] = {
            "consistency": self.out(f"analysis/consistency/{task}_{consistency_feature(self.config)}.csv")
        }
        if task in self.configured_recognition_tasks():
            sizes = ["all"] if self.all_configured() else None
            inputs["per_class"] = self.recognition_row_files(task, "per_class.csv", sizes)
        return inputs

    def skipped_analysis_lines(self) -> list[str]:
        """Lines of analysis/skipped_analyses.csv (for the end of a run), if it exists."""
        path = self.out("analysis/skipped_analyses.csv")
        if not os.path.isfile(path):
            return [f"skipped {a}: {c}" for a, c in self.skipped_analyses()]
        return skip_lines(pd.read_csv(path, dtype=str, keep_default_na=False))

    # ------------------------------------------------------------------ temporal analysis, figures

    def publication_years_csv(self) -> str | None:
        """The configured publication-year CSV (temporal.publication_years_csv), else a folder
        corpus' years from its metadata CSV (written by select_books), or None."""
        path = self.config["temporal"]["publication_years_csv"]
        if not path and self.config["source"] in sources.FILE_SOURCES and "year" in self.folder_columns:
            return self.out("corpus/publication_years.csv")
        if path and not os.path.isfile(path):
            raise InputError(
                f"config temporal.publication_years_csv: {path} is not a file "
                "(a CSV with columns book_id, year; null to skip the per-author figure)"
            )
        return path or None

    def sequence_figure_inputs(self, book_ids: Iterable[int]) -> list[str]:
        """Sequence files of the configured books (figures.sequence_books), else of ``book_ids``."""
        books = self.config["figures"]["sequence_books"]
        return self.per_book("sequences/{book_id}.parquet", book_ids if books is None else books)

    def figure_rule_wildcards(self, counts: Callable[[str], int]) -> dict[str, dict[str, list[str]]]:
        """Each figure and report-table rule with the wildcard values it runs for (the genre task
        only when the corpus, ``counts``, holds two genres)."""
        tasks = self.consistency_tasks(counts)
        recognised = self.recognition_tasks(counts)
        wildcards: dict[str, dict[str, list[str]]] = {
            "figures_corpus": {},
            "figures_documents": {},
            "figures_kl": {"task": tasks},
            "figures_recognition": {"task": recognised},
            "recognition_word_tables": {"task": [task for task in self.word_tasks() if task in recognised]},
        }
        if "author" in tasks:  # the heat maps of the most consistent authors, every feature in one job
            wildcards["figures_kl_heatmaps"] = {}
        if not self.analysis_skipped(TEMPORAL_ANALYSIS):
            wildcards["figures_temporal"] = {}
        return {**wildcards, "appendix_table": {"task": tasks}, "config_used": {}}

    def figure_outputs(self, rules: Any, counts: Callable[[str], int]) -> list[str]:
        """Every output of the figure rules (``rules``: Snakemake's namespace of declared rules, each
        with ``.output``) for their wildcard values (Snakemake's ``expand``: the patterns carry the
        rules' wildcard constraints): a figure added to a rule's outputs is a target with no other edit."""
        return [
            path
            for name, values in self.figure_rule_wildcards(counts).items()
            for path in expand(list(getattr(rules, name).output), **values)
        ]

    # ------------------------------------------------------------------ beyond the paper

    def part_tables(self) -> list[str]:
        return [self.out(f"corpus/{feature}.parquet") for feature in PART_FEATURES]

    def length_row_files(self, name: str, counts: CorpusCounts | None = None) -> list[str]:
        """The length curve's row files, named by the authors each row holds (``counts``)."""
        return targets.length_row_files(self.config, name, None if counts is None else counts("author"))

    def sequence_row_files(self, suffix: str = "", counts: CorpusCounts | None = None) -> list[str]:
        """The sequence network's row files, named by the authors each row holds (``counts``)."""
        return targets.sequence_row_files(self.config, suffix, None if counts is None else counts("author"))

    def sequence_recognition_files(self, counts: CorpusCounts | None = None) -> list[str]:
        return targets.sequence_recognition_files(self.config, None if counts is None else counts("author"))
