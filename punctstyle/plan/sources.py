"""What the document source (config ``source``: gutenberg | folder | tei) lets the workflow plan:
the analyses a folder corpus' metadata cannot feed, the genre shelves and the corpus language."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

FILE_SOURCES: tuple[str, ...] = ("folder", "tei")
"""The sources whose selection is a folder of files (:mod:`punctstyle.sources.folder`'s rows)."""
TEI_COLUMNS: tuple[str, ...] = ("file", "author", "year")
"""The metadata a TEI corpus has for the plan: TEI headers (and ELTeC's table) give a year, no
genre (the genre analysis is skipped)."""


def skipped_analyses(source: str, folder_columns: list[str]) -> list[tuple[str, str]]:
    """(analysis, cause) of each analysis the metadata cannot feed (known before the run):
    with ``source == "folder"``, the genre analysis without a genre column, the temporal
    analysis without any of year, author_birth, author_death; nothing for gutenberg."""
    if source not in FILE_SOURCES:
        return []
    skipped = []
    if "genre" not in folder_columns:
        cause = "the metadata CSV has no genre column (or it is empty)"
        if source == "tei":
            cause = "TEI headers give no genre (tei.genre_from: time_slot or gender gives one)"
        skipped.append(("genre analysis", cause))
    if not {"year", "author_birth", "author_death"} & set(folder_columns):
        skipped.append(
            ("temporal analysis", "the metadata CSV has no year, author_birth or author_death values")
        )
    return skipped


def corpus_genre_shelves(config: dict[str, Any]) -> list[str] | None:
    """genres.shelves for Gutenberg bookshelves; None (every genre of the CSV) for a folder corpus."""
    return None if config["source"] in FILE_SOURCES else config["genres"]["shelves"]


def corpus_language(config: dict[str, Any]) -> str:
    """The corpus language as spaCy's code: config ``language``; else, for a TEI corpus, the
    most common language of its metadata table or headers
    (:func:`punctstyle.sources.tei.corpus_language`); else English."""
    from punctstyle.text.languages import language_code

    if config.get("language"):
        return language_code(config["language"])
    if config["source"] != "tei":
        return "en"
    block = config["tei"]
    return _tei_language(block.get("path"), block.get("pattern"), block.get("metadata"))


@lru_cache(maxsize=4)
def _tei_language(path: str, pattern: str | None, metadata: str | None) -> str:
    from punctstyle.sources.tei import TeiSettings, corpus_language as tei_corpus_language

    settings = TeiSettings.from_config({"tei": {"path": path, "pattern": pattern, "metadata": metadata}})
    return tei_corpus_language(settings)
