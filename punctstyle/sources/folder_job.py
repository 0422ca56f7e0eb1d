"""Checkpoint select_books for a folder corpus: the metadata CSV -> selection.parquet.

Bad rows are logged (one line each, naming the row and the file) and written to
metadata_exclusions.csv, which corpus_tables adds to exclusions.csv; the rest goes on.
"""

from __future__ import annotations

from typing import Any

import sys

import pandas as pd

from punctstyle.sources.selection import EmptySelectionError
from punctstyle.sources.folder import folder_selection, publication_years, read_metadata
from punctstyle.io import InputError, atomic_open, write_parquet_atomic


def select_folder_job(params: Any, inputs: Any, output: Any, log: Any) -> None:
    """Checkpoint select_books for a folder corpus: the metadata CSV (``inputs.metadata``) -> the
    selection, the filter counts, the left-out rows and the publication years (``output``);
    ``params``: ``folder``, ``min_docs_per_author``."""
    metadata, warnings = read_metadata(inputs.metadata)
    for warning in warnings:
        log.warning("%s", warning)
        print(f"punctstyle: {warning}", file=sys.stderr)
    try:
        selection, exclusions, filter_log = folder_selection(
            metadata,
            params.folder,
            metadata_path=inputs.metadata,
            min_docs_per_author=params.min_docs_per_author,
        )
    except EmptySelectionError as exc:
        log.error("%s", exc)
        raise InputError(str(exc)) from None
    write_selection(selection, exclusions, filter_log, output, log,
                    f"selected {len(selection)} documents by {selection['author'].nunique()} authors")


def write_selection(selection: pd.DataFrame, exclusions: pd.DataFrame, filter_log: list[dict], output: Any,
                    log: Any, summary: str) -> None:
    """The end of a folder or TEI corpus' select_books: each left-out row one line in the log and
    on the console, the filter counts and ``summary`` in the log; the selection, the filter
    counts, the left-out rows and the publication years written (``output``), each atomically."""
    for reason in exclusions["reason"]:
        log.warning("%s", reason)
        print(f"punctstyle: left out: {reason}", file=sys.stderr)
    for step in filter_log:
        log.info("filter %-24s removed %6d, %6d remain", step["filter"], step["removed"], step["remaining"])
    log.info("%s", summary)
    write_parquet_atomic(selection, output.selection)
    for path, table in (
        (output.filters, pd.DataFrame(filter_log)),
        (output.exclusions, exclusions),
        (output.years, publication_years(selection)),
    ):
        with atomic_open(path, "w", newline="") as handle:
            table.to_csv(handle, index=False)
