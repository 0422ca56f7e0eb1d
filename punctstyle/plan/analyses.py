"""One planning interface per analysis (issue 32): whether it runs, the files rule ``all`` asks
for, the settings its job reads and the files beyond the corpus tables it reads, registered in
:data:`ANALYSES`, the one list that rule ``all`` reads (:func:`config_targets`,
:func:`corpus_targets`).

Each entry is an :class:`AnalysisPlan` of plain functions of the run's
:class:`~punctstyle.plan.workflow.WorkflowPlan` (the validated config and a folder corpus'
metadata columns), unit-tested without Snakemake (``tests/unit/test_plan_registry.py``). Adding
an analysis: its rule file, one entry here, its job, its figure (docs/CONVENTIONS.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from punctstyle.attribution.bundle_build import CLASSIFIER as ATTRIBUTION_CLASSIFIER
from punctstyle.training.importance import IMPORTANCE_METHODS
from punctstyle.training.length_features import uses_word_features
from punctstyle.classifiers import SEQUENCE_METHOD
from punctstyle.plan import across_languages, cross, maps, rows, shapes, targets, verification
from punctstyle.plan.checkpoints import CorpusCounts
from punctstyle.plan.corpus import tokenizer_rules_file
from punctstyle.plan.targets import out
from punctstyle.plan.tasks import analysis_skipped, recognition_tasks
from punctstyle.plan.workflow import TEMPORAL_ANALYSIS, WorkflowPlan

Targets = Callable[[WorkflowPlan, "CorpusCounts | None"], list[str]]
BookIds = Callable[[], Sequence[int]]
"""The selected books, asked for only by an analysis that reads per-book files (in the workflow
the call waits for the select_books checkpoint)."""
IMPORTANCE_FIGURES = ("beyond/f3_importance", "beyond/f3_top_k")
PARTS_FIGURES = ("beyond/parts_kl", "beyond/parts_by_size")


def no_params(plan: WorkflowPlan) -> dict[str, Any]:
    """An analysis whose rules read their config block directly."""
    return {}


def no_inputs(plan: WorkflowPlan, book_ids: BookIds) -> dict[str, Any]:
    """An analysis that reads the corpus tables only."""
    return {}


@dataclass(frozen=True)
class AnalysisPlan:
    """How the workflow plans one analysis.

    * ``enabled(plan)``: whether it runs (its config switch, the source, the documents' kind);
    * ``targets(plan, counts)``: rule ``all``'s files when it runs; ``counts`` (the corpus
      tables' :class:`CorpusCounts`) is given when ``after_corpus`` (the files follow the
      corpus' shape, or are asked for once the corpus tables exist), else None;
    * ``params(plan)``: the ``params`` its rule hands the job (keyword -> value);
    * ``inputs(plan, book_ids)``: the files beyond the corpus tables it reads (texts, words
      files, tokenizer rules, publication years), keyword -> path(s), for ``unpack``;
      ``book_ids()`` gives the selected books and is called only by an analysis that needs them;
    * ``rule_files``: its rule files under ``workflow/rules/``, which the Snakefile includes
      (:func:`analysis_rule_files`: a new analysis' rule file needs no edit there).
    """

    name: str
    enabled: Callable[[WorkflowPlan], bool]
    targets: Targets
    params: Callable[[WorkflowPlan], dict[str, Any]] = no_params
    inputs: Callable[[WorkflowPlan, BookIds], dict[str, Any]] = no_inputs
    after_corpus: bool = False
    rule_files: tuple[str, ...] = ()

    def planned(self, plan: WorkflowPlan, counts: CorpusCounts | None = None) -> list[str]:
        """``targets(plan, counts)`` when ``enabled(plan)``, else none."""
        return self.targets(plan, counts) if self.enabled(plan) else []


def always(plan: WorkflowPlan) -> bool:
    return True


def switched_on(*keys: str) -> Callable[[WorkflowPlan], bool]:
    """``enabled``: the config's boolean at ``keys`` (e.g. ``beyond.parts.enabled``)."""

    def enabled(plan: WorkflowPlan) -> bool:
        value: Any = plan.config
        for key in keys:
            value = value[key]
        return bool(value)

    return enabled


def classifiers_of(methods: Callable[[dict[str, Any]], Sequence[str]]) -> Callable[[WorkflowPlan], dict[str, Any]]:
    """``params``: ``classifiers=`` the hyper-parameters of the classifiers ``methods(config)``
    names (:func:`punctstyle.plan.rows.classifier_params`)."""

    def params(plan: WorkflowPlan) -> dict[str, Any]:
        return {"classifiers": rows.classifier_params(plan.config, methods(plan.config))}

    return params


def figure_files(plan: WorkflowPlan, names: Sequence[str]) -> list[str]:
    """Each figure's PNG and PDF, figure by figure."""
    return [path(name) for name in names for path in (plan.flags.png, plan.flags.pdf)]


# ------------------------------------------------------------------ the paper's analyses


def paper_targets(plan: WorkflowPlan, counts: CorpusCounts | None) -> list[str]:
    """Consistency and recognition summaries (the genre, time slot and gender tasks only with two
    classes in the corpus), and the skipped-analyses table."""
    tasks = recognition_tasks(plan, counts)
    return [
        out(plan.config, "analysis/consistency/summary.csv"),
        *[out(plan.config, f"analysis/recognition/{task}_summary.csv") for task in tasks],
        *[out(plan.config, f"analysis/recognition/{task}_tables.md") for task in tasks],
        out(plan.config, "analysis/skipped_analyses.csv"),
    ]


def temporal_enabled(plan: WorkflowPlan) -> bool:
    """Unless the metadata cannot feed it (plan.sources.skipped_analyses)."""
    return not analysis_skipped(plan, TEMPORAL_ANALYSIS)


def temporal_targets(plan: WorkflowPlan, counts: CorpusCounts | None) -> list[str]:
    names = ("summary.json", "f1_by_decade.csv", "rate_by_decade.csv")
    return [out(plan.config, f"analysis/temporal/{name}") for name in names]


def temporal_inputs(plan: WorkflowPlan, book_ids: BookIds) -> dict[str, Any]:
    """f1 and f5, and the publication years when there are any (plan.publication_years_csv)."""
    inputs = {"f1": out(plan.config, "corpus/f1.parquet"), "f5": out(plan.config, "corpus/f5.parquet")}
    years = plan.publication_years_csv()
    if years:
        inputs["years"] = years
    return inputs


# ------------------------------------------------------------------ beyond the paper


def attribution_targets(plan: WorkflowPlan, counts: CorpusCounts | None) -> list[str]:
    """The `punctstyle attribute` bundle."""
    return [out(plan.config, f"models/attribution/{name}") for name in targets.ATTRIBUTION_FILES]


def attribution_inputs(plan: WorkflowPlan, book_ids: BookIds) -> dict[str, Any]:
    """The books' word streams when the bundle holds word models (attribution.words > 0)."""
    if plan.config["attribution"]["words"] <= 0:
        return {}
    return targets.word_stream_inputs(plan.config, book_ids(), tokenizer_rules_file(plan.config), words_key="word_files")


def importance_targets(plan: WorkflowPlan, counts: CorpusCounts | None) -> list[str]:
    """The f3 importance's files, figures and table; none when the corpus (``counts``) has no
    text to test (plan.shapes)."""
    if counts is not None and shapes.is_shape_skipped(shapes.shape_settings(plan.config), counts, shapes.IMPORTANCE):
        return []
    return [*targets.importance_analysis_files(plan.config).values(), *figure_files(plan, IMPORTANCE_FIGURES),
            out(plan.config, "tables/beyond_f3_importance.html")]


def parts_targets(plan: WorkflowPlan, counts: CorpusCounts | None) -> list[str]:
    return [*targets.parts_analysis_files(plan.config).values(), *figure_files(plan, PARTS_FIGURES),
            out(plan.config, "tables/beyond_parts.html")]


def sequence_targets(plan: WorkflowPlan, counts: CorpusCounts | None) -> list[str]:
    return list(targets.sequence_analysis_files(plan.config).values())


def length_targets(plan: WorkflowPlan, counts: CorpusCounts | None) -> list[str]:
    return [*targets.length_analysis_files(plan.config).values(), *figure_files(plan, ["beyond/length_curve"]),
            out(plan.config, "tables/beyond_length_curve.html")]


def length_inputs(plan: WorkflowPlan, book_ids: BookIds) -> dict[str, Any]:
    """The word methods' inputs (feature sets with words<k>): the books' texts (each excerpt's
    words, re-tokenized on the tokenizer rules) and words files (whole-book counts for the row's
    training vocabulary); none without a word method. The books are asked for either way (the
    rule waits for the selection, as it always has)."""
    ids, rules_file = book_ids(), tokenizer_rules_file(plan.config)
    if not uses_word_features(rows.length_methods(plan.config)):
        return {}
    return targets.word_stream_inputs(plan.config, ids, rules_file)


def cross_methods(config: dict[str, Any]) -> list[str]:
    """The classifiers of cross.genres.methods that have inputs."""
    return [name for name, inputs in config["cross"]["genres"]["methods"].items() if inputs]


ANALYSES: tuple[AnalysisPlan, ...] = (
    AnalysisPlan("paper", always, paper_targets, classifiers_of(rows.recognition_methods), after_corpus=True,
                 rule_files=("analysis.smk", "figures.smk")),
    AnalysisPlan("temporal", temporal_enabled, temporal_targets, inputs=temporal_inputs, rule_files=("temporal.smk",)),
    AnalysisPlan("attribution", switched_on("attribution", "enabled"), attribution_targets,
                 classifiers_of(lambda config: [ATTRIBUTION_CLASSIFIER]), attribution_inputs, rule_files=("attribution.smk",)),
    AnalysisPlan("importance", switched_on("beyond", "importance", "enabled"), importance_targets,
                 classifiers_of(lambda config: IMPORTANCE_METHODS), after_corpus=True, rule_files=("importance.smk",)),
    AnalysisPlan("parts", switched_on("beyond", "parts", "enabled"), parts_targets, after_corpus=True,
                 rule_files=("parts.smk",)),
    AnalysisPlan("sequence", switched_on("beyond", "sequence", "enabled"), sequence_targets,
                 classifiers_of(lambda config: [SEQUENCE_METHOD]), after_corpus=True, rule_files=("sequence.smk",)),
    AnalysisPlan("length_curve", switched_on("length_curve", "enabled"), length_targets,
                 classifiers_of(rows.length_methods), length_inputs, rule_files=("length.smk",)),
    AnalysisPlan("verification", lambda plan: verification.verification_enabled(plan.config),
                 lambda plan, counts: verification.verification_outputs(plan.config, counts),
                 lambda plan: {"settings": verification.verification_settings(plan.config)},
                 lambda plan, ids: verification.verification_word_inputs(plan.config, ids(), tokenizer_rules_file(plan.config)),
                 after_corpus=True, rule_files=("verification.smk",)),
    AnalysisPlan("cross", lambda plan: cross.cross_enabled(plan.config),
                 lambda plan, counts: cross.cross_outputs(plan.config), classifiers_of(cross_methods),
                 lambda plan, ids: cross.cross_text_inputs(plan.config, ids()), rule_files=("cross.smk",)),
    AnalysisPlan("maps", switched_on("maps", "enabled"), lambda plan, counts: maps.maps_outputs(plan.config),
                 lambda plan: {"settings": plan.config["maps"]}, rule_files=("maps.smk",)),
    AnalysisPlan("rolling", switched_on("rolling", "enabled"), lambda plan, counts: maps.rolling_outputs(plan.config),
                 lambda plan: {"settings": maps.rolling_settings(plan.config)},
                 lambda plan, ids: maps.rolling_word_inputs(plan.config, ids(), tokenizer_rules_file(plan.config)),
                 rule_files=("rolling.smk",)),
    AnalysisPlan("across_languages", lambda plan: across_languages.across_languages_enabled(plan.config),
                 lambda plan, counts: across_languages.across_languages_outputs(plan.config),
                 lambda plan: {"block": plan.config["across_languages"]},
                 lambda plan, ids: {"collections": across_languages.across_languages_inputs(plan.config)},
                 rule_files=("across_languages.smk",)),
)  # fmt: skip
"""Every analysis the workflow plans, in the order of rule ``all``."""


def analysis(name: str) -> AnalysisPlan:
    """The registered analysis ``name``; a name not in :data:`ANALYSES` raises ``KeyError``."""
    for entry in ANALYSES:
        if entry.name == name:
            return entry
    raise KeyError(f"no analysis {name!r} in punctstyle.plan.analyses.ANALYSES")


def analysis_params(plan: WorkflowPlan, name: str) -> dict[str, Any]:
    """``params`` of analysis ``name`` (for ``params: **analysis_params(PLAN, name)``)."""
    return analysis(name).params(plan)


def analysis_inputs(plan: WorkflowPlan, name: str, book_ids: BookIds) -> dict[str, Any]:
    """``inputs`` of analysis ``name`` (for ``unpack``; ``book_ids``: the rule files'
    ``selected_book_ids``, called only where the analysis reads per-book files)."""
    return analysis(name).inputs(plan, book_ids)


def analysis_rule_files(entries: Sequence[AnalysisPlan] | None = None) -> list[str]:
    """The rule files of the analyses (``ANALYSES`` unless ``entries``), once each, in their
    order, as paths from the repository root: the Snakefile includes them."""
    names = [name for entry in (ANALYSES if entries is None else entries) for name in entry.rule_files]
    return [f"workflow/rules/{name}" for name in dict.fromkeys(names)]


def config_targets(plan: WorkflowPlan) -> list[str]:
    """Rule ``all``'s files that follow from the config alone: those of every enabled analysis
    that does not wait for the corpus tables."""
    return [path for entry in ANALYSES if not entry.after_corpus for path in entry.planned(plan)]


def corpus_targets(plan: WorkflowPlan, counts: CorpusCounts) -> list[str]:
    """Rule ``all``'s files asked for once the corpus tables exist (``counts``: their classes per
    task): those of every enabled analysis that waits for them."""
    return [path for entry in ANALYSES if entry.after_corpus for path in entry.planned(plan, counts)]
