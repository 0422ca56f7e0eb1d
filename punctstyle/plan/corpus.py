"""Planning of the corpus' files (rule files books.smk, corpus.smk and rule ``all``): the
per-book files, the corpus tables and the tokenizer rules, as plain functions of the config."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import metadata
from typing import Any

from punctstyle.descriptive.parts import PART_FEATURES
from punctstyle.plan import sources
from punctstyle.plan.targets import out
from punctstyle.rule_names import FEATURES
from punctstyle.text.languages import rules_variant

PER_BOOK_FILES = (
    "books/{book_id}.json",
    "books/{book_id}.txt.gz",
    "sequences/{book_id}.parquet",
    "words/{book_id}.parquet",
    "features/{book_id}.parquet",
)


def per_book(config: dict[str, Any], pattern: str, book_ids: Iterable[int]) -> list[str]:
    """``pattern`` (a path under the output folder with ``{book_id}``) for each book."""
    return [out(config, pattern).format(book_id=book_id) for book_id in book_ids]


def excerpt_sequences(config: dict[str, Any], book_ids: Iterable[int]) -> list[str]:
    """The sequence files of ``book_ids`` when the documents are excerpts
    (``extraction.excerpt_marks``: the word matrix cuts each text's word stream by its gaps),
    none for whole texts."""
    if config["extraction"]["excerpt_marks"] is None:
        return []
    return per_book(config, "sequences/{book_id}.parquet", book_ids)


def per_book_files(config: dict[str, Any], book_ids: Iterable[int]) -> list[str]:
    """Every per-book file of the selected books (a target of rule all: a deleted per-book
    file makes the job that writes it run, and every job downstream of it)."""
    ids = list(book_ids)
    return [path for pattern in PER_BOOK_FILES for path in per_book(config, pattern, ids)]


def tokenizer_rules_file(config: dict[str, Any]) -> str:
    """spaCy's exported tokenizer rules, one file per installed spaCy version (an upgrade
    re-exports them), language and dialogue-dash setting (English without it: the paper's
    file name, ``tokenizer_rules-spacy<version>.json``; else ``tokenizer_rules-fr-spacy...``,
    ``tokenizer_rules-fr-dialogue-spacy...``: :func:`punctstyle.text.languages.rules_variant`)."""
    dash = config["extraction"].get("dialogue_dash", "none") == "quote"
    variant = rules_variant(sources.corpus_language(config), dash)
    prefix = f"tokenizer_rules-{variant}" if variant else "tokenizer_rules"
    return out(config, f"extraction/{prefix}-spacy{metadata.version('spacy')}.json")


def feature_tables(config: dict[str, Any], features: Iterable[str] = FEATURES) -> list[str]:
    """The corpus table of each of ``features`` (by default every feature), in their order."""
    return [out(config, f"corpus/{feature}.parquet") for feature in features]


def corpus_table_files(config: dict[str, Any]) -> list[str]:
    """The corpus_tables checkpoint's files: every feature table, the exclusions, the summary."""
    return [*feature_tables(config), out(config, "corpus/exclusions.csv"), out(config, "corpus/summary.json")]


def corpus_table_extra_inputs(config: dict[str, Any]) -> dict[str, str]:
    """A folder corpus' left-out metadata rows, added to exclusions.csv."""
    if config["source"] not in sources.FILE_SOURCES:
        return {}
    return {"metadata_exclusions": out(config, "corpus/metadata_exclusions.csv")}


def part_tables(config: dict[str, Any]) -> list[str]:
    """The corpus tables the book parts analysis reads (beyond.parts.PART_FEATURES)."""
    return feature_tables(config, PART_FEATURES)
