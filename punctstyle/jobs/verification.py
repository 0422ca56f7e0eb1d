"""Rule verification's body: General Imposters calibrated on held-out corpus texts
(:func:`punctstyle.attribution.verification_run.verification_run`); the PAN measures and the
bundle's verification files."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.attribution.verification_run import (
    reference_frame,
    summary_table,
    verification_run,
    write_verification_files,
)
from punctstyle.attribution.verification_settings import VerificationSettings, needs_word_streams
from punctstyle.corpus.sequences import document_sequences
from punctstyle.corpus.words import document_word_files, read_word_matrix
from punctstyle.featuresets import matrices_from_tables
from punctstyle.io import atomic_open
from punctstyle.logs import job_cost_line
from punctstyle.rule_names import FEATURES
from punctstyle.text.tokenizer import TokenizerRules

PathLike = str | os.PathLike[str]


def verification_job(
    *,
    tables: Sequence[PathLike],
    sequences: Sequence[PathLike],
    output: Mapping[str, Any],
    settings: Mapping[str, Any],
    log: Any,
    word_matrix: PathLike | None = None,
    texts: Sequence[PathLike] = (),
    words: Sequence[PathLike] = (),
    rules: PathLike | None = None,
) -> pd.DataFrame:
    """Rule verification: read the corpus tables (``tables``, in :data:`punctstyle.rule_names.FEATURES`
    order) and the books' ``sequences``; measure (:func:`verification_run`), then write
    ``output["results"]`` (one row per family, length and seed), ``output["summary"]``
    (:func:`summary_table`) and the bundle's ``output["reference"]`` and ``output["record"]``
    (:func:`write_verification_files`). ``word_matrix``: the path of ``corpus/words.npz`` (word
    families); ``texts``, ``words``, ``rules``: the books' texts, words files and the tokenizer
    rules file (word families at excerpt lengths). Returns the summary."""
    frames = {name: pd.read_parquet(path) for name, path in zip(FEATURES, tables, strict=True)}
    run_settings = VerificationSettings.from_config(dict(settings))
    _, _, book_ids = matrices_from_tables(dict(frames), "author")
    table = next(iter(frames.values()))
    documents = document_sequences(list(sequences), table, book_ids)
    matrix = read_word_matrix(word_matrix) if run_settings.uses_words else None
    streams = None
    if needs_word_streams(run_settings):
        files = document_word_files(documents, table, book_ids, list(texts), list(words), TokenizerRules.load(rules))

        def streams(i: int) -> np.ndarray:
            marks, gaps = documents[i]
            return files.stream(i, marks, gaps)

    results, bands = verification_run(frames, matrix, run_settings, documents.__getitem__, streams, log.info)
    summary = summary_table(results)
    for frame, key in ((results, "results"), (summary, "summary")):
        with atomic_open(output[key], "w", encoding="utf-8", newline="") as handle:
            frame.to_csv(handle, index=False)
    reference, chosen = reference_frame(frames, matrix, run_settings)
    write_verification_files(output, reference, chosen, bands, results, run_settings,
                             float(pd.to_numeric(table["n_marks"]).median()))
    log.info("verification: %d family-length rows", len(summary))
    log.info("%s", job_cost_line())
    return summary
