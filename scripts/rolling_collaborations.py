"""Rule rolling_collaborations: rolling attribution on synthetic collaborations of held-out books
(punctstyle.experiments.collaborations), its records, summary and figure."""

import numpy as np
import pandas as pd

from punctstyle.book.sequence_file import read_sequence
from punctstyle.corpus.sequences import sequence_paths_for_books
from punctstyle.corpus.words import CorpusWordFiles, read_word_matrix
from punctstyle.experiments.collaborations import RollingSettings, rolling_collaborations, rolling_summary
from punctstyle.io import atomic_open
from punctstyle.logs import configure_logging
from punctstyle.marks import PAPER_FEATURES
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.rolling import collaborations_figure
from punctstyle.text.tokenizer import TokenizerRules

log = configure_logging(snakemake.log[0])
inputs, output = snakemake.input, snakemake.output
settings = RollingSettings.from_config(snakemake.params.settings)
tables = {name: pd.read_parquet(path) for name, path in zip(PAPER_FEATURES, inputs.tables, strict=True)}
book_ids = tables[PAPER_FEATURES[0]]["book_id"].to_numpy(dtype=np.int64)
sequence_paths = sequence_paths_for_books(inputs.sequences, book_ids)


def sequence(i):
    read, _ = read_sequence(sequence_paths[i])
    return np.asarray(read.marks), np.asarray(read.gaps)


word_matrix, word_stream = None, None
if "rules" in inputs.keys():
    # each book's word stream kept at extraction (an older words file: re-tokenized)
    streams = CorpusWordFiles(book_ids.tolist(), inputs.texts, inputs.word_files, TokenizerRules.load(inputs.rules))
    word_matrix = read_word_matrix(inputs.words)

    def word_stream(i):
        marks, gaps = sequence(i)
        return streams.stream(i, marks, gaps)


records = rolling_collaborations(tables, sequence, settings, word_matrix, word_stream)
summary = rolling_summary(records)
for frame, path in ((records, output.records), (summary, output.summary)):
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)
title = (f"Rolling attribution on synthetic collaborations: slices of {settings.window} marks every "
         f"{settings.step}, seeds {list(settings.seeds)}")
figure = (collaborations_figure(summary, title, settings.step) if len(summary) else
          placeholder_figure("No collaboration: no held-out book is long enough for its parts (rolling.part_marks)"))
save_figure(figure, output.figure, output.figure_pdf)
log.info("rolling collaborations:\n%s", summary.to_string())
