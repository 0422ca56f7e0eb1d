"""Output paths the workflow plans for a configuration: per-row files and the targets of the
analyses beyond the paper and of the length curve (pure functions of the config; every path
under ``config["outdir"]``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from punctstyle.plan.rows import length_class_sizes, recognition_class_sizes, sequence_class_sizes


def out(config: dict[str, Any], path: str) -> str:
    """A path under the configured output folder."""
    return f"{config['outdir']}/{path}"


def log_path(config: dict[str, Any], name: str) -> str:
    """A rule's log file, ``logs/<name>.log`` under the output folder."""
    return out(config, f"logs/{name}.log")


def output_paths(config: dict[str, Any]) -> tuple[Callable[[str], str], Callable[[str], str]]:
    """(``out``, ``log_path``) bound to the config's output folder: the rule files' path helpers."""
    return partial(out, config), partial(log_path, config)


def word_stream_inputs(config: dict[str, Any], book_ids: Iterable[int], rules_file: str,
                       words_key: str = "words") -> dict[str, Any]:
    """The inputs a job needs for the books' word streams (punctstyle.corpus.words.CorpusWordFiles):
    each book's words file (``words_key``: the stream kept at extraction and the whole-book
    counts), its text and the tokenizer ``rules_file`` (a words file of an older punctstyle is
    re-tokenized from the text)."""
    ids = list(book_ids)
    return {
        "texts": [out(config, f"books/{book_id}.txt.gz") for book_id in ids],
        words_key: [out(config, f"words/{book_id}.parquet") for book_id in ids],
        "rules": rules_file,
    }


def expand_product(pattern: str, **values: Iterable[Any]) -> list[str]:
    """``pattern`` formatted with every combination of ``values`` (the last keyword varies
    fastest), as Snakemake's ``expand`` does with its default product."""
    names = list(values)
    lists = [[v] if isinstance(v, str) else list(v) for v in values.values()]
    return [pattern.format(**dict(zip(names, combination))) for combination in itertools.product(*lists)]


def recognition_row_files(config: dict[str, Any], task: str, name: str, class_sizes: list[str] | None = None) -> list[str]:
    """One file per (class size, seed) row of a task: name is results.csv, per_class.csv, ..."""
    return expand_product(
        out(config, "analysis/recognition/{task}/{classes}_classes/seed{seed}_{name}"),
        task=task,
        classes=class_sizes or recognition_class_sizes(config),
        seed=config["recognition"]["seeds"],
        name=name,
    )


def importance_analysis_files(config: dict[str, Any]) -> dict[str, str]:
    return {
        "importance": out(config, "analysis/beyond/f3_importance.csv"),
        "top_k": out(config, "analysis/beyond/f3_top_k.csv"),
        "top_transitions": out(config, "analysis/beyond/f3_top_transitions.md"),
        "summary": out(config, "analysis/beyond/f3_importance.json"),
    }


def importance_row_files(config: dict[str, Any]) -> list[str]:
    """One file per (class size, seed) row of the f3 importance analysis."""
    return expand_product(
        out(config, "analysis/beyond/f3_importance/{classes}_classes_seed{seed}.json"),
        classes=dict.fromkeys(config["beyond"]["importance"]["class_sizes"]),
        seed=config["recognition"]["seeds"],
    )


def parts_analysis_files(config: dict[str, Any]) -> dict[str, str]:
    return {
        "parts": out(config, "analysis/beyond/parts.csv"),
        "summary": out(config, "analysis/beyond/parts_summary.csv"),
        "info": out(config, "analysis/beyond/parts.json"),
    }


def sequence_row_files(config: dict[str, Any], suffix: str = "", n_authors: int | None = None) -> list[str]:
    """One file per (class size, seed) row of the sequence classifier (the seeds of recognition):
    its result row (suffix ""), or its accuracies on the length curve's excerpts ("_lengths");
    with the corpus' ``n_authors``, rows named by the authors they hold."""
    return expand_product(
        out(config, "analysis/beyond/sequence/author_{classes}_classes_seed{seed}{suffix}.csv"),
        classes=sequence_class_sizes(config, n_authors),
        seed=config["recognition"]["seeds"],
        suffix=suffix,
    )


def sequence_recognition_files(config: dict[str, Any], n_authors: int | None = None) -> list[str]:
    """The recognition results of the sequence rows: the row of each size, or the "all" row for a
    size that holds every author (without ``n_authors``: every size and the "all" row)."""
    sizes = sequence_class_sizes(config, n_authors)
    if "all" in recognition_class_sizes(config):
        sizes = [s for s in sizes if n_authors is None or int(s) < n_authors]
        sizes.append("all")
    return recognition_row_files(config, "author", "results.csv", class_sizes=list(dict.fromkeys(sizes)))


def sequence_analysis_files(config: dict[str, Any]) -> dict[str, str]:
    return {
        "csv": out(config, "analysis/beyond/sequence_model.csv"),
        "markdown": out(config, "analysis/beyond/sequence_model.md"),
        "lengths": out(config, "analysis/beyond/sequence_model_lengths.csv"),
        "table": out(config, "tables/beyond_sequence_model.html"),
    }


def length_row_files(config: dict[str, Any], name: str, n_authors: int | None = None) -> list[str]:
    """One file per (class size, seed) row of the length curve: name is results.csv or excerpts.csv;
    with the corpus' ``n_authors``, rows named by the authors they hold."""
    return expand_product(
        out(config, "analysis/length/author/{classes}_classes/seed{seed}_{name}"),
        classes=length_class_sizes(config, n_authors),
        seed=config["recognition"]["seeds"],
        name=name,
    )


def length_analysis_files(config: dict[str, Any]) -> dict[str, str]:
    return {
        "results": out(config, "analysis/length/author_results.csv"),
        "summary": out(config, "analysis/length/author_summary.csv"),
        "markdown": out(config, "analysis/length/author_summary.md"),
    }


ATTRIBUTION_FILES = ["mlp.pt", "signatures.parquet", "threshold.json", "manifest.json"]


def attribution_outputs(config: dict[str, Any]) -> list[str]:
    """The `punctstyle attribute` bundle; [] with attribution.enabled: false."""
    if not config["attribution"]["enabled"]:
        return []
    return [out(config, f"models/attribution/{name}") for name in ATTRIBUTION_FILES]
