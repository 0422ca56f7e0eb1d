"""Checkpoint select_books and the reading of one file (rule ingest_document,
:mod:`punctstyle.book.jobs.ingest_tei`) for a TEI corpus (``source: tei``).

The selection is the folder source's (:func:`punctstyle.sources.folder.folder_selection`) on
the metadata rows :func:`punctstyle.sources.tei.tei_metadata` reads from the TEI files (and
ELTeC's table), with the columns ``language``, ``gender`` and ``time_slot`` filled; refused
files, table rows without a file and files in another language are exclusions of stage
``metadata``, one line each (the log and the console). The ingest writes the TEI text into the
same ``books/{id}.txt.gz`` and provenance JSON as the folder source.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from punctstyle.io import InputError
from punctstyle.sources.folder import (
    EXCLUSION_COLUMNS,
    Document,
    book_number,
    folder_selection,
    safe_doc_id,
)
from punctstyle.sources.tei import TeiRefusal, TeiSettings, read_tei_file, tei_metadata

# punctstyle.sources.folder_job and .selection (pandas) are imported by the selection's functions
# only: the per-book ingest (read_tei_document, punctstyle.book.jobs.ingest_tei) does not need them

TEI_COLUMNS: tuple[str, ...] = ("language", "gender", "time_slot")
"""The columns a TEI selection fills beyond the folder source's (``language``: the corpus's)."""


def tei_selection(settings: TeiSettings, *, min_docs_per_author: int | None) -> tuple[Any, Any, list[dict]]:
    """``(selection, exclusions, filter_log)`` of a TEI corpus (module docstring)."""
    import pandas as pd

    metadata, left_out = tei_metadata(settings)
    # the rows are the TEI files (sorted by path), numbered from 1: "<folder>: row 3 (level1/x.xml)"
    where = settings.path
    selection, exclusions, filter_log = folder_selection(
        metadata.drop(columns=list(TEI_COLUMNS)),
        settings.path,
        metadata_path=str(where),
        min_docs_per_author=min_docs_per_author,
    )
    by_file = metadata.set_index("file")
    for column in TEI_COLUMNS:
        selection[column] = [by_file.loc[f, column] if f in by_file.index else "" for f in selection["file"]]
    refused = pd.DataFrame(
        [
            (book_number(safe_doc_id(Path(file).stem)), "metadata", f"{Path(settings.path) / file}: {reason}")
            for file, reason in left_out
        ],
        columns=list(EXCLUSION_COLUMNS),
    )
    exclusions = pd.concat([refused, exclusions], ignore_index=True) if len(refused) else exclusions
    exclusions["book_id"] = exclusions["book_id"].astype("Int64")
    filter_log.insert(0, {"filter": "tei_files", "removed": len(left_out), "remaining": len(metadata)})
    return selection, exclusions, filter_log


def select_tei_job(params: Any, output: Any, log: Any) -> None:
    """Checkpoint select_books for a TEI corpus: ``params.config`` (the run's config) -> the
    selection, the filter counts, the left-out files and rows and the publication years."""
    from punctstyle.sources.folder_job import write_selection
    from punctstyle.sources.selection import EmptySelectionError

    settings = TeiSettings.from_config(params.config)
    try:
        selection, exclusions, filter_log = tei_selection(
            settings, min_docs_per_author=params.config["selection"]["min_docs_per_author"]
        )
    except EmptySelectionError as exc:
        log.error("%s", exc)
        raise InputError(str(exc)) from None
    language = selection["language"].iloc[0] if len(selection) else "?"
    write_selection(selection, exclusions, filter_log, output, log,
                    f"selected {len(selection)} TEI texts by {selection['author'].nunique()} authors (language {language})")


def read_tei_document(
    path: str, book_id: int, doc_id: str, *, parts: tuple[str, ...], notes: bool, max_bytes: int
) -> Document:
    """One TEI file -> a folder :class:`~punctstyle.sources.folder.Document` holding its text
    (encoding ``tei``); a refused file is ``rejected`` with the reason."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as exc:
        reason = f"{file}: cannot read the file ({exc.strerror or exc})"
        return Document(book_id, doc_id, file, "unavailable", "", 0, None, None, reason)
    digest = hashlib.sha256(data).hexdigest()
    if len(data) > max_bytes:
        reason = f"{file}: file of {len(data)} bytes exceeds the cap of {max_bytes} bytes"
        return Document(book_id, doc_id, file, "rejected", "", len(data), digest, None, reason)
    from punctstyle.sources.tei import parse_tei

    try:
        text = parse_tei(data, parts=parts, notes=notes).text
    except TeiRefusal as exc:
        return Document(book_id, doc_id, file, "rejected", "", len(data), digest, None, f"{file}: {exc}")
    return Document(book_id, doc_id, file, "ok", text, len(data), digest, "tei", None)


__all__ = ["read_tei_document", "read_tei_file", "select_tei_job", "tei_selection"]
