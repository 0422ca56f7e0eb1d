"""Rule ``sequence_row``'s job: the network on raw punctuation sequences for one (class size,
seed) row (:mod:`punctstyle.training.sequence_recognition`). Called by ``scripts/sequence_row.py``
and ``benchmarks/beyond_rows.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from punctstyle.analyses.paper import (
    labelled_rows,
    task_column,
)
from punctstyle.training.sequence_recognition import (
    excerpt_accuracies,
    fit_and_score,
    sequence_row_split,
    write_length_rows,
    write_sequence_row,
)
from punctstyle.classifiers import SEQUENCE_METHOD, build_sequence_classifier
from punctstyle.corpus.sequences import document_sequences
from punctstyle.jobs.recognition import enough_classes


def sequence_row_job(
    table: pd.DataFrame,
    sequences: Sequence[Any],
    outputs: Mapping[str, Any],
    *,
    class_size: int | str,
    seed: int,
    test_fraction: float,
    classifier_options: Mapping[str, Mapping[str, Any]],
    lengths: Sequence[int],
    short_documents: str,
    log: Any = None,
) -> pd.DataFrame | None:
    """Rule ``sequence_row``: the network on raw punctuation sequences for one (class size, seed)
    row of the author task, on the class sample and split of Tables 2-3
    (:func:`punctstyle.training.sequence_recognition.sequence_row_split`), trained with
    ``classifier_options[SEQUENCE_METHOD]`` (the mapping of
    :func:`punctstyle.classifiers.options.options_by_classifier`) and scored on
    its test books whole (``outputs["row"]``) and cut to the length curve's excerpts
    (``outputs["lengths"]``; none when ``lengths`` is empty). Fewer than 2 authors: empty files.
    Returns the row (None when skipped)."""
    task = "author"
    if not enough_classes(labelled_rows(table, task)[task_column(task)].nunique(), task, log):
        write_sequence_row(outputs["row"], None)
        write_length_rows(outputs["lengths"], None)
        return None
    data = sequence_row_split(table, task, class_size, seed, test_fraction)
    documents = document_sequences(sequences, table, data.book_ids)

    options = classifier_options[SEQUENCE_METHOD]

    def make() -> Any:
        return build_sequence_classifier(SEQUENCE_METHOD, seed=seed, **options)

    device = options["device"]
    model, row = fit_and_score(data, documents, task=task, seed=seed, method=SEQUENCE_METHOD, make=make, device=device)
    excerpts = excerpt_accuracies(
        model,
        data,
        documents,
        task=task,
        seed=seed,
        method=SEQUENCE_METHOD,
        lengths=lengths,
        short_documents=short_documents,
    )
    write_sequence_row(outputs["row"], row)
    write_length_rows(outputs["lengths"], excerpts)
    if log is not None:
        log.info("\n%s\n%s", row.T.to_string(), excerpts.to_string())
    return row
