"""Rule rolling_collaborations' body: rolling attribution on synthetic collaborations of held-out
books (:mod:`punctstyle.attribution.collaborations`), its records, summary and figure."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from punctstyle.attribution.collaborations import RollingSettings, rolling_collaborations, rolling_summary

from punctstyle.corpus.sequences import document_sequences
from punctstyle.corpus.words import document_word_files, read_word_matrix
from punctstyle.io import atomic_open
from punctstyle.marks import PAPER_FEATURES
from punctstyle.report.plots.base import save_figure
from punctstyle.report.plots.rolling import collaborations_report_figure
from punctstyle.text.tokenizer import TokenizerRules

PathLike = str | os.PathLike[str]


def rolling_collaborations_job(
    *,
    tables: Sequence[PathLike],
    sequences: Sequence[PathLike],
    output: Any,
    settings: Mapping[str, Any],
    log: Any,
    texts: Sequence[PathLike] | None = None,
    word_files: Sequence[PathLike] | None = None,
    words: PathLike | None = None,
    rules: PathLike | None = None,
) -> pd.DataFrame:
    """Rule rolling_collaborations: the corpus tables of the paper's features (``tables``, in
    :data:`punctstyle.marks.PAPER_FEATURES` order), the books' ``sequences`` and, when a word
    method runs (``rules`` given), the books' ``texts``, ``word_files`` and the word matrix
    ``words``; writes ``output.records``, ``output.summary`` (CSV) and ``output.figure`` /
    ``output.figure_pdf``. Returns the summary."""
    rolling = RollingSettings.from_config(settings)
    frames = {name: pd.read_parquet(path) for name, path in zip(PAPER_FEATURES, tables, strict=True)}
    book_ids = frames[PAPER_FEATURES[0]]["book_id"].to_numpy(dtype=np.int64)
    # a whole text is its file; an excerpt (extraction.excerpt_marks) its marks of its text's file
    documents = document_sequences(sequences, frames[PAPER_FEATURES[0]], book_ids)

    def sequence(i: int) -> tuple[np.ndarray, np.ndarray]:
        marks, gaps = documents[i]
        return np.asarray(marks), np.asarray(gaps)

    word_matrix, word_stream = None, None
    if rules is not None:
        # each book's word stream kept at extraction (an older words file: re-tokenized)
        streams = document_word_files(
            documents, frames[PAPER_FEATURES[0]], book_ids, texts, word_files, TokenizerRules.load(rules)
        )
        word_matrix = read_word_matrix(words)

        def word_stream(i: int) -> Any:
            marks, gaps = sequence(i)
            return streams.stream(i, marks, gaps)

    records = rolling_collaborations(frames, sequence, rolling, word_matrix, word_stream)
    summary = rolling_summary(records)
    for frame, path in ((records, output.records), (summary, output.summary)):
        with atomic_open(path, "w", newline="") as handle:
            frame.to_csv(handle, index=False)
    save_figure(collaborations_report_figure(summary, rolling.window, rolling.step, rolling.seeds),
                output.figure, output.figure_pdf)
    log.info("rolling collaborations:\n%s", summary.to_string())
    return summary
