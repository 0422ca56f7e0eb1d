"""Rule book_parts: KL of each part of each corpus book to the rest of its book, its author's
other books and other authors' books. When the documents are excerpts of texts, the own-author
reference leaves out every excerpt of the document's own text, and authors with no other text
are counted (``parts.json``)."""

import numpy as np
import pandas as pd

from punctstyle.corpus.sequences import document_sequences
from punctstyle.io import atomic_open, write_json_atomic
from punctstyle.logs import configure_logging
from punctstyle.beyond.parts import (
    PART_COLUMNS,
    PART_FEATURES,
    SKIPPED_COLUMNS,
    SUMMARY_COLUMNS,
    References,
    authors_without_other_text,
    parts_analysis,
    parts_summary,
)

log = configure_logging(snakemake.log[0])
params, output = snakemake.params, snakemake.output
tables = {name: pd.read_parquet(path) for name, path in zip(PART_FEATURES, snakemake.input.tables, strict=True)}
references = References.from_tables(tables)
n_authors = int(np.unique(references.authors).size)
alone = authors_without_other_text(references.authors, references.text_ids)
excerpts = references.texts is not None
record = {"n_books": int(references.book_ids.size), "n_authors": n_authors, "part_counts": list(params.part_counts),
          "min_part_marks": params.min_part_marks, "other_books": params.other_books, "seed": params.seed,
          "own_author_reference": "mean feature vector of the author's documents from other texts (every excerpt "
                                  "of the document's own text left out)" if excerpts else
                                  "mean feature vector of the author's other books",
          "n_texts": int(np.unique(references.text_ids).size),
          "n_authors_without_other_text": int(alone.size), "authors_without_other_text": [str(a) for a in alone],
          "other_books_reference": "mean KL to a seeded sample of other authors' books",
          "direction": "d(reference, part)"}
if n_authors < 2:
    record.update(status="skipped", reason=f"the corpus has {n_authors} author(s), at least 2 are needed")
    log.warning("book parts skipped: %s", record["reason"])
    rows, summary = pd.DataFrame(columns=PART_COLUMNS), pd.DataFrame(columns=SUMMARY_COLUMNS)
    skipped = pd.DataFrame(columns=SKIPPED_COLUMNS)
else:
    sequences = document_sequences(snakemake.input.sequences, tables[PART_FEATURES[0]], references.book_ids)
    rows, skipped = parts_analysis(sequences, references, part_counts=params.part_counts,
                                   min_part_marks=params.min_part_marks, n_other_books=params.other_books,
                                   seed=params.seed)
    summary = parts_summary(rows, skipped)
    record.update(status="done", reason="")
record["books_per_p"] = skipped.to_dict("records")
for frame, path in ((rows, output.parts), (summary, output.summary)):
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)
write_json_atomic(output.info, record)
if alone.size:
    log.warning("book parts: %d author(s) with no other text, no own-author reference: %s", alone.size,
                ", ".join(record["authors_without_other_text"]))
log.info("book parts: %s\n%s", record["status"], summary.to_string())
