"""What the document source (config ``source``: gutenberg | folder) lets the workflow plan:
the analyses a folder corpus' metadata cannot feed, and the genre shelves (pure functions)."""

from __future__ import annotations

from typing import Any


def skipped_analyses(source: str, folder_columns: list[str]) -> list[tuple[str, str]]:
    """(analysis, cause) of each analysis the metadata cannot feed (known before the run):
    with ``source == "folder"``, the genre analysis without a genre column, the temporal
    analysis without any of year, author_birth, author_death; nothing for gutenberg."""
    if source != "folder":
        return []
    skipped = []
    if "genre" not in folder_columns:
        skipped.append(("genre analysis", "the metadata CSV has no genre column (or it is empty)"))
    if not {"year", "author_birth", "author_death"} & set(folder_columns):
        skipped.append(
            ("temporal analysis", "the metadata CSV has no year, author_birth or author_death values")
        )
    return skipped


def corpus_genre_shelves(config: dict[str, Any]) -> list[str] | None:
    """genres.shelves for Gutenberg bookshelves; None (every genre of the CSV) for a folder corpus."""
    return None if config["source"] == "folder" else config["genres"]["shelves"]
