"""Which recognition rows, tasks and classifier options a configuration plans (pure functions
of the config; the ``.smk`` files call them, the unit tests call them without Snakemake).

``skipped`` is a list of (analysis, cause) pairs (:func:`punctstyle.plan.sources.skipped_analyses`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from punctstyle.classifiers import options
from punctstyle.rule_names import METADATA_TASKS

GENRE_ANALYSIS = "genre analysis"
VERIFICATION = "verification"
WORDS_FAMILY = "words"
EXCERPT_CROSS = "extraction.excerpt_marks is set: the cross-domain and translator analyses compare whole Gutenberg texts"
"""Why the cross-domain analyses are left out on excerpts (:func:`excerpt_skips`)."""
"""The word family of the maps (punctstyle.descriptive.maps.WORDS)."""
ROLLING_WORD_METHODS: tuple[str, ...] = ("delta_words", "delta_both")


def is_skipped(skipped: list[tuple[str, str]], name: str) -> bool:
    """Whether the analysis ``name`` is among the (analysis, cause) pairs ``skipped``."""
    return any(analysis == name for analysis, _ in skipped)


def metadata_tasks(config: dict[str, Any]) -> list[str]:
    """The tasks beyond the paper (config ``metadata_tasks``, each once, in
    :data:`punctstyle.rule_names.METADATA_TASKS`' order); null: per source, every one of them
    for ``source: tei`` (ELTeC's time slot and gender), none otherwise."""
    configured = config.get("metadata_tasks")
    if configured is None:
        return list(METADATA_TASKS) if config.get("source") == "tei" else []
    return [task for task in METADATA_TASKS if task in configured]


def configured_consistency_tasks(config: dict[str, Any], skipped: list[tuple[str, str]]) -> list[str]:
    """consistency.tasks, less the genre analysis a folder corpus' metadata cannot feed, then
    the tasks beyond the paper (:func:`metadata_tasks`)."""
    tasks = list(config["consistency"]["tasks"])
    if is_skipped(skipped, GENRE_ANALYSIS):
        tasks = [task for task in tasks if task != "genre"]
    return tasks + metadata_tasks(config)


def configured_recognition_tasks(config: dict[str, Any], skipped: list[tuple[str, str]]) -> list[str]:
    """author, genre when recognition.genre_recognition and the metadata can feed it, then the
    tasks beyond the paper (:func:`metadata_tasks`)."""
    tasks = ["author"]
    if config["recognition"]["genre_recognition"] and not is_skipped(skipped, GENRE_ANALYSIS):
        tasks.append("genre")
    return tasks + metadata_tasks(config)


def without_unfed_tasks(tasks: list[str], class_count: Callable[[str], int]) -> list[str]:
    """``tasks`` without "genre", "time_slot" or "gender" when ``class_count(task)`` (the corpus'
    classes of it; 0 without its column) is below 2; ``class_count`` is called only for those
    of them among the tasks (never for "author")."""
    unfed = {task for task in tasks if task in ("genre", *METADATA_TASKS) and class_count(task) < 2}
    return [task for task in tasks if task not in unfed]


def recognition_class_sizes(config: dict[str, Any]) -> list[str]:
    """The configured class sizes as wildcard values ("10", "all"), each once, in order."""
    return list(dict.fromkeys(str(size) for size in config["recognition"]["class_sizes"]))


def computed_class_sizes(sizes: list[str], n_classes: int) -> list[str]:
    """The class sizes whose rows compute something: with "all" among ``sizes``, a size at or
    above the corpus' ``n_classes`` is the "all" row's experiment
    (analysis.duplicates_full_corpus_row), so it is left out; without "all", every size."""
    if "all" not in sizes:
        return list(sizes)
    return [size for size in sizes if size == "all" or int(size) < n_classes]


def held_class_sizes(sizes: list[str], n_classes: int) -> list[str]:
    """Rows named by the classes they hold (issue 26 item 8): each requested size capped to the
    corpus' ``n_classes`` (``min(size, n_classes)``), each once, in order; the requested sizes
    when fewer than 2 classes exist (the rows then write empty files naming the reason)."""
    if n_classes < 2:
        return list(dict.fromkeys(sizes))
    return list(dict.fromkeys(str(min(int(size), n_classes)) for size in sizes))


def recognition_methods(config: dict[str, Any]) -> dict[str, list[str]]:
    """Classifier -> feature sets, without the classifiers configured with no feature set."""
    return {name: sets for name, sets in config["recognition"]["methods"].items() if sets}


def classifier_params(config: dict[str, Any], methods: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The hyper-parameters of each classifier of ``methods`` (names, or a mapping keyed by them)
    that has a config section (its registry entry's: ``recognition.<name>``, e.g.
    ``recognition.mlp``; ``beyond.sequence`` for ``sequence_cnn``), without the execution-only
    keys: what every training rule's ``params.classifiers`` carry and
    :func:`punctstyle.classifiers.options.options_by_classifier` hands to the factories
    (:func:`punctstyle.classifiers.options.classifier_params`)."""
    return options.classifier_params(config, methods)


def excerpt_skips(config: dict[str, Any]) -> list[tuple[str, str]]:
    """(analysis, cause) of each analysis that documents cut from texts (extraction.excerpt_marks)
    cannot feed: the cross-domain and translator analyses (whole Gutenberg texts). The word
    readers run on excerpts: each excerpt's own words (the corpus word matrix,
    :mod:`punctstyle.corpus.word_matrix_job`, and the word streams of the length curve,
    verification, rolling attribution and the attribution bundle,
    :func:`punctstyle.corpus.words.document_word_files`)."""
    if config["extraction"]["excerpt_marks"] is None:
        return []
    if config["cross"]["enabled"] and config.get("source", "gutenberg") != "folder":
        return [("cross-domain and translator analyses", EXCERPT_CROSS)]
    return []


def word_tasks(config: dict[str, Any], skipped: list[tuple[str, str]]) -> list[str]:
    """Recognition tasks whose rows also run the word baselines (recognition.words): none when
    off; on excerpts each excerpt's own word counts (the corpus word matrix's rows)."""
    words = config["recognition"]["words"]
    if not words["top_k"] or not any(words["methods"].values()):
        return []
    return [task for task in configured_recognition_tasks(config, skipped) if task in words["tasks"]]


def length_methods(config: dict[str, Any]) -> dict[str, list[str]]:
    """Classifier -> feature sets of the length curve, without those with no feature set (word
    sets run on excerpts too: each excerpt's own word stream)."""
    return {name: list(sets) for name, sets in config["length_curve"]["methods"].items() if sets}


def sequence_class_sizes(config: dict[str, Any], n_authors: int | None = None) -> list[str]:
    """beyond.sequence.class_sizes as wildcard values, each once; with the corpus' ``n_authors``,
    named by the authors they hold (:func:`held_class_sizes`)."""
    sizes = [str(size) for size in dict.fromkeys(config["beyond"]["sequence"]["class_sizes"])]
    return sizes if n_authors is None else held_class_sizes(sizes, n_authors)


def length_class_sizes(config: dict[str, Any], n_authors: int | None = None) -> list[str]:
    """length_curve.class_sizes as wildcard values, each once; with the corpus' ``n_authors``,
    named by the authors they hold (:func:`held_class_sizes`)."""
    sizes = [str(size) for size in dict.fromkeys(config["length_curve"]["class_sizes"])]
    return sizes if n_authors is None else held_class_sizes(sizes, n_authors)


def sequence_excerpt_lengths(config: dict[str, Any]) -> list[int]:
    """The excerpt lengths the sequence classifier is also scored at: the length curve's when
    it runs (length_curve.enabled), so that both score the same test excerpts; none otherwise."""
    curve = config["length_curve"]
    return [int(n) for n in curve["lengths"]] if curve["enabled"] else []
